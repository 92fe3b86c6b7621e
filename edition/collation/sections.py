"""Sections: the ritual's sections, and the citation units in them.

Where a witness carries labels, they name the sections: a label whose profile rule says
`section = "closes"` ends the section it names (右献大夫, 蕙田案以上旅酬); its `title` pattern takes
the name out of it. Every title is given in the base's script (禮書綱目 writes 献大夫, WYG's 疏
使来觀禮; the edition 獻大夫, 使來觀禮). A witness's first label can only vouch for the part of its
section that the witness itself covers, so where a witness's text starts a section starts too.
The divisions a heading word of the base opens (the 記 of a chapter, see `headings`) stand between
sections.

Where no label names the text, the steps of the rite that 賈公彥's 疏 names (`steps`) are the
sections, titled with the 疏's words; where no step is named either, the base's own paragraphs
(where a mark of its layout opens one, 〇 before a passage of the 經, or its print opens a new
line after a short one) divide the text, and in each the passages the 疏 comments on (its lemmata
「X至Y」, placed by the 單疏本's reading) and the passages Zheng's notes close are grouped into
sections of at most `LONGEST` characters, titled by their first words, never cut where a 傳
follows the 經 it explains; a passage boundary inside an entry (a lost leaf supplied) is none
unless the entry ends where a passage does. A stretch shorter than `SHORTEST` joins the section
after it (the chapter's title before its first step).

A section's citation units are its sentences where punctuation is carried to the base; where none
is, each passage of the 經 from one of Zheng's notes to the next, split again where the 疏's
lemmata divide a passage longer than `LONG_PASSAGE`.
"""

from __future__ import annotations

from bisect import bisect_left
from collections import Counter
from collections.abc import Collection
from dataclasses import dataclass, replace
from math import inf
from typing import TYPE_CHECKING

import regex

from ..intake.rule import TRANSMITTED
from ..intake.variants import in_script
from .analysis import Context, Placements
from .model import Division, Section, Step, Unit

if TYPE_CHECKING:
    from ..intake.model import Segment, Witness

NAME = "sections"
PHASE = "divisions"
AFTER = ("headings", "steps")
INCIPIT = 8
LONGEST = 300  # tokens a section of grouped passages holds at most where the passages allow
LONGEST_STEP = 600  # a step longer than this (to the chapter's end) is grouped too: the 疏's longest is some 450
SHORTEST = 20  # a stretch shorter than this joins the section after it
LONG_PASSAGE = 120  # a passage longer than this is cut where the 疏's lemmata divide it
SHORT_LINE = 0.75  # a printed line no wider than this of the usual ends a paragraph


def sections(
    base: Witness,
    units: list[Unit],
    cuts: list[int],
    closes: dict[int, tuple[str, str]],
    found: list[Division] = (),
    steps: list[Step] = (),
    commented: list[int] = (),
    punctuated: Collection[int] = (),
    scripts: dict[str, str] | None = None,
) -> list[Section]:
    """The sections of the base between the cuts: each titled by the label that closes it, else
    divided by the steps of the rite and the passages (`commented`: the base tokens where a
    passage the 疏 comments on begins), never where a 傳 follows its 經; a division's heading is a
    cut on either side and in no section. `punctuated`: the base gaps that carry punctuation.
    Titles are in the base's script (`scripts`: the script of each witness that titles a section;
    a book of evidence is traditional)."""
    scripts = {"incipit": base.meta.script, **(scripts or {})}
    headings = {(d.t0, d.t1): d for d in found}
    opening = {d.t1: d for d in found}
    notes = note_gaps(base)
    paragraphs = paragraph_gaps(base)
    pieces: list[Piece] = []
    cuts = snap_to_units([*cuts, *(g for d in found for g in (d.t0, d.t1))], units)
    for t0, t1 in zip(cuts, cuts[1:]):
        if t1 <= t0 or (t0, t1) in headings:
            continue
        if t1 in closes:
            title, source = closes[t1]
            pieces.append(Piece(t0, t1, title, source, "label"))
        else:
            boundaries = (set(commented) | set(notes)) - tradition_openings(base)
            pieces += divided(t0, t1, steps, between_units(boundaries, units), set(commented), paragraphs)
    pieces = joined_short(snapped(pieces, units))
    tokens = base.classic.tokens
    out: list[Section] = []
    used: set[str] = set()
    for piece in pieces:
        title = piece.title or "".join(t.source(base.raw) for t in tokens[piece.t0 : piece.t0 + INCIPIT]) + "…"
        title = in_script(title, base.meta.script, scripts.get(piece.source, "traditional"))
        xml_id = unique_id("s-" + NOT_IN_NAMES.sub("", title)[:12], used)
        starts = () if any(piece.t0 < g < piece.t1 for g in punctuated) else unit_starts(piece, notes, commented)
        out.append(Section(xml_id, title, piece.source, piece.t0, piece.t1, opening.get(piece.t0), piece.kind, starts))
    return out


