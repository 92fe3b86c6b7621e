"""Quotations placed on the base in the order they stand in: the base's 經 and 注 as passages (a
passage is a run of one layer with none of the other between its characters), the places where
quoted words may stand, and the chain of places that keeps the quotations' order.

A source that quotes the text in order (the lemmata of the 單疏本, the entries of the 識誤) is
placed like a cursor moving forward through the base, but over the whole chapter at once: every
place where each quotation's words stand exactly is a candidate, and the placement is the chain
of candidates, one per quotation at most, that goes forward through the base (in the raw order of
the base file, so through the 經 and the 注 together) and weighs most; a quotation whose words the
base does not read exactly there is then looked for between the places of its neighbours, within
a bounded distance, at the nearest approximate match (rapidfuzz), with its similarity. What is
placed never goes backwards within a layer; a quotation that has no place in the chain is left
out, not forced.

Quoted words are compared as the witnesses are, in their comparison forms (the normalizer's):
script and variant forms do not matter. A place is a span of base tokens t0:t1 of a layer's
comparison stream (`witness.classic` for the 經, with the 傳 where there is one;
`witness.layer_view("commentary").classic` for the 注), the span an `Attestation` compares with the
readings of a variation unit.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from rapidfuzz import fuzz
from rapidfuzz.distance import Levenshtein

from ..intake.model import RawText, Stream, Witness

CLASSIC, COMMENTARY = "classic", "commentary"
LAYERS = (CLASSIC, COMMENTARY)
BOUNDARY = 0.5  # the weight of standing where a passage begins (or ends), beside a similarity of 1 per word


@dataclass(frozen=True)
class BaseSpan:
    """Base tokens t0:t1 of a layer where quoted words stand; `similarity` 1.0 where the base reads
    them exactly, less where it reads otherwise (normalized Levenshtein similarity)."""

    layer: str
    t0: int
    t1: int
    similarity: float

    @property
    def exact(self) -> bool:
        return self.similarity >= 1.0


@dataclass(frozen=True)
class Candidate:
    """A place a quotation may have: the spans of its words (one, or the first and the last words
    of a passage), and its weight in the chain."""

    spans: tuple[BaseSpan, ...]
    weight: float
    start: int  # raw offsets in the base file: the order of the chain
    end: int
    trim: int = 0  # characters left out at the start of the quoted words (words run on from before)


@dataclass(frozen=True)
class Approximation:
    """How close an approximate match must be (from the data file of the evidence that uses it)."""

    shortest: int  # quoted words shorter than this are placed only where the base reads them exactly
    similarity: float  # the least similarity of an approximate match


def attested(words: str, span: BaseSpan, base_text: str, t0: int, t1: int, readings) -> list[str]:
    """The readings (comparison texts) of a variation unit at base tokens t0:t1 of the span's layer
    that quoted `words` placed at `span` attest: those with which the base over the span reads the
    words (the unit inside the span, or at its edge). `base_text`: the layer's comparison text."""
    if not (span.t0 <= t0 <= t1 <= span.t1):
        return []
    left, right = base_text[span.t0 : t0], base_text[t1 : span.t1]
    return [r for r in readings if left + r + right == words]


def similarity(a: str, b: str) -> float:
    return Levenshtein.normalized_similarity(a, b)


def occurrences(text: str, words: str, start: int = 0, stop: int | None = None) -> list[int]:
    stop = len(text) if stop is None else stop
    if stop <= start:  # (str.find reads a negative end from the end of the text)
        return []
    out, k = [], text.find(words, start, stop) if words else -1
    while k >= 0:
        out.append(k)
        k = text.find(words, k + 1, stop)
    return out


