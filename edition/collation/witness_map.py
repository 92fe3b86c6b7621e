"""A witness against the base: where its tokens stand, and the clause boundaries its alignment keeps
to (its status, quality and extent, is the model's `WitnessStatus`)."""

from __future__ import annotations

from array import array
from collections import defaultdict
from collections.abc import Callable
from dataclasses import replace
from itertools import islice

import regex

from ..intake.align import best_cut
from ..intake.model import Alignment, Op, Witness, cut_op

WORDS = regex.compile(r"[\p{Han}〇○]")  # words of the text, or a circle between passages


def clause_boundaries(witness: Witness) -> frozenset[int]:
    """Tokens of the witness's classic text with a clause boundary before them: punctuation, a
    separator or a note between them and the token before (line ends, page breaks and the
    transcriber's remarks alone are none). Read from the stream's offset columns: a large
    witness has no Token objects made."""
    stream, text = witness.classic, without_layout(witness)
    pairs = enumerate(zip(stream.ends, islice(stream.starts, 1, None)), 1)  # (token, end of the one before, its start)
    return frozenset(i for i, (end, start) in pairs if text[end:start].strip("\r\n"))


def passage_boundaries(witness: Witness) -> frozenset[int]:
    """Tokens of the witness's text with other words before them (a note, the 經 between two notes,
    a circle): where one passage of its text ends and another begins; the layout of a note (its
    brackets, columns and line ends) divides none."""
    stream, text = witness.classic, witness.raw.text
    pairs = enumerate(zip(stream.ends, islice(stream.starts, 1, None)), 1)
    return frozenset(i for i, (end, start) in pairs if end < start and WORDS.search(text, end, start))


def without_layout(witness: Witness) -> str:
    """The raw text with breaks (`¶`, `<pb:…>`) and remark lines, markers included, as line ends."""
    remark_rules = {s.rule for s in witness.segments_of("remark")}
    text, parts, position = witness.raw.text, [], 0
    for s in witness.segments:  # in order, each character in one
        if "break" in s.attrs or s.rule in remark_rules:
            parts += text[position : s.start], "\n" * (s.end - s.start)
            position = s.end
    return "".join(parts) + text[position:]


