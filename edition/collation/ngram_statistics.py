"""What unpunctuated texts of the genre say of where clauses end, with no mark in them: for every
run of one to four characters, how often it stands, how often a note boundary follows it and how
often one precedes it (a 注 nearly always follows a whole clause, and ends one); for every pair,
how strongly its two characters cohere (pointwise mutual information) and how varied the
characters after and before it are (branching entropy). Counted over the stretches of text
between two notes and within each note, in simplified script, and kept as package data beside the
model of 句讀 (`punctuation_model`), whose features they give.
"""

from __future__ import annotations

import gzip
import math
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

LONGEST = 4  # the longest run counted
FEWEST = 3  # a run seen fewer times says nothing
PMI_EDGES = (-1, 0, 1, 2, 3, 4, 5)
TIMES_EDGES = (5, 20, 100)
ENTROPY_EDGES = (0.5, 1, 1.5, 2, 2.5, 3)
SHARE_EDGES = (1e-9, 0.1, 0.25, 0.5)


def bin_of(value: float, edges: tuple[float, ...]) -> int:
    return next((k for k, edge in enumerate(edges) if value < edge), len(edges))


def entropy(following: Counter) -> float:
    total = sum(following.values())
    return -sum(n / total * math.log(n / total) for n in following.values())


@dataclass
class NgramStatistics:
    characters: int
    pairs: int
    counts: dict[str, tuple[int, int, int]]  # run: times, times a boundary follows, times one precedes
    branching: dict[str, tuple[float, float]]  # pair: entropy of the character after, of the one before

    @classmethod
    def counted(cls, stretches: Iterable[str]) -> NgramStatistics:
        """The statistics of stretches of text, each between two boundaries (simplified script)."""
        times, followed, preceded = Counter(), Counter(), Counter()
        after: defaultdict[str, Counter] = defaultdict(Counter)
        before: defaultdict[str, Counter] = defaultdict(Counter)
        for stretch in stretches:
            n = len(stretch)
            for k in range(1, min(LONGEST, n) + 1):
                times.update(stretch[i : i + k] for i in range(n - k + 1))
                followed[stretch[n - k :]] += 1
                preceded[stretch[:k]] += 1
            for i in range(n - 2):
                after[stretch[i : i + 2]][stretch[i + 2]] += 1
                before[stretch[i + 1 : i + 3]][stretch[i]] += 1
        counts = {
            run: (n, followed[run], preceded[run])
            for run, n in times.items()
            if n >= FEWEST and (len(run) <= 2 or followed[run] or preceded[run])
        }
        branching = {
            pair: (round(entropy(after[pair]), 2), round(entropy(before[pair]), 2))
            for pair, (n, _, _) in counts.items()
            if len(pair) == 2
        }
        characters = sum(n for run, n in times.items() if len(run) == 1)
        pairs = sum(n for run, n in times.items() if len(run) == 2)
        return cls(characters, pairs, counts, branching)

    def write(self, path: Path, said: str) -> None:
        """A gzipped table, the same bytes for the same statistics."""
        lines = [f"# {said}", f"# characters\t{self.characters}", f"# pairs\t{self.pairs}"]
        lines.append("run\ttimes\tfollowed\tpreceded\tentropy_after\tentropy_before")
        for run in sorted(self.counts):
            right, left = self.branching.get(run, ("", ""))
            lines.append("\t".join([run, *map(str, self.counts[run]), str(right), str(left)]))
        with path.open("wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0, filename="") as out:
            out.write(("\n".join(lines) + "\n").encode("utf-8"))

    @classmethod
    def read(cls, path: Path) -> NgramStatistics:
        totals: dict[str, int] = {}
        counts, branching = {}, {}
        with gzip.open(path, "rt", encoding="utf-8") as lines:
            for line in lines:
                cells = line.rstrip("\n").split("\t")
                if line.startswith("#"):
                    if len(cells) == 2:
                        totals[cells[0][2:]] = int(cells[1])
                elif cells[0] != "run":
                    counts[cells[0]] = (int(cells[1]), int(cells[2]), int(cells[3]))
                    if cells[4]:
                        branching[cells[0]] = (float(cells[4]), float(cells[5]))
        return cls(totals["characters"], totals["pairs"], counts, branching)

    def pmi(self, pair: str) -> float:
        a, b = (self.counts[c][0] for c in pair)
        return math.log(self.counts[pair][0] * self.characters**2 / (self.pairs * a * b))

    def features(self, chars: str) -> list[list[str]]:
        """Each character's features: how often the runs that end with it are followed by a
        boundary and those after it preceded by one, and how the pairs about the gap after it
        cohere."""
        out = []
        n = len(chars)
        for i in range(n):
            item = []
            for k in range(1, LONGEST + 1):
                if i + 1 >= k and (counted := self.counts.get(chars[i + 1 - k : i + 1])):
                    item.append(f"ends{k}={bin_of(counted[1] / counted[0], SHARE_EDGES)}")
                if i + k < n and (counted := self.counts.get(chars[i + 1 : i + 1 + k])):
                    item.append(f"starts{k}={bin_of(counted[2] / counted[0], SHARE_EDGES)}")
            pair = chars[i : i + 2]
            if len(pair) == 2:
                if pair in self.counts:
                    item.append(f"pmi={bin_of(self.pmi(pair), PMI_EDGES)}")
                    item.append(f"times={bin_of(self.counts[pair][0], TIMES_EDGES)}")
                else:
                    item.append("pmi=rare")
            if i and (entropies := self.branching.get(chars[i - 1 : i + 1])):
                item.append(f"after={bin_of(entropies[0], ENTROPY_EDGES)}")
            if i + 2 < n and (entropies := self.branching.get(chars[i + 1 : i + 3])):
                item.append(f"before={bin_of(entropies[1], ENTROPY_EDGES)}")
            out.append(item)
        return out
