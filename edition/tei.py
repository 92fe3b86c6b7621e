"""TEI P5 output. A witness transcription keeps every character of its raw file: the classic text
as running text, the other layers as typed elements, line ends as `lb`, brackets and markers as
`metamark`, lost characters as `gap` and stand-ins as `g` declared in the header's `charDecl`.
"""

from __future__ import annotations

import regex
from lxml import etree

from . import __version__
from .gaiji import GaijiEntry, describe_form
from .intake import Witness
from .normalize import GAP, TEXT_LAYERS
from .sources import Sources

TEI_NS = "http://www.tei-c.org/ns/1.0"
XML_NS = "http://www.w3.org/XML/1998/namespace"
XML_ID = f"{{{XML_NS}}}id"
XML_LANG = f"{{{XML_NS}}}lang"
SCHOLAR_FORMULA = regex.compile(r"(\p{Han})氏(\p{Han}{1,2})曰")
LANGUAGES = {"lzh": "Classical Chinese", "zh": "Modern Chinese"}

# How each layer is encoded: element name and fixed attributes.
LAYER_ELEMENTS = {
    "commentary": ("note", {"type": "commentary", "place": "inline", "resp": "#zheng-xuan"}),
    "subcommentary": ("note", {"type": "subcommentary", "place": "inline", "resp": "#jia-gongyan"}),
    "scholia": ("note", {"type": "scholia", "place": "inline"}),
    "translation": ("seg", {"type": "translation", XML_LANG: "zh"}),
    "label": ("label", {"type": "structure"}),
    "chrome": ("fw", {"type": "chrome"}),
    "other-chapter": ("seg", {"type": "other-chapter"}),
    "intrusion": ("seg", {"type": "intrusion"}),
}


def el(tag: str, attrib: dict | None = None, text: str | None = None, parent=None) -> etree._Element:
    qualified = f"{{{TEI_NS}}}{tag}"
    if parent is None:
        node = etree.Element(qualified, attrib or {}, nsmap={None: TEI_NS})
    else:
        node = etree.SubElement(parent, qualified, attrib or {})
    if text:
        node.text = text
    return node


def append_text(parent: etree._Element, text: str) -> None:
    if not text:
        return
    if len(parent):
        parent[-1].tail = (parent[-1].tail or "") + text
    else:
        parent.text = (parent.text or "") + text


def append_marked_text(parent: etree._Element, text: str, gaiji) -> set[GaijiEntry]:
    """Text of a text layer: runs of ▯ become `gap`, stand-ins become `g`."""
    used: set[GaijiEntry] = set()
    special = sorted(
        [(m.start(), m.end(), None) for m in GAP.finditer(text)] + list(gaiji.finditer(text, 0, len(text)))
    )
    position = 0
    for start, end, entry in special:
        if start < position:
            continue
        append_text(parent, text[position:start])
        if entry is None:
            marks = text[start:end]
            gap = el("gap", {"reason": "lost", "quantity": str(len(marks)), "unit": "marks"}, parent=parent)
            el("desc", text=marks, parent=gap)
        else:
            el("g", {"ref": f"#{entry.xml_id}"}, text[start:end], parent=parent)
            used.add(entry)
        position = end
    append_text(parent, text[position:])
    return used


def metamark_function(text: str) -> str:
    if text == "\ufeff":
        return "bom"
    if text.isspace():
        return "separator"
    return "marker" if regex.search(r"\p{Han}", text) else "bracket"


def scholia_resp(sources: Sources, text: str, attrs: dict) -> str | None:
    name = attrs.get("resp")
    if name is None:
        match = SCHOLAR_FORMULA.match(text)
        name = match.group(1) + match.group(2) if match else None
    person = sources.person_by_name(name) if name else None
    return f"#{person.id}" if person else None


def transcription_body(sources: Sources, witness: Witness) -> tuple[etree._Element, set[GaijiEntry]]:
    ab = el("ab", {"type": "transcription"})
    line = 1
    el("lb", {"n": str(line)}, parent=ab)
    used: set[GaijiEntry] = set()
    raw = witness.raw
    for segment in witness.segments:
        text = segment.text(raw)
        if segment.layer == "format":
            for piece in regex.findall(r"\n|\r|[^\r\n]+", text):
                if piece == "\n":
                    line += 1
                    el("lb", {"n": str(line)}, parent=ab)
                elif piece != "\r":
                    el("metamark", {"function": metamark_function(piece)}, piece, parent=ab)
            continue
        if segment.layer == "classic":
            used |= append_marked_text(ab, text, sources.gaiji)
            continue
        tag, attrib = LAYER_ELEMENTS[segment.layer]
        attrib = dict(attrib)
        if segment.layer == "scholia":
            resp = scholia_resp(sources, text, segment.attrs)
            if resp:
                attrib["resp"] = resp
        node = el(tag, attrib, parent=ab)
        if segment.layer in TEXT_LAYERS:
            used |= append_marked_text(node, text, sources.gaiji)
        else:
            node.text = text
    return ab, used


