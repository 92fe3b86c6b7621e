"""Editorial punctuation: an unpunctuated base (the 四部叢刊 prints none) takes the punctuation of
a punctuated witness, carried over through that witness's alignment with the base, full-width.

A mark stands in a gap of the witness's classic text (after its k-th character); the alignment
takes that gap to a gap of the base's: inside a stretch the two read alike character for
character, and at the ends of every stretch. A mark in a stretch where they differ is left out,
since there is no telling where in the base it would go; where two gaps of the witness come to
one of the base's (around what the base lacks), a mark they share stands once. ASCII marks become their full-width
forms (Unicode's <wide> decompositions), the full stop the ideographic one.
"""

from __future__ import annotations

import unicodedata
from bisect import bisect_left

import regex

from ..errors import EditionError
from ..intake.model import Witness
from .analysis import Context, Placements
from .model import Apparatus, CarriedPunctuation

NAME = "punctuation"
PHASE = "text"

MARK = regex.compile(r"\p{P}")
IDEOGRAPHIC = {".": "。"}


def full_width_forms() -> dict[str, str]:
    forms = {}
    for code in range(0xFF01, 0xFF5F):
        decomposition = unicodedata.decomposition(chr(code)).split()
        if decomposition[:1] == ["<wide>"]:
            forms[chr(int(decomposition[1], 16))] = chr(code)
    return forms | IDEOGRAPHIC


FULL_WIDTH = full_width_forms()


def marks_by_gap(witness: Witness) -> dict[int, str]:
    """The punctuation of a witness's classic text (and 傳), by the gap it stands in (the number of
    its characters collated before it)."""
    starts = witness.classic.starts
    marks: dict[int, list[str]] = {}
    for segment in witness.compared_segments:
        for match in MARK.finditer(witness.raw.text, segment.start, segment.end):
            marks.setdefault(bisect_left(starts, match.start()), []).append(
                FULL_WIDTH.get(match.group(), match.group())
            )
    return {gap: "".join(found) for gap, found in marks.items()}


def carried(apparatus: Apparatus, siglum: str) -> dict[int, str]:
    """The punctuation of witness `siglum`, by the base gap it goes to (the number of base
    characters before it)."""
    alignment = apparatus.statuses[siglum].alignment
    to_base: dict[int, int] = {}
    for op in alignment.ops:
        to_base.setdefault(op.w0, op.b0)
        to_base[op.w1] = op.b1
        if op.tag == "equal":
            for j in range(1, op.w1 - op.w0):
                to_base[op.w0 + j] = op.b0 + j
    out: dict[int, str] = {}
    for gap, marks in marks_by_gap(apparatus.witnesses[siglum]).items():
        if gap in to_base and 0 < to_base[gap]:
            before = out.get(to_base[gap], "")
            # two gaps of the witness at one of the base's: a mark once
            out[to_base[gap]] = before if before.endswith(marks) else before + marks
    return out


def find(apparatus: Apparatus, context: Context) -> CarriedPunctuation | None:
    """The marks of the witness the settings name (`punctuation_from`), if they name one."""
    siglum = context.config.punctuation_from
    if not siglum:
        return None
    if siglum not in apparatus.witnesses:
        raise EditionError(
            context.config_path,
            f"punctuation_from: witness {siglum!r} is not in the apparatus ({apparatus.statuses[siglum].reason})",
        )
    return CarriedPunctuation(carried(apparatus, siglum), siglum)


def place(apparatus: Apparatus, found: CarriedPunctuation | None) -> Placements:
    if found is not None:
        yield found


def report(apparatus: Apparatus, found: CarriedPunctuation | None, context: Context) -> None:
    return None
