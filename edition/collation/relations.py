"""Relations between characters that make a difference no substantive reading: graphic families
that printers confuse (己已巳), classical usages (古今字 and 通假), taboo substitutions (避諱) and the
words a web site's filter replaces, each from a table of `data/` that cites its source row by row.

A variant form is one character written two ways and is folded for comparison
(`intake.variants`); the characters of these tables are distinct characters, compared as they
are, and a reading that differs from the lemma only by them is typed as what it is (see
`reading.classify`): `graphic`, `usage` (subtype the relation), `taboo`, or `intrusion` of subtype
`word-filter`. None of them is ever an automatic emendation, which rests on substantive readings
alone. The tables are compared in the comparison script, their characters folded as the witnesses'
are (`Relations(fold)`, with a normalizer's fold). A work adds usages of its own
(`sources/usages.tsv`, read by `read_usages`), which come before the package's.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path

import regex

from ..errors import EditionError
from ..tables import read_tsv
from ..vocabulary import ReadingType

DATA = Path(str(resources.files("edition.collation") / "data"))
GRAPHIC_FAMILIES = DATA / "graphic_families.tsv"
GRAPHIC_SENSES = DATA / "graphic_senses.tsv"
USAGES = DATA / "usages.tsv"
TABOO = DATA / "taboo.tsv"
WORD_FILTERS = DATA / "word_filters.tsv"

GRAPHIC, USAGE, TABOO_TYPE, INTRUSION = ReadingType.GRAPHIC, ReadingType.USAGE, ReadingType.TABOO, ReadingType.INTRUSION
WORD_FILTER = "word-filter"  # the subtype of an intrusion that a site's word filter made
# The relations of a usage, as the tables write them, and as the TEI types them (rdg/@subtype).
USAGE_SUBTYPES = {"古今字": "gujinzi", "通假": "tongjia"}


@dataclass(frozen=True)
class Relation:
    """How two characters are related: the reading type (and subtype) a difference by them is."""

    type: str
    subtype: str | None = None


@dataclass(frozen=True)
class Row:
    """A row of a table: its characters as written, what it says, and its source."""

    characters: tuple[str, ...]
    relation: Relation
    source: str
    line: int


def single(path: Path, line: int, value: str, column: str) -> str:
    if len(value) != 1:
        raise EditionError(path, f"{column} must be one character, found {value!r}", line)
    return value


def sourced(path: Path, line: int, row: dict[str, str]) -> str:
    if not row["source"].strip():
        raise EditionError(path, "the row has no source", line)
    return row["source"]


@cache
def graphic_families() -> tuple[Row, ...]:
    out = []
    for line, row in read_tsv(GRAPHIC_FAMILIES, ("family", "source", "evidence")):
        family = tuple(row["family"])
        if len(family) < 2 or len(set(family)) != len(family):
            problem = f"a family is two or more distinct characters: {row['family']!r}"
            raise EditionError(GRAPHIC_FAMILIES, problem, line)
        out.append(Row(family, Relation(GRAPHIC), sourced(GRAPHIC_FAMILIES, line, row), line))
    return tuple(out)


@dataclass(frozen=True)
class Sense:
    """A row of the senses of a graphic family: the member that the words before and after call for."""

    member: str
    before: str
    after: str
    source: str
    line: int


@cache
def graphic_senses() -> tuple[Sense, ...]:
    out = []
    members = {c for row in graphic_families() for c in row.characters}
    for line, row in read_tsv(GRAPHIC_SENSES, ("member", "before", "after", "source", "evidence")):
        if row["member"] not in members:
            raise EditionError(GRAPHIC_SENSES, f"{row['member']!r} is no member of a graphic family", line)
        if not (row["before"] or row["after"]):
            raise EditionError(GRAPHIC_SENSES, "a row needs the words before or after", line)
        for column in ("before", "after"):
            try:
                regex.compile(row[column])
            except regex.error as error:
                raise EditionError(GRAPHIC_SENSES, f"{column} is no regular expression: {error}", line) from None
        out.append(Sense(row["member"], row["before"], row["after"], sourced(GRAPHIC_SENSES, line, row), line))
    return tuple(out)


def read_usages(path: Path) -> tuple[Row, ...]:
    """The rows of a table of usages (the package's, or a work's of the same columns)."""
    out = []
    for line, row in read_tsv(path, ("character", "other", "relation", "source", "evidence")):
        if row["relation"] not in USAGE_SUBTYPES:
            raise EditionError(path, f"relation must be one of {', '.join(USAGE_SUBTYPES)}", line)
        pair = (single(path, line, row["character"], "character"), single(path, line, row["other"], "other"))
        relation = Relation(USAGE, USAGE_SUBTYPES[row["relation"]])
        out.append(Row(pair, relation, sourced(path, line, row), line))
    return tuple(out)


@cache
def usages() -> tuple[Row, ...]:
    """The package's usages."""
    return read_usages(USAGES)


@cache
def taboo() -> tuple[Row, ...]:
    out = []
    for line, row in read_tsv(TABOO, ("character", "substitute", "name", "source", "evidence")):
        pair = (
            single(TABOO, line, row["character"], "character"),
            single(TABOO, line, row["substitute"], "substitute"),
        )
        out.append(Row(pair, Relation(TABOO_TYPE), sourced(TABOO, line, row), line))
    return tuple(out)


@cache
def word_filters() -> tuple[Row, ...]:
    out = []
    for line, row in read_tsv(WORD_FILTERS, ("word", "substitute", "source", "evidence")):
        pair = (
            single(WORD_FILTERS, line, row["word"], "word"),
            single(WORD_FILTERS, line, row["substitute"], "substitute"),
        )
        out.append(Row(pair, Relation(INTRUSION, WORD_FILTER), sourced(WORD_FILTERS, line, row), line))
    return tuple(out)


