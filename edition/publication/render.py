"""Rendering: the edition as read back from its TEI (build/edition.xml), for the PDF and HTML views.

Renderers never reach into the pipeline: everything they show comes from the TEI file.
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
class Witness:
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
class Reading:
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


@dataclass
class App:
    id: str
    number: int
    lemma: Reading
    readings: list[Reading]
    editorial: list[str] = field(default_factory=list)  # editors' notes and reasons
    markers: list[tuple[str, str]] = field(default_factory=list)  # (witStart… , witness id) inside the entry
    emended: bool = False  # the lemma is not the base's reading: an emendation, automatic or the editor's
    section: int = 0  # the number of its section
    citation: str = ""  # section.sentence of the sentence it is in
    before: str = ""  # the character of the edited text before it, and after it (for additions)
    after: str = ""
    occurrence: int = 0  # of a lemma that recurs in its sentence: which occurrence it is (1, 2…), else 0

    def of_types(self, types) -> list[Reading]:
        return [r for r in self.readings if r.type in types]


@dataclass
class Cite:
    """The start of a sentence: its citation (section.sentence), also its xml:id in the TEI."""

    id: str
    n: str


@dataclass
class Section:
    id: str
    title: str
    source: str
    paragraph_id: str
    items: list = field(default_factory=list)  # str, App or Cite
    number: int = 0

    @property
    def text_items(self) -> list:
        """The edited text and its entries, without the sentences' citations."""
        return [i for i in self.items if not isinstance(i, Cite)]

    @property
    def apps(self) -> list[App]:
        return [i for i in self.items if isinstance(i, App)]


@dataclass
class VariantForm:
    """A row of the 异体字表."""

    text: str  # the edited text's form
    form: str  # the witnesses' form
    count: int
    witnesses: list[tuple[str, int]]  # witness id, count
    sources: str  # the tables the fold comes from


@dataclass
class Edition:
    title: str
    tool: str
    witnesses: dict[str, Witness]
    sections: list[Section]
    apps: list[App]
    gaiji: dict[str, tuple[str, str] | None]  # id -> (mapping, description); None: no text, not shown
    variant_forms: list[VariantForm] = field(default_factory=list)
    variant_forms_note: str = ""  # the 异体字表's own description
    variant_forms_at_each_place: bool = False  # also recorded in the apparatus (normalization/@method)
    style: str = "chinese"  # the apparatus's conventions (the 凡例's @subtype)
    fanli_head: str = ""
    fanli: list[str] = field(default_factory=list)  # the 凡例, item by item

    @property
    def base(self) -> Witness | None:
        return next((w for w in self.witnesses.values() if w.base), None)

    def sigla(self, ids: list[str], joiner: str = " ") -> str:
        """The witnesses' names (sigla where they have none)."""
        return joiner.join(self.witnesses[i.lstrip("#")].label for i in ids if i.lstrip("#") in self.witnesses)


def text_of(node, gaiji: dict[str, tuple[str, str]]) -> str:
    """A reading's characters: stand-ins as their mapped character or a described placeholder,
    lost characters as ▯, fragment markers left out."""
    out = [node.text or ""]
    for child in node:
        name = etree.QName(child).localname
        if name == "g":
            ref = child.get("ref", "").lstrip("#")
            if ref not in gaiji or gaiji[ref] is not None:
                mapping, description = gaiji.get(ref, ("", ""))
                out.append(mapping or f"〔{description or ''.join(child.itertext())}〕")
        elif name == "gap":
            out.append("▯" * int(child.get("quantity", "1")))
        elif name not in MARKERS:
            out.append(text_of(child, gaiji))
        out.append(child.tail or "")
    return "".join(out)


def reading(node, gaiji) -> Reading:
    wit = node.get("wit", "").split()
    return Reading(
        node.get(XML_ID, ""), wit, text_of(node, gaiji), node.get("type", ""), node.get("subtype", ""), node.get("resp", ""), node.get("cert", ""),
        corresp=[ref.lstrip("#") for ref in node.get("corresp", "").split()],
    )


def read_app(node, number: int, gaiji) -> App:
    lem = node.find(".//t:lem", NS)
    readings = [reading(r, gaiji) for r in node.iterfind(".//t:rdg", NS)]
    by_id = {r.id: r for r in readings}
    for note in node.iterfind("t:note[@type='jinguwen']", NS):
        target = by_id.get(note.get("target", "").lstrip("#"))
        if target is not None:
            target.quotes = [(q.get("source", "").lstrip("#"), "".join(q.itertext())) for q in note.iterfind("t:quote", NS)]
    editorial = ["".join(n.itertext()) for n in node.iterfind("t:note[@type='editorial']", NS)]
    markers = [(etree.QName(m).localname, m.get("wit", "").lstrip("#")) for name in MARKERS for m in node.iterfind(f".//t:{name}", NS)]
    markers = [(name, wit) for name, wit in markers if wit not in TRADITIONS]
    return App(node.get(XML_ID, ""), number, reading(lem, gaiji), readings, editorial, markers)


