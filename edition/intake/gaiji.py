"""Gaiji: stand-ins for characters a digitizer could not type, never silently mapped.

Known stand-ins and their evidence live in `sources/gaiji.tsv`. Entities (`&KR0211;`) are
resolved through Kanripo's table of the characters Unicode lacks, vendored in
`data/kanripo-gaiji.tsv` (the edition's own table comes first). Unlisted stand-ins are still found
by their shape (a private-use code point, a component description in {…} or <…>, bopomofo or
box-drawing signs inside Han text, an entity) and recorded without a mapping.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from importlib import resources
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
    ("entity", r"&[A-Za-z][A-Za-z0-9_.-]*;"),
)
KINDS = {kind for kind, _ in SHAPES} | {"split"}
KANRIPO = "Kanripo's table of characters Unicode lacks (KR-Gaiji, commit 662fd61)"
PRIVATE_USE = regex.compile(SHAPES[0][1])
IDS = regex.compile(r"[\u2FF0-\u2FFB][\u2FF0-\u2FFB\p{Han}]+")  # a description operator first, then parts


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
    code: str = ""  # an entity's code in the table that resolves it
    recorded: tuple[tuple[str, str], ...] = ()  # what that table gives for it: (kind, characters)
    ids: str = ""  # its composition as an Ideographic Description Sequence (⿰纟舀), where no mapping is known

    @property
    def xml_id(self) -> str:
        if self.kind == "entity":
            return "g-" + self.form[1:-1]
        return "g-" + "-".join(f"{ord(c):X}" for c in self.form)


def one_character(text: str) -> bool:
    """A single character that can stand for itself: no private-use code point or component description."""
    return len(text) == 1 and not PRIVATE_USE.match(text) and not "\u2ff0" <= text <= "\u2fff"


def kanripo_entry(code: str, form: str, normalized: str) -> GaijiEntry:
    """An entity of Kanripo's table, resolved to its form if that is one character, else to its
    normalized character (a doubtful one too: the table marks it with ?)."""
    form, normalized = form.strip(), normalized.strip()
    mapping = next((c for c in (form, normalized.removesuffix("?")) if one_character(c)), "")
    given = ", ".join(f"{name} {value}" for name, value in (("form", form), ("normalized", normalized)) if value)
    description = f"Kanripo entity {code}" + (
        f": {given}" if given else ": neither a form nor a normalized character in the table"
    )
    recorded = tuple(
        (name, value) for name, value in (("kanripo-form", form), ("kanripo-normalized", normalized)) if value
    )
    return GaijiEntry(f"&{code};", mapping, "entity", description, KANRIPO, "", code, recorded)


@cache
def kanripo_table() -> dict[str, GaijiEntry]:
    path = Path(str(resources.files("edition.intake") / "data" / "kanripo-gaiji.tsv"))
    return {
        f"&{row['code']};": kanripo_entry(row["code"], row["form"], row["normalized"])
        for _, row in read_tsv(path, ("code", "form", "normalized"))
    }


class GaijiTable:
    def __init__(self, entries: list[GaijiEntry]):
        self.entries = kanripo_table() | {e.form: e for e in entries}
        listed = sorted((form for form in self.entries if form not in kanripo_table()), key=len, reverse=True)
        alternatives = [regex.escape(f) for f in listed] + [shape for _, shape in SHAPES]
        self.pattern = regex.compile("|".join(alternatives))

    @classmethod
    def load(cls, path: Path) -> GaijiTable:
        entries = []
        for line, row in read_tsv(path, ("form", "mapping", "witnesses", "kind", "description", "evidence", "ids")):
            form = decode_form(row["form"])
            if row["kind"] not in KINDS:
                raise EditionError(path, f"unknown gaiji kind {row['kind']!r}", line)
            if row["ids"] and not IDS.fullmatch(row["ids"]):
                raise EditionError(path, f"ids {row['ids']!r} is no Ideographic Description Sequence", line)
            entries.append(
                GaijiEntry(
                    form,
                    row["mapping"],
                    row["kind"],
                    row["description"],
                    row["evidence"],
                    row["witnesses"],
                    ids=row["ids"],
                )
            )
        return cls(entries)

    def entry(self, form: str) -> GaijiEntry:
        if form in self.entries:
            return self.entries[form]
        kind = next(k for k, shape in SHAPES if regex.fullmatch(shape, form))
        return GaijiEntry(form, "", kind, f"unlisted {kind} stand-in {describe_form(form)}")

    def finditer(self, text: str, start: int, end: int):
        for match in self.pattern.finditer(text, start, end):
            yield match.start(), match.end(), self.entry(match.group())
