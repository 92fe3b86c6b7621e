"""The work served to machines as static files: a DTS 1.0 API of level 0 (Distributed Text
Services, https://dtsapi.org/versions/v1.0/), read from the chapters' TEI editions.

The work is a collection; each chapter is a resource, its URN the TEI's (publicationStmt/idno),
with two citation trees: the default, section and sentence (3, 3.2: the citations of the print
and the site), and "leaves", the base's 卷 and 葉 (卷5, 5-3a) with the sentences that begin on each (a unit's
identifier is the same in both trees, and no two units share one).
Every answer is a file, so the URI templates put their parameters in the path:
navigation/{resource}{;tree,down}{/ref}.json and document/{resource}{/ref}.xml. The files
answer, for each tree, the whole tree and its top levels (down=1…, down=-1), each unit
(ref), and the units under each unit that has any (ref with down=1 and down=-1); the document of
the chapter, and of each unit, in a dts:wrapper. Level 0 needs no ranges (start, end). URIs are
relative to the entry point, dts/index.json, or absolute where the work says where its site is
published (`url`).
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from urllib.parse import quote

from lxml import etree

from .tei.markup import TEI_NS

CONTEXT = "https://dtsapi.org/context/v1.0.json"
DTS_NS = "https://w3id.org/api/dts#"
NS = {"t": TEI_NS}
T = f"{{{TEI_NS}}}"
LEAVES = "leaves"  # the identifier of the base's tree of 卷 and 葉
COLLECTION = "collection{/id}{;nav}.json"
NAVIGATION = "navigation/{resource}{;tree,down}{/ref}.json"
DOCUMENT = "document/{resource}{/ref}.xml"  # a unit's identifier names it in every tree
JUAN = "卷{}"  # a 卷's identifier, apart from the sections' numbers
TREES = {
    None: ("section", "sentence"),
    LEAVES: ("juan", "leaf", "sentence"),
}


@dataclass
class Unit:
    """A citable unit: its identifier, type, level and parent, where it begins in the TEI (a div,
    a sentence's anchor, a leaf's pb) and where the next of its kind begins."""

    identifier: str
    cite_type: str
    level: int
    parent: str | None
    start: etree._Element
    end: etree._Element | None = None  # the next unit's start (None: to the container's end)
    container: etree._Element | None = None  # what holds it (a div is its own)
    title: str = ""
    children: list[Unit] = field(default_factory=list)


class DocumentOrder:
    """The elements under a container in document order: where each begins, and where the last
    element inside it is."""

    def __init__(self, container: etree._Element):
        self.container = container
        self.nodes = nodes = list(container.iter())  # kept: an lxml element's id() lasts as long as its proxy
        self.count = len(nodes)
        self.position = {id(e): i for i, e in enumerate(nodes)}
        self.last = {}
        for node in reversed(nodes):
            children = list(node)
            self.last[id(node)] = self.last[id(children[-1])] if children else self.position[id(node)]

    def between(self, start: etree._Element, end: etree._Element | None) -> etree._Element:
        """A copy of the container holding what lies from `start` (included) up to `end`
        (excluded; None: the container's end): the elements that hold part of it kept, with their
        attributes, around that part."""
        position, last = self.position, self.last
        first, stop = position[id(start)], position[id(end)] if end is not None else self.count
        inside = lambda p: first <= p < stop

        def copied(node: etree._Element) -> etree._Element:
            if first <= position[id(node)] and last[id(node)] < stop:
                whole = copy.deepcopy(node)
                whole.tail = None
                return whole
            kept = etree.Element(node.tag, dict(node.attrib), nsmap=node.nsmap)
            kept.text = node.text if inside(position[id(node)]) else None
            for child in node:
                if isinstance(child.tag, str) and last[id(child)] >= first and position[id(child)] < stop:
                    piece = copied(child)
                    piece.tail = child.tail if inside(last[id(child)]) else None
                    kept.append(piece)
            return kept

        return copied(self.container)


@dataclass
class Resource:
    urn: str
    delim: str  # between the URN and a citation
    title: str
    document: etree._ElementTree
    order: DocumentOrder  # of its body
    trees: dict[str | None, list[Unit]]  # each tree's units in document order


def expanded(resource: str, tree: str | None = None, down: int | None = None, ref: str | None = None) -> str:
    """The path of an answer: the URI template filled in, as the file is named (a server
    unescapes the %3A that the template's expansion makes of the URN's colons)."""
    parameters = "".join(f";{k}={v}" for k, v in (("tree", tree), ("down", down)) if v is not None)
    return f"{resource}{parameters}" + (f"/{ref}" if ref is not None else "")


def uri(path: str) -> str:
    """A file's path as a URI relative to the entry point: RFC 6570's expansion of the values."""
    return quote(path, safe="/;=.-_~")


def sentence_units(section: Unit, div: etree._Element) -> list[Unit]:
    anchors = div.xpath(".//t:anchor[@type='sentence']", namespaces=NS)
    units = []
    for anchor, following in zip(anchors, [*anchors[1:], None], strict=True):
        units.append(Unit(anchor.get("n"), "sentence", 2, section.identifier, anchor, following, div))
    return units


def default_tree(body: etree._Element) -> list[Unit]:
    units = []
    for div in body.xpath(".//t:div[@type='section']", namespaces=NS):
        section = Unit(div.get("n"), "section", 1, None, div, title=div.findtext(f"{T}head", default=""))
        section.children = sentence_units(section, div)
        units += [section, *section.children]
    return units


def leaf_tree(order: DocumentOrder, base: str, sentences: list[Unit]) -> list[Unit]:
    """The base's 卷 and 葉 in the body `order` holds, each 葉 holding the sentences that begin on
    it. A sentence before the base's first leaf break (a chapter that begins inside a leaf) is in
    no leaf."""
    body, position = order.container, order.position
    breaks = body.xpath(".//t:pb[@ed=$ed]", namespaces=NS, ed=f"#w{base}")
    units: list[Unit] = []
    juan: Unit | None = None
    waiting = list(sentences)
    for pb, following in zip(breaks, [*breaks[1:], None], strict=True):
        number = pb.get("n").rpartition("-")[0]
        if number and (juan is None or juan.identifier != JUAN.format(number)):
            if juan is not None:
                juan.end = pb
            juan = Unit(JUAN.format(number), "juan", 1, None, pb, container=body)
            units.append(juan)
        leaf = Unit(pb.get("n"), "leaf", 2 if number else 1, juan.identifier if number else None, pb, following, body)
        units.append(leaf)
        if number:
            juan.children.append(leaf)
        limit = position[id(following)] if following is not None else order.count
        while waiting and position[id(waiting[0].start)] < limit:
            sentence = waiting.pop(0)
            if position[id(sentence.start)] > position[id(pb)]:
                leaf.children.append(replace(sentence, level=leaf.level + 1, parent=leaf.identifier))
        units += leaf.children
    return units


def read_resource(path: Path) -> Resource:
    document = etree.parse(str(path))
    root = document.getroot()
    urn = root.findtext(f".//{T}publicationStmt/{T}idno[@type='URN']", default="")
    delim = next(iter(root.xpath("//t:refsDecl/t:citeStructure/@delim", namespaces=NS)), ".")
    title = root.findtext(f".//{T}titleStmt/{T}title[@type='chapter']") or root.findtext(f".//{T}titleStmt/{T}title")
    base = next(iter(root.xpath("//t:listWit/t:witness[t:note[@type='role']='base']/@n", namespaces=NS)), "")
    order = DocumentOrder(root.find(f"{T}text/{T}body"))
    units = default_tree(order.container)
    sentences = [u for u in units if u.cite_type == "sentence"]
    return Resource(urn, delim, title, document, order, {None: units, LEAVES: leaf_tree(order, base, sentences)})


def cite_structure(types: tuple[str, ...]) -> list[dict]:
    head, *rest = types
    structure = {"@type": "CiteStructure", "citeType": head}
    if rest:
        structure["citeStructure"] = cite_structure(tuple(rest))
    return [structure]


def citation_trees() -> list[dict]:
    trees = []
    for identifier, types in TREES.items():
        tree = {"@type": "CitationTree", "citeStructure": cite_structure(types)}
        if identifier:
            tree["identifier"] = identifier
            tree["description"] = "the base's 卷 and 葉 (卷5, 5-3a), and the sentences that begin on each"
        else:
            tree["description"] = "section and sentence (3, 3.2): the citations of the print and the site"
        trees.append(tree)
    return trees


def resource_object(resource: Resource, work_title: str, base: str = "") -> dict:
    at = lambda endpoint: f"{base}{endpoint}/{uri(resource.urn)}"
    return {
        "@id": resource.urn,
        "@type": "Resource",
        "title": resource.title,
        "totalParents": 1,
        "totalChildren": 0,
        "dublinCore": {"title": [{"lang": "lzh", "value": f"{work_title}·{resource.title}"}], "language": ["lzh"]},
        "collection": at("collection") + "{;nav}.json",
        "navigation": at("navigation") + "{;tree,down}{/ref}.json",
        "document": at("document") + "{/ref}.xml",
        "download": at("document") + ".xml",
        "mediaTypes": ["application/tei+xml"],
        "citationTrees": citation_trees(),
    }


def citable(unit: Unit, resource: Resource) -> dict:
    found = {
        "identifier": unit.identifier,
        "@type": "CitableUnit",
        "level": unit.level,
        "parent": unit.parent,
        "citeType": unit.cite_type,
    }
    if unit.cite_type in ("section", "sentence"):
        found["@id"] = f"{resource.urn}{resource.delim}{unit.identifier}"
    if unit.title:
        found["dublinCore"] = {"title": [{"lang": "lzh", "value": unit.title}]}
    return found


def subtree(unit: Unit, depth: int) -> list[Unit]:
    """The units under `unit` down to `depth` levels (-1: all), in document order."""
    if depth == 0:
        return []
    return [u for child in unit.children for u in (child, *subtree(child, depth - 1 if depth > 0 else -1))]


def navigation_answers(resource: Resource, work_title: str, base: str = "") -> Iterator[tuple[str, dict]]:
    """Each navigation answer the files give: its path (under navigation/) and its JSON."""
    described = {
        k: v
        for k, v in resource_object(resource, work_title, base).items()
        if k in ("@id", "@type", "collection", "navigation", "document", "citationTrees")
    }
    for tree, units in resource.trees.items():
        depth = len(TREES[tree])

        def answer(path: str, **parts) -> tuple[str, dict]:
            body = {
                "@context": CONTEXT,
                "dtsVersion": "1.0",
                "@type": "Navigation",
                "@id": f"{base}navigation/{uri(path)}.json",
                "resource": described,
            }
            return path, body | {k: v for k, v in parts.items() if v is not None}

        top = [u for u in units if u.level == 1]
        for down in [*range(1, depth + 1), -1]:
            members = [u for unit in top for u in (unit, *subtree(unit, down - 1 if down > 0 else -1))]
            yield answer(expanded(resource.urn, tree, down), member=[citable(u, resource) for u in members])
        for unit in units:
            yield answer(expanded(resource.urn, tree, ref=unit.identifier), ref=citable(unit, resource))
            if unit.children:
                for down in (1, -1):
                    yield answer(
                        expanded(resource.urn, tree, down, unit.identifier),
                        ref=citable(unit, resource),
                        member=[citable(u, resource) for u in subtree(unit, down)],
                    )


def wrapped(resource: Resource, title: str, urn: str, content: etree._Element | None) -> bytes:
    """A TEI document: the whole chapter, or a unit of it in a dts:wrapper."""
    if content is None:
        return etree.tostring(resource.document, xml_declaration=True, encoding="UTF-8")
    tei = etree.Element(f"{T}TEI", nsmap={None: TEI_NS, "dts": DTS_NS})
    file_desc = etree.SubElement(etree.SubElement(tei, f"{T}teiHeader"), f"{T}fileDesc")
    etree.SubElement(etree.SubElement(file_desc, f"{T}titleStmt"), f"{T}title").text = title
    publication = etree.SubElement(file_desc, f"{T}publicationStmt")
    etree.SubElement(publication, f"{T}idno", type="URN").text = urn
    source = etree.SubElement(etree.SubElement(file_desc, f"{T}sourceDesc"), f"{T}p")
    source.text = f"A part of {resource.urn}, as document/{uri(resource.urn)}.xml gives it whole."
    body = etree.SubElement(etree.SubElement(tei, f"{T}text"), f"{T}body")
    wrapper = etree.SubElement(body, f"{{{DTS_NS}}}wrapper")
    wrapper.append(content)
    return etree.tostring(tei, xml_declaration=True, encoding="UTF-8")


def document_answers(resource: Resource) -> Iterator[tuple[str, bytes]]:
    """The chapter's document, and each unit's (a sentence once, though in both trees)."""
    yield expanded(resource.urn), wrapped(resource, resource.title, resource.urn, None)
    orders = {id(resource.order.container): resource.order}
    units = {u.identifier: u for tree in resource.trees.values() for u in tree}
    for unit in units.values():
        if unit.container is None:
            part = copy.deepcopy(unit.start)
            part.tail = None
        else:
            if id(unit.container) not in orders:
                orders[id(unit.container)] = DocumentOrder(unit.container)
            part = orders[id(unit.container)].between(unit.start, unit.end)
        urn = f"{resource.urn}{resource.delim}{unit.identifier}"
        title = f"{resource.title} {unit.identifier}"
        yield expanded(resource.urn, ref=unit.identifier), wrapped(resource, title, urn, part)


def write_file(out: Path, relative: str, data: bytes | dict) -> None:
    path = out / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    compact = lambda answer: json.dumps(answer, ensure_ascii=False, separators=(",", ":")).encode()
    path.write_bytes(data if isinstance(data, bytes) else compact(data))


def write_dts(chapters: list[Path], work_title: str, out: Path, base: str = "") -> None:
    """The DTS files of the work whose chapters' TEI editions are `chapters`, into `out`; their
    URIs relative to the entry point, or under `base`, the address `out` is published at."""
    resources = [r for r in map(read_resource, chapters) if r.urn]
    if not resources:
        return
    first = resources[0]
    work_urn = first.urn.rpartition(":")[0] if first.delim == "." else first.urn
    entry = {"@context": CONTEXT, "dtsVersion": "1.0", "@id": f"{base}index.json", "@type": "EntryPoint"}
    templates = {"collection": COLLECTION, "navigation": NAVIGATION, "document": DOCUMENT}
    write_file(out, "index.json", entry | {k: f"{base}{v}" for k, v in templates.items()})
    members = [resource_object(r, work_title, base) for r in resources]
    collection = {
        "@context": CONTEXT,
        "dtsVersion": "1.0",
        "@id": work_urn,
        "@type": "Collection",
        "title": work_title,
        "totalParents": 0,
        "totalChildren": len(members),
        "collection": f"{base}{COLLECTION}",
    }
    write_file(out, "collection.json", collection | {"member": members})
    write_file(out, f"collection/{work_urn}.json", collection | {"member": members})
    for resource, member in zip(resources, members, strict=True):
        head = {"@context": CONTEXT, "dtsVersion": "1.0"}
        write_file(out, f"collection/{resource.urn}.json", head | member)
        write_file(out, f"collection/{resource.urn};nav=parents.json", head | member | {"member": [collection]})
        for path, answer in navigation_answers(resource, work_title, base):
            write_file(out, f"navigation/{path}.json", answer)
        for path, body in document_answers(resource):
            write_file(out, f"document/{path}.xml", body)
