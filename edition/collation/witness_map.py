"""A witness against the base: its status (quality, extent) and where its tokens stand."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from ..intake.witness import Witness
from ..intake.align import Alignment


@dataclass
class WitnessStatus:
    siglum: str
    quality: float
    included: bool
    reason: str
    extant: list[tuple[int, int]]
    alignment: Alignment | None = None


class WitnessMap:
    """Where a witness's tokens stand against the base tokens and gaps."""

    def __init__(self, witness: Witness, alignment: Alignment, base_length: int):
        self.witness = witness
        self.alignment = alignment
        self.start: list[int | None] = [None] * base_length
        self.end: list[int | None] = [None] * base_length
        self.inserted: dict[int, list[tuple[int, int]]] = defaultdict(list)
        self.moved_in: dict[int, list[int]] = defaultdict(list)  # gap -> move ids
        self.moved_away: dict[int, int] = {}  # base token -> move id
        self.intrusions: dict[int, list[tuple[int, str]]] = {}  # base gap -> (witness position, text) intruded there
        for op in alignment.ops:
            if op.tag == "equal":
                for k in range(op.b1 - op.b0):
                    self.start[op.b0 + k], self.end[op.b0 + k] = op.w0 + k, op.w0 + k + 1
            elif op.tag in ("replace", "delete"):
                for i in range(op.b0, op.b1):
                    self.start[i], self.end[i] = op.w0, op.w1
            else:
                self.inserted[op.b0].append((op.w0, op.w1))
        self.extant = [False] * base_length
        for b0, b1 in alignment.extant:
            for i in range(b0, b1):
                self.extant[i] = True

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

    def add_move(self, move_id: int, b0: int, b1: int, w0: int, w1: int, at: int) -> None:
        self.inserted[at].append((w0, w1))
        self.moved_in[at].append(move_id)
        for i in range(b0, b1):
            if not self.extant[i] or self.start[i] is None or self.start[i] == self.end[i]:
                self.moved_away[i] = move_id

    def gap_of(self, position: int) -> int:
        """The base gap at which the witness's token `position` stands (or would stand)."""
        for i, start in enumerate(self.start):
            if start is not None and start >= position and self.extant[i]:
                return i
        return len(self.start)

    def gap_inside(self, gap: int) -> bool:
        return 0 < gap < len(self.extant) and self.extant[gap - 1] and self.extant[gap]

    def positions(self, t0: int, t1: int, gaps: range) -> list[int]:
        found: set[int] = set()
        for i in range(t0, t1):
            if self.extant[i] and self.start[i] is not None:
                found.update(range(self.start[i], self.end[i]))
        for gap in gaps:
            for w0, w1 in self.inserted.get(gap, ()):
                found.update(range(w0, w1))
        return sorted(found)
