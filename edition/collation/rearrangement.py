"""A compilation's rearrangements of the text: no readings.

A compiler who moves the classic text about, reads a passage again beside another or in his own
remarks, and quotes it in his commentary (楊復's 儀禮圖 puts the 記 beside the passages it explains
and regroups 喪服 by the grades of mourning; the 欽定儀禮義疏 quotes the 經 in its commentary) is no
witness of where a passage stands. Of what his classic text adds against the base or reads in
place of it, a passage the base reads elsewhere, in the chapter or another (the 記 of 士喪禮, which
the base reads in 既夕禮), is a repetition; of what it lacks, a passage he has elsewhere, in his
classic text or his commentary, is one he moved: neither is a reading, even where the compilation
keeps the base's order in the rest (a formula the 義疏 reads once more than the base does is not
reported: a compilation is no witness of that). Nor is:
- an addition that reads what he lacks at one place else in the chapter, more than `RUN`
  characters away, exactly or but for one character (荁, 有内羞, 鉶芼牛藿 for 鉶芼牛霍; nearer, 以得
  for 得以, it is two characters inverted, a reading);
- an addition too short to place (under `RUN` characters) next to a passage he moved or repeats
  (his heading 冠義曰, 記);
- what he reads in place of the base's text and shares few of its characters with: his own
  arrangement set against the base's by position (楊復's 喪服, regrouped by the grades of
  mourning, against the base's 記), where the base is not extant for him.
An added passage the base has nowhere, one he leaves out and has nowhere, and the other
substitutions stay readings. A passage counts as held where runs of four characters hold four
fifths of it, an added one half of it, with his words between (a table's cell: 繼母如母 九升;
attestation.held).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import regex

from ..intake.align import coalesce
from ..intake.attestation import held
from ..intake.model import Alignment

RUN = 4  # the shortest passage judged (attestation.held places one elsewhere by runs of as many characters)
REPEATED = 0.8  # the share of a passage read in place of the base's that runs held elsewhere must cover
REPEATED_ADDITION = 0.5  # and of a passage added


def without_rearrangements(alignment: Alignment, base: str, classic: str, whole: str, elsewhere: str = "") -> Alignment:
    """The alignment of a compilation's classic text `classic` with the base, without the
    additions the base holds elsewhere in the chapter or the work (`elsewhere`: its other
    chapters' text; a substitution of such text: an omission), and with the base not extant where
    it lacks what its `whole` text (every layer) holds."""
    ops, rearranged, apart = [], [(move.w0, move.w1) for move in alignment.moves], []
    for op in alignment.ops:
        # an addition half of which he repeats: with a word of his own, a table's cell (繼母如母 九升)
        share = REPEATED_ADDITION if op.tag == "insert" else REPEATED
        repeated = op.tag in ("insert", "replace") and held(classic[op.w0 : op.w1], base, elsewhere, share=share)
        own = op.tag == "replace" and not repeated and unlike(classic[op.w0 : op.w1], base[op.b0 : op.b1])
        if repeated or own:
            rearranged.append((op.w0, op.w1))
        if own:
            apart.append((op.b0, op.b1))
        if op.tag == "insert" and repeated:
            continue
        # what it reads here is read elsewhere, or is its own arrangement against the base's text
        ops.append(replace(op, tag="delete", w0=op.w1) if repeated or own else op)
    ops = coalesce(ops)
    ops, moved = paired(ops, base, classic, lacking(ops, alignment))
    ops = beside(ops, rearranged)
    moved_away = [(b0, b1) for b0, b1 in lacking(ops, alignment) if has(base[b0:b1], whole)]
    return replace(alignment, ops=ops, extant=subtracted(alignment.extant, moved_away + moved + apart))


def lacking(ops: list, alignment: Alignment) -> list[tuple[int, int]]:
    """The base ranges the witness has nothing for where it is extant: its omissions, and the base
    text no op or moved clause reads (between two clauses it moved)."""
    read = bytearray(alignment.base_length)
    for b0, b1 in [(op.b0, op.b1) for op in ops if op.tag != "delete"] + [(m.b0, m.b1) for m in alignment.moves]:
        read[b0:b1] = b"\x01" * (b1 - b0)
    out = []
    for a, b in alignment.extant:
        i = a
        while i < b:
            if read[i]:
                i += 1
                continue
            j = i
            while j < b and not read[j]:
                j += 1
            out.append((i, j))
            i = j
    return out


def has(text: str, whole: str) -> bool:
    """The compilation's text holds the passage: by its runs (attestation.held), or one of more
    than RUN characters whole but for one character (几俟于東箱 where the base has 几侯于東箱)."""
    return held(text, whole) or (len(text) > RUN and one_off(text, whole))


def unlike(read: str, lacked: str) -> bool:
    """Two texts that stand against each other by their place alone: one of three characters or
    more, and fewer than half of the longer's characters in the other (楊復's 喪服, regrouped by the
    grades of mourning, against the base's 記: 姒婦報 for 巳加也)."""
    longer = max(len(read), len(lacked))
    return longer >= 3 and 2 * sum((Counter(read) & Counter(lacked)).values()) < longer


def beside(ops: list, rearranged: list[tuple[int, int]]) -> list:
    """The ops without the additions too short to judge (under RUN characters) that stand next to
    a passage moved or repeated (its witness range in `rearranged`): a heading of the compiler's
    or a piece of that passage (冠義曰 between two pieces of the 記 he moved, 小斂 before one)."""
    edges = {edge for w0, w1 in rearranged for edge in (w0, w1)}
    return [op for op in ops if not (op.tag == "insert" and op.w1 - op.w0 < RUN and {op.w0, op.w1} & edges)]


def paired(ops: list, base: str, classic: str, lacked: list[tuple[int, int]]) -> tuple[list, list[tuple[int, int]]]:
    """The ops without the additions that read what the compilation lacks (`lacked`: base ranges)
    at one place else, more than RUN characters away (a piece of a moved 記 too short to be placed
    by its runs: 荁, 有内羞; 訝以其摯 for 之以其摯, 鉶芼牛藿 for 鉶芼牛霍; nearer, 以得 for 得以, it is
    two characters inverted, a reading), and the base ranges so read, one addition for each."""
    lacked, kept, moved = list(lacked), [], []
    for op in ops:
        text = classic[op.w0 : op.w1]
        place = op.tag == "insert" and next(
            (r for r in lacked if alike(text, base[r[0] : r[1]]) and min(abs(op.b0 - r[0]), abs(op.b0 - r[1])) > RUN),
            None,
        )
        if place:
            lacked.remove(place)
            moved.append(place)
        else:
            kept.append(op)
    return coalesce(kept), moved


def alike(added: str, lacked: str) -> bool:
    """The same passage: character for character, or the shorter, of three characters or more and
    half the longer, in the longer but for one character (几俟于東箱 in 設几侯于東箱)."""
    if added == lacked:
        return True
    short, long = sorted((added, lacked), key=len)
    return len(short) >= 3 and 2 * len(short) >= len(long) and one_off(short, long)


def one_off(text: str, within: str) -> bool:
    """`within` holds `text` whole but for one character."""
    return regex.search(f"(?:{regex.escape(text)}){{s<=1}}", within) is not None


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
