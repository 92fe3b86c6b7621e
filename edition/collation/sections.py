"""Sections: the ritual's sections, taken from the labels the witnesses carry and mapped onto the base,
and the divisions a heading word of the base opens (the 記 of a chapter, see `headings`).

A label whose profile rule says `section = "closes"` ends the section it names (右献大夫, 蕙田案以上旅酬);
its `title` pattern takes the name out of it. A witness's first label can only vouch for the part
of its section that the witness itself covers, so where a witness's text starts a section starts
too. Stretches no label names are titled by their first words.
"""

from __future__ import annotations

from bisect import bisect_left
from typing import TYPE_CHECKING

import regex

from ..budget import Budget
from ..errors import EditionError
from .analysis import Context, Placements
from .model import Division, Section, Unit, WitnessStatus

if TYPE_CHECKING:
    from ..intake.model import Witness
    from .witness_map import WitnessMap

NAME = "sections"
INCIPIT = 8
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
                    witness.raw.path,
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


def sections(
    base: Witness,
    units: list[Unit],
    cuts: list[int],
    closes: dict[int, tuple[str, str]],
    found: list[Division] = (),
) -> list[Section]:
    """The sections of the base between the cuts, each titled by the label that closes it or by
    its first words; a division's heading is a cut on either side and in no section."""
    cuts = snap_to_units([*cuts, *(g for d in found for g in (d.t0, d.t1))], units)
    headings = {(d.t0, d.t1): d for d in found}
    opening = {d.t1: d for d in found}
    tokens = base.classic.tokens
    out: list[Section] = []
    used: set[str] = set()
    for t0, t1 in zip(cuts, cuts[1:]):
        if t1 <= t0 or (t0, t1) in headings:
            continue
        if t1 in closes:
            title, source = closes[t1]
        else:
            title = "".join(t.source(base.raw) for t in tokens[t0 : t0 + INCIPIT]) + "…"
            source = "incipit"
        xml_id = unique_id("s-" + NOT_IN_NAMES.sub("", title)[:12], used)
        out.append(Section(xml_id, title, source, t0, t1, opening.get(t0)))
    return out


def snap_to_units(cuts: list[int], units: list[Unit]) -> list[int]:
    """A cut inside a variation unit moves to the unit's end."""
    out = []
    for cut in cuts:
        for unit in units:
            if unit.t0 < cut < unit.t1:
                cut = unit.t1
                break
        out.append(cut)
    return sorted(set(out))


# What an id keeps of a title: the name characters every XML parser accepts (libxml2 follows the
# letters of XML 1.0 before its fifth edition, without the CJK extensions).
NOT_IN_NAMES = regex.compile(r"[^0-9A-Za-z\u4e00-\u9fa5]")


def unique_id(candidate: str, used: set[str]) -> str:
    xml_id, number = candidate, 2
    while xml_id in used:
        xml_id = f"{candidate}-{number}"
        number += 1
    used.add(xml_id)
    return xml_id


def find(apparatus, context: Context) -> list[Section]:
    return sections(
        apparatus.base, apparatus.units, apparatus.section_cuts, apparatus.section_titles, context.found["headings"]
    )


def place(apparatus, found: list[Section]) -> Placements:
    """Sections are read off the entries; they place nothing in them."""
    yield from ()


def report(apparatus, found: list[Section], context: Context) -> None:
    return None
