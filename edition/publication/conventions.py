"""Editorial conventions: every apparatus entry and the 凡例 phrased from the templates of
`conventions.toml`, in the style the edition chose (`apparatus_style`: chinese or latin). The HTML
and the PDF both render the parts made here; neither phrases an entry of its own."""

from __future__ import annotations

import string
import tomllib
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING

import regex

if TYPE_CHECKING:
    from .model import App, EditionView

# The series of the apparatus: A the witnesses' readings, emendations and notes (a site's word
# filter among the intrusions), B 今文/古文, C what differs in form only: stand-ins, variant forms,
# graphic variants (己已巳), classical usages (古今字, 通假) and taboo substitutions (避諱), all of the
# 經; D every entry on the 注.
SERIES_A = ("substantive", "lacuna", "intrusion", "transposition", "fragment")
SERIES_C = ("orthographic", "gaiji", "graphic", "usage", "taboo")
SERIES = "ABCD"
COMMENTARY_SERIES = "D"
# Where a witness that quotes the 注 in part stops and takes up quoting: no entry.
QUOTING = ("lacunaStart", "lacunaEnd")
TRADITION_NAMES = {"#jinwen": "今文", "#guwen": "古文"}
CHINESE_DIGITS = "〇一二三四五六七八九"
SUPERSCRIPT = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")


LONG = 24  # characters beyond which a lemma or a reading is cited by its first and last words
CITED_ENDS = 4


def cited(text: str) -> str:
    """A long passage by its first and last words (X……Y), as a 校勘记 cites it."""
    return text if len(text) <= LONG else f"{text[:CITED_ENDS]}……{text[-CITED_ENDS:]}"


def occurrence_mark(app: App) -> str:
    """The lemma as the apparatus cites it: with its occurrence in the sentence where it recurs (之²)."""
    return cited(app.lemma.text) + (str(app.occurrence).translate(SUPERSCRIPT) if app.occurrence else "")


@cache
def table() -> dict:
    return tomllib.loads((resources.files("edition.publication") / "conventions.toml").read_text(encoding="utf-8"))


def chinese_number(number: int) -> str:
    """一 to 九十九 in words; larger numbers in digits."""
    if not 0 < number < 100:
        return str(number)
    tens, units = divmod(number, 10)
    return (("" if tens == 1 else CHINESE_DIGITS[tens]) + "十" if tens else "") + (
        CHINESE_DIGITS[units] if units else ""
    )


@dataclass(frozen=True)
class EntryPart:
    """A piece of a phrased entry: `role` is text, lemma, reading, sigla, where or inner (with the target
    entry's id), words (Zheng Xuan's) or note (an editor's)."""

    role: str
    text: str
    target: str = ""


@dataclass
class Clause:
    """One statement of an entry: a reading, an emendation, a fragment's start or end, a note."""

    kind: str  # the template it is phrased by
    type: str  # the reading type it reports (for the filters and colours)
    series: str  # A, B, C or D
    parts: list[EntryPart]
    key: tuple = ()  # what makes it the same variant as another (for 下同)
    recurs: bool = False  # the first of a variant that recurs later in the section
    recurred: bool = False  # a later occurrence: not printed, 同上 in the HTML

    @property
    def text(self) -> str:
        return "".join(p.text for p in self.parts)


@dataclass
class Entry:
    app: App
    clauses: list[Clause] = field(default_factory=list)

    def series(self, name: str) -> list[Clause]:
        return [c for c in self.clauses if c.series == name]


