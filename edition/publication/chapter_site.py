"""A chapter's static HTML edition: reading view, witness views, synopsis, reference pages and search.

Like the PDF, the site is written from the build's outputs alone: `edition.xml` (read through
`render.read`, Zheng Xuan's 注 among it) and the JSON reports. It works from
file:// with no server and no network: scripts, styles and data are local files, and the text is
set in subsets of Noto Serif CJK (the edition's face: TC, SC…) and HanaMin made for exactly the
characters the site uses.
Every page is written in the edition's language (the root) and in English (en/), its interface's
words from the catalog of `i18n` (messages.toml); the edition's own text is the same in both.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import cached_property, partial
from importlib import resources
from io import BytesIO
from pathlib import Path

import jinja2
import opencc
import regex
from fontTools import subset
from fontTools.ttLib import TTCollection, TTFont
from markupsafe import Markup, escape

from ..errors import EditionError
from ..tables import printable
from ..text import CLOSING, HAN_OR_GAP
from ..vocabulary import FORM_ONLY
from ..vocabulary import ReadingType as T
from . import iiif
from .conventions import SERIES, SERIES_A, UNRECORDED, Conventions, listed
from .i18n import Messages, site_languages
from .model import App, Cite, EditionView, GlossView, LayerMark, Leaf, Paragraph, Proposed, SectionView
from .render import UNDESCRIBED, read

NOTO = Path("/usr/share/fonts/opentype/noto/NotoSerifCJK-Regular.ttc")
HANAMIN = (
    Path("/usr/share/fonts/truetype/hanazono/HanaMinA.ttf"),
    Path("/usr/share/fonts/truetype/hanazono/HanaMinB.ttf"),
)
SEARCHABLE = regex.compile(r"[\p{L}\p{N}▯]")
CHAPTER_ASSETS = ("reading.js", "search.js", "site.css", "synopsis.js")
# Reading types, most telling first, and the 校语 (textual): a marker is coloured by the first its entry has.
KINDS = (
    T.SUBSTANTIVE,
    T.JINGUWEN,
    T.TRANSPOSITION,
    T.LACUNA,
    T.INTRUSION,
    "textual",
    T.USAGE,
    T.TABOO,
    T.GRAPHIC,
    T.GAIJI,
    T.ORTHOGRAPHIC,
)
# The types of readings that differ in form only (series C): the filter "major" leaves them out.
MINOR = set(FORM_ONLY)

ADDED_HERE, MOVED_HERE = "＋", "↷"  # the signs of an entry with no lemma in the text


@dataclass
class SynopsisRow:
    """A section's text up to and including one apparatus entry: the row of the synopsis.
    `start` counts the base characters before the text, `app_start` those before the entry; the
    punctuation right after the entry (`tail`, at base character `tail_start`) ends the row, so
    that no row begins with it (禁則)."""

    text: str
    start: int
    app: App | None
    app_start: int
    tail: str = ""
    tail_start: int = 0


@dataclass
class Piece:
    """A stretch of a witness's text: `same` as the edition (in the witness's own characters),
    `absent` (not extant), `form` (a variant form of the 异体字表 where the apparatus has no entry),
    `elsewhere` (a mark where the witness has a clause that the view shows at another place), or
    the type of the witness's own reading."""

    text: str
    kind: str = "same"
    app: App | None = None
    lemma: str = ""  # of a form: the edition's character
    said: bool = True  # its entry says something (not so a 注 entry where a witness only stops quoting)


