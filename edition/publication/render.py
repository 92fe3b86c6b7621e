"""Rendering: the edition as read back from its TEI (build/edition.xml), for the PDF and HTML views.

Renderers never reach into the pipeline: everything they show comes from the TEI file. An `app`
may hold others: in its lemma (the entries inside a moved clause, at its place in the base) or in
a reading (a moved clause's differences from the edited text, where the witness reads it). Each
note of Zheng Xuan's 注 (`note type="commentary"`) after its 經 passage is a `GlossView`, with its
own entries; a lemma that holds one reads without it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import regex
from lxml import etree

TEI = "http://www.tei-c.org/ns/1.0"
NS = {"t": TEI}
XML_ID = "{http://www.w3.org/XML/1998/namespace}id"
MARKERS = ("witStart", "witEnd", "lacunaStart", "lacunaEnd")
TRADITIONS = ("jinwen", "guwen")  # Zheng Xuan's 今文 and 古文: reported, not extant witnesses
HAN = regex.compile(r"[\p{Han}▯]")


@dataclass
class WitnessView:
    id: str
    siglum: str
    title: str
    quality: str
    status: str
    extent: str
    base: bool = False  # the base text (底本)
    name: str = ""  # the short name of the apparatus (禮書綱目)
    author: str = ""
    edition: str = ""  # the edition it reproduces
    abridged: tuple[str, ...] = ()  # the layers it quotes in part (commentary)

    @property
    def label(self) -> str:
        """What the apparatus calls it: its name, or its siglum where it has none."""
        return self.name or self.siglum

    @property
    def included(self) -> bool:
        return self.status.startswith("included")

    @property
    def hypothetical(self) -> bool:
        return self.status.startswith("hypothetical")


@dataclass
class ReadingView:
    id: str
    wit: list[str]
    text: str
    type: str = ""
    subtype: str = ""
    resp: str = ""
    cert: str = ""
    quotes: list[tuple[str, str]] = field(default_factory=list)  # (witness id, the note's words)
    corresp: list[str] = field(default_factory=list)  # ids of the readings at a transposition's other place
    elsewhere: list[App] = field(default_factory=list)  # the apps those readings are in
    counterparts: list[ReadingView] = field(default_factory=list)  # those readings
    inner: list[App] = field(default_factory=list)  # the entries nested in this reading


@dataclass
class App:
    id: str
    number: int
    lemma: ReadingView
    readings: list[ReadingView]
    editorial: list[str] = field(default_factory=list)  # editors' notes and reasons
    # The witnesses' 校语: (author's id, [(witness id, words)]).
    textual: list[tuple[str, list[tuple[str, str]]]] = field(default_factory=list)
    basis: str = ""  # of an emendation: 對校, 本校, 他校 or 理校
    basis_source: str = ""  # the text a 他校 emendation follows
    same_as: str = ""  # the id of the entry whose emendation this one repeats (the same error)
    # Quotations of the text in the commentary: (witness, layer, words).
    evidence: list[tuple[str, str, str]] = field(default_factory=list)
    markers: list[tuple[str, str]] = field(default_factory=list)  # (witStart… , witness id) inside the entry
    emended: bool = False  # the lemma is not the base's reading: an emendation, automatic or the editor's
    parts: list = field(default_factory=list)  # the lemma's text and the apps nested in it (str or App)
    section: str = ""  # the id of its section
    citation: str = ""  # section.sentence of the sentence it is in
    before: str = ""  # the character of the edited text before it, and after it (for additions)
    after: str = ""
    occurrence: int = 0  # of a lemma that recurs in its sentence: which occurrence it is (1, 2…), else 0
    within: App | None = None  # the app whose lemma or reading holds it
    in_reading: bool = False  # held by a reading: a moved clause's difference, shown with that reading
    gloss: str = ""  # the id of the note of the 注 it is an entry of ("" for the 經)

    @property
    def in_text(self) -> bool:
        return not self.in_reading

    @property
    def label(self) -> str:
        """The entry's number as the views give it: 注12 for an entry of the 注."""
        return f"注{self.number}" if self.gloss else str(self.number)

    @property
    def nested(self) -> list[App]:
        return [part for part in self.parts if isinstance(part, App)]

    def family(self) -> list[App]:
        """This app and every app nested in its lemma or its readings."""
        inner = [app for part in self.nested for app in part.family()]
        return [self, *inner, *(app for r in self.readings for nested in r.inner for app in nested.family())]

    def of_types(self, types) -> list[ReadingView]:
        return [r for r in self.readings if r.type in types]


