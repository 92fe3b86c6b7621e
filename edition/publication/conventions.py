"""Editorial conventions: every apparatus entry and the 凡例 phrased from the templates of
`conventions.toml`, in the style the edition chose (`apparatus_style`: chinese or latin). The HTML
and the PDF both render the parts made here; neither phrases an entry of its own."""

from __future__ import annotations

import calendar
import string
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING

import regex

from ..intake.variants import in_script
from ..text import DIGITS, HAN_OR_GAP, chinese_number
from ..vocabulary import FORM_ONLY, TELLING
from ..vocabulary import ReadingType as T

if TYPE_CHECKING:
    from .model import App, EditionView, ReadingView

# The series of the apparatus: A the witnesses' readings, emendations, quotations, editors' notes
# and the 校语 that report a reading there (a site's word filter among the intrusions), B 今文/古文,
# C what differs in form only: stand-ins, variant forms, graphic variants (己已巳), classical usages
# (古今字, 通假) and taboo substitutions (避諱), all of the 經; D every entry on the 注; E the 校语
# that report no reading at their place (on the 疏, a gloss, a reading of no edition).
SERIES_A = TELLING
# A witness's characters not read (▯, □) and what a web page put in (spam, a filter's word) are no
# readings of the text: no entry says them, the conspectus counts them (but the base's).
UNRECORDED = (T.LACUNA, T.INTRUSION)
SERIES_C = FORM_ONLY
SERIES = "ABCDE"
COMMENTARY_SERIES = "D"
REMARKS_SERIES = "E"
# Where a witness that quotes the 注 in part stops and takes up quoting: no entry.
QUOTING = ("lacunaStart", "lacunaEnd")
SUPERSCRIPT = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")


LEAF = regex.compile(r"(\d+)-(\d+)([a-z]?)")  # a leaf as `pb/@n` gives it: 卷, leaf and side
LONG = 24  # characters beyond which a lemma or a reading is cited by its first and last words
CITED_ENDS = 4


def cited(text: str) -> str:
    """A long passage by its first and last words (X……Y), as a 校勘记 cites it."""
    return text if len(text) <= LONG else f"{text[:CITED_ENDS]}……{text[-CITED_ENDS:]}"


def occurrence_mark(app: App) -> str:
    """The lemma as the apparatus cites it: with its occurrence in the sentence where it recurs (之²)."""
    return cited(app.lemma.text) + (str(app.occurrence).translate(SUPERSCRIPT) if app.occurrence else "")


def part_mark(app: App, part: str, at: int) -> str:
    """Words of the lemma (from its character `at`) as the apparatus cites them: with their
    occurrence in the sentence where they recur."""
    if app.sentence.count(part) < 2:
        return cited(part)
    return cited(part) + str(app.sentence[: app.start + at].count(part) + 1).translate(SUPERSCRIPT)