@dataclass
class Site:
    """Everything the templates show, computed once."""

    edition: EditionView
    reports: dict
    segments: dict[str, list[SynopsisRow]]
    extant: dict[str, list[tuple[int, int]]]  # witness id -> ranges of base characters
    away: dict[str, list[tuple[int, int]]]  # witness id -> ranges of base characters it reads elsewhere, inside entries
    own_forms: dict[str, dict[int, tuple[str, str]]]  # witness id -> base character -> its own characters, kind
    length: int = 0  # base characters in the chapter
    manuscripts: list = field(default_factory=list)  # the witnesses in the apparatus
    collated: dict = field(default_factory=dict)  # siglum -> its entry in the collation report
    conventions: Conventions | None = None
    entries: dict = field(default_factory=dict)  # app id -> its phrased entry
    folds: Folds | None = None  # the variant forms the search folds together
    jinguwen: bool = False  # Zheng Xuan's notes name traditions (今文, 古文, 故書) here: its report has notes

    def apparatus(self, app: App) -> list[tuple[str, list]]:
        """An entry as the edition's conventions phrase it: (series, pieces) for each series it has."""
        out = []
        for series in SERIES:
            pieces = self.conventions.sentence(self.entries[app.id].series(series), app, recurred=True)
            if pieces:
                out.append((series, pieces))
        return out

    def said(self, app: App) -> bool:
        """The entry says something: not so an entry of the 注 only where a witness that quotes
        it in part leaves off or takes up quoting."""
        return bool(self.entries[app.id].clauses)

    def attested(self, tradition_id: str) -> list[int]:
        """Base positions of the entries where a hypothetical tradition, or an edition a 校语
        reports, has a reading."""
        return [
            s.app_start
            for runs in self.segments.values()
            for s in runs
            if s.app
            and any(
                "#" + tradition_id in r.wit or tradition_id in r.reported
                for r in (s.app.lemma, *s.app.readings, *s.app.reported)
            )
        ]

    def status(self, witness, t: Messages) -> str:
        """The witness's status in the page's language: the TEI's note in English; in Chinese,
        said again from the code it begins with (included, excluded, evidence…) and its figures."""
        if not t.chinese:
            return witness.status
        code = witness.status.split(":", 1)[0].strip()
        if witness.base:
            return t("status.base")
        if code in ("included", "excluded"):
            by_decision = "editorial decision" in witness.status
            share = f"{float(witness.quality or 0):.0%}"
            return t(f"status.{code}_by_decision" if by_decision else f"status.{code}", share=share)
        return t(f"status.{code}") if t.has(f"status.{code}") else witness.status

    def reason(self, collated: dict, t: Messages) -> str:
        """Why the collation included a witness or left it out (its entry in the collation
        report), in the page's language."""
        if not t.chinese:
            return collated["reason"]
        if collated["reason"] == "base text":
            return t("status.base")
        code = "included" if collated["included"] else "excluded"
        by_decision = "editorial decision" in collated["reason"]
        return t(f"status.{code}_by_decision" if by_decision else f"status.{code}", share=f"{collated['quality']:.0%}")

    def witness_rows(self, t: Messages) -> list[dict]:
        """The collation report's witnesses, their reasons in the page's language."""
        return [dict(w, reason=self.reason(w, t)) for w in self.reports["collation"]["witnesses"]]

    def extent(self, witness, t: Messages) -> str:
        """Where the witness is extant: the TEI's note in English (the editors' description and the
        ranges); in Chinese the ranges alone, from the collation report."""
        if not t.chinese:
            return witness.extent
        collated = self.collated.get(witness.siglum)
        if not collated or not collated["extant"]:
            return ""
        ranges = [
            t.plain(
                "status.range", incipit=r["incipit"][:1], explicit=r["explicit"][-1:], first=r["from"], last=r["to"]
            )
            for r in collated["extant"]
        ]
        return t("status.extant", ranges=t.plain("status.joiner").join(ranges))

    def title(self, witness, t: Messages) -> str:
        """A hypothetical tradition's description (今文, as Zheng Xuan reports it) in the page's language."""
        return (
            t("conspectus.tradition", name=t(f"tradition.{witness.id}"))
            if t.has(f"tradition.{witness.id}")
            else witness.title
        )

    def unrecorded(self, witness, t: Messages) -> str:
        """What no entry says of a witness (its lacunae, a site's filter words, a page's insertions), counted."""
        return t.plain("coverage.joiner").join(t.plain(f"unrecorded.{kind}", n=n) for kind, n in witness.unrecorded)

    def readings(self, counts: dict[str, int], t: Messages, base: bool = False) -> str:
        """A witness's readings by type, counted: not its lacunae and intrusions, which are no
        readings (`unrecorded`), but the base's."""
        said = {kind: n for kind, n in counts.items() if base or kind not in UNRECORDED}
        return t.plain("coverage.joiner").join(f"{t.code('type', kind)} {n}" for kind, n in sorted(said.items()))

    def transposed(self, witness) -> list[tuple[int, int]]:
        """Base ranges the witness reads elsewhere (its transposed blocks), from the collation report."""
        return [
            (t["base_from"], t["base_to"])
            for t in self.reports["collation"]["transpositions"]
            if t["siglum"] == witness.siglum
        ]

    def section_span(self, section: SectionView) -> tuple[int, int]:
        runs = self.segments[section.id]
        end = runs[-1].app_start + (base_length(runs[-1].app, self.edition) if runs[-1].app else 0)
        return runs[0].start + 1, max(end, runs[0].start + 1)

    def tags(self, app: App) -> str:
        """The classes the filters read: reading types, traditions, witnesses with a reading."""
        types = {r.type for r in app.readings} | ({"textual"} if app.textual else set())
        tags = set(types) | {
            f"w-{self.edition.witnesses[w.lstrip('#')].siglum}"
            for r in app.readings
            for w in r.wit
            if w not in self.edition.traditions
        }
        tags |= {w.lstrip("#") for r in app.readings for w in r.wit if w in self.edition.traditions}
        if types <= MINOR:
            tags.add("minor")
        if app.emended:
            tags |= {"emended", "substantive"}
        return " ".join(sorted(tags))

    def shows(self, t: Messages) -> list[tuple[str, str]]:
        """The choices of the reading view's filter: (value, label); the traditions a commentator's
        notes report (今文, 古文) where they report any here, together and, where there are two or
        more, each alone."""
        traditions = {ident.lstrip("#"): name for ident, name in self.edition.traditions.items()}
        reported = [("jinguwen", t.plain("show.jinguwen", names=str(t("show.joiner")).join(traditions.values())))]
        if len(traditions) > 1:
            reported += [(ident, t.plain("show.tradition", name=name)) for ident, name in traditions.items()]
        return [
            *((value, t.plain(f"show.{value}")) for value in ("all", "major", "substantive")),
            *(reported if self.jinguwen and traditions else []),
            ("textual", t.plain("show.textual")),
        ]

    def kind(self, app: App) -> str:
        types = (
            {r.type for r in app.readings}
            | ({"substantive"} if app.emended else set())
            | ({"textual"} if app.textual else set())
        )
        return next((k for k in KINDS if k in types), "orthographic")

    def lemma_or_place(self, app: App) -> str:
        """An entry's lemma, or where it stands if it has none (X下, the character before it)."""
        if app.lemma.text:
            return app.lemma.text
        return f"{app.before}下" if self.edition.style == "chinese" else f"{app.before} +"

    @property
    def title_joiner(self) -> str:
        return "：" if self.edition.style == "chinese" else ": "

    @staticmethod
    def sign(app: App) -> str:
        """What marks an entry with no lemma in the text: a clause a witness reads here that the
        base reads elsewhere (↷), or words a witness adds (＋)."""
        return MOVED_HERE if any(r.type == "transposition" for r in app.readings) else ADDED_HERE

    def sigla(self, wit: list[str]) -> str:
        """The witnesses' names (sigla where they have none), the traditions as 今文, 古文."""
        return self.edition.sigla(wit)

    def leaf(self, n: str, short: bool = False) -> str:
        """A leaf of a witness (pb/@n) as the edition's conventions name it."""
        return self.conventions.leaf(n, short)

    def leaves(self, app: App, root: str = "") -> Markup:
        """Where each witness reads the entry: its name and leaf, in the order of the witnesses,
        each leaf linked to its image where the edition has one."""
        order = list(self.edition.witnesses)
        named = sorted(app.leaves.items(), key=lambda item: order.index(item[0]) if item[0] in order else len(order))
        joiner = self.conventions.templates["list_joiner"]
        return Markup(joiner).join(
            self.leaf_link(w, n, f"{self.edition.sigla([w])}{self.leaf(n)}", root) for w, n in named
        )

    def leaf_link(self, witness: str, n: str, words: str, root: str = "") -> Markup:
        """Words naming a witness's leaf, linked to its image where the edition has one."""
        photograph = self.edition.photograph(witness, n)
        if photograph is None:
            return escape(words)
        href = f"{root}{photograph.url}" if photograph.local else photograph.url
        return Markup('<a class="photograph" href="{}">{}</a>').format(href, words)

    @property
    def base_label(self) -> str:
        return next((w.label for w in self.edition.witnesses.values() if w.base), "")

    def pieces(self, segment: SynopsisRow, witness_id: str, order: str = "base") -> list[Piece]:
        """The segment as the witness reads it; a clause it reads elsewhere stands at its place in
        the base in the base's `order`, where the witness has it in its `own` order."""
        forms = self.own_forms.get(witness_id, {})
        away = self.away.get(witness_id, [])
        pieces = text_pieces(segment.text, segment.start, self.extant.get(witness_id, []), forms, away)
        app = segment.app
        if app is not None and not moved_by(app.within, "#" + witness_id):
            wit = "#" + witness_id
            own = next((r for r in app.readings if wit in r.wit), None)
            if own is not None and own.type == "transposition":
                pieces.append(moved_piece(app, own, order))
            elif app.nested:
                pass  # a moved clause's place that the witness reads: its text and entries follow
            elif (
                wit in app.lemma.wit or own is not None and own.type == "fragment"
            ):  # a fragment begins or ends reading the lemma
                pieces += text_pieces(app.lemma.text, segment.app_start, None, {} if app.emended else forms)
            elif own is not None:
                pieces.append(Piece(own.text, own.type, app, said=self.said(app)))
            else:
                pieces.append(Piece(app.lemma.text, "absent", app))
        pieces += text_pieces(segment.tail, segment.tail_start, self.extant.get(witness_id, []), forms, away)
        return merged(pieces)

    def witness_text(self, section: SectionView, witness_id: str, order: str = "base") -> list[Piece]:
        """A section as the witness reads it, in the base's order or its own."""
        return merged([p for segment in self.segments[section.id] for p in self.pieces(segment, witness_id, order)])

    @cached_property
    def listed(self) -> tuple[list[App], list[App]]:
        """The entries the apparatus lists, of the 經 and of the 注 (`conventions.listed`)."""
        return listed(self.edition, self.entries)

    def section_entries(self, section: SectionView) -> list[App]:
        """The section's apparatus entries that say something, those nested in a moved clause's
        place included; a moved clause's differences are shown with its reading."""
        return [app for app in self.edition.apps if app.section == section.id and app.in_text and self.said(app)]

    def commentary_entries(self, section: SectionView) -> list[App]:
        """The entries of the 注 in the section that say something."""
        return [
            app for app in self.edition.commentary_apps if app.section == section.id and app.in_text and self.said(app)
        ]

    def substantive(self, section: SectionView) -> list[int]:
        """Where the section's entries with readings of series A (substantive, lacuna, intrusion,
        transposition) or an emendation stand: the base characters before them."""
        return [
            s.app_start
            for s in self.segments[section.id]
            if s.app and (s.app.emended or s.app.of_types(SERIES_A) and self.said(s.app))
        ]

    def density(self, section: SectionView) -> tuple[int, float]:
        """The section's substantive entries and their number per 100 characters of the section."""
        count = len(self.substantive(section))
        first, last = self.section_span(section)
        return count, 100 * count / max(1, last - first + 1)