@dataclass
class GlossView:
    """A note of Zheng Xuan's 注 after the 經 passage it comments on: its edited text and entries."""

    id: str
    items: list = field(default_factory=list)  # str and App
    section: str = ""
    citation: str = ""  # section.sentence of the 經 it stands in

    @property
    def text(self) -> str:
        return "".join(i if isinstance(i, str) else i.lemma.text for i in self.items)

    @property
    def apps(self) -> list[App]:
        return [i for i in self.items if isinstance(i, App)]


@dataclass
class Cite:
    """The start of a sentence: its citation (section.sentence), also its xml:id in the TEI."""

    id: str
    n: str


@dataclass
class Paragraph:
    """Where a paragraph of a section begins: its xml:id, and the step of the rite it begins with
    (`n`, empty if none); `first` for the section's first paragraph, which the section opens."""

    id: str
    n: str
    first: bool = False


@dataclass
class LayerMark:
    """Where the edited text changes layer: a 傳 begins (`unit` tradition) or the classic text
    takes up again after it (classic)."""

    unit: str


MARKS = (Cite, Paragraph, LayerMark)  # items of a section that are no text


@dataclass
class SectionView:
    id: str
    title: str
    source: str
    paragraph_id: str
    items: list = field(default_factory=list)  # str, App, Cite or GlossView
    number: int = 0
    opens: str = ""  # the heading of the division (記) that begins with it

    @property
    def text_items(self) -> list:
        """The edited 經 and its entries, without the sentences' citations, the paragraphs' starts and the 注."""
        return [i for i in self.items if not isinstance(i, (*MARKS, GlossView))]

    @property
    def glosses(self) -> list[GlossView]:
        """The notes of the 注 in the section, those a lemma holds among them."""
        return [gloss for item in self.items for gloss in glosses_in(item)]

    @property
    def apps(self) -> list[App]:
        return [i for i in self.items if isinstance(i, App)]


@dataclass
class VariantFormView:
    """A row of the 异体字表."""

    text: str  # the edited text's form
    form: str  # the witnesses' form
    count: int
    witnesses: list[tuple[str, int]]  # witness id, count
    sources: str  # the tables the fold comes from


@dataclass
class EditionView:
    title: str
    tool: str
    witnesses: dict[str, WitnessView]
    sections: list[SectionView]
    apps: list[App]
    gaiji: dict[str, tuple[str, str] | None]  # id -> (mapping, description); None: no text, not shown
    commentary_apps: list[App] = field(default_factory=list)  # the entries of the 注
    variant_forms: list[VariantFormView] = field(default_factory=list)
    variant_forms_note: str = ""  # the 异体字表's own description
    variant_forms_at_each_place: bool = False  # also recorded in the apparatus (normalization/@method)
    persons: dict[str, str] = field(default_factory=dict)  # id -> name, of the header's listPerson
    style: str = "chinese"  # the apparatus's conventions (the 凡例's @subtype)
    fanli_head: str = ""
    fanli: list[str] = field(default_factory=list)  # the 凡例, item by item
    fanli_keys: list[str] = field(default_factory=list)  # each item's key in conventions.toml (base, script…)

    @property
    def base(self) -> WitnessView | None:
        return next((w for w in self.witnesses.values() if w.base), None)

    @property
    def all_apps(self) -> list[App]:
        """The entries of the 經, then those of the 注."""
        return self.apps + self.commentary_apps

    @property
    def glosses(self) -> list[GlossView]:
        return [gloss for section in self.sections for gloss in section.glosses]

    def sigla(self, ids: list[str], joiner: str = " ") -> str:
        """The witnesses' names (sigla where they have none)."""
        return joiner.join(self.witnesses[i.lstrip("#")].label for i in ids if i.lstrip("#") in self.witnesses)


def text_of(node, gaiji: dict[str, tuple[str, str]]) -> str:
    """A reading's characters: stand-ins as their mapped character or a described placeholder,
    lost characters as ▯, fragment markers left out, a nested app as the reading that goes with it."""
    out = [node.text or ""]
    for child in node:
        out.append(child_text(child, node, gaiji))
        out.append(child.tail or "")
    return "".join(out)


