"""Normalization: the comparison stream of a witness, one token per character, each pointing back
to its raw offsets.

For comparison only: variant forms are folded to their standard form (`variants.VariantForms`),
OpenCC converts to the edition's comparison script by way of the other script (so that 馀 and 余,
both simplified forms of 餘, compare equal), punctuation and line wraps are dropped, runs of ▯
become one gap token, gaiji become one token carrying their mapped character (or their own form
when unmapped). The witness's own characters stay in the raw text for display.

A stream keeps its tokens column by column (a witness of 50 MB has tens of millions of them);
`Stream.tokens` makes Token objects only when asked for.
"""

from __future__ import annotations

import re
import sys
from array import array
from collections import Counter
from functools import cached_property, lru_cache
from itertools import compress, repeat
from typing import NamedTuple

import opencc
import regex

from ..errors import EditionError
from .gaiji import GaijiEntry, GaijiTable
from .layering import CODES, LAYER_OF_CODE, Segment, runs_of
from .raw import RawText
from .variants import VariantForms

OPENCC_CONFIG = {"simplified": ("s2t", "t2s"), "traditional": ("t2s", "s2t")}  # by way of the other script
GAP = regex.compile(r"▯+|\uFFFD+")
DROPPED = regex.compile(r"[\p{P}\p{S}\p{Z}\s\p{Cc}\p{Cs}\p{Noncharacter_Code_Point}]")
TEXT_LAYERS = (
    "classic",
    "tradition",
    "commentary",
    "subcommentary",
    "phonetic",
    "scholia",
    "kaozheng",
    "preface",
    "contents",
)
KINDS = ("char", "gap", "gaiji")
HOW = ("", "variant", "opencc")
UNMAPPED = "\ufffc"
MARK_TO_HOW = bytes((max(0, mark - 1) for mark in range(256)))  # Normalizer.marks of a kept character -> HOW


class Token(NamedTuple):
    """A tuple, so that the many a collation asks for are quick to make."""

    char: str
    kind: str  # "char", "gap" or "gaiji"
    start: int
    end: int
    layer: str
    gaiji: GaijiEntry | None = None
    folded: str = ""  # how the comparison form was reached: "", "variant" or "opencc"

    def source(self, raw: RawText) -> str:
        return raw.text[self.start : self.end]


class Stream:
    """The tokens of some layers of a witness: token i is text[i] (its comparison character, gaps
    as ▯, unmapped gaiji as U+FFFC), raw offsets starts[i]:ends[i], KINDS[kinds[i]], the layer
    of CODES codes[i], HOW[folds[i]], and for a gaiji its (entry, character) entries[gaiji[i]]."""

    def __init__(
        self,
        layers: tuple[str, ...],
        text: str,
        starts: array,
        ends: array,
        kinds: bytearray,
        codes: bytearray,
        folds: bytearray,
        gaiji: array,
        entries: list[tuple[GaijiEntry, str]],
    ):
        self.layers = layers
        self.text = text
        self.starts, self.ends = starts, ends
        self.kinds, self.codes, self.folds = kinds, codes, folds
        self.gaiji, self.entries = gaiji, entries

    @cached_property
    def tokens(self) -> list[Token]:
        """The tokens as Token objects, made when first asked for: collation asks for those of the
        base and of the witnesses it includes, never for a large witness it leaves out."""
        names = ((KINDS, self.kinds), (LAYER_OF_CODE, self.codes), (HOW, self.folds))
        kinds, layers, folds = (map(table.__getitem__, column) for table, column in names)
        chars = map(sys.intern, self.text)  # one str object per distinct character
        tokens = list(map(Token._make, zip(chars, kinds, self.starts, self.ends, layers, repeat(None), folds)))
        for match in re.finditer(re.escape(bytes((KINDS.index("gaiji"),))), self.kinds):
            tokens[match.start()] = self.token(match.start())
        return tokens

    def token(self, i: int) -> Token:
        kind = KINDS[self.kinds[i]]
        entry, char = self.entries[self.gaiji[i]] if kind == "gaiji" else (None, sys.intern(self.text[i]))
        return Token(char, kind, self.starts[i], self.ends[i], LAYER_OF_CODE[self.codes[i]], entry, HOW[self.folds[i]])

    def only(self, layers: tuple[str, ...]) -> "Stream":
        spans = [m.span() for m in runs_of(frozenset(layers)).finditer(self.codes)]

        def pick(column):
            out = column[:0]
            for a, b in spans:
                out += column[a:b]
            return out

        columns = (self.starts, self.ends, self.kinds, self.codes, self.folds, self.gaiji)
        return Stream(layers, "".join(self.text[a:b] for a, b in spans), *map(pick, columns), self.entries)

    def source(self, raw: RawText, i: int, j: int | None) -> str:
        """The witness's own characters of tokens i:j."""
        return "".join(raw.text[start:end] for start, end in zip(self.starts[i:j], self.ends[i:j]))

    def of_kind(self, kind: str) -> list[Token]:
        return [self.token(m.start()) for m in re.finditer(re.escape(bytes((KINDS.index(kind),))), self.kinds)]

    def conversions(self, raw: RawText) -> Counter:
        """(witness form, comparison form, how) -> count."""
        converted = (i for m in re.finditer(rb"[^\x00]+", self.folds) for i in range(*m.span()))
        return Counter((raw.text[self.starts[i] : self.ends[i]], self.text[i], HOW[self.folds[i]]) for i in converted)