def moved_by(app: App | None, wit: str) -> bool:
    """The app, or one that holds it, is a moved clause's place that the witness reads elsewhere."""
    while app is not None:
        if any(wit in r.wit for r in app.of_types(("transposition",))):
            return True
        app = app.within
    return False


def moved_piece(app: App, own, order: str) -> Piece:
    """A transposed reading: at the clause's place in the base (an empty reading) the witness's
    text of it in the base's order, struck there in its own; where the witness has it, its text in
    its own order and a mark in the base's."""
    if not own.text:
        shown = "".join(r.text for r in own.counterparts)
        return Piece(shown, "transposition", app) if order == "base" else Piece("", "transposition", app)
    return Piece(own.text, "transposition", app) if order == "own" else Piece("", "elsewhere", app)


def merged(pieces: list[Piece]) -> list[Piece]:
    """Adjacent absent pieces as one; empty pieces that show nothing dropped."""
    out: list[Piece] = []
    for piece in pieces:
        if out and piece.kind == out[-1].kind == "absent":
            out[-1] = Piece(out[-1].text + piece.text, "absent")
        elif piece.text or piece.kind != "same":
            out.append(piece)
    return out


def base_length(app: App, edition: EditionView) -> int:
    """The base characters an entry covers: the base's reading, intrusions not counted; where the
    base reads nothing of its own (a lost leaf, supplied), the supplied text, which the lemma is."""
    base = "#" + edition.base.id
    own = next((r for r in app.readings if base in r.wit), None)
    reading = app.lemma if base in app.lemma.wit or own is None else own
    return 0 if reading.type == "intrusion" else len(HAN_OR_GAP.findall(reading.text))


