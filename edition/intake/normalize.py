"""Normalization: the comparison stream of a witness, one token per character, each pointing back
to its raw offsets.

For comparison only: variant forms are folded to their standard form (`variants.VariantForms`),
OpenCC converts to the edition's comparison script by way of the other script (so that 馀 and 余,
both simplified forms of 餘, compare equal), punctuation and line wraps are dropped, runs of ▯
or □ become one gap token, gaiji become one token carrying their mapped character (or their own form
when unmapped). The witness's own characters stay in the raw text for display.

A stream (`model.Stream`) keeps its tokens column by column (a witness of 50 MB has tens of millions of them);
`Stream.tokens` makes Token objects only when asked for.
"""

from __future__ import annotations

from array import array
from functools import lru_cache
from itertools import compress

import opencc
import regex

from ..errors import EditionError
from .gaiji import GaijiEntry, GaijiTable
from .model import CODES, HOW, KINDS, RawText, Segment, Stream
from .variants import VariantForms

OPENCC_CONFIG = {"simplified": ("s2t", "t2s"), "traditional": ("t2s", "s2t")}  # by way of the other script
GAP = regex.compile(r"[▯□]+|\uFFFD+")  # □: the transcriber's mark of a character not read (今之□也)
DROPPED = regex.compile(r"[\p{P}\p{S}\p{Z}\s\p{Cc}\p{Cf}\p{Cs}\p{Noncharacter_Code_Point}]")
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
UNMAPPED = "\ufffc"
MARK_TO_HOW = bytes(max(0, mark - 1) for mark in range(256))  # Normalizer.marks of a kept character -> HOW


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

    def compared(self, text: str) -> str:
        """Any text as a stream of it compares (an editor's words, a reading of the report):
        gaps as one ▯, gaiji as their mapped character, the rest folded, punctuation dropped; a
        character the transcription could not encode (U+FFFC) is kept."""
        out, position = [], 0
        special = sorted(
            [(m.start(), m.end(), "▯") for m in GAP.finditer(text)]
            + [
                (s, e, self.fold(g.mapping)[0] if g.mapping else UNMAPPED)
                for s, e, g in self.gaiji.finditer(text, 0, len(text))
            ]
        )
        for start, end, char in [*special, (len(text), len(text), "")]:
            if start >= position:
                out += [
                    UNMAPPED.join(part.translate(self.comparison) for part in text[position:start].split(UNMAPPED)),
                    char,
                ]
                position = end
        return "".join(out)

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