@cache
def table() -> dict:
    return tomllib.loads((resources.files("edition.publication") / "conventions.toml").read_text(encoding="utf-8"))


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
        dictionaries = self.templates.get("dictionaries", {})
        for pattern, name in self.templates.get("fold_sources", {}).items():
            if match := regex.search(pattern, source):
                return name.format(*(self.named(group, dictionaries) for group in match.groups()))
        return source

    def named(self, tags: str, dictionaries: dict[str, str]) -> str:
        """A list of Unihan's source tags as the dictionaries they name (others as they are)."""
        if not all(tag in dictionaries for tag in tags.split(", ")):
            return tags
        return self.templates["clause_joiner"].join(dict.fromkeys(dictionaries[tag] for tag in tags.split(", ")))

    def words(self, number: int) -> str:
        """A count as the style writes it: 三 or 3."""
        return chinese_number(number) if self.templates["numerals"] == "chinese" else str(number)

    def leaf(self, n: str, short: bool = False) -> str:
        """A leaf as the style names it, from the TEI's `pb/@n` (卷-leaf and side, 5-12b): 卷五葉十二b,
        or short for the margin, 五·十二b; an @n of another form as it is."""
        match = LEAF.fullmatch(n)
        if match is None:
            return n
        juan, leaf, side = match.groups()
        template = self.templates["headings"]["leaf_short" if short else "leaf"]
        return template.format(juan=self.words(int(juan)), leaf=self.words(int(leaf)), side=side)

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
        """Every entry phrased; a variant that recurs in a section (same lemma, or place of an
        addition, same reading and witnesses) is said once, with 下同, where the style has it; a
        later one says itself and where it was said (同上), for the HTML. The entries listed are
        numbered in order, the 經's and the 注's apart (App.shown): the numbers every view gives."""
        entries = {app.id: Entry(app, self.clauses(edition, app)) for app in edition.all_apps}
        for apps in listed(edition, entries):
            for number, app in enumerate(apps, 1):
                app.shown = number
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
                        clause.parts = clause.parts + self.phrase(
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
        """The entry's statements; on the 注 all in series D but the 校语 (series E), without where
        a witness that quotes it in part leaves off and takes up quoting."""
        out = self.statements(edition, app)
        if app.gloss:
            for clause in out:
                if clause.series != REMARKS_SERIES:
                    clause.series = COMMENTARY_SERIES
        return out

    def names(self, edition: EditionView, wit: list[str]) -> str:
        """Witnesses by their names, joined as the style joins them."""
        return edition.sigla(wit, self.templates["name_joiner"])

    def emendation(self, edition: EditionView, app: App, base_reading: ReadingView, lemma: str) -> Clause:
        """The emendation of an entry: the lemma and the base's reading it replaces, on what."""
        base = edition.base
        supporting = [w for w in app.lemma.wit if base is None or w.lstrip("#") != base.id]
        values = {"lemma": lemma, "base": cited(base_reading.text), "base_sigla": self.names(edition, base_reading.wit)}
        kind = (
            "emendation"
            if supporting and app.basis in ("", "對校")
            else EMENDATION_BY_BASIS.get(app.basis, "emendation_by_editor")
        )
        if kind == "emendation" and not base_reading.text:
            kind = "supplied"  # the base has lost the text
        elif kind == "emendation" and (moved := displaced(words_of(base_reading.text), words_of(app.lemma.text))):
            # the base's words set back in their place (乙正): said by the words moved
            kind, values["moved"], values["anchor"] = moved
            kind, own, k = kind.replace("displaced", "transposed"), words_of(base_reading.text), len(moved[1])
            values["start"] = own[k:][:ANCHOR] if kind == "transposed_after" else own[:-k][-ANCHOR:]
        if not app.lemma.text:  # the base's words taken out: said by their place
            kind = kind.replace("emendation", "deletion")
            values["place"] = self.place(app)
        phrased = self.phrase(kind, sigla=self.names(edition, supporting), source=app.basis_source, **values)
        if app.same_as:
            other = next((a for a in edition.apps if a.id == app.same_as), None)
            phrased += self.phrase(
                "same_error", where=EntryPart("where", self.where([other]) if other else "?", app.same_as)
            )
        return Clause(kind, "substantive", "A", phrased)

    def statements(self, edition: EditionView, app: App) -> list[Clause]:
        lemma = occurrence_mark(app)
        out: list[Clause] = []
        base = edition.base
        base_reading = next((r for r in app.readings if base and f"#{base.id}" in r.wit), None) if app.emended else None
        if app.lost_leaf:
            phrased = self.phrase(
                "lost_leaf",
                lemma=lemma,
                sigla=self.names(edition, app.lost_leaf),
                base_sigla=self.names(edition, [base.id] if base else []),
            )
            out.append(Clause("lost_leaf", "lacuna", "A", phrased))
        if app.emended and base_reading is not None:
            out.append(self.emendation(edition, app, base_reading, lemma))
        for r in app.readings:
            if r is base_reading or r.type == "fragment" or app.lost_leaf and r.type == "lacuna":
                continue
            if r.type == "usage" and not edition.usages_at_each_place:
                continue
            if unsaid(edition, r):  # counted in the conspectus
                out += self.regrouped_wording(edition, r)
                continue
            if r.type == "jinguwen":
                out += self.jinguwen(edition, app, r, lemma)
                continue
            clause = self.reading_clause(edition, app, r, lemma)
            if clause is not None:
                out.append(clause)
        for name, wit in app.markers:
            if app.gloss and name in QUOTING and "commentary" in edition.witnesses[wit].abridged:
                continue
            if base and wit == base.id:  # where the base's text stops, its lost leaf's entry says why
                continue
            out.append(Clause(name, "fragment", "A", self.phrase(name, sigla=self.names(edition, [wit]))))
        for quotation in dict.fromkeys(app.evidence):  # each once: a commentary may quote the same words twice
            book = edition.witnesses.get(quotation.wit.split()[0].lstrip("#"))
            kind = (
                "judgement"
                if quotation.layer == "collation-notes"
                else "evidence_elsewhere"
                if quotation.layer == "elsewhere"
                else "evidence_agreeing"
                if confirms_the_base(edition, app, quotation.target)
                else "evidence"
            )
            layer = self.templates["layers"].get(quotation.layer, quotation.layer)
            phrased = self.phrase(
                kind,
                sigla=self.names(edition, quotation.wit.split()),
                layer="" if book is not None and book.evidence else layer,
                words=in_edition_script(edition, quotation.wit.split(), quotation.words),
                base_sigla=self.names(edition, [base.id] if base else []),
            )
            out.append(Clause(kind, "substantive", "A", phrased))
        for note in app.textual:
            phrased = self.phrase(
                "textual",
                author=edition.persons.get(note.author, note.author),
                quotes=self.quotes(edition, note.quotes),
            )
            out.append(Clause("textual", "textual", "A" if note.reports else REMARKS_SERIES, phrased))
        for text in app.editorial:  # the entry's own end closes the editor's words
            text = text.removesuffix(self.templates["entry_end"])
            out.append(Clause("editorial", "editorial", "A", self.phrase("editorial", text=EntryPart("note", text))))
        return out

    def reading_clause(self, edition: EditionView, app: App, r: ReadingView, lemma: str) -> Clause | None:
        """A witness's reading, each witness in its own characters; a stand-in compared by what
        it stands for: none where that is the witness's character, a variant form (異體) where
        it is another form of it, said only where variant forms are, and a stand-in for no known
        character said with what it is."""
        kind = reading_kind(app, r)
        forms = own_forms(r, edition)
        if kind == "gaiji" and not (r.unmapped or app.lemma.unmapped):
            forms = [(text, wit) for text, wit in forms if text != app.lemma.text]
            if not forms or not edition.variant_forms_at_each_place:
                return None
            kind = "orthographic"
        (text, wit), *others = forms
        values = {
            "lemma": lemma,
            "reading": cited(text),
            "sigla": self.names(edition, wit),
            "before": app.before,
            "after": app.after,
        }
        said = app.lemma.text  # what makes it the same variant as another, with the reading (下同)
        # Where the clause cites its lemma (no lemma heads the entry), a reading that lacks or adds
        # words at the lemma's edge is said as the omission or addition of those words.
        if kind == "substitution" and not self.templates["lemma_head"] and (part := partial(app.lemma.text, text)):
            kind, said, at = part
            own = words_of(app.lemma.text)
            values |= {"lemma": part_mark(app, said, at), "reading": said, "before": own[-1], "after": own[0]}
        if kind in ("addition", "addition_at_start"):
            said = values["before"] if kind == "addition" else values["after"]
        if kind in ("moved_away", "moved_in"):
            values["where"] = EntryPart("where", self.where(r.elsewhere), r.elsewhere[0].id if r.elsewhere else "")
        if kind == "inversion":
            values["first"], values["second"] = words_of(app.lemma.text)
        if kind in ("displaced_after", "displaced_before"):
            _, values["moved"], values["anchor"] = displaced(words_of(app.lemma.text), r.text)
        if kind == "usage":
            values["relation"] = self.templates["relations"].get(r.subtype, r.subtype)
        parts = self.phrase(kind, **values)
        for other, others_wit in others:
            parts += self.phrase("own_form", reading=cited(other), sigla=self.names(edition, others_wit))
        parts += [part for inner in r.inner for part in self.within_moved(edition, inner)]
        series = "C" if r.type in SERIES_C else "A"
        return Clause(kind, r.type, series, parts, (kind, said, tuple((t, tuple(w)) for t, w in forms)))

    def place(self, app: App) -> str:
        """Where an empty lemma is: after the character before it (X下), or before the one after it."""
        return (
            self.templates["below"].format(before=app.before)
            if app.before
            else self.templates["above"].format(after=app.after)
        )

    def within_moved(self, edition: EditionView, inner: App) -> list[EntryPart]:
        """A difference inside a moved clause from the edited text, said with the clause's reading."""
        clauses = [c for c in self.clauses(edition, inner) if c.series != "B"]
        said = [part for clause, parts in self.sentence(clauses, inner)[:-1] for part in parts]
        return (
            self.phrase("within_moved", text=EntryPart("inner", "".join(p.text for p in said), inner.id))
            if said
            else []
        )

    def regrouped_wording(self, edition: EditionView, r) -> list[Clause]:
        """The witness's own wording inside a clause a compiler moved, whose move no entry says: its
        readings there, said where it moves the clause to (the base's place says the emendations)."""
        out = []
        for inner in r.inner:
            clauses = [c for c in self.clauses(edition, inner) if c.kind in READING_CLAUSES]
            said = [part for clause, parts in self.sentence(clauses, inner) if clause for part in parts]
            if said:
                text = EntryPart("inner", "".join(p.text for p in said), inner.id)
                out.append(Clause("within_regrouped", "substantive", "A", self.phrase("within_regrouped", text=text)))
        return out

    def jinguwen(self, edition: EditionView, app: App, r, lemma: str) -> list[Clause]:
        """A statement of Zheng Xuan's notes on readings (`statements`) that reading `r` opens: its
        readings, each with its tradition, and each wording of the notes with its witnesses."""
        statement = statements(edition, app).get(id(r))
        if statement is None:  # said in the statement of another reading
            return []
        readings, quoted = statement
        said: list[EntryPart] = []
        for number, o in enumerate(readings):
            kind = "jinguwen_omission" if not o.text else "jinguwen_also" if number else "jinguwen_reading"
            tradition = edition.traditions.get(o.wit[0], "")
            said += [EntryPart("text", self.templates["jinguwen_joiner"])] if number else []
            said += self.phrase(kind, lemma=lemma, tradition=tradition, reading=o.text)
        return [
            Clause(
                "jinguwen",
                "jinguwen",
                "B",
                self.phrase("jinguwen", readings=said, quotes=self.quotes(edition, quoted)),
            )
        ]

    def quotes(self, edition: EditionView, quoted: list[tuple[str, str]]) -> list[EntryPart]:
        """Words quoted from witnesses, each wording once with the witnesses that have it: wordings
        that differ only in script, variant forms (the 異體字表's) or punctuation are one, as the
        first witness writes it."""
        same = same_words(edition)
        wordings: dict[str, tuple[str, list[str]]] = {}
        for source, words in quoted:
            words = in_edition_script(edition, [source], words)
            sources = wordings.setdefault(same(words), (words, []))[1]
            sources += [] if source in sources else [source]
        parts: list[EntryPart] = []
        for number, (words, sources) in enumerate((wordings or {"": ("", [])}).values()):
            if number:
                parts.append(EntryPart("text", self.templates["quote_joiner"]))
            parts += self.phrase("quote", words=words, sigla=edition.sigla(sources, self.templates["name_joiner"]))
        return parts

    def sentence(
        self, clauses: list[Clause], app: App, recurred: bool = False
    ) -> list[tuple[Clause | None, list[EntryPart]]]:
        """The clauses of one series as one entry, piece by piece (a clause, or None for the
        lemma head, the joiners and the full stop); the clauses that recur from above (同上) only
        with `recurred`, or beside a clause that does not (print leaves out an entry of them alone)."""
        shown = clauses if recurred or not all(c.recurred for c in clauses) else []
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

    def title_page(self, edition: EditionView) -> tuple[str, str]:
        """The title page's lines under the title: the editors, and where and when it is published."""
        h = self.templates["headings"]
        year, month = (int(part) for part in edition.date.split("-")[:2]) if edition.date else (0, 0)
        if self.templates["numerals"] == "chinese":
            year_words, month_words = "".join(DIGITS[int(d)] for d in str(year)), chinese_number(month)
        else:
            year_words, month_words = str(year), calendar.month_name[month]
        when = h["date"].format(year=year_words, month=month_words) if year else ""
        editors = self.list_of(edition.editors)
        return (
            h["edited_by"].format(editors=editors) if editors else "",
            h["published"].format(place=edition.place, date=when).strip("　, ") if edition.place or when else "",
        )

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
    "place": "lemma",
}