def segments_of(edition: EditionView) -> dict[str, list[SynopsisRow]]:
    """Each section cut at its apparatus entries, with the base position of every piece; the
    positions are those of the collation report (base characters, from 1). A moved clause's place
    is a segment of no length, followed by its text and the entries nested in it."""
    out = {}
    position = 0
    for section in edition.sections:
        runs: list[SynopsisRow] = []
        text, start = "", position

        def walk(items) -> None:
            nonlocal text, start, position
            for item in items:
                if isinstance(item, (GlossView, Leaf)):  # the 注 a moved clause's place holds, a leaf's start
                    continue
                if isinstance(item, str):
                    if not text and runs and runs[-1].app is not None:
                        closing = len(item) - len(item.lstrip(CLOSING))
                        runs[-1].tail, runs[-1].tail_start = runs[-1].tail + item[:closing], position
                        item = item[closing:]
                    text += item
                    position += len(HAN_OR_GAP.findall(item))
                    continue
                runs.append(SynopsisRow(text, start, item, position))
                if not item.nested:
                    position += base_length(item, edition)
                text, start = "", position
                walk(item.parts if item.nested else ())

        walk(section.text_items)
        if text or not runs:
            runs.append(SynopsisRow(text, start, None, position))
        out[section.id] = runs
    return out


def read_elsewhere(edition: EditionView, segments: dict[str, list[SynopsisRow]]) -> dict[str, list[tuple[int, int]]]:
    """Witness id -> the stretches of base characters (from, to) inside moved clauses' places
    with entries nested in them, which the witness reads elsewhere."""
    out: dict[str, list[tuple[int, int]]] = {}
    for runs in segments.values():
        for segment in runs:
            app = segment.app
            if app is None or not app.nested:
                continue
            for r in app.of_types(("transposition",)):
                for wit in r.wit:
                    out.setdefault(wit.lstrip("#"), []).append(
                        (segment.app_start + 1, segment.app_start + base_length(app, edition) + 1)
                    )
    return out


