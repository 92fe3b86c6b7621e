"""A compilation's rearrangements of the text: no readings.

A compiler who moves the classic text about, reads a passage again beside another or in his own
remarks, and quotes it in his commentary (楊復's 儀禮圖 puts the 記 beside the passages it explains
and regroups 喪服 by the grades of mourning; the 欽定儀禮義疏 quotes the 經 in its commentary) is no
witness of where a passage stands. Of what his classic text adds against the base or reads in
place of it, a passage the base reads elsewhere, in the chapter or another (the 記 of 士喪禮, which
the base reads in 既夕禮), or another witness of the chapter reads (where the base slips: 夙興婦沭浴
for 沐浴), is a repetition, and so is an addition that makes one with a repetition just before it
(the aligner read a word of the base's in it); of what it lacks, a passage he has elsewhere, in
his classic text or his commentary, is one he moved: neither is a reading, even where the
compilation keeps the base's order in the rest (a formula the 義疏 reads once more than the base
does is not reported: a compilation is no witness of that). Nor is:
- an addition that reads what he lacks at one place else in the chapter, more than `RUN`
  characters away, exactly or but for one character (荁, 有内羞, 鉶芼牛藿 for 鉶芼牛霍; nearer, 以得
  for 得以, it is two characters inverted, a reading);
- a difference too short to place (`RUN` characters or fewer) next to a passage he moved or
  repeats, or at an edge of the base's text extant for him (his heading 冠義曰, 記), and what he
  lacks between two clauses he moved (the base's heading 記士昬禮);
- a stretch where his text and the base's share only scattered characters, and what he reads in
  place of the base's text sharing few of its characters, a passage he repeats or not: his own
  arrangement set against the base's by position (楊復's 喪服, regrouped by the grades of mourning,
  and his table of the cloths, against the base's 記), where the base is not extant for him.
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
from ..intake.model import Alignment, Op

RUN = 4  # the shortest passage judged (attestation.held places one elsewhere by runs of as many characters)
REPEATED = 0.8  # the share of a passage read in place of the base's that runs held elsewhere must cover
REPEATED_ADDITION = 0.5  # and of a passage added


def without_rearrangements(
    alignment: Alignment, base: str, classic: str, whole: str, elsewhere: str = "", others: tuple[str, ...] = ()
) -> Alignment:
    """The alignment of a compilation's classic text `classic` with the base, without the
    additions the base holds elsewhere in the chapter or the work (`elsewhere`: its other
    chapters' text), or the classic text of another witness of the chapter does (`others`: where
    the base has a slip of its own, 夙興婦沭浴 for 沐浴); a substitution of such text: an omission;
    and with the base not extant where it lacks what its `whole` text (every layer) holds."""
    ops, rearranged, apart, repeats = [], [(move.w0, move.w1) for move in alignment.moves], [], []
    steps, arranged = scattered(alignment.ops)
    for op in steps:
        # an addition half of which he repeats: with a word of his own, a table's cell (繼母如母 九升)
        share = REPEATED_ADDITION if op.tag == "insert" else REPEATED
        read = classic[op.w0 : op.w1]
        repeated = op.tag in ("insert", "replace") and held(read, base, elsewhere, *others, share=share)
        if op.tag == "insert" and not repeated:
            # or the rest of a passage he repeats, split off by a word the aligner read in the base's
            # text (巾奠…由主人之北東 of the 記, repeated in 士喪禮, at its 主人: 之北東主人)
            before = next((w0 for w0, w1 in reversed(rearranged) if 0 < op.w0 - w1 < RUN), None)
            repeated = before is not None and held(classic[before : op.w1], base, elsewhere, *others, share=share)
        own = op in arranged or op.tag == "replace" and unlike(read, base[op.b0 : op.b1])
        if repeated or own:
            rearranged.append((op.w0, op.w1))
        if own:
            apart.append((op.b0, op.b1))
        if op.tag == "insert" and repeated:
            repeats.append(op)
            continue
        # what it reads here is read elsewhere, or is its own arrangement against the base's text
        ops.append(replace(op, tag="delete", w0=op.w1) if repeated or own else op)
    ops = coalesce(ops)
    ops, moved = paired(ops, base, classic, lacking(ops, alignment), tuple(repeats))
    ops, edges = beside(ops, rearranged, alignment)
    lacked = lacking(ops, alignment)
    moved_away = [(b0, b1) for b0, b1 in lacked if has(base[b0:b1], whole)] + rewritten(lacked, alignment)
    return replace(alignment, ops=ops, extant=subtracted(alignment.extant, moved_away + moved + apart + edges))


def scattered(ops: list[Op]) -> tuple[list[Op], list[Op]]:
    """The ops with each stretch between runs of RUN characters in common made one substitution
    where it is longer than twice RUN and the characters the two texts share there are scattered
    (fewer than half of either side): his own arrangement, set against the base's by position
    (楊復's table of the cloths of mourning against the base's 記 of them: 升, 有, 其, 六升 aligned
    a line apart); and an addition beside an omission made one substitution. Also the
    substitutions of his arrangement."""
    out: list[Op] = []
    arranged: list[Op] = []
    stretch: list[Op] = []

    def close() -> None:
        same = sum(op.b1 - op.b0 for op in stretch if op.tag == "equal")
        b0, b1, w0, w1 = stretch[0].b0, stretch[-1].b1, stretch[0].w0, stretch[-1].w1
        if same and max(b1 - b0, w1 - w0) > 2 * RUN and 2 * same < min(b1 - b0, w1 - w0):
            arranged.append(Op("replace", b0, b1, w0, w1))
            out.append(arranged[-1])
        elif not same and b1 > b0 and w1 > w0:  # an addition beside an omission: a substitution
            out.append(Op("replace", b0, b1, w0, w1))
        else:
            out.extend(stretch)
        stretch.clear()

    for op in ops:
        if stretch and (op.b0 != stretch[-1].b1 or op.w0 != stretch[-1].w1):
            close()
        if op.tag == "equal" and op.b1 - op.b0 >= RUN:
            if stretch:
                close()
            out.append(op)
        else:
            stretch.append(op)
    if stretch:
        close()
    return out, arranged


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
    grades of mourning, against the base's 記: 庶孫之中殤夫之姑姊妹之長殤… for 從下記)."""
    longer = max(len(read), len(lacked))
    return longer >= 3 and 2 * sum((Counter(read) & Counter(lacked)).values()) < longer