class TranslationTable(dict):
    """A str.translate table by code point that fills itself: `make(char)` on first use."""

    def __init__(self, make):
        super().__init__()
        self.make = make

    def __missing__(self, code: int):
        self[code] = value = self.make(chr(code))
        return value


class Normalizer:
    def __init__(self, script: str, variants: VariantForms, gaiji: GaijiTable):
        if script not in OPENCC_CONFIG:
            raise EditionError(None, f"comparison_script must be one of {', '.join(OPENCC_CONFIG)}")
        self.converters = [opencc.OpenCC(config) for config in OPENCC_CONFIG[script]]
        self.variants = variants
        self.gaiji = gaiji
        self.fold = lru_cache(maxsize=None)(self._fold)
        # str.translate tables, filled as characters come: a character's comparison form (None:
        # dropped), and its mark: 0 dropped, else 1 + the HOW of its folding.
        self.comparison = TranslationTable(lambda char: None if DROPPED.match(char) else self.fold(char)[0])
        self.marks = TranslationTable(
            lambda char: "\x00" if DROPPED.match(char) else chr(1 + HOW.index(self.fold(char)[1]))
        )

    def _fold(self, char: str) -> tuple[str, str]:
        """(comparison form, how): how is '', 'variant' or 'opencc'."""
        standard = converted = self.variants.standard(char)
        for converter in self.converters:
            once = converter.convert(converted)
            converted = once if len(once) == 1 else converted
        if standard != char:
            return converted, "variant"
        return converted, ("opencc" if converted != char else "")

    def difference(self, a: str, b: str) -> str:
        """How two characters of one comparison form differ: '' not at all, 'script' in script
        only (阶/階, 于/於), 'variant' as variant forms (either is one: 荅/答, 飮/饮)."""
        if a == b:
            return ""
        return "variant" if self.variants.fold(a) or self.variants.fold(b) else "script"

    def stream(self, raw: RawText, segments: list[Segment], layers: tuple[str, ...] = ("classic",)) -> Stream:
        text = raw.text
        parts: list[str] = []
        starts, ends, gaiji = array("i"), array("i"), array("i")
        kinds, codes, folds = bytearray(), bytearray(), bytearray()
        entries: dict[tuple[GaijiEntry, str], int] = {}  # each gaiji met, with its character: its index

        def add(char: str, start: int, end: int, kind: str, code: int, entry: GaijiEntry | None = None) -> None:
            parts.append(char if len(char) == 1 else UNMAPPED)
            starts.append(start)
            ends.append(end)
            kinds.append(KINDS.index(kind))
            codes.append(code)
            folds.append(0)
            gaiji.append(entries.setdefault((entry, char), len(entries)) if entry else -1)

        for segment in segments:
            if segment.layer not in layers:
                continue
            code = CODES[segment.layer]
            special = sorted(
                [(m.start(), m.end(), "gap", None) for m in GAP.finditer(text, segment.start, segment.end)]
                + [(s, e, "gaiji", entry) for s, e, entry in self.gaiji.finditer(text, segment.start, segment.end)]
            )
            position = segment.start
            for start, end, kind, entry in [*special, (segment.end, segment.end, None, None)]:
                if start < position:
                    continue
                # One token per character in between, less the dropped ones: by translation tables.
                chars = text[position:start]
                comparison = chars.translate(self.comparison)
                marks = chars.translate(self.marks).encode("latin-1")
                parts.append(comparison)
                starts.extend(compress(range(position, start), marks))
                ends.extend(compress(range(position + 1, start + 1), marks))
                kinds.extend(bytes(len(comparison)))
                codes.extend(bytes((code,)) * len(comparison))
                folds.extend(marks.translate(MARK_TO_HOW, b"\x00"))
                gaiji.extend(array("i", [-1]) * len(comparison))
                if kind == "gap":
                    add("▯", start, end, "gap", code)
                elif kind == "gaiji":
                    add(self.fold(entry.mapping)[0] if entry.mapping else entry.form, start, end, "gaiji", code, entry)
                position = end
        return Stream(layers, "".join(parts), starts, ends, kinds, codes, folds, gaiji, list(entries))