def char_decl(entries: set[GaijiEntry], parent: etree._Element) -> None:
    if not entries:
        return
    decl = el("charDecl", parent=parent)
    for entry in sorted(entries, key=lambda e: e.xml_id):
        char = el("char", {XML_ID: entry.xml_id}, parent=decl)
        el("localProp", {"name": "name", "value": entry.description}, parent=char)
        el("localProp", {"name": "kind", "value": entry.kind}, parent=char)
        el("mapping", {"type": "witness"}, entry.form, parent=char)
        if entry.mapping:
            el("mapping", {"type": "standard"}, entry.mapping, parent=char)
        if entry.evidence:
            el("note", {"type": "evidence"}, entry.evidence.replace(entry.form, describe_form(entry.form)), parent=char)


def header(sources: Sources, title: str, witness_bibl, gaiji: set[GaijiEntry]) -> etree._Element:
    tei_header = el("teiHeader")
    file_desc = el("fileDesc", parent=tei_header)
    title_stmt = el("titleStmt", parent=file_desc)
    el("title", text=title, parent=title_stmt)
    resp_stmt = el("respStmt", parent=title_stmt)
    el("resp", text="generated by", parent=resp_stmt)
    el("name", {"type": "software"}, f"edition {__version__}", parent=resp_stmt)
    publication = el("publicationStmt", parent=file_desc)
    el("p", text=f"Generated by edition {__version__} from the files in sources/. Do not edit: edit the sources and rebuild.", parent=publication)
    source_desc = el("sourceDesc", parent=file_desc)
    witness_bibl(source_desc)
    encoding = el("encodingDesc", parent=tei_header)
    app_info = el("appInfo", parent=encoding)
    application = el("application", {"ident": "edition", "version": __version__}, parent=app_info)
    el("label", text="edition", parent=application)
    char_decl(gaiji, encoding)
    profile = el("profileDesc", parent=tei_header)
    lang_usage = el("langUsage", parent=profile)
    for ident, name in LANGUAGES.items():
        el("language", {"ident": ident}, name, parent=lang_usage)
    partic = el("particDesc", parent=profile)
    persons = el("listPerson", parent=partic)
    for person in sources.persons.values():
        node = el("person", {XML_ID: person.id}, parent=persons)
        el("persName", text=person.name, parent=node)
        if person.role:
            el("occupation", text=person.role, parent=node)
    return tei_header


def witness_bibl(witness: Witness):
    meta, raw = witness.meta, witness.raw

    def build(parent: etree._Element) -> None:
        bibl = el("bibl", {XML_ID: meta.xml_id}, parent=parent)
        el("title", text=meta.title, parent=bibl)
        if meta.author:
            el("author", text=meta.author, parent=bibl)
        el("idno", {"type": "siglum"}, meta.siglum, parent=bibl)
        el("idno", {"type": "file"}, meta.file, parent=bibl)
        el("idno", {"type": "sha256"}, raw.sha256, parent=bibl)
        if meta.extent:
            el("extent", text=meta.extent, parent=bibl)
        for kind, value in (
            ("script", meta.script),
            ("profile", meta.profile),
            ("encoding", f"{meta.encoding}{', BOM' if raw.has_bom else ''}, {raw.newline}"),
            ("remarks", meta.remarks),
        ):
            if value:
                el("note", {"type": kind}, value, parent=bibl)

    return build


def witness_document(sources: Sources, witness: Witness) -> etree._ElementTree:
    body_ab, gaiji = transcription_body(sources, witness)
    meta = witness.meta
    tei = el("TEI", {XML_LANG: "lzh"})
    tei.append(header(sources, f"{meta.title}: transcription of witness {meta.siglum}", witness_bibl(witness), gaiji))
    text = el("text", parent=tei)
    body = el("body", parent=text)
    body.append(body_ab)
    return etree.ElementTree(tei)


def serialize(document: etree._ElementTree) -> bytes:
    return etree.tostring(document, xml_declaration=True, encoding="UTF-8", pretty_print=False) + b"\n"