def child_text(child, parent, gaiji) -> str:
    name = etree.QName(child).localname
    if name == "g":
        ref = child.get("ref", "").lstrip("#")
        if ref in gaiji and gaiji[ref] is None:
            return ""
        mapping, description = gaiji.get(ref, ("", ""))
        return mapping or f"〔{description or ''.join(child.itertext())}〕"
    if name == "gap":
        return "▯" * int(child.get("quantity", "1"))
    if name == "app":
        return text_of(nested_reading(child, parent), gaiji)
    return "" if name in MARKERS or name == "note" else text_of(child, gaiji)


def nested_reading(app, reading):
    """The reading of a nested app that goes with the reading holding it: its lemma, or the
    reading of the same witnesses."""
    wit = set(reading.get("wit", "").split())
    if etree.QName(reading).localname == "rdg":
        own = next((r for r in app.iterfind(".//t:rdg", NS) if wit & set(r.get("wit", "").split())), None)
        if own is not None:
            return own
    return app.find(".//t:lem", NS)


def own_children(node, path: str):
    """Matches of `path` under `node` that no nested app holds."""
    return [found for found in node.iterfind(path, NS) if next(found.iterancestors(f"{{{TEI}}}app")) is node]


def reading(node, gaiji) -> ReadingView:
    wit = node.get("wit", "").split()
    return ReadingView(
        node.get(XML_ID, ""),
        wit,
        text_of(node, gaiji),
        node.get("type", ""),
        node.get("subtype", ""),
        node.get("resp", ""),
        node.get("cert", ""),
        corresp=[ref.lstrip("#") for ref in node.get("corresp", "").split()],
    )


@dataclass
class Collected:
    """What reading the TEI collects: the stand-ins, and the entries of the 經 and of the 注."""

    gaiji: dict
    apps: list[App] = field(default_factory=list)
    commentary_apps: list[App] = field(default_factory=list)


def is_gloss(node) -> bool:
    return etree.QName(node).localname == "note" and node.get("type") == "commentary"


def read_gloss(node, found: Collected) -> GlossView:
    """A note of the 注: its text, and its entries after those read so far."""
    gloss = GlossView(node.get(XML_ID, ""))
    gloss.items = read_items(node, found, gloss.id)
    return gloss


def read_items(node, found: Collected, gloss: str = "") -> list:
    """The text and entries of a paragraph or of a note of the 注: str, App, Cite or GlossView."""
    items = [node.text] if node.text else []
    for child in node:
        name = etree.QName(child).localname
        if name == "app":
            items.append(read_app(child, found, gloss=gloss))
        elif is_gloss(child):
            items.append(read_gloss(child, found))
        elif name == "pc":
            items.append(child.text)
        elif name == "anchor" and child.get("type") == "sentence":
            items.append(Cite(child.get(XML_ID), child.get("n")))
        elif name == "milestone":
            items.append(LayerMark(child.get("unit", "")))
        if child.tail:
            items.append(child.tail)
    return items


def read_app(node, found: Collected, within: App | None = None, gloss: str = "") -> App:
    """The app and, after it among the entries of its layer, those nested in it."""
    gaiji = found.gaiji
    apps = found.commentary_apps if gloss else found.apps
    lem = own_children(node, ".//t:lem")[0]
    readings = [reading(r, gaiji) for r in own_children(node, ".//t:rdg")]
    by_id = {r.id: r for r in readings}
    for note in node.iterfind("t:note[@type='jinguwen']", NS):
        target = by_id.get(note.get("target", "").lstrip("#"))
        if target is not None:
            target.quotes = [(q.get("source", "").lstrip("#"), text_of(q, gaiji)) for q in note.iterfind("t:quote", NS)]
    editorial = ["".join(n.itertext()) for n in node.xpath("t:note[@type='editorial'][not(@subtype)]", namespaces=NS)]
    textual = [
        (
            n.get("resp", "").lstrip("#"),
            [(q.get("source", "").lstrip("#"), text_of(q, gaiji)) for q in n.iterfind("t:quote", NS)],
        )
        for n in node.iterfind("t:note[@type='textual']", NS)
    ]
    markers = [
        (etree.QName(m).localname, m.get("wit", "").lstrip("#"))
        for name in MARKERS
        for m in own_children(node, f".//t:{name}")
    ]
    markers = [(name, wit) for name, wit in markers if wit not in TRADITIONS]
    app = App(
        node.get(XML_ID, ""),
        int(node.get(XML_ID).rsplit("-", 1)[1]),
        reading(lem, gaiji),
        readings,
        editorial,
        textual=textual,
        markers=markers,
        within=within,
        gloss=gloss,
    )
    app.basis = lem.get("cause", "")
    app.basis_source = node.findtext("t:note[@subtype='source']/t:bibl", default="", namespaces=NS)
    app.same_as = next(
        (n.get("target", "").lstrip("#") for n in node.iterfind("t:note[@subtype='same-error']", NS)), ""
    )
    app.evidence = [
        (d.get("wit", ""), d.get("subtype", ""), d.findtext("t:q", default="", namespaces=NS))
        for d in node.iterfind("t:witDetail[@type='evidence']", NS)
    ]
    apps.append(app)
    app.parts = [lem.text] if lem.text else []
    for child in lem:
        if etree.QName(child).localname == "app":
            app.parts.append(read_app(child, found, app, gloss))
        elif is_gloss(child):
            app.parts.append(read_gloss(child, found))
        else:
            app.parts.append(child_text(child, lem, gaiji))
        if child.tail:
            app.parts.append(child.tail)
    app.parts = joined(app.parts)
    for r, element in zip(readings, own_children(node, ".//t:rdg")):
        r.inner = [read_app(child, found, app, gloss) for child in element.iterfind("t:app", NS)]
        for inner in r.inner:
            inner.in_reading = True
    return app