class Relations:
    """The tables in comparison form: how the character a reading has is related to the lemma's
    at the same place. A site's filter goes one way (the lemma has the word, the reading what the
    site writes for it); a family, a usage and a taboo pair either way. Asked in this order: a
    filter, a taboo, a family, a usage."""

    def __init__(
        self, fold: Callable[[str], str], own_usages: tuple[Row, ...] = (), standard: Callable[[str], str] = str
    ):
        """The tables with their characters as `fold` (a normalizer's) compares them; a work's
        `own_usages` before the package's, so that its row of a pair decides. A usage whose two
        characters the comparison makes one (于 and 於, merged in simplified script) is kept by
        their `standard` forms (variant forms folded, the script not changed): `written`."""
        self.filtered: dict[tuple[str, str], Row] = {}
        self.written_pairs: dict[frozenset[str], Row] = {}
        self.standard = standard
        self.pairs: dict[frozenset[str], Row] = {}
        for row in word_filters():
            word, substitute = map(fold, row.characters)
            self.filtered.setdefault((word, substitute), row)
        self.taboo_rows = taboo()
        for row in self.taboo_rows:
            self.pair(map(fold, row.characters), row)
        self.families: dict[str, frozenset[str]] = {}  # a member -> its family's members
        for row in graphic_families():
            members = [fold(c) for c in row.characters]
            self.families.update(dict.fromkeys(members, frozenset(members)))
            for a in members:
                for b in members:
                    self.pair((a, b), row)
        for row in own_usages + usages():
            self.pair(map(fold, row.characters), row)
            a, b = map(standard, row.characters)
            if fold(a) == fold(b) and a != b:
                self.written_pairs.setdefault(frozenset((a, b)), row)
        self.fold = fold
        self.senses = []  # (member, what the words before end with, what those after begin with, row)
        for sense in graphic_senses():
            before, after = ("".join(map(fold, pattern)) for pattern in (sense.before, sense.after))
            self.senses.append((fold(sense.member), regex.compile(f"(?:{before})$"), regex.compile(after), sense))

    def pair(self, characters, row: Row) -> None:
        a, b = characters
        if a != b:
            self.pairs.setdefault(frozenset((a, b)), row)

    def sense(self, before: str, after: str, member: str) -> tuple[str, Sense] | None:
        """The member of `member`'s graphic family (in comparison form) that the words about it,
        `before` and `after` it, call for, with the first row of the senses that says so."""
        before, after = ("".join(map(self.fold, words)) for words in (before, after))
        family = self.families.get(member, frozenset())
        for called, ends, begins, sense in self.senses:
            if called in family and ends.search(before) and begins.match(after):
                return called, sense
        return None

    def taboo_forms(self, a: str, b: str) -> list[Row]:
        """The rows of the taboo table that pair the two characters as written (玄 and 𤣥, which the
        comparison folds to one)."""
        return [row for row in self.taboo_rows if set(row.characters) == {a, b}]

    def member(self, character: str) -> bool:
        """The character is a member of a graphic family."""
        return character in self.families

    def row(self, lemma: str, reading: str) -> Row | None:
        """The row of the tables that relates the reading's character to the lemma's, if one does."""
        return self.filtered.get((lemma, reading)) or self.pairs.get(frozenset((lemma, reading)))

    def of(self, lemma: str, reading: str) -> Relation | None:
        """How the reading's character is related to the lemma's, if a table relates them."""
        row = self.row(lemma, reading)
        return row.relation if row else None

    def each_related(self, reading: str, lemma: str) -> bool:
        """Every character in which a reading differs from the lemma (of one length) is related to
        the lemma's by a table, by relations of two kinds or more (孰巳 and 熟已: a usage and a
        graphic variant): each is a difference of its own."""
        found = self.differences(reading, lemma)
        return len(reading) == len(lemma) and None not in found and len(set(found)) > 1

    def differences(self, reading: str, lemma: str) -> list[Relation | None]:
        """The relation of each character in which a reading differs from the lemma."""
        return [self.of(m, r) for r, m in zip(reading, lemma) if r != m]

    def written(self, reading: tuple[str, ...], lemma: tuple[str, ...]) -> Relation | None:
        """Of two readings of one comparison text, each character as its witness writes it
        (`Reading.forms`, both in traditional script): the usage they differ by where a character
        of one and the other's are a usage the comparison merges (于 and 於), the other characters
        alike but for variant forms; None if none."""
        if len(reading) != len(lemma):
            return None
        differing = [
            frozenset((self.standard(r), self.standard(m)))
            for r, m in zip(reading, lemma)
            if self.standard(r) != self.standard(m)
        ]
        rows = {self.written_pairs.get(pair) for pair in differing}
        return rows.pop().relation if len(rows) == 1 and None not in rows else None

    def between(self, reading: str, lemma: str) -> Relation | None:
        """The one relation of every character in which a reading differs from the lemma (two
        comparison texts of one length), if a table gives each the same; None if any differs
        otherwise, or by relations of two kinds."""
        if len(reading) != len(lemma) or reading == lemma:
            return None
        found = set(self.differences(reading, lemma))
        return found.pop() if len(found) == 1 else None


def table_rows() -> dict[str, tuple[Row, ...]]:
    """Every table by the reading type it gives, for the 凡例 and the reports."""
    return {GRAPHIC: graphic_families(), USAGE: usages(), TABOO_TYPE: taboo(), WORD_FILTER: word_filters()}