def text_pieces(
    text: str,
    start: int,
    ranges: list[tuple[int, int]] | None,
    forms: dict[int, tuple[str, str]],
    away: list[tuple[int, int]] = (),
) -> list[Piece]:
    """Edited text as a witness reads it, split where the witness begins or ceases to be extant
    (None: extant throughout), in the witness's own forms of its characters, without what it
    reads elsewhere (`away`, from–before); punctuation goes with the character before it."""
    pieces: list[Piece] = []
    position = start
    for char in text:
        han = HAN_OR_GAP.match(char)
        if han:
            position += 1
        if any(first <= max(position, 1) < last for first, last in away):
            continue
        kind = (
            "same" if ranges is None or any(first <= max(position, 1) <= last for first, last in ranges) else "absent"
        )
        shown, how = forms.get(position, (char, "")) if han and kind == "same" else (char, "")
        if how == "orthographic":
            pieces.append(Piece(shown, "form", lemma=char))
        elif pieces and pieces[-1].kind == kind:
            pieces[-1].text += shown
        else:
            pieces.append(Piece(shown, kind))
    return pieces


class Folds:
    """Variant forms folded together for search: the pairs of the 异体字表,
    the orthographic and gaiji readings of the apparatus against their lemma, and OpenCC's
    simplified and traditional form of every character."""

    def __init__(self, edition: EditionView, characters: set[str]):
        self.parent: dict[str, str] = {}
        for pair in edition.variant_forms:
            if len(pair.text) == len(pair.form) == 1:
                self.join(pair.text, pair.form)
        for app in edition.all_apps:
            for r in app.of_types(("orthographic", "gaiji")):
                if len(r.text) == len(app.lemma.text):
                    for a, b in zip(app.lemma.text, r.text):
                        self.join(a, b)
        in_text = Counter(
            c for section in edition.sections for item in section.text_items if isinstance(item, str) for c in item
        )
        for converter in (opencc.OpenCC("t2s"), opencc.OpenCC("s2t")):
            for char in sorted(c for c in characters if HAN_OR_GAP.match(c)):
                converted = converter.convert(char)
                if len(converted) == 1:
                    self.join(char, converted)
        groups: dict[str, list[str]] = {}
        for char in self.parent:
            groups.setdefault(self.find(char), []).append(char)
        # Each group is written as the form the edited text uses most.
        self.table = {}
        for members in groups.values():
            shown = max(members, key=lambda c: (in_text[c], -ord(c)))
            self.table.update({c: shown for c in members if c != shown})

    def find(self, char: str) -> str:
        while self.parent.get(char, char) != char:
            char = self.parent[char]
        return char

    def join(self, a: str, b: str) -> None:
        self.parent.setdefault(a, a)
        self.parent.setdefault(b, b)
        self.parent[self.find(a)] = self.find(b)

    def normalize(self, text: str) -> str:
        return "".join(self.table.get(c, c) for c in text if HAN_OR_GAP.match(c))


def search_entries(site: Site) -> list[dict]:
    """What the search looks in: the edited text by section, every reading, the 注 note by note
    and its readings (links into the 注 show it)."""
    entries = []
    for number, section in enumerate(site.edition.sections, 1):
        text, sentences = "", []  # sentences: where each begins in the text, its citation and anchor
        for item in section.items:
            if isinstance(item, Cite):
                sentences.append((len(text), item.n, item.id))
            elif isinstance(item, (str, App)):
                text += item if isinstance(item, str) else item.lemma.text
        entries.append(
            {"k": "text", "t": text, "h": f"index.html#{section.id}", "s": f"§{number} {section.title}", "c": sentences}
        )
        for app in site.section_entries(section) + site.commentary_entries(section):
            link = "index.html?commentary=on#" if app.gloss else "index.html#"
            for r in app.readings:
                words = "；".join(f"{quote}（{site.sigla(['#' + source])}）" for source, quote in r.quotes)
                entries.append(
                    {
                        "k": "reading",
                        "t": r.text + (f"　{words}" if words else ""),
                        "h": link + app.id,
                        "s": f"§{number} {app.label} {site.lemma_or_place(app)}{site.title_joiner}{site.sigla(r.wit)}",
                        "y": r.type,  # its type, which the search page names in its language
                    }
                )
        for gloss in section.glosses:
            entries.append(
                {
                    "k": "note",
                    "t": gloss.text,
                    "h": f"index.html?commentary=on#{gloss.id}",
                    "s": f"§{number} {gloss.citation} 注",
                }
            )
    return entries


def heat_colour(density: float) -> str:
    """A cream-to-madder ramp for variants per 100 characters (saturating at 4)."""
    share = min(density / 4, 1.0)
    start, end = (250, 244, 232), (160, 40, 30)
    return "#" + "".join(f"{round(a + (b - a) * share):02x}" for a, b in zip(start, end))


