"""Attestation: text that no other witness has anywhere in its text collated is not the classic text.

A compiler may set his own words, quotations of other books and the text of his tables in large
characters among the classic text (楊復's 儀禮圖: ○小記為母之君母…, 聘義 and its text, 五服衰冠升數圖),
and move the classic text about (the 記 beside the passages it explains), so that neither layout
nor an alignment in order tells them apart. A rule of kind `attestation` reads the characters of
its `within` layers, in the comparison script, against the text collated of the other witnesses
(`alignment_rule.Reference`), anywhere in it: a character is attested where a run of `min_run`
characters that holds it stands in some other witness. A run of at least twice `min_run`
unattested characters takes the rule's `layer`, and so does a stretch (the characters one rule
application claimed: a line of text between notes) of at least `min_run` characters of which
half or more are unattested (a table's row, 斬衰正義服圖, whose words the classic text uses here and
there). A variant reading leaves only its own characters unattested and an addition of a few
characters stays, both for collation to report. With no other witness to read against, the text
stays as the layout put it, recorded as undecided.
"""

from __future__ import annotations

import re
from itertools import groupby
from typing import TYPE_CHECKING

from .align import WILDCARDS
from .alignment_rule import MIN_RUN, References, reference_for

if TYPE_CHECKING:
    from .layering import Layering
    from .rule import Rule


def attested(text: str, references: tuple[str, ...], k: int) -> bytearray:
    """1 for each character of `text` that a run of k characters of some reference holds (a gap or
    a character with no mapping counts as attested: there is nothing to judge)."""
    runs = {reference[i : i + k] for reference in references for i in range(len(reference) - k + 1)}
    found = bytearray(len(text))
    for i in range(len(text) - k + 1):
        if text[i : i + k] in runs:
            found[i : i + k] = b"\x01" * k
    for i, char in enumerate(text):
        if char in WILDCARDS:
            found[i] = 1
    return found


def apply(layering: Layering, rule: Rule, references: References) -> None:
    reference = reference_for(layering, layering.spans(rule.within), references)
    if reference is None:
        return
    k = int(rule.params.get("min_run", MIN_RUN))
    stream = reference.normalizer.stream(layering.raw, layering.segments(), rule.within)
    found = attested(stream.text, reference.texts, k)
    unattested = [match.span() for match in re.finditer(rb"\x00{%d,}" % (2 * k), bytes(found))]
    for _, stretch in groupby(range(len(found)), key=lambda i: layering.claim[stream.starts[i]]):
        first, end = (stretch := list(stretch))[0], stretch[-1] + 1
        if end - first >= k and 2 * found.count(0, first, end) >= end - first:
            unattested.append((first, end))
    for first, end in unattested:
        pieces = layering.spans(rule.within, stream.starts[first], stream.ends[end - 1])
        for number, (start, stop) in enumerate(pieces):
            layering.assign(start, stop, rule.layer, rule, join=number > 0)
