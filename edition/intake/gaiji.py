"""Gaiji: stand-ins for characters a digitizer could not type, never silently mapped.

Known stand-ins and their evidence live in `sources/gaiji.tsv`. Unlisted ones are still found by
their shape (a private-use code point, a component description in {…} or <…>, bopomofo or
box-drawing signs inside Han text) and recorded without a mapping.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import regex

from ..errors import EditionError
from ..tables import read_tsv

SHAPES = (
    ("private-use", r"[\uE000-\uF8FF\U000F0000-\U0010FFFD]"),
    ("component", r"\{[^{}\s]{1,8}\}"),
    ("component", r"<\p{Han}[^<>\s]{0,7}>"),
    ("bopomofo", r"[\u3100-\u312F\u31A0-\u31BF]"),
    ("box-drawing", r"[\u2500-\u257F]"),
)
KINDS = {kind for kind, _ in SHAPES} | {"split"}


def decode_form(text: str) -> str:
    return regex.sub(r"U\+([0-9A-Fa-f]{4,6})", lambda m: chr(int(m.group(1), 16)), text)


def describe_form(form: str) -> str:
    return "".join(f"U+{ord(c):04X}" if 0xE000 <= ord(c) <= 0xF8FF or ord(c) >= 0xF0000 else c for c in form)


@dataclass(frozen=True)
class GaijiEntry:
    form: str
    mapping: str
    kind: str
    description: str
    evidence: str = ""
    witnesses: str = ""

    @property
    def xml_id(self) -> str:
        return "g-" + "-".join(f"{ord(c):X}" for c in self.form)


class GaijiTable:
    def __init__(self, entries: list[GaijiEntry]):
        self.entries = {e.form: e for e in entries}
        listed = sorted(self.entries, key=len, reverse=True)
        alternatives = [regex.escape(f) for f in listed] + [shape for _, shape in SHAPES]
        self.pattern = regex.compile("|".join(alternatives))

    @classmethod
    def load(cls, path: Path) -> "GaijiTable":
        entries = []
        for line, row in read_tsv(path, ("form", "mapping", "witnesses", "kind", "description", "evidence")):
            form = decode_form(row["form"])
            if row["kind"] not in KINDS:
                raise EditionError(path, f"unknown gaiji kind {row['kind']!r}", line)
            entries.append(GaijiEntry(form, row["mapping"], row["kind"], row["description"], row["evidence"], row["witnesses"]))
        return cls(entries)

    def entry(self, form: str) -> GaijiEntry:
        if form in self.entries:
            return self.entries[form]
        kind = next(k for k, shape in SHAPES if regex.fullmatch(shape, form))
        return GaijiEntry(form, "", kind, f"unlisted {kind} stand-in {describe_form(form)}")

    def finditer(self, text: str, start: int, end: int):
        for match in self.pattern.finditer(text, start, end):
            yield match.start(), match.end(), self.entry(match.group())