def environment(stand_ins: dict[str, str | None] | None = None) -> jinja2.Environment:
    """The site's templates; every value they print has its Kanripo entities (a report's witness
    text) as the edition prints them (`stand_ins`: a stand-in's id, g-KR0003, -> its printed form)."""
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(resources.files("edition.publication") / "templates" / "site")),
        autoescape=jinja2.select_autoescape(["html", "j2"]),
        trim_blocks=True,
        lstrip_blocks=True,
        undefined=jinja2.StrictUndefined,
        finalize=partial(printed_stand_ins, stand_ins or {}),
    )
    env.filters["han_count"] = lambda text: len(HAN_OR_GAP.findall(text))
    env.filters["json_script"] = json_script
    env.tests["cite"] = lambda item: isinstance(item, Cite)
    env.tests["paragraph"] = lambda item: isinstance(item, Paragraph)
    env.tests["layer_mark"] = lambda item: isinstance(item, LayerMark)
    env.tests["leaf"] = lambda item: isinstance(item, Leaf)
    env.tests["proposed"] = lambda item: isinstance(item, Proposed)
    env.tests["gloss"] = lambda item: isinstance(item, GlossView)
    env.globals.update(heat_colour=heat_colour, ranges_text=ranges_text, Markup=Markup)
    return env


ENTITY = regex.compile(r"&(?:amp;)?(KR\d+);")


def printed_stand_ins(stand_ins: dict[str, str | None], value):
    """A value with its entities (escaped, in markup) as their printed forms, else 〓; its
    separators as spaces and its format characters left out (`printable`)."""
    if not isinstance(value, str):
        return value
    printed = printable(value)
    if "KR" in printed:
        printed = ENTITY.sub(lambda m: stand_ins.get(f"g-{m[1]}") or UNDESCRIBED, printed)
    return Markup(printed) if isinstance(value, Markup) else printed


def json_script(value) -> Markup:
    """JSON for a <script> element, its characters as they are (so that the fonts are cut for them)
    and nothing that could close the element."""
    text = json.dumps(value, ensure_ascii=False)
    return Markup(text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026"))


def ranges_text(ranges: list[tuple[int, int]], t: Messages) -> str:
    """Ranges of base characters, as the coverage bars' labels say them."""
    return t.plain("coverage.joiner").join(t.plain("coverage.range", first=a, last=b) for a, b in ranges)


def subset_font(source: Path, number: int, characters: set[str]) -> bytes:
    """The font cut down to the characters, as woff2; remembered under ~/.cache/edition/fonts/ (or
    $XDG_CACHE_HOME) by the font file and the characters, since cutting a CJK font takes seconds."""
    stat = source.stat()
    key = hashlib.sha256(
        f"{source} {stat.st_size} {stat.st_mtime_ns} {number} {''.join(sorted(characters))} font-time".encode()
    ).hexdigest()
    known = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "edition" / "fonts" / f"{key}.woff2"
    if known.is_file():
        return known.read_bytes()
    data = cut_font(source, number, characters)
    try:
        known.parent.mkdir(parents=True, exist_ok=True)
        partial = known.with_suffix(f".{os.getpid()}.part")
        partial.write_bytes(data)
        partial.replace(known)
    except OSError:
        pass  # remembering is an economy, not a need
    return data


def cut_font(source: Path, number: int, characters: set[str]) -> bytes:
    """The cut keeps the font's own time stamp (head.modified), so that the same characters give the
    same bytes whenever and by whichever build they are cut, and a remembered cut is one."""
    font = TTFont(str(source), fontNumber=number, recalcTimestamp=False)
    options = subset.Options()
    options.layout_features = []
    options.hinting = False
    options.desubroutinize = True
    options.notdef_outline = True
    options.drop_tables += ["FFTM"]
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=[ord(c) for c in characters])
    subsetter.subset(font)
    font.flavor = "woff2"
    data = BytesIO()
    font.save(data)
    return data.getvalue()


# The site's font families (site.css asks for them), each cut from its font, in the order tried.
FAMILIES = ("Edition Serif", "Edition HanaMin A", "Edition HanaMin B")