class BaseLayers:
    """The base's 經 and 注 as comparison streams, with the passages of each: where a passage
    begins (after the other layer, or at the start) and where it ends (before the other layer)."""

    def __init__(self, raw: RawText, classic: Stream, commentary: Stream, lacunae: tuple[int, ...] = ()):
        self.raw = raw
        self.streams: dict[str, Stream] = {CLASSIC: classic, COMMENTARY: commentary}
        self.texts = {name: stream.text for name, stream in self.streams.items()}
        self.lacunae = tuple(sorted(lacunae))  # raw offsets of the lost leaves
        self.passage_starts: dict[str, frozenset[int]] = {}
        self.passage_ends: dict[str, frozenset[int]] = {}
        for name, other in ((CLASSIC, COMMENTARY), (COMMENTARY, CLASSIC)):
            own, theirs = self.streams[name].starts, self.streams[other].starts
            starts, ends = set(), set()
            for i in range(len(own)):
                if i == 0 or bisect_left(theirs, own[i]) != bisect_left(theirs, own[i - 1]):
                    starts.add(i)
                    if i:
                        ends.add(i)
            if own:
                ends.add(len(own))
            self.passage_starts[name], self.passage_ends[name] = frozenset(starts), frozenset(ends)

    @classmethod
    def of(cls, witness: Witness) -> BaseLayers:
        """The base witness as intake reads it: its 經 (`classic`), its 注, its lost leaves."""
        return cls(
            witness.raw,
            witness.classic,
            witness.layer_view(COMMENTARY).classic,
            tuple(s.start for s in witness.lacunae),
        )

    def size(self, layer: str) -> int:
        return len(self.texts[layer])

    def own(self, layer: str, t0: int, t1: int) -> str:
        """The base's own characters of tokens t0:t1 of a layer."""
        return self.streams[layer].source(self.raw, t0, t1)

    def raw_start(self, layer: str, t: int) -> int:
        """The raw offset of token t of a layer (the end of the file past its last token)."""
        stream = self.streams[layer]
        return stream.starts[t] if t < len(stream.starts) else len(self.raw.text)

    def raw_end(self, layer: str, t: int) -> int:
        """The raw end of token t - 1 of a layer (0 before the first)."""
        return self.streams[layer].ends[t - 1] if t > 0 else 0

    def first_after(self, layer: str, offset: int) -> int:
        """The first token of a layer at or after raw offset `offset`."""
        return bisect_left(self.streams[layer].starts, offset)

    def window_of(self, layer: str, t0: int, t1: int, other: str) -> tuple[int, int]:
        """The tokens of layer `other` that stand among tokens t0:t1 of `layer` and after them, up to
        the next token of `layer` (a passage of the 經 and its 注)."""
        return self.first_after(other, self.raw_start(layer, t0)), self.first_after(other, self.raw_start(layer, t1))

    def lost_between(self, start: int, end: int) -> bool:
        """A lost leaf of the base (a lacuna intake found) between raw offsets start:end."""
        return bisect_left(self.lacunae, start) < bisect_right(self.lacunae, end)

    def candidate(self, spans: tuple[BaseSpan, ...], weight: float, trim: int = 0) -> Candidate:
        layer = spans[0].layer
        return Candidate(spans, weight, self.raw_start(layer, spans[0].t0), self.raw_end(layer, spans[-1].t1), trim)

    def bonus(self, layer: str, t0: int, t1: int) -> float:
        return BOUNDARY * ((t0 in self.passage_starts[layer]) + (t1 in self.passage_ends[layer]))

    # --- the places where words stand exactly -----------------------------------------------------------

    def exact_whole(self, layer: str, words: str, passages: bool = True) -> list[Candidate]:
        """Every place of `words` in the layer (with `passages`, where a passage begins or ends
        weighs more)."""
        return [
            self.candidate(
                (BaseSpan(layer, k, k + len(words), 1.0),), 2.0 + passages * self.bonus(layer, k, k + len(words))
            )
            for k in occurrences(self.texts[layer], words)
        ]

    def exact_range(self, layer: str, first: str, last: str, span: int) -> list[Candidate]:
        """Every place of `first` with the nearest `last` after it within `span` tokens (where a
        passage ends first): the first and last words of a passage."""
        text, ends = self.texts[layer], self.passage_ends[layer]
        out = []
        for s in occurrences(text, first):
            tails = [k + len(last) for k in occurrences(text, last, s + len(first), s + len(first) + span + len(last))]
            if not tails:
                continue
            e = next((e for e in tails if e in ends), tails[0])
            spans = (BaseSpan(layer, s, s + len(first), 1.0), BaseSpan(layer, e - len(last), e, 1.0))
            out.append(self.candidate(spans, 2.0 + self.bonus(layer, s, e)))
        return out

    def exact_suffix(self, layer: str, words: str, shortest: int) -> list[Candidate]:
        """Words whose start is not known: every end of them (of `shortest` characters at least)
        that stands where a passage begins, the longer the heavier (for one of `shortest`, a whole
        passage)."""
        starts, ends = self.passage_starts[layer], self.passage_ends[layer]
        out = []
        for trim in range(0, len(words) - shortest + 1):
            part = words[trim:]
            for k in occurrences(self.texts[layer], part):
                whole = k + len(part) in ends
                if k in starts and (len(part) > shortest or whole):
                    spans = (BaseSpan(layer, k, k + len(part), 1.0),)
                    out.append(self.candidate(spans, 1.0 + len(part) / len(words) + BOUNDARY * (1 + whole), trim))
        return out

    # --- approximately, between two places ------------------------------------------------------------

    def approximate(
        self, layer: str, words: str, start: int, stop: int, approximation: Approximation
    ) -> BaseSpan | None:
        """The window of tokens start:stop most like `words`, if like enough (the nearest of equals)."""
        if len(words) < approximation.shortest or stop - start < 1:
            return None
        text = self.texts[layer]
        # partial_ratio's score (by insertions and deletions) is never below the similarity of
        # the best window: a quick test that one may be like enough
        found = fuzz.partial_ratio_alignment(words, text[start:stop])
        if found is None or found.score / 100 < approximation.similarity:
            return None
        # every window as long as the words, or a character shorter or longer (the base has one
        # fewer or one more there): the most similar, the first of equals (partial_ratio keeps the
        # first of its equals, which a substitution may tie with a window of other words)
        best = (0.0, start, start)
        for size in (len(words), len(words) - 1, len(words) + 1):
            for a in range(start, stop - size + 1):
                score = similarity(words, text[a : a + size])
                if score > best[0]:
                    best = (score, a, a + size)
        if best[0] < approximation.similarity:
            return None
        return BaseSpan(layer, best[1], best[2], round(best[0], 3))

    def approximate_range(
        self, layer: str, first: str, last: str, start: int, stop: int, span: int
    ) -> tuple[BaseSpan, BaseSpan] | None:
        """The first and last words of a passage between tokens start:stop where the base reads one
        of them otherwise: `first` where a passage begins (or exactly), `last` within `span` tokens
        after it where a passage ends (or exactly); together at least 1.5 similar (one exact and
        the other half right, or both three quarters), neither under 0.5; the most similar, the
        nearest of equals."""
        text, starts, ends = self.texts[layer], self.passage_starts[layer], self.passage_ends[layer]
        heads = sorted({*(k for k in starts if start <= k < stop), *occurrences(text, first, start, stop)})
        best, best_key = None, None
        for s in heads:
            sim_first = similarity(first, text[s : s + len(first)])
            if sim_first < 0.5 or (sim_first < 1 and s not in starts):
                continue
            lo, hi = s + len(first), min(stop, s + len(first) + span + len(last))
            tails = {
                *(e for e in ends if lo + len(last) <= e <= hi),
                *(k + len(last) for k in occurrences(text, last, lo, hi)),
            }
            for e in sorted(tails):
                sim_last = similarity(last, text[e - len(last) : e])
                if sim_last < 0.5 or sim_first + sim_last < 1.5 or (sim_last < 1 and e not in ends):
                    continue
                key = (sim_first + sim_last, -s, -e)
                if best_key is None or key > best_key:
                    best_key = key
                    best = (
                        BaseSpan(layer, s, s + len(first), round(sim_first, 3)),
                        BaseSpan(layer, e - len(last), e, round(sim_last, 3)),
                    )
        return best


