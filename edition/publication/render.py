"""Rendering: the edition read back from its TEI (build/edition.xml) into the views of `model`, for
the PDF and HTML.

Renderers never reach into the pipeline: everything they show comes from the TEI file. An `app`
may hold others: in its lemma (the entries inside a moved clause, at its place in the base) or in
a reading (a moved clause's differences from the edited text, where the witness reads it). Each
note of Zheng Xuan's 注 (`note type="commentary"`) after its 經 passage is a `GlossView`, with its
own entries; a lemma that holds one reads without it.
"""

from __future__ import annotations

from pathlib import Path

import regex
from lxml import etree

from ..collation.apparatus import GRAPHIC_RESP
from ..collation.punctuation_model import PROPOSED_RESP
from ..text import HAN_OR_GAP
from .model import (
    FACE,
    App,
    Cite,
    Collected,
    EditionView,
    GlossView,
    LayerMark,
    Leaf,
    Paragraph,
    Photograph,
    Proposed,
    Quotation,
    ReadingView,
    SectionView,
    TextualNote,
    VariantFormView,
    WitnessView,
    glosses_in,
)

TEI = "http://www.tei-c.org/ns/1.0"
NS = {"t": TEI}
XML_ID = "{http://www.w3.org/XML/1998/namespace}id"
XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"
MARKERS = ("witStart", "witEnd", "lacunaStart", "lacunaEnd")


UNDESCRIBED = "〓"  # a stand-in that no table maps or describes


def text_of(node, gaiji: dict[str, str | None]) -> str:
    """A reading's characters: stand-ins as they print (`printed_form`), lost characters as ▯,
    fragment markers left out, a nested app as the reading that goes with it; of a quoted note,
    the words it says (its heading left out)."""
    out = [node.text or ""]
    for child in node:
        out.append(child_text(child, node, gaiji))
        out.append(child.tail or "")
    return "".join(out)


def child_text(child, parent, gaiji) -> str:
    name = etree.QName(child).localname
    if name == "g":
        return gaiji.get(child.get("ref", "").lstrip("#"), UNDESCRIBED) or ""
    if name == "gap":
        return "▯" * int(child.get("quantity", "1"))
    if name == "app":
        return text_of(nested_reading(child, parent), gaiji)
    if name in MARKERS or name == "note" or (name == "seg" and child.get("type") == "heading"):
        return ""
    return text_of(child, gaiji)


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


def reading(node, gaiji, reported: frozenset[str] = frozenset()) -> ReadingView:
    """A lemma or reading; the editions a 校语 reports apart from the witnesses (`reported`, ids),
    since the views say them only in the note's words."""
    wit = node.get("wit", "").split()
    stand_ins = [gaiji.get(g.get("ref", "").lstrip("#")) for g in node.iterfind(".//t:g", NS)]
    return ReadingView(
        node.get(XML_ID, ""),
        [w for w in wit if w.lstrip("#") not in reported],
        text_of(node, gaiji),
        node.get("type", ""),
        node.get("subtype", ""),
        node.get("resp", ""),
        node.get("cert", ""),
        corresp=[ref.lstrip("#") for ref in node.get("corresp", "").split()],
        reported=[w.lstrip("#") for w in wit if w.lstrip("#") in reported],
        unmapped=any(stand_in is not None and not is_character(stand_in) for stand_in in stand_ins),
    )


def reports_a_reading(note) -> bool:
    """A 校语 reports a reading at its entry where a witDetail of type reported there names it as
    its source; one that does not (on the 疏, a gloss, a reading of no edition) is a series of its own."""
    sources = {d.get("source") for d in note.getparent().iterfind("t:witDetail[@type='reported']", NS)}
    return f"#{note.get(XML_ID)}" in sources


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
            items.append(Proposed(child.text) if child.get("resp") == f"#{PROPOSED_RESP}" else child.text)
        elif name == "g":
            items.append(child_text(child, node, found.gaiji))
        elif name == "anchor" and child.get("type") == "sentence":
            items.append(Cite(child.get(XML_ID), child.get("n")))
        elif name == "milestone":
            items.append(LayerMark(child.get("unit", "")))
        elif name == "pb" and child.get("ed") == f"#{found.base}":
            items.append(Leaf(child.get("n", "")))
        if child.tail:
            items.append(child.tail)
    return joined(items)