def write_fonts(
    characters: set[str], out: Path, face: str, matched: set[str] = frozenset(), text: set[str] | None = None
) -> None:
    """fonts/*.woff2 and fonts/fonts.css: the edition's face of Noto Serif CJK (TC, SC…) for what
    it has, HanaMin A then B for the rest. A character of the edition's `text` (all `characters`
    if not given) that none of them has fails the build, as it does for the PDF; others (a
    comparison form in the intake's tables, one the search only folds to) are left to the reader's
    fonts."""
    noto_number = next(
        i for i, f in enumerate(TTCollection(str(NOTO), lazy=True).fonts) if f["name"].getDebugName(1) == face
    )
    wanted = {c for c in characters | matched if c.isprintable() and not c.isspace()}
    plan, rest = [], wanted
    for family, source, number in zip(FAMILIES, (NOTO, *HANAMIN), (noto_number, 0, 0)):
        cmap = TTFont(str(source), fontNumber=number, lazy=True).getBestCmap()
        covered = {c for c in rest if ord(c) in cmap}
        if covered:
            plan.append((family, source, number, covered))
        rest -= covered
    rest &= characters if text is None else text
    if rest:
        listed = ", ".join(f"{c} (U+{ord(c):04X})" for c in sorted(rest)[:5])
        raise EditionError(None, f"{len(rest)} character(s) of the site missing from the fonts: {listed}")
    (out / "fonts").mkdir(parents=True, exist_ok=True)
    with ThreadPoolExecutor() as pool:
        data = list(pool.map(lambda p: subset_font(p[1], p[2], p[3]), plan))
    css = []
    for (family, source, _, _), woff2 in zip(plan, data):
        name = f"{source.stem}-subset.woff2"
        (out / "fonts" / name).write_bytes(woff2)
        css.append(
            f'@font-face {{ font-family: "{family}"; src: url("{name}") format("woff2"); font-display: block; }}'
        )
    (out / "fonts" / "fonts.css").write_text("\n".join(css) + "\n", encoding="utf-8")


def write_shared_fonts(
    chapter_sites: list[Path], out: Path, shown: set[str] = frozenset(), previous: Path | None = None
) -> None:
    """The fonts of a work's site, for what its chapters' sites and its own pages (`shown`) show;
    those of the `previous` site's fonts folder if they were made for the same characters and
    families."""
    shown, matched, text, faces = set(shown), set(), set(), []
    for chapter_site in chapter_sites:
        needed = json.loads((chapter_site / "fonts" / "characters.json").read_text(encoding="utf-8"))
        faces.append(needed["face"])
        shown |= set(needed["shown"])
        matched |= set(needed["matched"])
        text |= set(needed["text"])
    needed = (
        json.dumps(
            {
                "shown": "".join(sorted(shown)),
                "matched": "".join(sorted(matched - shown)),
                "text": "".join(sorted(text)),
                "families": FAMILIES,
                "face": faces[0],
            },
            ensure_ascii=False,
        )
        + "\n"
    )
    if (
        previous is not None
        and (previous / "characters.json").is_file()
        and (previous / "characters.json").read_text(encoding="utf-8") == needed
    ):
        shutil.copytree(previous, out / "fonts", copy_function=os.link)
        return
    write_fonts(shown, out, faces[0], matched, text)
    (out / "fonts" / "characters.json").write_text(needed, encoding="utf-8")


def copy_downloads(edition_xml: Path, build_dir: Path, out: Path) -> list[tuple[str, str, int]]:
    """The TEI, the PDF, the witnesses' TEI and the reports, copied under downloads/."""
    sources = [
        edition_xml,
        build_dir / "edition.pdf",
        *sorted((build_dir / "witnesses").glob("*.xml")),
        *sorted((build_dir / "reports").glob("*")),
    ]
    listed = []
    for path in (p for p in sources if p.is_file()):
        relative = Path("downloads") / path.relative_to(build_dir if path.is_relative_to(build_dir) else path.parent)
        (out / relative).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, out / relative)
        listed.append((relative.as_posix(), path.name, path.stat().st_size))
    return listed


def text_characters(edition: EditionView) -> set[str]:
    """The characters of the edition's text: the edited text, the readings, the 注, the variant forms."""
    characters = {
        c for s in edition.sections for i in s.text_items for c in (i if isinstance(i, str) else i.lemma.text)
    }
    characters |= {c for a in edition.all_apps for r in a.readings for c in r.text} | {
        c for g in edition.glosses for c in g.text
    }
    return characters | {c for v in edition.variant_forms for c in v.text + v.form}


def load_site(edition_xml: Path, build_dir: Path) -> Site:
    """Everything the pages of the edition in `edition_xml` show, with the reports in `build_dir`."""
    edition = read(edition_xml)
    reports = {
        name: json.loads((build_dir / "reports" / f"{name}.json").read_text(encoding="utf-8"))
        for name in ("witnesses", "collation")
    }
    # Zheng Xuan's notes on the traditions he names (今文, 古文, 故書), where his notes have them
    jinguwen = build_dir / "reports" / "jinguwen.json"
    reports["jinguwen"] = (
        json.loads(jinguwen.read_text(encoding="utf-8"))
        if jinguwen.is_file()
        else {"notes": [], "disagreements": [], "left_out": []}
    )
    by_siglum = {w.siglum: w.id for w in edition.witnesses.values()}
    extant = {
        by_siglum[w["siglum"]]: [(r["from"], r["to"]) for r in w["extant"]]
        for w in reports["collation"]["witnesses"]
        if w["siglum"] in by_siglum
    }
    characters = text_characters(edition)
    own_forms = {
        by_siglum[w["siglum"]]: {at: (form, kind) for at, form, kind in w["own_forms"]}
        for w in reports["collation"]["witnesses"]
        if w["siglum"] in by_siglum
    }
    segments = segments_of(edition)
    site = Site(edition, reports, segments, extant, read_elsewhere(edition, segments), own_forms)
    site.length = max((r["to"] for w in reports["collation"]["witnesses"] for r in w["extant"]), default=1)
    site.manuscripts = [w for w in edition.witnesses.values() if w.included and not w.hypothetical]
    site.collated = {w["siglum"]: w for w in reports["collation"]["witnesses"]}
    site.conventions = Conventions(edition.style)
    site.entries = site.conventions.entries(edition)
    site.folds = Folds(edition, characters)
    site.jinguwen = bool(reports["jinguwen"]["notes"])
    return site