def chain(items: Sequence[Sequence[Candidate]], passages: bool = False) -> list[Candidate | None]:
    """One candidate per item at most, each item's after the last chosen before it, weighing most in
    all: the heaviest chain that goes forward, items in their order. After: its raw start after
    theirs (through the 經 and the 注 together); with `passages` (the candidates of one layer,
    quoting passages one after another), its first token at or after their last one's end. Of
    chains that weigh the same, the one with the earlier places."""
    if passages:
        at, after = (lambda c: c.spans[-1].t1), (lambda c: c.spans[0].t0)
    else:
        at, after = (lambda c: c.start), (lambda c: c.start)
    positions = sorted({key(c) for cands in items for c in cands for key in (at, after)})
    size = len(positions)
    tree: list[tuple[float, int, int]] = [(0.0, -1, -1)] * (size + 1)  # Fenwick tree of prefix maxima

    def query(rank: int) -> tuple[float, int, int]:  # the best chain whose last place is at a rank below
        best = (0.0, -1, -1)
        while rank > 0:
            best = max(best, tree[rank], key=lambda t: t[0])
            rank -= rank & -rank
        return best

    def update(rank: int, value: tuple[float, int, int]) -> None:
        rank += 1
        while rank <= size:
            if value[0] > tree[rank][0]:
                tree[rank] = value
            rank += rank & -rank

    back: dict[tuple[int, int], tuple[int, int]] = {}
    best_end = (0.0, -1, -1)
    for i, cands in enumerate(items):
        found = []
        for j, c in enumerate(cands):
            limit = (bisect_right if passages else bisect_left)(positions, after(c))
            before = query(limit)
            value = (before[0] + c.weight, i, j)
            back[(i, j)] = before[1:]
            found.append((bisect_left(positions, at(c)), value))
        for rank, value in found:
            update(rank, value)
            if value[0] > best_end[0]:
                best_end = value
    out: list[Candidate | None] = [None] * len(items)
    point = best_end[1:]
    while point[0] >= 0:
        out[point[0]] = items[point[0]][point[1]]
        point = back[point]
    return out