class Conventions:
    def __init__(self, style: str):
        self.style = style
        self.templates = table()[style]

    def label(self, kind: str) -> str:
        return self.templates["labels"].get(kind, kind)

    def fold_source(self, source: str) -> str:
        """A table a variant form is folded by (edition/intake/variants.py names it in English), as
        the style names it: the first of `fold_sources` whose pattern it matches, with its groups."""
        for pattern, name in self.templates.get("fold_sources", {}).items():
            if match := regex.search(pattern, source):
                return name.format(*match.groups())
        return source

    def words(self, number: int) -> str:
        """A count as the style writes it: 三 or 3."""
        return chinese_number(number) if self.templates["numerals"] == "chinese" else str(number)

    def phrase(self, kind: str, **values) -> list[EntryPart]:
        """The template `kind` with its fields filled: each field a part of its own role."""
        parts = []
        for literal, name, _, _ in string.Formatter().parse(self.templates[kind]):
            if literal:
                parts.append(EntryPart("text", literal))
            if name:
                value = values[name]
                if isinstance(value, list):
                    parts += value
                else:
                    parts.append(value if isinstance(value, EntryPart) else EntryPart(ROLES.get(name, "text"), value))
        return parts

    def entries(self, edition: EditionView) -> dict[str, Entry]:
        """Every entry phrased; a variant that recurs in a section (same lemma, reading and
        witnesses) is said once, with 下同, where the style has it."""
        entries = {app.id: Entry(app, self.clauses(edition, app)) for app in edition.all_apps}
        if self.templates["recurs"]:
            first: dict[tuple, Clause] = {}
            first_app: dict[tuple, App] = {}
            for entry in (
                e for e in entries.values() if e.app.in_text
            ):  # a moved clause's differences are said with it
                for clause in entry.clauses:
                    if not clause.key:
                        continue
                    key = (entry.app.section, bool(entry.app.gloss), *clause.key)
                    if key in first:
                        first[key].recurs, clause.recurred = True, True
                        clause.parts = self.phrase(
                            "recurred", where=EntryPart("where", self.where([first_app[key]]), first_app[key].id)
                        )
                    else:
                        first[key], first_app[key] = clause, entry.app
            for clause in first.values():
                if clause.recurs:
                    clause.parts = clause.parts + [EntryPart("text", self.templates["recurs"])]
        return entries

    def where(self, apps: list[App]) -> str:
        return "、".join(dict.fromkeys(a.citation for a in apps)) or "?"

    def clauses(self, edition: EditionView, app: App) -> list[Clause]:
        """The entry's statements; on the 注 all in series D, without where a witness that quotes
        it in part leaves off and takes up quoting."""
        out = self.statements(edition, app)
        if app.gloss:
            for clause in out:
                clause.series = COMMENTARY_SERIES
        return out

    def statements(self, edition: EditionView, app: App) -> list[Clause]:
        names = lambda wit: edition.sigla(wit, self.templates["name_joiner"])
        lemma = occurrence_mark(app)
        out: list[Clause] = []
        base = edition.base
        base_reading = next((r for r in app.readings if base and f"#{base.id}" in r.wit), None) if app.emended else None
        if app.lost_leaf:
            phrased = self.phrase(
                "lost_leaf", lemma=lemma, sigla=names(app.lost_leaf), base_sigla=names([base.id] if base else [])
            )
            out.append(Clause("lost_leaf", "lacuna", "A", phrased))
        if app.emended and base_reading is not None:
            supporting = [w for w in app.lemma.wit if base is None or w.lstrip("#") != base.id]
            values = {"lemma": lemma, "base": cited(base_reading.text), "base_sigla": names(base_reading.wit)}
            kind = (
                "emendation"
                if supporting and app.basis in ("", "對校")
                else EMENDATION_BY_BASIS.get(app.basis, "emendation_by_editor")
            )
            if kind == "emendation" and not base_reading.text:
                kind = "supplied"  # the base has lost the text
            phrased = self.phrase(kind, sigla=names(supporting), source=app.basis_source, **values)
            if app.same_as:
                other = next((a for a in edition.apps if a.id == app.same_as), None)
                phrased += self.phrase(
                    "same_error", where=EntryPart("where", self.where([other]) if other else "?", app.same_as)
                )
            out.append(Clause(kind, "substantive", "A", phrased))
        for r in app.readings:
            if r is base_reading or r.type == "fragment" or app.lost_leaf and r.type == "lacuna":
                continue
            if app.graphic and base and f"#{base.id}" in r.wit:
                continue  # the base's member of a graphic family, set right without an entry
            if r.type == "usage" and not edition.usages_at_each_place:
                continue
            sigla = names(r.wit)
            if r.type == "jinguwen":
                out += self.jinguwen(edition, app, r, lemma)
                continue
            kind = reading_kind(app, r)
            values = {
                "lemma": lemma,
                "reading": cited(r.text),
                "sigla": sigla,
                "before": app.before,
                "after": app.after,
            }
            if kind in ("moved_away", "moved_in"):
                values["where"] = EntryPart("where", self.where(r.elsewhere), r.elsewhere[0].id if r.elsewhere else "")
            if kind == "inversion":
                values["first"], values["second"] = app.lemma.text[0], app.lemma.text[1]
            if kind == "usage":
                values["relation"] = self.templates["relations"].get(r.subtype, r.subtype)
            series = "C" if r.type in SERIES_C else "A"
            parts = self.phrase(kind, **values) + [
                part for inner in r.inner for part in self.within_moved(edition, inner)
            ]
            out.append(Clause(kind, r.type, series, parts, (kind, app.lemma.text, r.text, tuple(r.wit))))
        for name, wit in app.markers:
            if app.gloss and name in QUOTING and "commentary" in edition.witnesses[wit].abridged:
                continue
            if base and wit == base.id:  # where the base's text stops, its lost leaf's entry says why
                continue
            out.append(Clause(name, "fragment", "A", self.phrase(name, sigla=names([wit]))))
        for wit, layer, words in [] if app.graphic else app.evidence:  # a graphic family's member: silent
            book = edition.witnesses.get(wit.split()[0].lstrip("#"))
            kind = "judgement" if layer == "collation-notes" else "evidence"
            said = "" if book is not None and book.evidence else self.templates["layers"].get(layer, layer)
            phrased = self.phrase(kind, sigla=names(wit.split()), layer=said, words=words)
            out.append(Clause(kind, "substantive", "A", phrased))
        for author, quoted in app.textual:
            out.append(
                Clause(
                    "textual",
                    "textual",
                    "A",
                    self.phrase(
                        "textual", author=edition.persons.get(author, author), quotes=self.quotes(edition, quoted)
                    ),
                )
            )
        for text in app.editorial:
            out.append(Clause("editorial", "editorial", "A", self.phrase("editorial", text=EntryPart("note", text))))
        return out

    def within_moved(self, edition: EditionView, inner: App) -> list[EntryPart]:
        """A difference inside a moved clause from the edited text, said with the clause's reading."""
        clauses = [c for c in self.clauses(edition, inner) if c.series != "B"]
        said = [part for clause, parts in self.sentence(clauses, inner)[:-1] for part in parts]
        return (
            self.phrase("within_moved", text=EntryPart("inner", "".join(p.text for p in said), inner.id))
            if said
            else []
        )

    def jinguwen(self, edition: EditionView, app: App, r, lemma: str) -> list[Clause]:
        """A 今文/古文 reading: one clause quoting each wording of Zheng Xuan's note among the witnesses."""
        kind = "jinguwen_omission" if not r.text else "jinguwen"
        quotes = self.quotes(edition, r.quotes)
        return [
            Clause(
                kind,
                "jinguwen",
                "B",
                self.phrase(
                    kind, lemma=lemma, tradition=TRADITION_NAMES.get(r.wit[0], ""), reading=r.text, quotes=quotes
                ),
            )
        ]

    def quotes(self, edition: EditionView, quoted: list[tuple[str, str]]) -> list[EntryPart]:
        """Words quoted from witnesses, each wording once with the witnesses that have it."""
        wordings: dict[str, list[str]] = {}
        for source, words in quoted:
            wordings.setdefault(words, []).append(source)
        parts: list[EntryPart] = []
        for number, (words, sources) in enumerate((wordings or {"": []}).items()):
            if number:
                parts.append(EntryPart("text", self.templates["quote_joiner"]))
            parts += self.phrase("quote", words=words, sigla=edition.sigla(sources, self.templates["name_joiner"]))
        return parts

    def sentence(
        self, clauses: list[Clause], app: App, recurred: bool = False
    ) -> list[tuple[Clause | None, list[EntryPart]]]:
        """The clauses of one series as one entry, piece by piece (a clause, or None for the
        lemma head, the joiners and the full stop); the clauses that recur from above (同上) only
        with `recurred` (print leaves them out)."""
        shown = [c for c in clauses if recurred or not c.recurred]
        if not shown:
            return []
        pieces: list[tuple[Clause | None, list[EntryPart]]] = []
        if app.gloss:
            pieces.append((None, self.phrase("commentary_head")))
        if self.templates["lemma_head"]:
            pieces.append((None, self.phrase("lemma_head", lemma=occurrence_mark(app) or app.before)))
        for number, clause in enumerate(shown):
            if number:
                pieces.append((None, [EntryPart("text", self.templates["clause_joiner"])]))
            pieces.append((clause, clause.parts))
        return pieces + [(None, [EntryPart("text", self.templates["entry_end"])])]

    def fanli(self, values: dict[str, str], choices: dict[str, str], comparison_script: str) -> list[tuple[str, str]]:
        """The 凡例 as (item, text) pairs, from the config and the data in `values`; an item whose
        data is empty (no witness excluded) or that the style lacks is left out. An item that is a
        table is chosen by the setting of its name in `choices` (variant_forms, usages); one that is
        a list is its parts, each said where its data is, the item only where its first part is."""
        values = {**values, "comparison": self.templates["comparison"][comparison_script]}
        filled = lambda part: all(values.get(name) for _, name, _, _ in string.Formatter().parse(part) if name)
        out = []
        for key, template in self.templates["fanli"].items():
            if isinstance(template, dict):
                template = template[choices[key]]
            parts = template if isinstance(template, list) else [template]
            if parts and parts[0] and filled(parts[0]):
                out.append((key, "".join(part.format(**values) for part in parts if filled(part))))
        return out

    def list_of(self, items: list[str]) -> str:
        return self.templates["list_joiner"].join(items)


EMENDATION_BY_BASIS = {"本校": "emendation_by_rule", "他校": "emendation_by_source", "理校": "emendation_by_editor"}
ROLES = {
    "lemma": "lemma",
    "reading": "reading",
    "base": "reading",
    "sigla": "sigla",
    "base_sigla": "sigla",
    "words": "words",
    "first": "lemma",
    "second": "lemma",
}


def reading_kind(app: App, r) -> str:
    """The template a witness's reading is phrased by."""
    if r.type == "transposition":
        return "moved_in" if r.text else "moved_away"
    if r.type == "intrusion" and r.subtype == "word-filter":
        return "word_filter"
    if r.type in ("lacuna", "gaiji", "orthographic", "intrusion", "graphic", "usage", "taboo"):
        return r.type
    if r.subtype == "omission" or not r.text:
        return "omission"
    if r.subtype == "addition" or not app.lemma.text:
        return "addition" if app.before else "addition_at_start"
    if len(r.text) == len(app.lemma.text) == 2 and r.text == app.lemma.text[::-1]:
        return "inversion"
    return "substitution"