def joined(parts: list) -> list:
    """Adjacent strings as one, empty ones left out."""
    out: list = []
    for part in parts:
        if isinstance(part, str) and out and isinstance(out[-1], str):
            out[-1] += part
        elif part != "":
            out.append(part)
    return out


def read_witness(node) -> WitnessView:
    """A witness of listWit, or an excluded one of listBibl."""
    bibl = node.find("t:bibl", NS)
    text = lambda parent, path: parent.findtext(path, default="", namespaces=NS) if parent is not None else ""
    return WitnessView(
        node.get(XML_ID),
        node.get("n") or text(node, "t:abbr[@type='siglum']") or node.get(XML_ID),
        text(bibl, "t:title") or (node.find("t:abbr", NS).tail or "").strip(),
        text(node, "t:note[@type='quality']"),
        text(node, "t:note[@type='status']"),
        text(node, "t:note[@type='extent']"),
        text(node, "t:note[@type='role']") == "base",
        text(node, "t:abbr[@type='name']"),
        text(bibl, "t:author"),
        text(bibl, "t:edition"),
        tuple(note.get("subtype") for note in node.iterfind("t:note[@type='abridged']", NS)),
    )


def read(path: Path) -> EditionView:
    doc = etree.parse(str(path))
    gaiji = {}
    for char in doc.iterfind(".//t:charDecl/t:char", NS):
        mapping = char.findtext("t:mapping[@type='standard']", default="", namespaces=NS)
        name = char.find("t:localProp[@name='name']", NS)
        not_text = char.find("t:localProp[@name='kind'][@value='not-text']", NS) is not None
        gaiji[char.get(XML_ID)] = None if not_text else (mapping, name.get("value") if name is not None else "")
    nodes = doc.xpath(
        "//t:sourceDesc//t:listWit/t:witness | //t:sourceDesc/t:listBibl[@type='excluded']/t:bibl", namespaces=NS
    )
    witnesses = {w.id: w for w in map(read_witness, nodes)}
    sections = []
    found = Collected(gaiji)
    for number, div in enumerate(doc.xpath("//t:body//t:div[@type='section']", namespaces=NS), 1):
        head = div.find("t:head", NS)
        p = div.find("t:p", NS)
        section = SectionView(
            div.get(XML_ID), head.text or "", head.get("source", "").lstrip("#"), p.get(XML_ID), number=number
        )
        division = div.getparent()
        if division.get("type") == "division" and div.getprevious() is division.find("t:head", NS):
            section.opens = "".join(division.find("t:head", NS).itertext())
        first, first_commentary = len(found.apps), len(found.commentary_apps)
        for number_in_section, p in enumerate(div.iterfind("t:p", NS)):
            if number_in_section or p.get("n"):
                section.items.append(Paragraph(p.get(XML_ID), p.get("n", ""), first=not number_in_section))
            section.items += read_items(p, found)
        for app in found.apps[first:] + found.commentary_apps[first_commentary:]:
            app.section = section.id
        for gloss in section.glosses:
            gloss.section = section.id
        place_apps(section)
        sections.append(section)
    edition = EditionView("", "", witnesses, sections, found.apps, gaiji, commentary_apps=found.commentary_apps)
    base = next((w.id for w in witnesses.values() if w.base), None)
    apps = edition.all_apps
    for app in apps:
        app.emended = bool(app.lemma.resp) and any(f"#{base}" in r.wit for r in app.readings)
    app_of = {r.id: app for app in apps for r in app.readings}
    reading_of = {r.id: r for app in apps for r in app.readings}
    for app in apps:
        for r in app.readings:
            r.elsewhere = [app_of[ref] for ref in r.corresp if ref in app_of]
            r.counterparts = [reading_of[ref] for ref in r.corresp if ref in reading_of]
    application = doc.find(".//t:appInfo/t:application", NS)
    edition.tool = f"{application.get('ident')} {application.get('version')}" if application is not None else ""
    edition.title = doc.findtext(".//t:titleStmt/t:title", default="", namespaces=NS)
    edition.persons = {
        p.get(XML_ID): p.findtext("t:persName", default="", namespaces=NS)
        for p in doc.iterfind(".//t:listPerson/t:person", NS)
    }
    table = doc.find(".//t:back/t:div[@type='variant-forms']", NS)
    if table is not None:
        edition.variant_forms = [
            variant_form(row) for row in table.iterfind(".//t:row", NS) if row.get("role") != "label"
        ]
        edition.variant_forms_note = table.findtext("t:p", default="", namespaces=NS)
    edition.variant_forms_at_each_place = bool(
        doc.xpath("//t:editorialDecl/t:normalization[@xml:id='decl-variant_forms'][@method='markup']", namespaces=NS)
    )
    fanli = doc.find(".//t:front/t:div[@type='fanli']", NS)
    if fanli is not None:
        edition.style = fanli.get("subtype", edition.style)
        edition.fanli_head = fanli.findtext("t:head", default="", namespaces=NS)
        edition.fanli = ["".join(p.itertext()) for p in fanli.iterfind("t:p", NS)]
        edition.fanli_keys = [p.get("n", "") for p in fanli.iterfind("t:p", NS)]
    return edition