def in_edition_script(edition: EditionView | None, wit: list[str], words: str) -> str:
    """Words of witnesses as an entry prints them: in the edition's script where every one of them
    writes the other (繁簡字不出校), each character that only the other script writes converted
    (为 爲, 兴 興), one both write kept as the witness writes it (于, 云, 后). The TEI and the witness's
    own page keep its characters."""
    ids = [w.lstrip("#") for w in wit]
    if edition is None or not ids or any(i not in edition.witnesses for i in ids):
        return words
    if any(edition.witnesses[i].script == edition.script for i in ids):
        return words
    return in_script(words, edition.script, "traditional")


def statements(edition: EditionView, app: App) -> dict[int, tuple[list[ReadingView], list[tuple[str, str]]]]:
    """The 今文/古文 readings of an entry said together, by the id of the first, with the words of
    the notes quoted: a reading of the same words as one of another tradition (the witnesses'
    notes differ in the tradition they name: 今文弗爲不 in one, 古文弗為不 in another, a variant of the
    注) is said once, as the note the base's 注 carries names it; readings one note reports both
    (古文膱爲胾今文或作植) are said in one sentence that quotes each wording once."""
    same = same_words(edition)
    base = edition.base.id if edition.base else ""
    said: list[tuple[list[ReadingView], list[tuple[str, str]]]] = []
    for r in app.of_types(("jinguwen",)):
        alike = next((s for s in said if same(s[0][0].text) == same(r.text)), None)
        if alike is not None:
            if any(source == base for source, _ in r.quotes) and not any(source == base for source, _ in alike[1]):
                alike[0][0] = r  # the tradition the base's note names, its words first
                alike[1][:0] = r.quotes
            else:
                alike[1].extend(r.quotes)
            continue
        said.append(([r], list(r.quotes)))
    out: list[tuple[list[ReadingView], list[tuple[str, str]], set[str]]] = []
    for readings, quoted in said:
        wordings = {same(words) for _, words in quoted}
        shared = next((o for o in out if o[2] & wordings), None)
        if shared is None:
            out.append((readings, quoted, wordings))
        else:
            shared[0].extend(readings)
            shared[1].extend(quoted)
            shared[2].update(wordings)
    return {id(readings[0]): (readings, quoted) for readings, quoted, _ in out}


