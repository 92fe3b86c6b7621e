"""Lineage: which witnesses go together, so that books of one lineage are one source for an
emendation, not several.

Two witnesses go together where the editors say so (the same `family` in their stanzas), or
where they agree against the base in most of their differences from it: of the places where
either differs from the base and both are extant, they differ alike in at least `TOGETHER` and
in at least `SHARED` places. Witnesses independent of one another agree against the base where
the base is wrong, and each has errors of its own; a copy of a book, or a book descended from
it, has its errors. Where three or more witnesses are compared, the differences they all have
(the base's own errors) are left out: they say nothing of which of them go together. What goes
together is a family, named by its members' declared family or by its first member's siglum.
Every pair is reported with its agreement, so that the editor sees which books go together
(and may declare it).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

from ..intake.model import WitnessMeta
from .witness_map import WitnessMap

TOGETHER = 0.8  # the share of the differences from the base two witnesses must have alike
SHARED = 5  # and the number of places where they differ alike, at least


@dataclass(frozen=True)
class Agreement:
    """Two witnesses against the base: where they differ from it alike, where one of them only."""

    first: str
    second: str
    alike: int
    first_only: int
    second_only: int

    @property
    def share(self) -> float:
        total = self.alike + self.first_only + self.second_only
        return self.alike / total if total else 0.0

    @property
    def together(self) -> bool:
        return self.share >= TOGETHER and self.alike >= SHARED


def differences(wmap: WitnessMap) -> set[tuple[int, int, str]]:
    """Where a witness differs from the base: (base tokens b0:b1, what it reads there)."""
    text = wmap.witness.classic.text
    return {(op.b0, op.b1, text[op.w0 : op.w1]) for op in wmap.alignment.ops if op.tag != "equal"}


def agreements(layers: list[dict[str, WitnessMap]]) -> list[Agreement]:
    """Every pair of witnesses, with their agreement against the base where both are extant, summed
    over the layers collated (the 經 and the 注: the more text compared, the surer). Within a layer
    of three or more witnesses, a difference every one of them extant there has is left out: the
    base's own error, which tells nothing of how the others go together."""
    sums: dict[tuple[str, str], list[int]] = {}
    for maps in layers:
        found = {siglum: differences(wmap) for siglum, wmap in maps.items()}
        if len(maps) >= 3:
            common = {
                d
                for d in set().union(*found.values())
                if all(d in found[s] or not extant_at(maps[s], d[0]) for s in maps)
            }
            found = {siglum: own - common for siglum, own in found.items()}
        for a, b in combinations(maps, 2):
            ours = {d for d in found[a] if extant_at(maps[b], d[0])}
            theirs = {d for d in found[b] if extant_at(maps[a], d[0])}
            counts = len(ours & theirs), len(ours - theirs), len(theirs - ours)
            if (b, a) in sums:
                a, b, counts = b, a, (counts[0], counts[2], counts[1])
            total = sums.setdefault((a, b), [0, 0, 0])
            total[:] = [x + y for x, y in zip(total, counts, strict=True)]
    return [Agreement(a, b, *counts) for (a, b), counts in sums.items()]


def extant_at(wmap: WitnessMap, token: int) -> bool:
    return wmap.extant[min(token, len(wmap.extant) - 1)]


def families(metas: dict[str, WitnessMeta], pairs: list[Agreement]) -> dict[str, str]:
    """Each witness's family: those the editors put in one, and those that go together, as one."""
    parent = {siglum: siglum for siglum in metas}

    def root(siglum: str) -> str:
        while parent[siglum] != siglum:
            siglum = parent[siglum]
        return siglum

    declared: dict[str, str] = {}
    for siglum, meta in metas.items():
        if meta.family:
            parent[root(siglum)] = root(declared.setdefault(meta.family, siglum))
    for pair in pairs:
        if pair.together:
            parent[root(pair.second)] = root(pair.first)
    named = {root(s): m.family for s, m in metas.items() if m.family}
    return {siglum: named.get(root(siglum)) or root(siglum) for siglum in metas}


@dataclass(frozen=True)
class Lineage:
    """The witnesses' families and every pair's agreement, found over the layers collated."""

    family: dict[str, str]
    agreements: list[Agreement]

    @classmethod
    def of(cls, layers: list[dict[str, WitnessMap]], metas: dict[str, WitnessMeta]) -> Lineage:
        pairs = agreements(layers)
        return cls(families(metas, pairs), pairs)
