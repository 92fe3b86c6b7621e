"""Intrusions: web spam pasted into a witness's running text.

An insertion betrays itself by an anchor (in 001 the ASCII space the spam engine left after it).
How far it reaches back is decided by the witness's own text: a character-bigram model of the
layer (leaving out the neighbourhood of the anchor) scores each candidate extent by how unusual
the removed bigrams are and how naturally the text joins up without them. A character that joins
its predecessor naturally but not its successor is given back to the text.
"""

from __future__ import annotations

import math
from array import array
from collections import Counter
from typing import TYPE_CHECKING

import regex

if TYPE_CHECKING:
    from .layering import Layering, TimeLimit
    from .rule import Rule

PUNCTUATION = regex.compile(r"[\p{P}\p{S}\s]")
LINE = regex.compile(r"[^\r\n]+")
DEFAULT_ANCHOR = r"(?<=\S) (?=\S)"
SMOOTHING = 0.1
NEIGHBOURHOOD = 20


class BigramModel:
    def __init__(self, text: str):
        self.bigrams = Counter(zip(text, text[1:]))
        self.unigrams = Counter(text)
        self.vocabulary = len(self.unigrams)

    def without(self, window: str) -> "BigramModel":
        model = BigramModel("")
        model.bigrams = Difference(self.bigrams, Counter(zip(window, window[1:])))
        model.unigrams = Difference(self.unigrams, Counter(window))
        model.vocabulary = self.vocabulary
        return model

    def logp(self, a: str, b: str) -> float:
        return math.log((self.bigrams[(a, b)] + SMOOTHING) / (self.unigrams[a] + SMOOTHING * self.vocabulary))


class Difference:
    """The counts of `total` less those of `removed`, never below zero: a Counter subtraction
    that costs nothing until a count is looked up (the model is as large as the text)."""

    def __init__(self, total: Counter, removed: Counter):
        self.total = total
        self.removed = removed

    def __getitem__(self, key) -> int:
        return max(0, self.total[key] - self.removed[key])


def insertion_start(chars: str, end: int, after: str, model: BigramModel, max_length: int, cost: float) -> int:
    """Index in `chars` where the insertion ending at `end` (exclusive) begins."""
    window = chars[max(0, end - NEIGHBOURHOOD) : end] + after
    local = model.without(window)
    best_gain, best_start = None, end - 1
    for length in range(1, max_length + 1):
        start = end - length
        if start < 1 or PUNCTUATION.match(chars[start]):
            break
        removed = sum(-local.logp(chars[i - 1], chars[i]) for i in range(start, end))
        gain = removed + local.logp(chars[start - 1], after) - cost * length
        if best_gain is None or gain > best_gain:
            best_gain, best_start = gain, start
    start = best_start
    while (
        end - start > 1
        and local.bigrams[(chars[start - 1], chars[start])]
        and not local.bigrams[(chars[start], chars[start + 1])]
    ):
        start += 1
    return start


def apply(layering: "Layering", rule: "Rule", limit: "TimeLimit") -> None:
    anchor = regex.compile(rule.params.get("anchor", DEFAULT_ANCHOR))
    max_length = int(rule.params.get("max_length", 15))
    cost = float(rule.params.get("cost_per_char", 6.0))
    text = layering.raw.text
    lines = [m.span() for start, end in layering.spans(rule.within) for m in LINE.finditer(text, start, end)]
    offsets = array("i")  # raw offset of each character of `chars`
    for start, end in lines:
        offsets.extend(range(start, end))
    chars = "".join(text[start:end] for start, end in lines)
    model = BigramModel(chars)
    for match in limit.finditer(anchor, chars, 0, len(chars), lambda i: offsets[i] if i < len(offsets) else len(text)):
        end = match.start()
        after = chars[match.end()] if match.end() < len(chars) else ""
        start = insertion_start(chars, end, after, model, max_length, cost)
        layering.assign(offsets[start], offsets[match.end() - 1] + 1, rule.layer or "intrusion", rule)
