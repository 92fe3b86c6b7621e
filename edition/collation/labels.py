"""Labels: where the witnesses' labels close a section (右献大夫, 蕙田案以上旅酬: a label whose
profile rule says `section = "closes"`, its `title` pattern taking the name out of it), mapped onto
the base; with where each included witness's text starts and ends, the cuts no entry straddles and
that sections begin and end at (`sections`)."""

from __future__ import annotations

from bisect import bisect_left
from typing import TYPE_CHECKING

import regex

from ..budget import Budget
from ..errors import EditionError
from .model import WitnessStatus

if TYPE_CHECKING:
    from ..intake.model import Witness
    from .witness_map import WitnessMap

TITLE_TIME_LIMIT = 2.0  # seconds a label's title pattern may take


def label_boundaries(witnesses: dict[str, Witness], maps: dict[str, WitnessMap]) -> dict[int, tuple[str, str]]:
    """base gap -> (title, siglum) for every section-closing label of an included witness."""
    found: dict[int, tuple[str, str]] = {}
    for siglum, witness in witnesses.items():
        starts = witness.classic.starts
        wmap = maps.get(siglum)
        for segment in witness.segments_of("label"):
            if segment.attrs.get("section") != "closes":
                continue
            try:
                match = Budget(TITLE_TIME_LIMIT).run(
                    lambda timeout: regex.fullmatch(
                        segment.attrs.get("title", "(.+)"), segment.text(witness.raw), timeout=timeout
                    )
                )
            except TimeoutError:
                raise EditionError(
                    witness.raw.path_of(segment.start),
                    f"rule {segment.rule!r}: its title pattern exceeded its time limit ({TITLE_TIME_LIMIT} s)",
                    segment.line,
                ) from None
            if not match:
                continue
            position = bisect_left(starts, segment.start)
            gap = wmap.gap_of(position) if wmap else position
            found.setdefault(gap, (match.group(1), siglum))
    return found


def section_cuts(
    witnesses: dict[str, Witness], maps: dict[str, WitnessMap], statuses: dict[str, WitnessStatus], n: int
):
    """The base gaps where sections end, and the titles of those a label closes."""
    closes = label_boundaries(witnesses, maps)
    cuts = set(closes) | {0, n}
    for siglum, status in statuses.items():
        if status.included and siglum in maps and status.extant:
            cuts.add(status.extant[0][0])
            cuts.add(status.extant[-1][1])
    return sorted(c for c in cuts if 0 <= c <= n), closes
