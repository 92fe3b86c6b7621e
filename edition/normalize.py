"""Normalization: the comparison stream of a witness, one token per character, each pointing back
to its raw offsets.

For comparison only: variant characters are folded (`sources/variants.tsv`), OpenCC converts to
the edition's comparison script, punctuation and line wraps are dropped, runs of ▯ become one gap
token, gaiji become one token carrying their mapped character (or their own form when unmapped).
The witness's own characters stay in the raw text for display.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import opencc
import regex

from .errors import EditionError
from .gaiji import GaijiEntry, GaijiTable
from .layers import Segment
from .tables import read_tsv
from .witness import RawText

OPENCC_CONFIG = {"simplified": "t2s", "traditional": "s2t"}
GAP = regex.compile(r"▯+|\uFFFD+")
DROPPED = regex.compile(r"[\p{P}\p{S}\p{Z}\s\p{Cc}\p{Cs}\p{Noncharacter_Code_Point}]")
TEXT_LAYERS = ("classic", "commentary", "subcommentary", "scholia")


@dataclass(frozen=True, slots=True)
class Token:
    char: str
    kind: str  # "char", "gap" or "gaiji"
    start: int
    end: int
    layer: str
    gaiji: GaijiEntry | None = None
    folded: str = ""  # how the comparison form was reached: "", "variant" or "opencc"

    def source(self, raw: RawText) -> str:
        return raw.text[self.start : self.end]


@dataclass
class Stream:
    layers: tuple[str, ...]
    tokens: list[Token]

    def only(self, layers: tuple[str, ...]) -> "Stream":
        return Stream(layers, [t for t in self.tokens if t.layer in layers])

    def conversions(self, raw: RawText) -> Counter:
        """(witness form, comparison form, how) -> count."""
        return Counter((t.source(raw), t.char, t.folded) for t in self.tokens if t.folded)

    @property
    def text(self) -> str:
        """The comparison string: one character per token (gaps as ▯, unmapped gaiji as U+FFFC)."""
        return "".join(t.char if len(t.char) == 1 else "\ufffc" for t in self.tokens)


def load_variants(path: Path) -> dict[str, str]:
    table: dict[str, str] = {}
    for line, row in read_tsv(path, ("variant", "standard", "source")):
        variant, standard = row["variant"], row["standard"]
        if len(variant) != 1 or len(standard) != 1:
            raise EditionError(path, "variant and standard must be single characters", line)
        if variant in table:
            raise EditionError(path, f"variant {variant} is listed twice", line)
        if not row["source"].strip():
            raise EditionError(path, f"variant {variant} has no source", line)
        table[variant] = standard
    return table


class Normalizer:
    def __init__(self, script: str, variants: dict[str, str], gaiji: GaijiTable):
        if script not in OPENCC_CONFIG:
            raise EditionError(None, f"comparison_script must be one of {', '.join(OPENCC_CONFIG)}")
        self.converter = opencc.OpenCC(OPENCC_CONFIG[script])
        self.variants = variants
        self.gaiji = gaiji
        self.fold = lru_cache(maxsize=None)(self._fold)

    def _fold(self, char: str) -> tuple[str, str]:
        """(comparison form, how): how is '', 'variant' or 'opencc'."""
        standard = self.variants.get(char, char)
        converted = self.converter.convert(standard)
        if len(converted) != 1:
            converted = standard
        converted = self.variants.get(converted, converted)
        if standard != char:
            return converted, "variant"
        return converted, ("opencc" if converted != char else "")

    def stream(self, raw: RawText, segments: list[Segment], layers: tuple[str, ...] = ("classic",)) -> Stream:
        out = Stream(layers, [])
        text = raw.text
        for segment in segments:
            if segment.layer not in layers:
                continue
            special = sorted(
                [(m.start(), m.end(), "gap", None) for m in GAP.finditer(text, segment.start, segment.end)]
                + [(s, e, "gaiji", entry) for s, e, entry in self.gaiji.finditer(text, segment.start, segment.end)]
            )
            position = segment.start
            for start, end, kind, entry in [*special, (segment.end, segment.end, None, None)]:
                if start < position:
                    continue
                for i in range(position, start):
                    char = text[i]
                    if DROPPED.match(char):
                        continue
                    folded, how = self.fold(char)
                    out.tokens.append(Token(folded, "char", i, i + 1, segment.layer, folded=how))
                if kind == "gap":
                    out.tokens.append(Token("▯", "gap", start, end, segment.layer))
                elif kind == "gaiji":
                    char = self.fold(entry.mapping)[0] if entry.mapping else entry.form
                    out.tokens.append(Token(char, "gaiji", start, end, segment.layer, entry))
                position = end
        return out