def read_app(node, found: Collected, within: App | None = None, gloss: str = "") -> App:
    """The app and, after it among the entries of its layer, those nested in it."""
    gaiji = found.gaiji
    apps = found.commentary_apps if gloss else found.apps
    lem = own_children(node, ".//t:lem")[0]
    elements = own_children(node, ".//t:rdg")
    read = [(reading(r, gaiji, found.reported), r) for r in elements]
    # A reading of reported editions alone is the 校语's, which the entry quotes.
    theirs = [view for view, _ in read if view.reported and not view.wit]
    read = [(view, r) for view, r in read if not (view.reported and not view.wit)]
    readings = [view for view, _ in read]
    by_id = {r.id: r for r in readings}
    for note in node.iterfind("t:note[@type='jinguwen']", NS):
        target = by_id.get(note.get("target", "").lstrip("#"))
        if target is not None:
            target.quotes = [(q.get("source", "").lstrip("#"), text_of(q, gaiji)) for q in note.iterfind("t:quote", NS)]
    editorial = ["".join(n.itertext()) for n in node.xpath("t:note[@type='editorial'][not(@subtype)]", namespaces=NS)]
    textual = [
        TextualNote(
            n.get("resp", "").lstrip("#"),
            [(q.get("source", "").lstrip("#"), text_of(q, gaiji)) for q in n.iterfind("t:quote", NS)],
            reports_a_reading(n),
        )
        for n in node.iterfind("t:note[@type='textual']", NS)
    ]
    for detail in node.iterfind("t:witDetail[@type='form']", NS):
        target = by_id.get(detail.get("target", "").lstrip("#"))
        if target is not None:
            target.forms |= dict.fromkeys(detail.get("wit", "").split(), text_of(detail, gaiji))
    markers = [
        (etree.QName(m).localname, m.get("wit", "").lstrip("#"))
        for name in MARKERS
        for m in own_children(node, f".//t:{name}")
    ]
    markers = [(name, wit) for name, wit in markers if wit not in found.hypothetical]
    app = App(
        node.get(XML_ID, ""),
        int(node.get(XML_ID).rsplit("-", 1)[1]),
        reading(lem, gaiji, found.reported),
        readings,
        editorial,
        textual=textual,
        markers=markers,
        within=within,
        gloss=gloss,
    )
    app.basis = lem.get("cause", "")
    if node.xpath("t:rdg/t:gap[@unit='leaf']", namespaces=NS):
        app.lost_leaf = [ref.lstrip("#") for ref in lem.get("source", "").split()]
    app.basis_source = node.findtext("t:note[@subtype='source']/t:bibl", default="", namespaces=NS)
    app.same_as = next(
        (n.get("target", "").lstrip("#") for n in node.iterfind("t:note[@subtype='same-error']", NS)), ""
    )
    app.evidence = [
        Quotation(
            d.get("wit", ""),
            d.get("subtype", ""),
            text_of(d.find("t:q", NS), gaiji),
            d.get("target", "").lstrip("#"),
        )
        for d in node.iterfind("t:witDetail[@type='evidence']", NS)
    ]
    apps.append(app)
    app.parts = [lem.text] if lem.text else []
    for child in lem:
        if etree.QName(child).localname == "app":
            app.parts.append(read_app(child, found, app, gloss))
        elif is_gloss(child):
            app.parts.append(read_gloss(child, found))
        elif etree.QName(child).localname == "pb" and child.get("ed") == f"#{found.base}":
            app.parts.append(Leaf(child.get("n", "")))
        else:
            app.parts.append(child_text(child, lem, gaiji))
        if child.tail:
            app.parts.append(child.tail)
    app.parts = joined(app.parts)
    app.reported = theirs
    for r, element in read:
        r.inner = [read_app(child, found, app, gloss) for child in element.iterfind("t:app", NS)]
        for inner in r.inner:
            inner.in_reading = True
    return app


def joined(parts: list) -> list:
    """Adjacent strings as one (a proposed mark apart), empty ones left out."""
    out: list = []
    for part in parts:
        if type(part) is str and out and type(out[-1]) is str:
            out[-1] += part
        elif part != "":
            out.append(part)
    return out