class WitnessMap:
    """Where a witness's tokens stand against the base tokens and gaps."""

    def __init__(self, witness: Witness, alignment: Alignment, base_length: int):
        self.witness = witness
        self.alignment = alignment
        # Per base token, the witness tokens start:end against it; -1 where there are none.
        self.start, self.end = array("i", [-1]) * base_length, array("i", [-1]) * base_length
        self.inserted: dict[int, list[tuple[int, int]]] = defaultdict(list)
        self.moved_away: dict[int, int] = {}  # base token -> the transposition that reads it elsewhere
        self.intrusions: dict[int, list[tuple[int, str]]] = {}  # base gap -> (witness position, text) intruded there
        self.equal = bytearray(base_length)  # 1 for each base token the witness reads in place as the base
        for op in alignment.ops:
            self.place(op)
        self.extant = [False] * base_length
        for b0, b1 in alignment.extant:
            for i in range(b0, b1):
                self.extant[i] = True

    def place(self, op: Op) -> None:
        """The witness tokens of `op` set against its base tokens, or at its gap."""
        if op.tag == "equal":
            for k in range(op.b1 - op.b0):
                self.start[op.b0 + k], self.end[op.b0 + k] = op.w0 + k, op.w0 + k + 1
                self.equal[op.b0 + k] = 1
        elif op.tag in ("replace", "delete"):
            for i in range(op.b0, op.b1):
                self.start[i], self.end[i] = op.w0, op.w1
        else:
            self.inserted[op.b0].append((op.w0, op.w1))

    def divide(self, gaps: set[int], base_text: str) -> None:
        """Each replacement that spans one of the base `gaps` (where no unit may straddle: the seam
        of two glosses, an end of a moved clause) divided there, the witness's characters going
        to the side they align with best: each side reads its own, and none reads them twice."""
        ops = []
        for op in self.alignment.ops:
            for gap in sorted(g for g in gaps if op.tag == "replace" and op.b0 < g < op.b1):
                left, op = cut_op(op, gap, best_cut(base_text, self.witness.classic.text, op, gap))
                ops.append(left if left.w1 > left.w0 else replace(left, tag="delete"))
                if op.w1 == op.w0:
                    op = replace(op, tag="delete")
                self.place(ops[-1])
                self.place(op)
            ops.append(op)
        self.alignment.ops[:] = ops

    def separate(self, related: Callable[[str, str], bool], base_text: str) -> None:
        """Each replacement of as many characters as it replaces whose characters are `related` to
        the base's (each by a relation of another kind: a usage and a graphic variant) in
        replacements of one character, so that each is an entry of its own, typed by its relation."""
        text = self.witness.classic.text
        ops = []
        for op in self.alignment.ops:
            if op.tag != "replace" or not related(text[op.w0 : op.w1], base_text[op.b0 : op.b1]):
                ops.append(op)
                continue
            for k in range(op.b1 - op.b0):
                tag = "equal" if text[op.w0 + k] == base_text[op.b0 + k] else "replace"
                ops.append(replace(op, tag=tag, b0=op.b0 + k, b1=op.b0 + k + 1, w0=op.w0 + k, w1=op.w0 + k + 1))
                self.place(ops[-1])
        self.alignment.ops[:] = ops

    def base_of(self) -> dict[int, int]:
        """Witness token -> base token, for tokens aligned in place or in a moved block."""
        mapping: dict[int, int] = {}
        for op in (*self.alignment.ops, *(op for move in self.alignment.moves for op in move.ops)):
            if op.tag == "equal":
                for k in range(op.b1 - op.b0):
                    mapping[op.w0 + k] = op.b0 + k
            elif op.tag == "replace":
                for k in range(op.w1 - op.w0):
                    mapping[op.w0 + k] = min(op.b0 + k, op.b1 - 1)
        return mapping

    def in_place(self, b0: int, b1: int) -> int:
        """How many of base tokens b0:b1 the witness reads in place as the base does."""
        return sum(self.equal[b0:b1])

    def add_move(self, move_id: int, b0: int, b1: int) -> None:
        """The witness reads base tokens b0:b1 elsewhere. Each base token is read once: what the
        witness has in place against them, and adds between them, is text it adds at gap b0, before
        the clause's place (but what it has against a base token outside the clause too, which
        stays that token's)."""
        outside = {(self.start[i], self.end[i]) for i in (b0 - 1, b1) if 0 <= i < len(self.start)}
        for i in range(b0, b1):
            span = (self.start[i], self.end[i])
            if span[0] < span[1] and span not in outside:
                self.add_insertion(b0, *span)
            self.start[i] = self.end[i] = -1
            self.equal[i] = 0
            self.moved_away[i] = move_id
        for gap in range(b0 + 1, b1):
            for w0, w1 in self.inserted.pop(gap, ()):
                self.add_insertion(b0, w0, w1)

    def add_insertion(self, gap: int, w0: int, w1: int) -> None:
        """The witness's tokens w0:w1 are text it adds at base gap `gap`."""
        if (w0, w1) not in self.inserted[gap]:
            self.inserted[gap].append((w0, w1))

    def moves_around(self, t0: int, t1: int) -> bool:
        """The witness reads elsewhere a clause that holds base tokens t0:t1 and more."""
        clause = self.moved_away.get(t0)
        return (
            clause is not None
            and all(self.moved_away.get(i) == clause for i in range(t0, t1))
            and clause in (self.moved_away.get(t0 - 1), self.moved_away.get(t1))
        )

    def reads_in_place(self, i: int) -> bool:
        return self.extant[i] and i not in self.moved_away

    def lacks(self, i: int) -> bool:
        """Extant here, but with nothing in place or elsewhere for base token i: an omission."""
        return self.extant[i] and self.start[i] < 0 and i not in self.moved_away

    def gap_of(self, position: int) -> int:
        """The base gap at which the witness's token `position` stands (or would stand)."""
        for i, start in enumerate(self.start):
            if 0 <= start and position <= start and self.extant[i]:
                return i
        return len(self.start)

    def gap_inside(self, gap: int) -> bool:
        """Base gap `gap` lies inside the witness's extant text, and not inside a clause it reads
        elsewhere (that gap is the clause's, where the witness has it). Between two clauses it
        moves, or beside one, the witness has nothing at the gap, unless it adds there. A witness
        extant throughout stands at every gap, before the base's first token and after its last
        too; one extant in part stands at the gaps between its first extant token and its last of
        each stretch, as the edition's witStart and witEnd (lacunaEnd, lacunaStart) around them say."""
        extant = self.alignment.extant
        if extant == [(0, len(self.extant))]:
            if not 0 <= gap <= len(self.extant):
                return False
        elif not any(b0 < gap < b1 for b0, b1 in extant):
            return False
        before, after = self.moved_away.get(gap - 1), self.moved_away.get(gap)
        return before is None or before != after

    def positions(self, t0: int, t1: int, gaps: range) -> list[int]:
        found: set[int] = set()
        for i in range(t0, t1):
            if self.extant[i] and self.start[i] >= 0:
                found.update(range(self.start[i], self.end[i]))
        for gap in gaps:
            for w0, w1 in self.inserted.get(gap, ()):
                found.update(range(w0, w1))
        return sorted(found)
