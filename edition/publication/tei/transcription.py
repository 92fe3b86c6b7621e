"""A witness's transcription in TEI. It keeps every character of its raw file: the classic text
as running text, the other layers as typed elements (the 傳 a `seg type="tradition"`), line ends
as `lb`, brackets and markers as `metamark`, lost characters as `gap` and stand-ins as `g`
declared in the header's `charDecl`. In the edition, the 傳 is collated with the classic text, a
`milestone unit="tradition"` where a 傳 begins and `unit="classic"` where the classic text takes up
again.

A marker that a profile rule calls a break (`attrs.break`) is a TEI break and keeps its characters
in a `metamark function="break"` beside it: a page break `<pb:KR1d0026_SBCK_005-1a>` is
`pb` (`@n` the leaf and side, `@facs` the page id) followed by the marker; a printed line end `¶`
is the marker followed by the `lb` of the file's line end it stands at (the two are one line end),
or an `lb type="printed"` of its own inside a file line; a small-column break `/` is the marker
followed by `cb`, inside the note. A transcriber's remark that marks a lacuna of unknown extent
(`# page missing`) is a `gap` (`@reason`, `@extent="unknown"`) followed by the remark as
`note type="transcriber"`.
"""

from __future__ import annotations

import regex
from lxml import etree

from ...budget import Budget
from ...errors import EditionError
from ...intake.gaiji import GaijiEntry
from ...intake.model import Witness
from ...intake.normalize import TEXT_LAYERS
from ...intake.witness import elements
from ...settings import layer_persons
from .header import SourcesForTei, header
from .markup import XML_ID, XML_LANG, append_marked_text, append_text, codepoints_used, el

SCHOLAR_FORMULA = regex.compile(r"(\p{Han})氏(\p{Han}{1,2})曰")


TAKE_TIME_LIMIT = 2.0  # seconds a rule's pattern may take to take a value out of a segment


# How each layer is encoded: element name and fixed attributes.
LAYER_ELEMENTS = {
    "tradition": ("seg", {"type": "tradition"}),  # 傳: transmitted text, shown as 傳
    "commentary": ("note", {"type": "commentary", "place": "inline"}),
    "subcommentary": ("note", {"type": "subcommentary", "place": "inline"}),
    "phonetic": ("note", {"type": "phonetic", "place": "inline"}),
    "scholia": ("note", {"type": "scholia", "place": "inline"}),
    "kaozheng": ("note", {"type": "kaozheng", "place": "inline"}),
    "preface": ("seg", {"type": "preface"}),
    "contents": ("seg", {"type": "contents"}),
    "remark": ("note", {"type": "transcriber"}),
    "translation": ("seg", {"type": "translation", XML_LANG: "zh"}),
    "label": ("label", {"type": "structure"}),
    "chrome": ("fw", {"type": "chrome"}),
    "other-chapter": ("seg", {"type": "other-chapter"}),
    "intrusion": ("seg", {"type": "intrusion"}),
}


def metamark_function(text: str) -> str:
    if text == "\ufeff":
        return "bom"
    if regex.fullmatch(r"[\s\p{So}]+", text):
        return "separator"
    return "bracket" if regex.fullmatch(r"[\p{Ps}\p{Pe}]+", text) else "marker"


def taken(segment, raw, name: str) -> str | None:
    """The first group of the pattern a rule gives in `attrs[name]`, in the segment's text."""
    try:
        match = Budget(TAKE_TIME_LIMIT).run(
            lambda timeout: regex.search(segment.attrs[name], segment.text(raw), timeout=timeout)
        )
    except TimeoutError:
        raise EditionError(
            raw.path_of(segment.start),
            f"rule {segment.rule!r}: its {name} pattern exceeded its time limit ({TAKE_TIME_LIMIT} s)",
            segment.line,
        ) from None
    if match is None:
        return None
    return match.group(1) if match.groups() else match.group()


def append_format(parent: etree._Element, segment, raw, line: int) -> int:
    """Line ends as lb, breaks as their TEI element with the marker beside it, other format
    characters as metamark; returns the line number reached."""
    kind = segment.attrs.get("break")
    for piece in regex.findall(r"\n|\r|[^\r\n]+", segment.text(raw)):
        if piece == "\n":
            line += 1
            el("lb", {"n": str(line)}, parent=parent)
        elif piece == "\r":
            continue
        elif kind == "page":
            attrib = {
                name: value for name in ("n", "facs") if name in segment.attrs and (value := taken(segment, raw, name))
            }
            el("pb", attrib, parent=parent)
            el("metamark", {"function": "break"}, piece, parent=parent)
        elif kind:
            el("metamark", {"function": "break"}, piece, parent=parent)
            if kind == "column":
                el("cb", parent=parent)
            elif raw.text[segment.end : segment.end + 1] not in ("\n", "\r"):
                el("lb", {"type": "printed"}, parent=parent)
        else:
            el("metamark", {"function": metamark_function(piece)}, piece, parent=parent)
    return line


def layer_element(layer: str, owners: dict[str, str]) -> tuple[str, dict]:
    """The element of a layer, with the person whose layer it is (`owners`: layer -> person id,
    from persons.tsv) as its @resp."""
    tag, attrib = LAYER_ELEMENTS[layer]
    return tag, {**attrib, "resp": f"#{owners[layer]}"} if layer in owners else dict(attrib)


def scholia_resp(sources: SourcesForTei, text: str, attrs: dict) -> str | None:
    name = attrs.get("resp")
    if name is None:
        match = SCHOLAR_FORMULA.match(text)
        name = match.group(1) + match.group(2) if match else None
    person = sources.person_by_name(name) if name else None
    return f"#{person.id}" if person else None


def transcription_body(sources: SourcesForTei, witness: Witness) -> tuple[etree._Element, set[GaijiEntry]]:
    ab = el("ab", {"type": "transcription"})
    line = 1
    el("lb", {"n": str(line)}, parent=ab)
    used: set[GaijiEntry] = set()
    raw = witness.raw
    owners = layer_persons(sources.persons)
    for group in elements(witness.segments):
        first = group[0]
        if first.layer == "format":
            line = append_format(ab, first, raw, line)
            continue
        if first.layer == "classic":
            used |= append_marked_text(ab, first.text(raw), sources.gaiji)
            continue
        if "gap" in first.attrs and first.layer == "remark":
            el("gap", {"reason": taken(first, raw, "gap") or first.text(raw), "extent": "unknown"}, parent=ab)
        tag, attrib = layer_element(first.layer, owners)
        if first.layer == "scholia":
            resp = scholia_resp(sources, first.text(raw), first.attrs)
            if resp:
                attrib["resp"] = resp
        node = el(tag, attrib, parent=ab)
        for segment in group:
            if segment.layer == "format":
                line = append_format(node, segment, raw, line)
            elif segment.layer in TEXT_LAYERS:
                used |= append_marked_text(node, segment.text(raw), sources.gaiji)
            else:
                append_text(node, segment.text(raw))
    return ab, used


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


def witness_document(sources: SourcesForTei, witness: Witness) -> etree._ElementTree:
    body_ab, gaiji = transcription_body(sources, witness)
    meta = witness.meta
    tei = el("TEI", {XML_LANG: "lzh"})
    tei.append(
        header(
            sources,
            f"{meta.title}: transcription of witness {meta.siglum}",
            witness_bibl(witness),
            gaiji,
            codepoints_used(body_ab),
        )
    )
    text = el("text", parent=tei)
    body = el("body", parent=text)
    body.append(body_ab)
    return etree.ElementTree(tei)
