"""TEI elements and text: making them, the text appended with stand-ins marked as `g`, the
characters used, serialization."""

from __future__ import annotations

from lxml import etree

from ...intake.gaiji import GaijiEntry, GaijiTable
from ...intake.normalize import GAP
from ...intake.variants import in_script
from ...tables import NOT_TEXT

TEI_NS = "http://www.tei-c.org/ns/1.0"


XML_NS = "http://www.w3.org/XML/1998/namespace"


XML_ID = f"{{{XML_NS}}}id"


XML_LANG = f"{{{XML_NS}}}lang"


LANGUAGES = {
    "lzh": "Classical Chinese",
    "lzh-Hant": "Classical Chinese in traditional characters",
    "lzh-Hans": "Classical Chinese in simplified characters",
    "zh": "Modern Chinese",
}
TEXT_LANGUAGE = {"traditional": "lzh-Hant", "simplified": "lzh-Hans"}  # the edited text's, by the edition's script


def el(tag: str, attrib: dict | None = None, text: str | None = None, parent=None) -> etree._Element:
    qualified = f"{{{TEI_NS}}}{tag}"
    if parent is None:
        node = etree.Element(qualified, attrib or {}, nsmap={None: TEI_NS})
    else:
        node = etree.SubElement(parent, qualified, attrib or {})
    append_text(node, text)
    return node


def append_text(parent: etree._Element, text: str | None) -> None:
    """Text at the end of `parent`; a character that is no text (a control character, a
    noncharacter) becomes an empty `g` pointing at its declaration, so XML can hold it."""
    if not text:
        return
    position = 0
    for match in NOT_TEXT.finditer(text):
        append_plain(parent, text[position : match.start()])
        etree.SubElement(parent, f"{{{TEI_NS}}}g", {"ref": f"#{codepoint_id(match.group())}"})
        position = match.end()
    append_plain(parent, text[position:])


def append_plain(parent: etree._Element, text: str) -> None:
    if not text:
        return
    last = next(parent.iterchildren(reversed=True), None)  # len(parent) would count every child
    if last is not None:
        last.tail = (last.tail or "") + text
    else:
        parent.text = (parent.text or "") + text


def codepoint_id(char: str) -> str:
    return f"cp-{ord(char):04X}"


def codepoints_used(tree: etree._Element) -> list[str]:
    """The characters that are no text, as the `g` elements of `tree` point at them, in order."""
    refs = {g.get("ref", "") for g in tree.iter(f"{{{TEI_NS}}}g")}
    return sorted(chr(int(ref[4:], 16)) for ref in refs if ref.startswith("#cp-"))


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


def mark_stand_ins(tree: etree._Element, gaiji: GaijiTable) -> set[GaijiEntry]:
    """Every stand-in still written as text in `tree` (the base's text between the entries, a
    heading, a quotation) as a `g`, so that no reader of the TEI prints its code; the entries
    marked."""
    used: set[GaijiEntry] = set()

    def marked(text: str | None) -> tuple[str | None, list[etree._Element]]:
        """The text before the first stand-in, and a `g` for each, the text after it its tail."""
        found = list(gaiji.finditer(text, 0, len(text))) if text else []
        if not found:
            return text, []
        marks = []
        for number, (start, end, entry) in enumerate(found):
            mark = etree.Element(f"{{{TEI_NS}}}g", {"ref": f"#{entry.xml_id}"})
            mark.text = text[start:end]
            mark.tail = text[end : found[number + 1][0] if number + 1 < len(found) else len(text)] or None
            marks.append(mark)
            used.add(entry)
        return text[: found[0][0]] or None, marks

    for node in list(tree.iter(etree.Element)):
        if etree.QName(node).localname != "g":  # a g's own text is its stand-in
            node.text, marks = marked(node.text)
            for index, mark in enumerate(marks):
                node.insert(index, mark)
        if node is not tree:
            node.tail, marks = marked(node.tail)
            parent = node.getparent()
            for index, mark in enumerate(marks, parent.index(node) + 1):
                parent.insert(index, mark)
    return used


def serialize(document: etree._ElementTree) -> bytes:
    return etree.tostring(document, xml_declaration=True, encoding="UTF-8", pretty_print=False) + b"\n"


def in_edition_script(text: str, meta, script: str) -> str:
    """Words of a witness's metadata in the edition's script (a book of evidence has none: its
    stanza is the edition's)."""
    return in_script(text, script, getattr(meta, "script", script))
