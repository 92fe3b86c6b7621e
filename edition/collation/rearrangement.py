"""A compilation's rearrangements of the text: no readings.

A compiler who moves the classic text about, reads a passage again beside another or in his own
remarks, and quotes it in his commentary (楊復's 儀禮圖 puts the 記 beside the passages it explains
and regroups 喪服 by the grades of mourning; the 欽定儀禮義疏 quotes the 經 in its commentary) is no
witness of where a passage stands. Of what his classic text adds against the base or reads in
place of it, a passage the base reads elsewhere, in the chapter or another (the 記 of 士喪禮, which
the base reads in 既夕禮), is a repetition; of what it lacks, a passage he has elsewhere, in his
classic text or his commentary, is one he moved: neither is a reading, even where the compilation
keeps the base's order in the rest (a formula the 義疏 reads once more than the base does is not
reported: a compilation is no witness of that). An added passage the base has nowhere, one he
leaves out and has nowhere, and the other substitutions stay readings; a passage counts as held
where runs of `RUN` characters hold `SHARE` of it.
"""

from __future__ import annotations

from dataclasses import replace

from ..intake.align import WILDCARDS, coalesce
from ..intake.model import Alignment

RUN = 4  # the shortest run of characters that places a passage elsewhere (and the shortest passage judged)
SHARE = 0.8  # the share of a passage such runs must hold


def held(text: str, *by: str) -> bool:
    """Runs of RUN characters that one of the texts `by` holds cover SHARE of `text` (a character
    with no mapping counts as held: there is nothing to judge)."""
    if len(text) < RUN:
        return False
    found = bytearray(char in WILDCARDS for char in text)
    for i in range(len(text) - RUN + 1):
        if any(text[i : i + RUN] in other for other in by):
            found[i : i + RUN] = b"\x01" * RUN
    return sum(found) >= SHARE * len(text)


def without_rearrangements(alignment: Alignment, base: str, classic: str, whole: str, elsewhere: str = "") -> Alignment:
    """The alignment of a compilation's classic text `classic` with the base, without the
    additions the base holds elsewhere in the chapter or the work (`elsewhere`: its other
    chapters' text; a substitution of such text: an omission), and with the base not extant where
    it lacks what its `whole` text (every layer) holds."""
    ops = []
    for op in alignment.ops:
        repeated = op.tag in ("insert", "replace") and held(classic[op.w0 : op.w1], base, elsewhere)
        if op.tag == "insert" and repeated:
            continue
        ops.append(replace(op, tag="delete", w0=op.w1) if repeated else op)  # what it reads here is read elsewhere
    ops = coalesce(ops)
    moved_away = [(op.b0, op.b1) for op in ops if op.tag == "delete" and held(base[op.b0 : op.b1], whole)]
    return replace(alignment, ops=ops, extant=subtracted(alignment.extant, moved_away))


def subtracted(ranges: list[tuple[int, int]], holes: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The ranges less the holes."""
    out = []
    for a, b in ranges:
        for h0, h1 in sorted(holes):
            if h1 <= a or h0 >= b:
                continue
            if h0 > a:
                out.append((a, h0))
            a = max(a, h1)
        if b > a:
            out.append((a, b))
    return out
