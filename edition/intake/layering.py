"""Layering: the assignment of every character of a raw text to one layer, and the time a rule may take."""

from __future__ import annotations

import re
from array import array

import regex

from ..budget import Budget
from ..errors import EditionError
from .model import CODES, LINE_END, RawText, Segment, runs_of
from .rule import UNASSIGNED, Rule

FORCED_FORMAT = re.compile("[\n\r]")


# The time a rule's patterns may spend matching over a witness, and more per character of it.
TIME_LIMIT = 2.0  # CPU seconds


TIME_LIMIT_PER_CHAR = 5e-6  # an alignment reads about 2 µs per character of its references


PROBE = 0.05  # seconds a search may take while the place a rule ran away is looked for


class Layering:
    """The assignment of every character of a raw text to one layer, built rule by rule: per
    character a layer byte and the rule application that owns it, in compact arrays. Segments can
    only end where an application starts or ends (`cuts`)."""

    def __init__(self, raw: RawText):
        self.raw = raw
        n = len(raw.text)
        self.codes = bytearray(n)  # CODES of each character's layer
        for match in FORCED_FORMAT.finditer(raw.text):
            self.codes[match.start()] = LINE_END
        self.claim = array("i", [-1]) * n  # index into self.claims: which rule application owns the char
        self.claims: list[tuple[str, str, dict]] = []  # (layer, rule name, attrs)
        self.cuts = [0, n]
        # Rules match on a view without the BOM in which '\r' reads as a line end.
        self.shift = 1 if raw.has_bom else 0
        self.view = raw.text[self.shift :].replace("\r", "\n")
        # The stretches a rule of kind alignment left as the layout put them, no other witness
        # deciding them (raw spans): the witness is no reference there.
        self.undecided: list[tuple[int, int]] = []

    def spans(
        self, within: tuple[str, ...], start: int = 0, end: int | None = None, line_ends: bool = False
    ) -> list[tuple[int, int]]:
        """Maximal runs of characters (between start and end) currently in one of the `within`
        layers; with `line_ends`, line terminators that no rule has claimed count as in them."""
        if not within:
            return []
        runs = runs_of(frozenset(within), line_ends)
        return [m.span() for m in runs.finditer(self.codes, start, len(self.codes) if end is None else end)]

    def views(self, rule: Rule):
        """(text, start, end, offset in text -> raw offset) for each stretch a pattern matches on: a
        span of the rule's layers in the whole text, or with `across` the text of those layers read
        through the others."""
        shift = self.shift
        if not rule.across:
            for start, end in self.spans(rule.within):
                yield self.view, start - shift, end - shift, lambda offset: offset + shift
            return
        for start, end in self.spans((*rule.within, *rule.across), line_ends=True):
            runs = self.spans(rule.within, start, end, line_ends=True)
            offsets = array("i")
            for a, b in runs:
                offsets.extend(range(a, b))
            offsets.append(end)
            text = "".join(self.view[a - shift : b - shift] for a, b in runs)
            yield text, 0, len(text), offsets.__getitem__

    def assign(
        self, start: int, end: int, layer: str, rule: Rule, attrs: dict | None = None, join: bool = False
    ) -> None:
        """`join`: the characters belong to the previous application (a match claimed in pieces)."""
        if not join:
            self.claims.append((layer, rule.name, attrs if attrs is not None else rule.attrs))
        if end <= start:
            return
        self.codes[start:end] = bytes((CODES[layer],)) * (end - start)
        self.claim[start:end] = array("i", [len(self.claims) - 1]) * (end - start)
        self.cuts += (start, end)

    def unassigned(self) -> tuple[int, int]:
        """How many characters no rule claimed, and the first of them (-1 if none)."""
        return self.codes.count(CODES[UNASSIGNED]), self.codes.find(CODES[UNASSIGNED])

    def segments(self) -> list[Segment]:
        out: list[Segment] = []
        start = 0
        text_len = len(self.codes)
        for cut in sorted(set(self.cuts))[1:]:
            if cut < text_len and self.claim[cut] == self.claim[start]:
                continue
            layer, rule, attrs = self.claims[self.claim[start]] if self.claim[start] >= 0 else (UNASSIGNED, "", {})
            out.append(Segment(layer, start, cut, self.raw.line_of(start), rule, attrs))
            start = cut
        return out


class TimeLimit(Budget):
    """The CPU time a rule may take over one witness (and the `also` characters it reads besides,
    an alignment's references): a pathological pattern fails with a line naming the rule and the
    place it ran away, instead of hanging the build."""

    def __init__(self, rule: Rule, raw: RawText, also: int = 0):
        super().__init__(TIME_LIMIT + TIME_LIMIT_PER_CHAR * (len(raw.text) + also))
        self.rule = rule
        self.raw = raw

    def exceeded(self, offset: int) -> EditionError:
        """`offset`: the raw offset where the rule ran away."""
        return EditionError(
            self.rule.origin or None,
            f"rule {self.rule.name!r} exceeded its time limit ({self.seconds:.0f} s) "
            f"on {self.raw.path} line {self.raw.line_of(offset)}",
        )

    def left_from(self, offset: int) -> float:
        """Seconds left; `offset`: the raw offset the rule works from next."""
        if self.left() <= 0:
            raise self.exceeded(offset)
        return self.left()

    def finditer(self, pattern: regex.Pattern, text: str, start: int, end: int, to_raw=lambda offset: offset):
        """pattern.finditer(text, start, end) within the time left; `to_raw` maps offsets in `text` to raw offsets."""
        self.left_from(to_raw(start))
        try:
            yield from super().finditer(pattern, text, start, end)
        except TimeoutError:
            raise self.exceeded(to_raw(culprit(pattern, text, self.position, end))) from None

    def match(self, pattern: regex.Pattern, text: str, offset: int):
        """pattern.match(text) within the time left; `offset`: where `text` starts in the raw text."""
        self.left_from(offset)
        try:
            return self.timed(lambda: self.run(lambda timeout: pattern.match(text, timeout=timeout)))
        except TimeoutError:
            raise self.exceeded(offset) from None


def culprit(pattern: regex.Pattern, text: str, start: int, end: int) -> int:
    """The offset from which a search of text[start:end] runs away, `start` known to be one: the
    last one, by bisection, since a search from beyond it runs no more into it."""
    low, high = start, end - 1
    while low < high:
        middle = (low + high + 1) // 2
        try:
            pattern.search(text, middle, end, timeout=PROBE)
            high = middle - 1
        except TimeoutError:
            low = middle
    return low