@dataclass(frozen=True)
class Piece:
    t0: int
    t1: int
    title: str = ""  # none: its first words
    source: str = "incipit"
    kind: str = "incipit"


def divided(
    t0: int, t1: int, steps: list[Step], boundaries: list[int], commented: set[int], paragraphs: list[int]
) -> list[Piece]:
    """Base tokens t0:t1 cut wherever a step of the rite begins or ends: a piece a step begins is
    titled by it (the innermost, where several begin together), the rest (text no step names, or
    the rest of a step after one inside it) is cut where the base opens a paragraph and grouped by
    passages; a step longer than LONGEST_STEP (自此盡篇末) is grouped too, its first group titled by it."""
    cuts = sorted({t0, t1, *(t for s in steps for t in (s.t0, s.t1) if t0 < t < t1)})
    out: list[Piece] = []
    for a, b in zip(cuts, cuts[1:]):
        step = min((s for s in steps if s.t0 == a and s.t1 > a), key=lambda s: s.t1, default=None)
        if step is None:
            out += in_paragraphs(a, b, paragraphs, boundaries, commented)
            continue
        parts = in_paragraphs(a, b, paragraphs, boundaries, commented) if b - a > LONGEST_STEP else [Piece(a, b)]
        out += [replace(parts[0], title=step.title, source=step.source, kind="step"), *parts[1:]]
    return out


def in_paragraphs(t0: int, t1: int, paragraphs: list[int], boundaries: list[int], commented: set[int]) -> list[Piece]:
    """Base tokens t0:t1 cut where the base opens a paragraph (the work's own division, where no
    step names the text), each paragraph grouped by passages."""
    cuts = [t0, *(p for p in paragraphs if t0 < p < t1), t1]
    return [piece for a, b in zip(cuts, cuts[1:]) for piece in grouped(a, b, boundaries, commented)]


def grouped(t0: int, t1: int, boundaries: list[int], commented: set[int]) -> list[Piece]:
    """Base tokens t0:t1 cut at passage boundaries into pieces of at most LONGEST tokens where
    the passages allow, each cut at the last boundary that keeps it so, one where the 疏's passage
    begins before one of Zheng's notes."""
    out: list[Piece] = []
    inside = [b for b in boundaries if t0 < b < t1]
    at = t0
    while t1 - at > LONGEST:
        fitting = [b for b in inside if at + SHORTEST <= b <= at + LONGEST]
        cut = max((b for b in fitting if b in commented), default=None) or max(fitting, default=None)
        if cut is None:
            cut = next((b for b in inside if b > at + LONGEST), t1)
        out.append(Piece(at, cut))
        at = cut
    if at < t1:
        out.append(Piece(at, t1))
    return out


def between_units(boundaries: set[int], units: list[Unit]) -> list[int]:
    """The passage boundaries, less those inside an entry whose end is none (a note of a leaf the
    base has lost, supplied from a witness, would begin a section where the base resumes, inside a
    sentence); one inside an entry that ends where a passage does is moved there (`snapped`)."""
    inside = {g: unit.t1 for unit in units for g in range(unit.t0 + 1, unit.t1)}
    return sorted(b for b in boundaries if b not in inside or inside[b] in boundaries)


def snapped(pieces: list[Piece], units: list[Unit]) -> list[Piece]:
    """The pieces with their ends moved out of the variation units they cut; those left empty dropped."""
    out = []
    for piece in pieces:
        t0, t1 = snap_to_units([piece.t0], units)[0], snap_to_units([piece.t1], units)[0]
        if t1 > t0:
            out.append(replace(piece, t0=max(t0, out[-1].t1) if out else t0, t1=t1))
    return [p for p in out if p.t1 > p.t0]


def joined_short(pieces: list[Piece]) -> list[Piece]:
    """A piece of fewer than SHORTEST tokens and no label joins the piece after it where that
    follows on (the chapter's title before the first step), else the one before it; never a
    label's piece, which begins where its witness does."""
    out: list[Piece] = []
    for k, piece in enumerate(pieces):
        if piece.kind == "label" or piece.t1 - piece.t0 >= SHORTEST:
            out.append(piece)
            continue
        after = pieces[k + 1] if k + 1 < len(pieces) else None
        if after is not None and after.kind != "label" and after.t0 == piece.t1:
            pieces[k + 1] = replace(after, t0=piece.t0)
        elif out and out[-1].kind != "label" and out[-1].t1 == piece.t0:
            out[-1] = replace(out[-1], t1=piece.t1)
        else:
            out.append(piece)
    return out


def note_gaps(base: Witness) -> list[int]:
    """The base gaps where a note of its 注 stands: where a passage of the 經 ends."""
    starts = base.classic.starts
    gaps = {bisect_left(starts, s.start) for s in base.segments_of("commentary")}
    return sorted(g for g in gaps if 0 < g < len(starts))