def listed(edition: EditionView, entries: dict) -> tuple[list[App], list[App]]:
    """The entries the apparatus lists, of the 經 and of the 注: those in the text that say
    something (`entries`: app id -> its phrased entry). Every count of entries is theirs."""
    return tuple(
        [app for app in apps if app.in_text and entries[app.id].clauses]
        for apps in (edition.apps, edition.commentary_apps)
    )


def same_words(edition: EditionView) -> Callable[[str], str]:
    """Words as compared for saying them once: their characters alone (no punctuation), in
    traditional script, the forms the 異體字表 pairs (either way) as one."""
    one: dict[str, str] = {}  # a character -> another of its forms, towards the one that stands for them all
    find = lambda c: c if one.get(c, c) == c else find(one[c])
    for row in edition.variant_forms:
        if len(row.form) == len(row.text) == 1:
            a, b = sorted((find(row.text), find(row.form)))
            if a != b:
                one[b] = a
    return lambda words: "".join(map(find, HAN_OR_GAP.findall(in_script(words, "traditional", "simplified"))))


def own_forms(r: ReadingView, edition: EditionView | None = None) -> list[tuple[str, list[str]]]:
    """A reading's witnesses grouped by the characters each writes it in (in the edition's script,
    `in_edition_script`): the reading's own, then the others, in the witnesses' order."""
    head = in_edition_script(edition, [w for w in r.wit if w not in r.forms], r.text)
    groups: dict[str, list[str]] = {head: []}
    for wit in r.wit:
        words = r.forms.get(wit)
        groups.setdefault(head if words is None else in_edition_script(edition, [wit], words), []).append(wit)
    return [(text, wit) for text, wit in groups.items() if wit]


