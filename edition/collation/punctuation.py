"""Editorial punctuation (句讀): an unpunctuated base (the 四部叢刊 prints none) takes the
punctuation of a punctuated witness where one is extant, carried over through that witness's
alignment with the base, full-width; elsewhere the marks the model of 句讀 proposes
(`punctuation_model`). Every mark says which: the witness it is carried from, or the model.

The punctuated witnesses are the one the settings name (`punctuation_from`), then every other
witness of the apparatus whose text has five breaks to a hundred characters, the better aligned
first; at each gap of the base the first of them extant on both sides of it decides, with its
mark or with none. A mark stands in a gap of the witness's classic text (after its k-th
character); the alignment takes that gap to a gap of the base's: inside a stretch the two read
alike character for character, and at the ends of every stretch. A mark in a stretch where they
differ is left out, since there is no telling where in the base it would go; where two gaps of
the witness come to one of the base's (around what the base lacks), a mark they share stands
once. ASCII marks become their full-width forms (Unicode's <wide> decompositions), the full stop
the ideographic one. The model reads the base's text of the layer collated, with the places of
the other text layers between its characters (a 注 after a passage of the 經; the 經 between
two notes of the 注, each of which it reads as a text of its own).
"""

from __future__ import annotations

import unicodedata
from bisect import bisect_left

import regex

from ..errors import EditionError
from ..intake.model import Witness
from ..intake.rule import TRANSMITTED
from ..text import WRITTEN
from .analysis import Context, Placements
from .model import Apparatus, Punctuated
from .punctuation_model import SENTENCE_BREAKS, Labelled, model

NAME = "punctuation"
PHASE = "text"

MARK = regex.compile(r"\p{P}")
BREAK = regex.compile(r"[，。、；：？！,;:?!]")
IDEOGRAPHIC = {".": "。"}
TEXT_LAYERS = (*TRANSMITTED, "commentary")  # what may stand between the characters of the layer collated


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


def is_punctuated(text: str) -> bool:
    """At least five breaks to a hundred characters."""
    return len(BREAK.findall(text)) >= 0.05 * max(1, len(regex.findall(r"\p{Han}", text)))


def punctuated_witnesses(apparatus: Apparatus, named: str) -> list[str]:
    """The witness the settings name, then the others whose collated text is punctuated, the better
    aligned first."""
    raw = {s: w.raw.text for s, w in apparatus.witnesses.items()}
    found = [
        s
        for s, w in apparatus.witnesses.items()
        if s not in (named, apparatus.base.meta.siglum)
        and is_punctuated("".join(raw[s][g.start : g.end] for g in w.compared_segments))
    ]
    found.sort(key=lambda s: -apparatus.statuses[s].quality)
    return [named, *found] if named else found


def passages(base: Witness) -> list[tuple[int, Labelled]]:
    """The base's text of the layer collated as the model reads it, with the first token of each
    text: the 經 one text with the places of the notes after its characters; the 注 a text for
    each note (the 經 stands between two)."""
    tokens = base.classic.tokens
    between = sorted(s.start for s in base.segments if s.layer in TEXT_LAYERS and s.layer not in base.compared)
    next_starts = [t.start for t in tokens[1:]] + [len(base.raw.text)]
    after = {i for i, t in enumerate(tokens) if bisect_left(between, t.end) < bisect_left(between, next_starts[i])}
    chars = "".join(t.char if len(t.char) == 1 else "□" for t in tokens)
    if "classic" in base.compared:
        return [(0, Labelled(chars, [""] * len(chars), after))]
    cuts = [0, *sorted(i + 1 for i in after if i + 1 < len(tokens)), len(tokens)]
    return [(a, Labelled(chars[a:b], [""] * (b - a), layer="commentary")) for a, b in zip(cuts, cuts[1:]) if b > a]


def proposed(base: Witness) -> dict[int, str]:
    """The model's marks for the base's text, by base gap."""
    out = {}
    for first, text in passages(base):
        for i, mark in enumerate(model().breaks(text)):
            if mark:
                out[first + i + 1] = mark
    return out


def quoted_marks(words: str, unbroken: set[int] = frozenset()) -> dict[int, str]:
    """The model's marks for the words of a quoted note, read as commentary, if they have none of
    their own: by the offset in `words` after which each stands, none at the offsets `unbroken`
    (inside a formula). A quotation ends a sentence."""
    written = list(WRITTEN.finditer(words))
    if not written or BREAK.search(WRITTEN.sub("", words)):
        return {}
    chars = "".join(m.group() if len(m.group()) == 1 else "□" for m in written)
    breaks = model().breaks(Labelled(chars, [""] * len(chars), layer="commentary"))
    if not breaks[-1] or breaks[-1] not in SENTENCE_BREAKS:
        breaks[-1] = "。"
    ends = [m.end() for m in written]
    last = ends[-1]
    return {end: mark for end, mark in zip(ends, breaks, strict=True) if mark and (end == last or end not in unbroken)}


def find(apparatus: Apparatus, context: Context) -> Punctuated:
    """At each gap of the base the marks of the first punctuated witness extant on both sides of it
    (the one the settings name first), else the model's; none where the base has its own."""
    base = apparatus.base
    if is_punctuated("".join(base.raw.text[s.start : s.end] for s in base.compared_segments)):
        return Punctuated({}, {})
    named = context.config.punctuation_from
    if named and named not in apparatus.witnesses:
        if "classic" in apparatus.base.compared:  # the 注 is carried from it only where it has one
            raise EditionError(
                context.config_path,
                f"punctuation_from: witness {named!r} is not in the apparatus ({apparatus.statuses[named].reason})",
            )
        named = ""
    count = len(base.classic.tokens)
    by: dict[int, str] = {}
    marks: dict[int, str] = {}
    for siglum in punctuated_witnesses(apparatus, named):
        extant = apparatus.maps[siglum].extant
        theirs = carried(apparatus, siglum)
        for gap in range(1, count + 1):
            if gap not in by and extant[gap - 1] and (gap == count or extant[gap]):
                by[gap] = siglum
                if gap in theirs:
                    marks[gap] = theirs[gap]
    for gap, mark in proposed(base).items():
        if gap not in by:
            by[gap], marks[gap] = "", mark
    return Punctuated(marks, {gap: by[gap] for gap in marks})


def place(apparatus: Apparatus, found: Punctuated) -> Placements:
    yield found


def report(apparatus: Apparatus, found: Punctuated, context: Context) -> None:
    return None