def read_witness(node) -> Witness:
    """A witness of listWit, or an excluded one of listBibl."""
    bibl = node.find("t:bibl", NS)
    text = lambda parent, path: parent.findtext(path, default="", namespaces=NS) if parent is not None else ""
    return Witness(
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
    )


def read(path: Path) -> Edition:
    doc = etree.parse(str(path))
    gaiji = {}
    for char in doc.iterfind(".//t:charDecl/t:char", NS):
        mapping = char.findtext("t:mapping[@type='standard']", default="", namespaces=NS)
        name = char.find("t:localProp[@name='name']", NS)
        not_text = char.find("t:localProp[@name='kind'][@value='not-text']", NS) is not None
        gaiji[char.get(XML_ID)] = None if not_text else (mapping, name.get("value") if name is not None else "")
    nodes = doc.xpath("//t:sourceDesc//t:listWit/t:witness | //t:sourceDesc/t:listBibl[@type='excluded']/t:bibl", namespaces=NS)
    witnesses = {w.id: w for w in map(read_witness, nodes)}
    sections, apps = [], []
    for number, div in enumerate(doc.iterfind(".//t:body/t:div", NS), 1):
        head = div.find("t:head", NS)
        p = div.find("t:p", NS)
        section = Section(div.get(XML_ID), head.text or "", head.get("source", "").lstrip("#"), p.get(XML_ID), number=number)
        if p.text:
            section.items.append(p.text)
        for child in p:
            name = etree.QName(child).localname
            if name == "app":
                app = read_app(child, int(child.get(XML_ID).rsplit("-", 1)[1]), gaiji)
                apps.append(app)
                section.items.append(app)
            elif name == "anchor" and child.get("type") == "sentence":
                section.items.append(Cite(child.get(XML_ID), child.get("n")))
            if child.tail:
                section.items.append(child.tail)
        place_apps(section)
        sections.append(section)
    base = next((w.id for w in witnesses.values() if w.base), None)
    for app in apps:
        app.emended = bool(app.lemma.resp) and any(f"#{base}" in r.wit for r in app.readings)
    app_of = {r.id: app for app in apps for r in app.readings}
    for app in apps:
        for r in app.readings:
            r.elsewhere = [app_of[ref] for ref in r.corresp if ref in app_of]
    application = doc.find(".//t:appInfo/t:application", NS)
    tool = f"{application.get('ident')} {application.get('version')}" if application is not None else ""
    edition = Edition(doc.findtext(".//t:titleStmt/t:title", default="", namespaces=NS), tool, witnesses, sections, apps, gaiji)
    table = doc.find(".//t:back/t:div[@type='variant-forms']", NS)
    if table is not None:
        edition.variant_forms = [variant_form(row) for row in table.iterfind(".//t:row", NS) if row.get("role") != "label"]
        edition.variant_forms_note = table.findtext("t:p", default="", namespaces=NS)
    edition.variant_forms_at_each_place = bool(doc.xpath("//t:editorialDecl/t:normalization[@xml:id='decl-variant_forms'][@method='markup']", namespaces=NS))
    fanli = doc.find(".//t:front/t:div[@type='fanli']", NS)
    if fanli is not None:
        edition.style = fanli.get("subtype", edition.style)
        edition.fanli_head = fanli.findtext("t:head", default="", namespaces=NS)
        edition.fanli = ["".join(p.itertext()) for p in fanli.iterfind("t:p", NS)]
    return edition


def place_apps(section: Section) -> None:
    """Each entry's section, sentence, neighbouring characters and occurrence of its lemma in the
    sentence (之¹ 之² where a lemma recurs there)."""
    sentences: list[list] = [[]]
    citation = ""
    for item in section.items:
        if isinstance(item, Cite):
            citation = item.n
            sentences.append([])
        elif isinstance(item, App):
            item.section, item.citation = section.number, citation
        sentences[-1].append(item)
    plain = lambda items: "".join(i if isinstance(i, str) else i.lemma.text for i in items if not isinstance(i, Cite))
    for sentence in sentences:
        text = plain(sentence)
        for index, item in enumerate(sentence):
            if isinstance(item, App):
                earlier, later = plain(sentence[:index]), plain(sentence[index + 1 :])
                item.before = (HAN.findall(earlier) or [""])[-1]
                item.after = (HAN.findall(later) or [""])[0]
                lemma = item.lemma.text
                if lemma and text.count(lemma) > 1:
                    item.occurrence = earlier.count(lemma) + 1


def variant_form(row) -> VariantForm:
    text, form, count, witnesses, sources = row.iterfind("t:cell", NS)
    refs = [(ref.get("target", "").lstrip("#"), int(ref.get("n", "0"))) for ref in witnesses.iterfind("t:ref", NS)]
    return VariantForm(text.text or "", form.text or "", int(count.text), refs, sources.text or "")