def search_script(site: Site, base: str = "", label: str = "") -> str:
    """The search index of a chapter as a script that adds itself to window.EDITION_SEARCH, so
    that a page can load several from file:// (no fetch there); `base` goes before its links and
    `label` before its places (the chapter's folder and title, in the work's search)."""
    data = {"folds": site.folds.table, "entries": search_entries(site), "base": base, "label": label}
    return (
        "(window.EDITION_SEARCH = window.EDITION_SEARCH || []).push("
        + json.dumps(data, ensure_ascii=False, separators=(",", ":"))
        + ");\n"
    )


def copy_static(out: Path, names: tuple[str, ...]) -> None:
    """The scripts and styles of static/ that the pages use."""
    for name in names:
        (out / name).write_bytes((resources.files("edition.publication") / "static" / name).read_bytes())


def build_site(
    edition_xml: Path, build_dir: Path, out: Path, shared_fonts: bool = False, language: str = "zh-Hant"
) -> None:
    """Write the static site for the edition in `edition_xml` and the reports in `build_dir`
    into `out` (with the witnesses' TEI among the downloads), in two languages: the edition's own
    (`language`) at the root, the other in its folder (en/), each page linking to the other's. With
    `shared_fonts` (a chapter of a work) the pages take their fonts from the folder above, which
    the work's site fills for all chapters from each chapter's `fonts/characters.json`."""
    site = load_site(edition_xml, build_dir)
    edition = site.edition
    out.mkdir(parents=True, exist_ok=True)
    downloads = copy_downloads(edition_xml, build_dir, out)
    manifests = iiif.write_manifests(edition, build_dir, out)
    copy_static(out, CHAPTER_ASSETS)
    env = environment(edition.gaiji)
    pages = {
        "index.html": ("index.html.j2", {}),
        "synopsis.html": ("synopsis.html.j2", {}),
        "witnesses.html": ("witnesses.html.j2", {}),
        **({"jinguwen.html": ("jinguwen.html.j2", {})} if site.jinguwen else {}),
        "variants.html": ("variants.html.j2", {}),
        "intake.html": ("intake.html.j2", {}),
        "collation.html": ("collation.html.j2", {}),
        "search.html": ("search.html.j2", {}),
        "fanli.html": ("fanli.html.j2", {}),
        "downloads.html": ("downloads.html.j2", {"downloads": downloads, "manifests": manifests}),
    }
    pages |= {
        f"witness-{w.siglum}.html": ("witness.html.j2", {"witness": w, "order": "base"}) for w in site.manuscripts
    }
    pages |= {
        f"witness-{w.siglum}-own-order.html": ("witness.html.j2", {"witness": w, "order": "own"})
        for w in site.manuscripts
        if site.transposed(w)
    }
    written = []
    for lang in site_languages(language):
        folder = out / lang.folder if lang.folder else out
        folder.mkdir(exist_ok=True)
        fonts = lang.root + ("../fonts" if shared_fonts else "fonts")
        for name, (template, context) in pages.items():
            html = env.get_template(template).render(
                site=site,
                edition=edition,
                page=name,
                fonts=fonts,
                t=lang.messages,
                lang=lang,
                root=lang.root,
                **context,
            )
            (folder / name).write_text(html, encoding="utf-8")
            written.append(html)
    script = search_script(site)
    (out / "search-data.js").write_text(script, encoding="utf-8")
    shown = {c for text in (*written, json.dumps(search_entries(site), ensure_ascii=False)) for c in text}
    matched = {c for pair in site.folds.table.items() for text in pair for c in text}
    if shared_fonts:
        (out / "fonts").mkdir(exist_ok=True)
        needed = {
            "shown": "".join(sorted(shown)),
            "matched": "".join(sorted(matched - shown)),
            "text": "".join(sorted(text_characters(edition))),
            "face": edition.face,
        }
        (out / "fonts" / "characters.json").write_text(json.dumps(needed, ensure_ascii=False) + "\n", encoding="utf-8")
    else:
        write_fonts(shown, out, edition.face, matched, text_characters(edition))