def neighbours(
    chosen: list[Candidate | None],
    end_of: Callable[[Candidate], int],
    start_of: Callable[[Candidate], int],
    size: int,
    place: Callable[[int, int, int], Candidate | None] | None = None,
) -> list[tuple[int, int]]:
    """For each item of a chain, in order, where it may stand: from `end_of` the last item before it
    that has a place (0 if none), up to `start_of` the first after it (`size` if none); with
    `place`, an item without a place is given one there as it is reached (place(i, lo, hi)), so
    the items after it stand after it. In one pass each way, however many items have no place."""
    following = [size] * len(chosen)
    for i in range(len(chosen) - 2, -1, -1):
        after = chosen[i + 1]
        following[i] = start_of(after) if after is not None else following[i + 1]
    out, lo = [], 0
    for i, hi in enumerate(following):
        out.append((lo, hi))
        if chosen[i] is None and place is not None:
            chosen[i] = place(i, lo, hi)
        if chosen[i] is not None:
            lo = end_of(chosen[i])
    return out


def token_bounds(chosen: list[Candidate | None], size: int, place=None) -> list[tuple[int, int]]:
    """The tokens of its layer between which each item of a chain of passages may stand: from the
    end of the last item before it that has a place, up to the start of the first after it."""
    return neighbours(chosen, lambda c: c.spans[-1].t1, lambda c: c.spans[0].t0, size, place)


def raw_bounds(chosen: list[Candidate | None], size: int, place=None) -> list[tuple[int, int]]:
    """The raw offsets between which each item may stand: after the place of the last item before
    it that has one, before that of the first after it."""
    return neighbours(chosen, lambda c: c.start + 1, lambda c: c.start, size, place)