def beside(ops: list, rearranged: list[tuple[int, int]], alignment: Alignment) -> tuple[list, list[tuple[int, int]]]:
    """The ops without the differences too short to judge (of RUN characters or fewer on either
    side) that stand next to a passage moved or repeated in his text (its witness range in
    `rearranged`), and the additions and substitutions so short next to a clause he moved in the
    base's, or at an edge of the base's text extant for him (what he lacks there is `rewritten`'s):
    a heading of the compiler's or a piece of that passage (冠義曰 between two pieces of the 記 he
    moved, 小斂 before one, 賓酢主人 where his text ends to give the rest as 同); and the base ranges
    of those dropped, where he is not extant."""
    witness_edges = {edge for w0, w1 in rearranged for edge in (w0, w1)}
    base_edges = edges_of(alignment)
    kept, apart = [], []
    for op in ops:
        short = op.tag != "equal" and op.b1 - op.b0 <= RUN and op.w1 - op.w0 <= RUN
        placed = op.tag != "delete" and {op.b0, op.b1} & base_edges
        if short and ({op.w0, op.w1} & witness_edges or placed):
            if op.b1 > op.b0:
                apart.append((op.b0, op.b1))
            continue
        kept.append(op)
    return coalesce(kept), apart


def rewritten(lacked: list[tuple[int, int]], alignment: Alignment) -> list[tuple[int, int]]:
    """Of the base ranges he lacks, those between two clauses he moved, and those of RUN characters
    or fewer next to one or at an edge of the base's text extant for him: his arrangement, not
    omissions (the base's heading 記士昬禮, 若有公有司私臣 that he words otherwise; 唯 of 記唯公 where
    he moves 惟公與賓有俎)."""
    starts, ends = {m.b0 for m in alignment.moves}, {m.b1 for m in alignment.moves}
    edges = edges_of(alignment)
    return [(b0, b1) for b0, b1 in lacked if b0 in ends and b1 in starts or b1 - b0 <= RUN and {b0, b1} & edges]


def edges_of(alignment: Alignment) -> set[int]:
    """The base positions where a clause he moved begins or ends, and the edges of his extant text."""
    return {edge for m in alignment.moves for edge in (m.b0, m.b1)} | {e for a, b in alignment.extant for e in (a, b)}


def paired(
    ops: list, base: str, classic: str, lacked: list[tuple[int, int]], repeats: tuple[Op, ...] = ()
) -> tuple[list, list[tuple[int, int]]]:
    """The ops without the additions that read what the compilation lacks (`lacked`: base ranges)
    at one place else, more than RUN characters away (a piece of a moved 記 too short to be placed
    by its runs: 荁, 有内羞; 訝以其摯 for 之以其摯, 鉶芼牛藿 for 鉶芼牛霍; nearer, 以得 for 得以, it is
    two characters inverted, a reading), and the base ranges so read, one addition for each; the
    additions dropped as repetitions (`repeats`) read what he lacks too (几俟于東箱, which another
    witness reads 記几俟于東箱, for the base's 設几侯于東箱)."""
    lacked, kept, moved = list(lacked), [], []
    for op in [*ops, *repeats]:
        text = classic[op.w0 : op.w1]
        place = op.tag == "insert" and next(
            (r for r in lacked if alike(text, base[r[0] : r[1]]) and min(abs(op.b0 - r[0]), abs(op.b0 - r[1])) > RUN),
            None,
        )
        if place:
            lacked.remove(place)
            moved.append(place)
        elif op not in repeats:
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