def read_witness(node) -> WitnessView:
    """A witness of listWit, or an excluded one of listBibl."""
    bibl = node.find("t:bibl", NS)
    text = lambda parent, path: parent.findtext(path, default="", namespaces=NS) if parent is not None else ""
    extent = node.find("t:note[@type='extent']", NS)
    return WitnessView(
        node.get(XML_ID),
        node.get("n") or text(node, "t:abbr[@type='siglum']") or node.get(XML_ID),
        text(bibl, "t:title") or (node.find("t:abbr", NS).tail or "").strip(),
        text(node, "t:note[@type='quality']"),
        text(node, "t:note[@type='status']"),
        "".join(extent.itertext()) if extent is not None else "",
        text(node, "t:note[@type='role']") == "base",
        text(node, "t:abbr[@type='name']"),
        text(bibl, "t:author"),
        text(bibl, "t:edition"),
        tuple(note.get("subtype") for note in node.iterfind("t:note[@type='abridged']", NS)),
        tuple((seg.text, *seg.get("n").split("–")) for seg in extent.iterfind("t:seg[@type='extant']", NS))
        if extent is not None
        else (),
        tuple((note.get("subtype"), int(note.get("n"))) for note in node.iterfind("t:note[@type='unrecorded']", NS)),
        text(node, "t:note[@type='script']") or "traditional",
    )


def printed_form(char) -> str | None:
    """How a declared stand-in prints, as Chinese editions print a 造字: the character it stands
    for, else its composition in 〔〕, else 〓; None for a character that is no text."""
    if char.find("t:localProp[@name='kind'][@value='not-text']", NS) is not None:
        return None
    mapping = char.findtext("t:mapping[@type='standard']", default="", namespaces=NS)
    ids = char.findtext("t:mapping[@type='ids']", default="", namespaces=NS)
    return mapping or (f"〔{ids}〕" if ids else UNDESCRIBED)


def is_character(printed: str) -> bool:
    """A stand-in printed as the character it stands for, not as its composition (〔⿰纟舀〕) or 〓."""
    return printed != UNDESCRIBED and not printed.startswith("〔")


def read(path: Path) -> EditionView:
    doc = etree.parse(str(path))
    gaiji = {char.get(XML_ID): printed_form(char) for char in doc.iterfind(".//t:charDecl/t:char", NS)}
    nodes = doc.xpath(
        "//t:sourceDesc//t:listWit/t:witness | //t:sourceDesc/t:listBibl[@type='excluded']/t:bibl", namespaces=NS
    )
    witnesses = {w.id: w for w in map(read_witness, nodes)}
    sections = []
    found = Collected(
        gaiji,
        frozenset(w.id for w in witnesses.values() if w.reported),
        frozenset(w.id for w in witnesses.values() if w.hypothetical),
        base=next((w.id for w in witnesses.values() if w.base), ""),
    )
    for number, div in enumerate(doc.xpath("//t:body//t:div[@type='section']", namespaces=NS), 1):
        head = div.find("t:head", NS)
        p = div.find("t:p", NS)
        section = SectionView(
            div.get(XML_ID), text_of(head, gaiji), head.get("source", "").lstrip("#"), p.get(XML_ID), number=number
        )
        division = div.getparent()
        if division.get("type") == "division" and div.getprevious() is division.find("t:head", NS):
            section.opens = text_of(division.find("t:head", NS), gaiji)
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
        app.graphic = app.lemma.resp == f"#{GRAPHIC_RESP}"
        app.emended = bool(app.lemma.resp) and not app.lost_leaf and any(f"#{base}" in r.wit for r in app.readings)
    place_leaves(doc, apps)
    link_transposed(apps)
    application = doc.find(".//t:appInfo/t:application", NS)
    edition.tool = f"{application.get('ident')} {application.get('version')}" if application is not None else ""
    edition.title = doc.findtext(".//t:titleStmt/t:title", default="", namespaces=NS)
    edition.heading = doc.findtext(".//t:titleStmt/t:title[@type='chapter']", default=edition.title, namespaces=NS)
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
    edition.usages_at_each_place = not doc.xpath(
        "//t:editorialDecl/t:normalization[@xml:id='decl-usages'][@method='silent']", namespaces=NS
    )
    edition.script = "simplified" if doc.find("t:text", NS).get(XML_LANG, "").endswith("Hans") else "traditional"
    face = "".join(doc.xpath("//t:tagsDecl/t:rendition[@xml:id=$id]/text()", namespaces=NS, id=FACE))
    edition.face = next(iter(regex.findall(r'font-family: "([^"]+)"', face)), edition.face)
    read_publication(edition, doc)
    edition.photographs = read_photographs(doc)
    fanli = doc.find(".//t:front/t:div[@type='fanli']", NS)
    if fanli is not None:
        edition.style = fanli.get("subtype", edition.style)
        edition.fanli_head = fanli.findtext("t:head", default="", namespaces=NS)
        edition.fanli = ["".join(p.itertext()) for p in fanli.iterfind("t:p", NS)]
        edition.fanli_keys = [p.get("n", "") for p in fanli.iterfind("t:p", NS)]
    return edition


