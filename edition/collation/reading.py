"""Readings typed: how a reading is typed against the lemma, and how differences of script and
form are treated (the readings themselves are `model`'s)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING

from ..intake.normalize import Normalizer
from ..vocabulary import ReadingType as T
from .relations import Relations, Row

if TYPE_CHECKING:
    from .model import Reading

UNMAPPED = "\ufffc"
SCRIPT_SOURCE = "OpenCC (t2s): one character in simplified script"


@dataclass(frozen=True)
class Orthography:
    """Differences of form between characters of one comparison form, as a philologist treats
    them. A difference of script (阶/階, 于/於) where one of the two witnesses writes simplified is
    none at all (繁简字不出校). Variant forms (荅/答, 飮/饮), and between two traditional witnesses
    a pair that merges only in simplified script (于/於, 后/後), are orthographic: they go into the
    异体字表, and into the apparatus at each place only `at_each_place`."""

    normalizer: Normalizer
    at_each_place: bool
    script: str = "traditional"  # the script the edition writes its words in
    own_usages: tuple[Row, ...] = ()  # the work's usages (sources/usages.tsv), besides the package's

    def in_edition_script(self, reading: Reading) -> bool:
        """The reading's witness writes the edition's script."""
        return reading.simplified == (self.script == "simplified")

    @cached_property
    def relations(self) -> Relations:
        """The tables of graphic families, usages (the work's too), taboo characters and word
        filters, compared as this normalizer compares the witnesses' characters."""
        return Relations(lambda char: self.normalizer.fold(char)[0], self.own_usages, self.normalizer.variants.standard)

    def difference(self, a: str, a_simplified: bool, b: str, b_simplified: bool) -> str:
        """'' (none), 'script', 'usage' (two traditional characters of a usage the comparison
        merges: 于/於, 后/後) or 'orthographic'."""
        found = self.normalizer.difference(a, b)
        if found == "script" and (a_simplified or b_simplified):
            return "script"
        if found and self.relations.written((a,), (b,)) is not None:
            return "usage"
        return "orthographic" if found else ""

    def recorded(self, difference: str) -> bool:
        """A difference of this kind is an entry at its place: a usage always, a variant form where
        they are recorded at each place."""
        return difference == "usage" or self.at_each_place and difference == "orthographic"

    def same(self, reading: Reading, other: Reading) -> bool:
        """The two readings read the same at this place: one comparison text, and their forms
        differ only where no entry records it."""
        if reading.norm != other.norm or len(reading.forms) != len(other.forms):
            return False
        pairs = zip(reading.forms, reading.tokens, other.forms, other.tokens)
        return all(
            a == b
            or ta.kind == tb.kind == "char"
            and not self.recorded(self.difference(a, reading.simplified, b, other.simplified))
            for a, ta, b, tb in pairs
        )

    def sources(self, a: str, b: str) -> tuple[str, ...]:
        """Where the fold that makes two characters one comes from; first, where one is a form
        that avoids the other as a ruler's name (𤣥 for 玄, taboo.tsv), that table's source."""
        variants = self.normalizer.variants
        taboo = tuple(f"taboo form: {row.source}" for row in self.relations.taboo_forms(a, b))
        return taboo + (tuple(dict.fromkeys(variants.sources(a) + variants.sources(b))) or (SCRIPT_SOURCE,))


def wildcard_equal(reading: str, lemma: str) -> bool:
    return len(reading) == len(lemma) and all(r == m or r in "▯" + UNMAPPED for r, m in zip(reading, lemma))


def classify(reading: Reading, lemma: Reading, relations: Relations | None = None) -> tuple[str, str | None]:
    """The reading's type and subtype against the lemma. A substitution by characters that a table
    of `relations` relates to the lemma's (the same relation for every character that differs) is
    typed as the relation says: `graphic`, `usage`, `taboo` or an `intrusion` of the site's word
    filter; without `relations`, it is substantive. A transposition is a clause moved elsewhere,
    with its counterpart there; characters inverted in place (二字互乙) are a substitution."""
    if reading.intrusion:
        return T.INTRUSION, None
    if reading.moves or reading.moved_away:
        return T.TRANSPOSITION, None
    r, m = reading.norm, lemma.norm
    if r == m:
        special = any(t.kind == "gaiji" for t in reading.tokens + lemma.tokens)
        if special:
            return T.GAIJI, None
        written = (
            relations.written(reading.forms, lemma.forms)
            if relations is not None and not (reading.simplified or lemma.simplified)
            else None
        )
        return (written.type, written.subtype) if written is not None else (T.ORTHOGRAPHIC, None)
    if "▯" in r and (wildcard_equal(r, m) or set(r) == {"▯"}):
        return T.LACUNA, None
    if UNMAPPED in r and wildcard_equal(r, m) or UNMAPPED in m and wildcard_equal(m, r):
        return T.GAIJI, None  # a character Unicode lacks, where the other writes one of its own
    if "▯" in r:
        return T.LACUNA, None
    if not r:
        return T.SUBSTANTIVE, "omission"
    if not m:
        return T.SUBSTANTIVE, "addition"
    related = relations.between(r, m) if relations is not None else None
    if related is not None:
        return related.type, related.subtype
    return T.SUBSTANTIVE, "substitution"


def merge_same(readings: list[Reading], orthography: Orthography) -> list[Reading]:
    """Witnesses whose readings are the same at this place (of one type) share one reading; those
    that write it in other characters are kept with it (`alike`), each witness's own."""
    groups: list[list[Reading]] = []
    for reading in readings:
        group = next(
            (
                g
                for g in groups
                if g[0].type == reading.type
                and g[0].moves == reading.moves
                and g[0].moved_away == reading.moved_away
                and orthography.same(g[0], reading)
            ),
            None,
        )
        if group:
            group.append(reading)
        else:
            groups.append([reading])
    return [shared(group, orthography) for group in groups]


def shared(group: list[Reading], orthography: Orthography) -> Reading:
    """One reading of the group's witnesses, in the characters of the first that writes the
    edition's script (雖 where 000 writes 虽 and WYG 雖), else of the first."""
    head = min(group, key=lambda r: not orthography.in_edition_script(r))
    sigla = [s for r in group for s in r.sigla]
    head.alike = [r for r in group if r.forms != head.forms]
    head.sigla = sigla
    return head