def glosses_in(item) -> list[GlossView]:
    """The notes of the 注 an item is or holds (in a lemma)."""
    if isinstance(item, GlossView):
        return [item]
    return [gloss for part in item.parts for gloss in glosses_in(part)] if isinstance(item, App) else []


def place_apps(section: SectionView) -> None:
    """Each entry's sentence, neighbouring characters and occurrence of its lemma in the sentence
    (之¹ 之² where a lemma recurs there); an entry nested in another is cited by its sentence. A
    note of the 注 is cited by the sentence it stands in, and its entries are placed in it."""
    sentences: list[list] = [[]]
    citation = ""
    for item in section.items:
        if isinstance(item, Paragraph):
            continue
        if isinstance(item, Cite):
            citation = item.n
            sentences.append([])
            continue
        for gloss in glosses_in(item):
            gloss.citation = citation
            for app in (a for entry in gloss.apps for a in entry.family()):
                app.citation = citation
            place_among(gloss.items)
        if isinstance(item, App):
            for app in item.family():
                app.citation = citation
        sentences[-1].append(item)
    for sentence in sentences:
        place_among(sentence)


def place_among(items: list) -> None:
    """The neighbours and occurrences of the apps among `items` (text and apps; the 注 and the
    citations left out), and of the apps nested in their lemmas among its parts."""
    items = [i for i in items if isinstance(i, (str, App))]
    plain = lambda items: "".join(i if isinstance(i, str) else i.lemma.text for i in items)
    text = plain(items)
    for index, item in enumerate(items):
        if isinstance(item, App):
            earlier, later = plain(items[:index]), plain(items[index + 1 :])
            item.before = (HAN.findall(earlier) or [""])[-1]
            item.after = (HAN.findall(later) or [""])[0]
            lemma = item.lemma.text
            if lemma and text.count(lemma) > 1:
                item.occurrence = earlier.count(lemma) + 1
            place_among(item.parts)


def variant_form(row) -> VariantFormView:
    text, form, count, witnesses, sources = row.iterfind("t:cell", NS)
    refs = [(ref.get("target", "").lstrip("#"), int(ref.get("n", "0"))) for ref in witnesses.iterfind("t:ref", NS)]
    return VariantFormView(text.text or "", form.text or "", int(count.text), refs, sources.text or "")