def partial(lemma: str, reading: str) -> tuple[str, str, int] | None:
    """Where a reading is the lemma with words fewer or more at its start or end (the lemma's
    punctuation aside): the kind (omission, addition, addition_at_start), the words lacked or
    added, and where in the lemma the words lacked start. Not where those words repeat the words
    beside them (升升 read 升): which of the two is lacked or added is no fact."""
    places = [m.start() for m in HAN_OR_GAP.finditer(lemma)]
    own = "".join(lemma[i] for i in places)
    if not reading or not own or reading == own:
        return None
    if own.startswith(reading):
        found, longer, at = ("omission", own[len(reading) :], places[len(reading)]), own, len(reading)
    elif own.endswith(reading):
        found, longer, at = ("omission", own[: -len(reading)], 0), own, 0
    elif reading.startswith(own):
        found, longer, at = ("addition", reading[len(own) :], 0), reading, len(own)
    elif reading.endswith(own):
        found, longer, at = ("addition_at_start", reading[: -len(own)], 0), reading, 0
    else:
        return None
    words = found[1]
    return (
        None
        if words in (longer[max(0, at - len(words)) : at], longer[at + len(words) : at + 2 * len(words)])
        else found
    )


def confirms_the_base(edition: EditionView, app: App, target: str) -> bool:
    """A quotation attests the reading the base has (the lemma where it stands, or the base's
    reading emended): it confirms the base, and quotes no variant."""
    base = edition.base
    reading = next((r for r in (app.lemma, *app.readings) if r.id == target), None)
    return base is not None and reading is not None and f"#{base.id}" in reading.wit