def read_photographs(doc) -> list[Photograph]:
    """The images of the leaves the text's breaks point at (pb/@facs, a surface of the facsimile)."""
    surfaces = {s.get(XML_ID): s for s in doc.iterfind(".//t:facsimile/t:surface", NS)}
    found: dict[tuple[str, str], Photograph] = {}
    for pb in doc.iterfind(".//t:body//t:pb[@ed]", NS):
        surface = surfaces.get(pb.get("facs", "").removeprefix("#"))
        graphic = surface.find("t:graphic", NS) if surface is not None else None
        if graphic is not None:
            key = (pb.get("ed").lstrip("#"), pb.get("n", ""))
            pixels = [int(graphic.get(a, "0").removesuffix("px")) for a in ("width", "height")]
            found.setdefault(key, Photograph(*key, graphic.get("url"), *pixels, graphic.findtext("t:desc", "", NS)))
    return list(found.values())


def read_publication(edition: EditionView, doc) -> None:
    """Who published the edition, where and when, and the URN its citations extend."""
    edition.editors = doc.xpath("//t:teiHeader/t:fileDesc/t:titleStmt/t:editor/text()", namespaces=NS)
    edition.place = doc.findtext(".//t:publicationStmt/t:pubPlace", default="", namespaces=NS)
    edition.date = next(iter(doc.xpath("//t:publicationStmt/t:date/@when", namespaces=NS)), "")
    edition.urn = doc.findtext(".//t:publicationStmt/t:idno[@type='URN']", default="", namespaces=NS)
    edition.urn_delim = next(iter(doc.xpath("//t:refsDecl/t:citeStructure/@delim", namespaces=NS)), ".")


def link_transposed(apps: list[App]) -> None:
    """Each transposed reading with the reading at the other place, and that reading's entry."""
    app_of = {r.id: app for app in apps for r in app.readings}
    reading_of = {r.id: r for app in apps for r in app.readings}
    for app in apps:
        for r in app.readings:
            r.elsewhere = [app_of[ref] for ref in r.corresp if ref in app_of]
            r.counterparts = [reading_of[ref] for ref in r.corresp if ref in reading_of]


def place_leaves(doc, apps: list[App]) -> None:
    """Each entry's leaves: of each witness that reads in it, the leaf its last `pb` before the
    entry names."""
    current: dict[str, str] = {}
    at: dict[str, dict[str, str]] = {}
    for node in doc.getroot().iter(f"{{{TEI}}}pb", f"{{{TEI}}}app"):
        if etree.QName(node).localname == "pb":
            current[node.get("ed", "").lstrip("#")] = node.get("n", "")
        else:
            at[node.get(XML_ID, "")] = dict(current)
    for app in apps:
        reading = {w.lstrip("#") for r in (app.lemma, *app.readings) for w in r.wit}
        app.leaves = {w: n for w, n in at.get(app.id, {}).items() if w in reading}


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
            item.before = (HAN_OR_GAP.findall(earlier) or [""])[-1]
            item.after = (HAN_OR_GAP.findall(later) or [""])[0]
            item.sentence, item.start = text, len(earlier)
            lemma = item.lemma.text
            if lemma and text.count(lemma) > 1:
                item.occurrence = earlier.count(lemma) + 1
            place_among(item.parts)


def variant_form(row) -> VariantFormView:
    text, form, count, witnesses, sources = row.iterfind("t:cell", NS)
    refs = [(ref.get("target", "").lstrip("#"), int(ref.get("n", "0"))) for ref in witnesses.iterfind("t:ref", NS)]
    return VariantFormView(text.text or "", form.text or "", int(count.text), refs, sources.text or "")