def paragraph_gaps(base: Witness) -> list[int]:
    """The base gaps where the base opens a paragraph of its 經: a mark of the layout that opens a
    section (a profile rule's `section = "opens"`: 〇 between passages) before the 經 goes on, or
    a new printed line after a short one (`new_lines`)."""
    starts, out, opening = base.classic.starts, set(new_lines(base)), False
    for segment in base.segments:
        if segment.attrs.get("section") == "opens":
            opening = True
        elif segment.layer != "format":  # a note's text between closes it
            if opening and segment.layer == "classic":
                out.add(bisect_left(starts, segment.start))
            opening = False
    return sorted(g for g in out if 0 < g < len(starts))


def new_lines(base: Witness) -> list[int]:
    """The base gaps where its print breaks the line before a paragraph: a printed line (a line end
    `break = "line"`) no wider than SHORT_LINE of the print's usual width, and the 經 at the head of
    the next. A note set in small characters (`size = "small"`) is as wide as its longer column
    (`break = "column"`); a line with small columns in no such note, or with text supplied from
    another witness, has no width known."""
    lines: list[tuple[float, Segment | None]] = []  # each printed line's width and its first text
    width, columns, head, unknown = 0, None, None, False
    for segment in base.segments:
        unknown |= segment.supplied
        if segment.layer != "format":
            head = head or segment
            if columns is None:
                width += characters(base, segment)
            else:
                columns[-1] += characters(base, segment)
        elif segment.attrs.get("break") == "line":
            width += max(columns or [0])
            if unknown:
                lines.append((inf, None))
            elif width:
                lines.append((width, head))
            width, columns, head, unknown = 0, None, None, False
        elif segment.attrs.get("size") == "small":  # a note opens or closes
            width, columns = (width, [0]) if columns is None else (width + max(columns), None)
        elif segment.attrs.get("break") == "column":
            unknown |= columns is None  # small columns of a note whose extent the layout does not give
            columns = None if columns is None else [*columns, 0]
    [(usual, _)] = Counter(w for w, _ in lines if w < inf).most_common(1) or [(0, 0)]
    starts = base.classic.starts
    return [
        bisect_left(starts, head.start)
        for (width, _), (_, head) in zip(lines, lines[1:])
        if width <= usual * SHORT_LINE and head is not None and head.layer == "classic"
    ]


def characters(base: Witness, segment: Segment) -> int:
    """The characters a segment prints: its tokens where it is text (an entity is one), else its
    length."""
    if segment.layer not in base.stream.layers:
        return segment.end - segment.start
    starts = base.stream.starts
    return bisect_left(starts, segment.end) - bisect_left(starts, segment.start)


def tradition_openings(base: Witness) -> set[int]:
    """The base gaps where a 傳 (layer `tradition`) follows the 經 it explains: no section begins
    there, which would cut it off from its 經 (喪服's 傳曰…)."""
    starts, out, before = base.classic.starts, set(), None
    for segment in base.segments:
        if segment.layer in TRANSMITTED:
            if segment.layer == "tradition" and before == "classic":
                out.add(bisect_left(starts, segment.start))
            before = segment.layer
    return out


def unit_starts(piece: Piece, notes: list[int], commented: list[int]) -> tuple[int, ...]:
    """Where the citation units of an unpunctuated piece begin after its first: after each of
    Zheng's notes, and where the 疏's lemmata divide a passage longer than LONG_PASSAGE."""
    starts = [g for g in notes if piece.t0 < g < piece.t1]
    out: list[int] = []
    for a, b in zip([piece.t0, *starts], [*starts, piece.t1]):
        if b - a > LONG_PASSAGE:
            out += [g for g in commented if a < g < b]
        out.append(b)
    return tuple(g for g in out if g < piece.t1)


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


def paragraph_starts(steps: list[Step]) -> dict[int, Step]:
    """Base token -> the step a paragraph begins with there: at one start, the outermost."""
    starts: dict[int, Step] = {}
    for step in sorted(steps, key=lambda s: (s.t0, -s.t1)):
        starts.setdefault(step.t0, step)
    return starts


def find(apparatus, context: Context) -> list[Section]:
    commented = [p.t0 for p in context.external.passages] if context.external else []
    return sections(
        apparatus.base,
        apparatus.entries(),  # lost leaves and moved clauses too: no section cuts one
        apparatus.section_cuts,
        apparatus.section_titles,
        context.found["headings"],
        context.found["steps"].steps if "steps" in context.found else [],
        commented,
        apparatus.punctuation,
        {siglum: witness.meta.script for siglum, witness in apparatus.witnesses.items()},
    )


def place(apparatus, found: list[Section]) -> Placements:
    """Sections are read off the entries; they place nothing in them."""
    yield from ()


def report(apparatus, found: list[Section], context: Context) -> None:
    return None