def unsaid(edition: EditionView, r) -> bool:
    """A reading no entry says, counted for its witness in the conspectus instead: a witness's
    characters not read and what a site put in (not the base's), and the clauses a compilation
    moved (its witness counts them as `regrouped`)."""
    base = edition.base
    if r.type in UNRECORDED:
        return not (base and f"#{base.id}" in r.wit)
    if r.type != T.TRANSPOSITION:
        return False
    return all(
        "regrouped" in dict(w.unrecorded) for w in (edition.witnesses.get(ref.lstrip("#")) for ref in r.wit) if w
    )


# The clauses that say a witness's reading (reading_kind), not an emendation or its evidence.
READING_CLAUSES = frozenset(
    (
        "substitution",
        "omission",
        "addition",
        "addition_at_start",
        "inversion",
        "displaced_after",
        "displaced_before",
        "graphic",
        "usage",
        "taboo",
    )
)
DISPLACED = 4  # the most characters a witness reads displaced in one substitution (倒文)
ANCHOR = 2  # the characters of the text said next to them


def reading_kind(app: App, r) -> str:
    """The template a witness's reading is phrased by."""
    if r.type == "transposition":
        return "moved_in" if r.text else "moved_away"
    if r.type == "intrusion" and r.subtype == "word-filter":
        return "word_filter"
    if r.type in (T.LACUNA, T.INTRUSION, *FORM_ONLY):
        return r.type
    if r.subtype == "omission" or not r.text:
        return "omission"
    if r.subtype == "addition" or not app.lemma.text:
        return "addition" if app.before else "addition_at_start"
    lemma = words_of(app.lemma.text)
    if len(r.text) == len(lemma) == 2 and r.text == lemma[::-1]:
        return "inversion"
    if moved := displaced(lemma, r.text):
        return moved[0]
    return "substitution"


def words_of(text: str) -> str:
    """The characters of a text, without its punctuation."""
    return "".join(HAN_OR_GAP.findall(text))


def displaced(lemma: str, reading: str) -> tuple[str, str, str] | None:
    """Where a reading is the lemma with its first (or last) words read a few characters on (back):
    the kind, the words, and the lemma's words they stand after (before)."""
    if len(reading) != len(lemma) or len(lemma) < 3:
        return None
    for k in range(1, min(DISPLACED, len(lemma) - 2) + 1):
        if reading == lemma[k:] + lemma[:k]:
            return "displaced_after", lemma[:k], lemma[k:][-ANCHOR:]
        if reading == lemma[-k:] + lemma[:-k]:
            return "displaced_before", lemma[-k:], lemma[:-k][:ANCHOR]
    return None
