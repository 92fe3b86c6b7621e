"""TEI P5 output. A witness transcription keeps every character of its raw file: the classic text
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

from collections import deque
from collections.abc import Callable
from dataclasses import replace
from functools import partial
from typing import Protocol

import regex
from lxml import etree

from .. import __version__
from ..budget import Budget
from ..collation import relations, reported_editions
from ..collation.apparatus import AUTO_RESP, EMENDING_SUPPORT, GRAPHIC_RESP, SUPPLIED_RESP
from ..collation.lost_leaf import READS_ON
from ..errors import EditionError
from ..intake.gaiji import GaijiEntry, GaijiTable, describe_form
from ..intake.model import CODES, LAYER_OF_CODE, EvidenceMeta, Witness, WitnessMeta
from ..intake.normalize import GAP, TEXT_LAYERS
from ..intake.variants import in_script
from ..intake.witness import elements
from ..settings import EditionConfig, Person, layer_persons
from ..tables import NOT_TEXT, describe_not_text
from ..vocabulary import APP_ORDER
from .conventions import Conventions, table
from .render import reports_a_reading
from .validate import Place


class SourcesForTei(Protocol):
    """What the TEI reads of an edition's sources: its settings, its witnesses, the persons of
    its layers and the stand-ins (work.sources.Sources is one)."""

    config: EditionConfig
    witnesses: list[WitnessMeta]
    persons: dict[str, Person]
    gaiji: GaijiTable
    evidence: tuple[EvidenceMeta, ...]

    def person_by_name(self, name: str) -> Person | None: ...


TEI_NS = "http://www.tei-c.org/ns/1.0"
XML_NS = "http://www.w3.org/XML/1998/namespace"
XML_ID = f"{{{XML_NS}}}id"
XML_LANG = f"{{{XML_NS}}}lang"
SCHOLAR_FORMULA = regex.compile(r"(\p{Han})氏(\p{Han}{1,2})曰")
LANGUAGES = {"lzh": "Classical Chinese", "zh": "Modern Chinese"}
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


def char_decl(entries: set[GaijiEntry], codepoints: list[str], parent: etree._Element) -> None:
    if not entries and not codepoints:
        return
    decl = el("charDecl", parent=parent)
    for entry in sorted(entries, key=lambda e: e.xml_id):
        char = el("char", {XML_ID: entry.xml_id}, parent=decl)
        el("localProp", {"name": "name", "value": entry.description}, parent=char)
        el("localProp", {"name": "kind", "value": entry.kind}, parent=char)
        if entry.code:
            el("localProp", {"name": "code", "value": entry.code}, parent=char)
        el("mapping", {"type": "witness"}, entry.form, parent=char)
        for kind, characters in entry.recorded:
            el("mapping", {"type": kind}, characters, parent=char)
        if entry.mapping:
            el("mapping", {"type": "standard"}, entry.mapping, parent=char)
        if entry.ids:
            el("mapping", {"type": "ids"}, entry.ids, parent=char)
        if entry.evidence:
            el("note", {"type": "evidence"}, entry.evidence.replace(entry.form, describe_form(entry.form)), parent=char)
    for codepoint in codepoints:
        char = el("char", {XML_ID: codepoint_id(codepoint)}, parent=decl)
        el("localProp", {"name": "name", "value": describe_not_text(codepoint)}, parent=char)
        el("localProp", {"name": "kind", "value": "not-text"}, parent=char)
        el("mapping", {"type": "codepoint"}, f"U+{ord(codepoint):04X}", parent=char)


AUTOMATIC_EMENDATION = (
    "automatic emendation: a reading has at least two independent sources for it (witnesses of one family "
    "count as one, a witness's commentary quoting its own text is that witness, a book of evidence counts "
    "as one), more than the base's reading and than any other; "
    "or the base has the words of an emendation elsewhere, "
    "and a witness reads the emendation here too (本校)"
)
SUPPLIED_LEAVES = (
    "supplied where the base has lost a leaf: the 經 and 注 the other witnesses read there, "
    "from the one named (lem/@source), in the edition's forms"
)
GRAPHIC_CHOICE = (
    "a graphic family's member (己已巳) for the base's: every other witness extant here reads it, "
    "the edited text takes it without a printed entry; the base's is a reading of type graphic"
)


def header(
    sources: SourcesForTei,
    title: str,
    source_desc_content,
    gaiji: set[GaijiEntry],
    codepoints: list[str],
    variant_encoding: bool = False,
) -> etree._Element:
    tei_header = el("teiHeader")
    file_desc = el("fileDesc", parent=tei_header)
    title_stmt = el("titleStmt", parent=file_desc)
    el("title", text=title, parent=title_stmt)
    resp_stmt = el("respStmt", parent=title_stmt)
    el("resp", text="generated by", parent=resp_stmt)
    el("name", {"type": "software"}, f"edition {__version__}", parent=resp_stmt)
    if variant_encoding:
        for xml_id, said in (
            (AUTO_RESP, AUTOMATIC_EMENDATION),
            (SUPPLIED_RESP, SUPPLIED_LEAVES),
            (GRAPHIC_RESP, GRAPHIC_CHOICE),
        ):
            statement = el("respStmt", {XML_ID: xml_id}, parent=title_stmt)
            el("resp", text=said, parent=statement)
            el("name", {"type": "software"}, f"edition {__version__}", parent=statement)
    publication = el("publicationStmt", parent=file_desc)
    el(
        "p",
        text=(
            f"Generated by edition {__version__} from the files in sources/. Do not edit: edit the sources and rebuild."
        ),
        parent=publication,
    )
    source_desc = el("sourceDesc", parent=file_desc)
    source_desc_content(source_desc)
    encoding = el("encodingDesc", parent=tei_header)
    if variant_encoding:
        el("variantEncoding", {"method": "parallel-segmentation", "location": "internal"}, parent=encoding)
    app_info = el("appInfo", parent=encoding)
    application = el("application", {"ident": "edition", "version": __version__}, parent=app_info)
    el("label", text="edition", parent=application)
    char_decl(gaiji, codepoints, encoding)
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


def serialize(document: etree._ElementTree) -> bytes:
    return etree.tostring(document, xml_declaration=True, encoding="UTF-8", pretty_print=False) + b"\n"


# --- The edition: edited text and apparatus in parallel segmentation ------------------------------

MARKER_AT_START = ("witStart", "lacunaEnd")
TRADITION_WITNESSES = (("jinwen", "今文"), ("guwen", "古文"))  # described in the style's words (headings.traditions)


SENTENCE = regex.compile(r"[^。？！]*[。？！]+[」』”’）]*|[^。？！]+")
SENTENCE_END = regex.compile(r"[。？！][」』”’）]*$")


class Sentences:
    """A section's paragraph written citation unit by unit: an `anchor` of type sentence, whose
    xml:id and @n are its citation (section.unit, c12.3 / 12.3), before the first character of
    each unit, as the HTML and the PDF cite it. A unit is a sentence where the text is punctuated,
    else a passage (the writer closes it). Without a section, text written into an element inside
    the paragraph (a moved clause's place), which starts no unit."""

    def __init__(self, parent: etree._Element, section: int | None = None):
        self.parent, self.section, self.number, self.open = parent, section, 0, section is None

    def start(self) -> None:
        self.number += 1
        n = f"{self.section}.{self.number}"
        el("anchor", {"type": "sentence", XML_ID: f"c{n}", "n": n}, parent=self.parent)
        self.open = True

    def text(self, text: str) -> None:
        for piece in SENTENCE.findall(text):
            first = regex.search(r"\p{Han}|▯", piece)
            if not self.open and first:
                append_text(self.parent, piece[: first.start()])
                self.start()
                piece = piece[first.start() :]
            append_text(self.parent, piece)
            self.went_on(piece)

    def mark(self, node: etree._Element) -> None:
        """Punctuation, which ends a sentence or not but starts none."""
        self.parent.append(node)
        self.went_on(node.text or "")

    def paragraph(self, p: etree._Element) -> None:
        """Go on in a new paragraph, with a new sentence."""
        self.parent, self.open = p, False

    def element(self, node: etree._Element, text: str) -> None:
        if not self.open:
            self.start()
        self.parent.append(node)
        self.went_on(text)

    def close(self) -> None:
        """The unit ends here (a passage of an unpunctuated text): the next character begins one."""
        if self.section is not None:
            self.open = False

    def went_on(self, text: str) -> None:
        """The paragraph went on by `text`: the sentence is closed if it ends one."""
        if self.section is not None and SENTENCE_END.search(text):
            self.open = False


APP_PREFIX, COMMENTARY_APP_PREFIX = "app", "zhu-app"  # of the ids of the apps of the 經 and of the 注


def app_id(prefix: str, unit) -> str:
    return f"{prefix}-{unit.index + 1}"


class EditionWriter:
    """Renders an apparatus and its sections as one TEI document (build/edition.xml).

    A clause that a witness reads elsewhere is an `app` of type transposition at each end, its
    transposed readings pointing at each other with `@corresp`: at its place in the base the
    `lem` holds the clause, with the other witnesses' entries inside it nested as `app`s, and the
    witness's `rdg` is empty; where the witness reads it the `lem` is empty and the witness's
    `rdg` holds its text, with its differences from the base's clause nested as `app`s.
    """

    def __init__(
        self,
        apparatus,
        sections,
        persons: dict[str, Person],
        prefix: str = APP_PREFIX,
        paragraphs: dict | None = None,
        evidence: tuple[EvidenceMeta, ...] = (),
        metas: tuple[WitnessMeta, ...] = (),
    ):
        self.apparatus = apparatus
        self.sections = sections
        self.owners = layer_persons(persons)  # layer -> the id of the person whose it is
        # Zheng Xuan's, who reports the 今文/古文 readings: the person of the 注 (persons.tsv)
        self.commentator = f"#{self.owners['commentary']}" if "commentary" in self.owners else None
        self.prefix = prefix  # of the apps' ids
        self.paragraphs = paragraphs or {}  # base token -> the step of the rite a paragraph begins with there
        # A paragraph of the section written, beginning at a token.
        self.new_paragraph: Callable[[int], etree._Element] | None = None
        self.section_end = 0
        self.unit_starts: set[int] = set()  # the base gaps where a citation unit of the section begins
        self.base = apparatus.base
        # The witnesses collated in this layer, then the sources' others (a lost leaf's supplier
        # that this layer's collation leaves out), by their ids.
        self.order = list(dict.fromkeys([*apparatus.witnesses, *(m.siglum for m in metas)]))
        self.ids = {m.siglum: m.xml_id for m in metas} | {s: w.meta.xml_id for s, w in apparatus.witnesses.items()}
        self.evidence = {book.siglum: book.xml_id for book in evidence}  # books of evidence, not collated
        # The editions a 校语 reports (data/reported_editions.tsv): their ids are their sigla.
        self.editions = list(reported_editions.editions())
        # Each edition attested, with who reports it: {edition: {(person id, siglum of the witness): None}}.
        self.reported_by: dict[str, dict[tuple[str, str], None]] = {}
        self.also: dict[int, list[str]] = {}  # id of a reading -> the editions that read it too, in the app written
        self.additions: set[int] = set()  # the base gaps where an addition's unit stands
        self.note_ids: dict[int, str] = {}  # id of a 校语 -> the xml:id of the note that quotes it
        self.gaiji: set[GaijiEntry] = set()
        self.counterparts: dict[int, list] = {}  # reading id -> the transposed readings at the other place
        self.places = apparatus.places  # the units that hold those inside them: moved clauses' places, lost leaves
        self.punctuated: set[int] = set()  # base gaps whose carried punctuation is written
        self.inserts: dict[
            int, Callable[[], list]
        ] = {}  # base gap -> what else stands there (the 注 after its passage), made when written
        self.inserted: set[int] = set()
        self.queue: deque = deque()  # the units not yet written, in the order of the text
        self.position, self.t = 0, 0  # where writing stands: a raw offset of the base, after its token t - 1

    def app_id(self, unit) -> str:
        return app_id(self.prefix, unit)

    def offset(self, t: int) -> int:
        tokens = self.base.classic.tokens
        return tokens[t].start if t < len(tokens) else len(self.base.raw.text)

    def wit(self, sigla) -> str:
        """The witnesses' ids in the apparatus's order, then books of evidence (not collated), then
        the editions a 校语 reports."""
        order = [*self.order, *self.evidence, *self.editions]
        ids = self.ids | self.evidence
        ids |= {e: e for e in self.editions}
        return " ".join(f"#{ids[s]}" for s in sorted(set(sigla), key=order.index))

    def append_tokens(
        self, parent, raw, tokens, markers_before=None, markers_after=None, base_from: int | None = None
    ) -> None:
        """Tokens as the witness writes them: gaps as gap, stand-ins as g. Base tokens from base
        token `base_from` on have the base's own punctuation between them, and the punctuation
        carried over to the base."""
        for index, token in enumerate(tokens):
            for name, siglum in (markers_before or {}).get(index, ()):
                el(name, {"wit": self.wit([siglum])}, parent=parent)
            if base_from is not None and index:
                append_text(parent, self.base.classic_between(tokens[index - 1].end, token.start))
                parent.extend(self.carried(base_from + index) + self.inserted_at(base_from + index))
            source = token.source(raw)
            if token.kind == "gap":
                gap = el("gap", {"reason": "lost", "quantity": str(len(source)), "unit": "marks"}, parent=parent)
                el("desc", text=source, parent=gap)
            elif token.kind == "gaiji":
                el("g", {"ref": f"#{token.gaiji.xml_id}"}, source, parent=parent)
                self.gaiji.add(token.gaiji)
            else:
                append_text(parent, source)
            for name, siglum in (markers_after or {}).get(index, ()):
                el(name, {"wit": self.wit([siglum])}, parent=parent)

    def carries(self, gap: int) -> bool:
        """Base gap `gap` has carried punctuation not yet written."""
        return gap in self.apparatus.punctuation and gap not in self.punctuated

    def carried(self, gap: int) -> list[etree._Element]:
        """The punctuation carried over to base gap `gap` as editorial `pc`, once."""
        if not self.carries(gap):
            return []
        self.punctuated.add(gap)
        source = f"#{self.apparatus.witnesses[self.apparatus.punctuation_source].meta.xml_id}"
        return [el("pc", {"resp": f"#{AUTO_RESP}", "source": source}, mark) for mark in self.apparatus.punctuation[gap]]

    def inserted_at(self, gap: int) -> list[etree._Element]:
        """What else stands at base gap `gap`, once."""
        if gap not in self.inserts or gap in self.inserted:
            return []
        self.inserted.add(gap)
        return self.inserts[gap]()

    def overdue(self, unit) -> list[etree._Element]:
        """What stands at the gaps inside a unit that its lemma did not hold (one not of the base)."""
        return [node for gap in range(unit.t0 + 1, unit.t1) for node in self.inserted_at(gap)]

    def append_base(self, sentences: Sentences, start: int, t0: int, t1: int, end: int | None = None) -> None:
        """The base's classic text from raw offset `start` (after its token `t0` - 1) to its token
        `t1` (or, up to raw offset `end`, through its token `t1` - 1), with the punctuation carried
        over to the gaps on the way and what else stands there."""
        tokens = self.base.classic.tokens
        for gap in range(t0, t1 + 1 if end is None else t1):
            if self.carries(gap) or gap in self.inserts and gap not in self.inserted or gap in self.unit_starts:
                stop = max(start, tokens[gap - 1].end) if gap else start
                sentences.text(self.base.classic_between(start, stop))
                for mark in self.carried(gap):
                    sentences.mark(mark)
                sentences.parent.extend(self.inserted_at(gap))
                if gap in self.unit_starts:
                    sentences.close()
                start = stop
        if end is None:
            end = tokens[t1].start if t1 < len(tokens) else len(self.base.raw.text)
        sentences.text(self.base.classic_between(start, end))

    def reading_element(self, tag: str, reading, unit, raw, base_from: int | None = None):
        attrib = {XML_ID: reading.xml_id}
        sigla = [*reading.sigla, *self.also.get(id(reading), ())]
        if sigla:
            attrib["wit"] = self.wit(sigla)
        if reading.type:
            attrib["type"] = reading.type
        if reading.subtype:
            attrib["subtype"] = reading.subtype
        if tag == "lem" and not reading.tokens and not reading.display:
            attrib["type"] = "omission"
        if tag == "lem" and unit.emended:
            attrib["resp"] = f"#{AUTO_RESP}"
        if tag == "lem" and unit.graphic:
            attrib["resp"] = f"#{GRAPHIC_RESP}"
        if tag == "lem" and unit.decided is not None:
            attrib["resp"] = f"#ed-{unit.decided.resp}"
        if tag == "rdg" and reading.error is not None:
            attrib["cause"] = "error"
        if id(reading) in self.counterparts:
            attrib["corresp"] = " ".join(f"#{other.xml_id}" for other in self.counterparts[id(reading)])
        leaf = unit.lost_leaf
        if leaf is not None and tag == "lem":  # supplied by the tool, from the witness named
            attrib |= {"resp": f"#{SUPPLIED_RESP}", "source": self.wit([leaf.source])}
        node = etree.Element(f"{{{TEI_NS}}}{tag}", attrib)
        if leaf is not None and reading.type == "lacuna" and self.base.meta.siglum in reading.sigla:
            el("desc", text=leaf.remark, parent=el("gap", {"reason": "lost", "unit": "leaf"}, parent=node))
        before: dict[int, list] = {}
        after: dict[int, list] = {}
        for siglum, names in unit.markers.items():
            if siglum not in reading.sigla:
                continue
            for name in names:
                if tag == "lem" or reading.type == "fragment":
                    token_index = self.marker_index(unit, siglum, name)
                else:
                    token_index = 0 if name in MARKER_AT_START else max(0, len(reading.tokens) - 1)
                (before if name in MARKER_AT_START else after).setdefault(token_index, []).append((name, siglum))
        if reading.intrusion:
            append_text(node, reading.display)
        elif reading.inner:
            position = 0
            for first, end, inner in reading.inner:
                self.append_tokens(node, raw, reading.tokens[position:first])
                node.append(self.app_element(inner))
                position = end
            self.append_tokens(node, raw, reading.tokens[position:])
        elif not reading.tokens and reading.display:  # the editor's own reading
            append_text(node, reading.display)
        elif not (tag == "lem" and id(unit) in self.places):  # a place: body() fills its lemma
            self.append_tokens(node, raw, reading.tokens, before, after, base_from)
        if not reading.tokens and (before or after):
            for name, siglum in [*before.get(0, []), *after.get(0, [])]:
                el(name, {"wit": self.wit([siglum])}, parent=node)
        return node

    def marker_index(self, unit, siglum: str, name: str) -> int:
        wmap = self.apparatus.maps.get(siglum)
        extant = [i - unit.t0 for i in range(unit.t0, unit.t1) if wmap is None or wmap.extant[i]]
        if not extant:
            return 0
        return extant[0] if name in MARKER_AT_START else extant[-1]

    def app_element(self, unit):
        app = etree.Element(f"{{{TEI_NS}}}app", {XML_ID: self.app_id(unit)})
        types = unit.types
        if types:
            app.set(
                "type",
                next(t for t in APP_ORDER if t in types),
            )
        groups: dict[str, list] = {}
        for reading in unit.readings:
            groups.setdefault(reading.norm if reading.type in ("orthographic", "gaiji") else id(reading), []).append(
                reading
            )
        lemma_variants = groups.pop(unit.lemma.norm, [])
        base_reads_lemma = unit.lemma.owner in ("", self.base.meta.siglum)
        lemma_raw = self.base.raw if base_reads_lemma else self.source_raw(unit.lemma)
        # A witness that starts or stops here reading the lemma has a reading of its own that holds
        # the marker (TEI Guidelines 12.1.5), so that no entry is a lemma without readings.
        fragments = [s for s in unit.lemma.sigla if unit.markers.get(s)]
        lemma = replace(unit.lemma, sigla=[s for s in unit.lemma.sigla if s not in fragments])
        # The editions a 校语 reports read the lemma or a witness's reading here, or one of their own
        # (the app's own: an app nested in one of its readings restores it when written).
        attested = reported_editions.attestations(self.apparatus, unit, self.additions)
        outer, self.also = self.also, {id(a.reading): a.editions for a in attested if a.reading is not None}
        if id(unit.lemma) in self.also:
            self.also[id(lemma)] = self.also.pop(id(unit.lemma))
        lem = self.reading_element("lem", lemma, unit, lemma_raw, unit.t0 if base_reads_lemma else None)
        if lemma_variants:
            group = el("rdgGrp", {"type": "lemma"}, parent=app)
            group.append(lem)
            for reading in lemma_variants:
                group.append(self.reading_element("rdg", reading, unit, self.source_raw(reading)))
        else:
            app.append(lem)
        for readings in groups.values():
            for reading in readings:
                app.append(self.reading_element("rdg", reading, unit, self.source_raw(reading)))
        for number, siglum in enumerate(fragments, 1):
            fragment = replace(unit.lemma, sigla=[siglum], type="fragment", subtype=unit.markers[siglum][0])
            fragment.xml_id = f"{self.app_id(unit)}-f{number}"
            app.append(self.reading_element("rdg", fragment, unit, lemma_raw))
        for number, attestation in enumerate((a for a in attested if a.new is not None), 1):
            app.append(self.reported_reading(attestation, f"{self.app_id(unit)}-e{number}"))
        for number, reported in enumerate(unit.reported, 1):
            xml_id = f"{self.app_id(unit)}-{reported.tradition}{number}"
            attrib = {
                XML_ID: xml_id,
                "wit": f"#{reported.tradition}",
                "type": "jinguwen",
                "subtype": reported.kind,
                **({"resp": self.commentator, "source": self.commentator} if self.commentator else {}),
                "cert": reported.confidence,
            }
            # a tradition is extant only in the reading a note reports
            rdg = el("rdg", attrib, parent=app)
            el("witStart", {"wit": f"#{reported.tradition}"}, parent=rdg)
            append_text(rdg, reported.reading)
            el("witEnd", {"wit": f"#{reported.tradition}"}, parent=rdg)
            said_by = {"resp": self.commentator} if self.commentator else {}
            note = el("note", {"type": "jinguwen", "target": f"#{xml_id}", **said_by}, parent=app)
            for number_in_note, source in enumerate(reported.notes):
                if number_in_note:
                    append_text(note, " ")
                self.quote(note, source.siglum, source.text)
        if unit.reported and not types:
            app.set("type", "jinguwen")
        elif fragments and not types:
            app.set("type", "fragment")
        self.textual_notes(app, unit)
        self.reported_details(app, attested)
        editorial = [(d, d.reason, {}) for d in ([unit.decided] if unit.decided else [])]
        editorial += [(r.error, r.error.reason, {"target": f"#{r.xml_id}"}) for r in unit.readings if r.error]
        editorial += [(d, d.text, {}) for d in unit.editor_notes]
        for decision, text, target in editorial:  # an error's reason points at the witness's reading
            el("note", {"type": "editorial", "resp": f"#ed-{decision.resp}", **target}, text, parent=app)
        self.emendation_details(app, unit)
        self.form_details(app, unit)
        self.also = outer
        return app

    def form_details(self, app: etree._Element, unit) -> None:
        """Where witnesses that share a reading write it in other characters than the reading's
        own, each writing (`witDetail type="form"`, @wit its witnesses, @target the reading)."""
        for reading in unit.readings:
            writings: dict[tuple[str, ...], list] = {}
            for alike in reading.alike:
                writings.setdefault(alike.forms, []).append(alike)
            for alike in writings.values():
                attrib = {
                    "type": "form",
                    "wit": self.wit([s for a in alike for s in a.sigla]),
                    "target": f"#{reading.xml_id}",
                }
                detail = el("witDetail", attrib, parent=app)
                self.append_tokens(detail, self.source_raw(alike[0]), alike[0].tokens)

    def reported_reading(self, attestation, xml_id: str) -> etree._Element:
        """A reading of the editions a 校语 reports, that no witness of the app reads: in the
        characters of the note that reports it, typed against the lemma."""
        reading = attestation.new
        reading.xml_id = xml_id
        attrib = {XML_ID: xml_id, "wit": self.wit(attestation.editions), "type": reading.type}
        if reading.subtype:
            attrib["subtype"] = reading.subtype
        return el("rdg", attrib, attestation.display)

    def reported_details(self, app: etree._Element, attested) -> None:
        """For each edition a 校语 reports here, the note that reports it (`witDetail
        type="reported"`, its @source the note, in this app or in the one beside it whose place
        the note names, @resp its author), pointing at the reading it attests."""
        for attestation in attested:
            target = (attestation.reading or attestation.new).xml_id
            said = dict.fromkeys(
                (r.edition, self.note_ids[id(r.note)], r.note.author, r.note.siglum, r.note.confidence)
                for r in attestation.reported
            )
            for edition, note, author, siglum, confidence in said:
                self.reported_by.setdefault(edition, {})[(author, siglum)] = None
                attrib = {
                    "type": "reported",
                    "wit": self.wit([edition]),
                    "target": f"#{target}",
                    "resp": f"#{author}",
                    "source": f"#{note}",
                    "cert": confidence,
                }
                el("witDetail", attrib, parent=app)

    def emendation_details(self, app, unit) -> None:
        """The basis of an emendation on its lemma (`@cause`), the source a 他校 emendation cites,
        the emendation elsewhere whose words it corrects alike, and the quotations of the
        commentary that attest a reading (`witDetail`, pointing at the reading)."""
        lem = app.find(f"{{{TEI_NS}}}lem")
        lem = lem if lem is not None else app.find(f"{{{TEI_NS}}}rdgGrp/{{{TEI_NS}}}lem")
        if unit.basis:
            lem.set("cause", unit.basis)
        resp = f"#ed-{unit.decided.resp}" if unit.decided is not None else f"#{AUTO_RESP}"
        if unit.decided is not None and "source" in unit.decided.fields:
            el(
                "bibl",
                text=unit.decided.source,
                parent=el("note", {"type": "editorial", "subtype": "source", "resp": resp}, parent=app),
            )
        if unit.same_as is not None:
            other = f"app-{unit.same_as.index + 1}"
            el(
                "note",
                {"type": "editorial", "subtype": "same-error", "resp": resp, "target": f"#{other}"},
                f"{unit.basis}: the base's words as at {other}, emended so there",
                parent=app,
            )
        ids = {}
        for reading in reversed(unit.all_readings):
            ids[reading.norm] = reading.xml_id
        for norm, quotations in unit.evidence.items():
            for q in quotations:
                detail = el(
                    "witDetail",
                    {
                        "type": "evidence",
                        "subtype": q.layer,
                        "wit": self.wit([q.siglum]),
                        "target": f"#{ids[norm]}",
                        "n": str(q.line),
                    },
                    parent=app,
                )
                el("q", text=q.text, parent=detail)

    @staticmethod
    def note_groups(unit) -> dict[tuple, list]:
        """The entry's 校语, one group per author and what they say (the same note in several witnesses)."""
        groups: dict[tuple, list] = {}
        for note in unit.textual_notes:
            groups.setdefault(note.key, []).append(note)
        return groups

    def textual_notes(self, app: etree._Element, unit) -> None:
        """The witnesses' 校语 on the entry's place: a note per author and what they say, pointing at
        the entry, quoting each witness that carries it (`@source`)."""
        witnesses = self.apparatus.witnesses
        for (author, _), notes in self.note_groups(unit).items():
            sources = dict.fromkeys(f"#{witnesses[n.siglum].meta.xml_id}" for n in notes)
            attrib = {
                XML_ID: self.note_ids[id(notes[0])],
                "type": "textual",
                "resp": f"#{author}",
                "target": f"#{app.get(XML_ID)}",
                "source": " ".join(sources),
                "cert": notes[0].confidence,
            }
            node = el("note", attrib, parent=app)
            for number, note in enumerate(notes):
                if number:
                    append_text(node, " ")
                self.quote(node, note.siglum, note.words)

    def quote(self, parent: etree._Element, siglum: str, words: str) -> None:
        """Words of a witness, quoted (`@source` the witness)."""
        el("quote", {"source": f"#{self.apparatus.witnesses[siglum].meta.xml_id}"}, words, parent=parent)

    def source_raw(self, reading):
        """The raw text of the witness whose tokens the reading holds."""
        siglum = reading.owner or (reading.sigla[0] if reading.sigla else self.base.meta.siglum)
        return self.apparatus.witnesses[siglum].raw

    def prepare(self) -> None:
        """The readings' ids, the 校语's, the transposed readings' counterparts, the units to write."""
        self.additions = reported_editions.additions(self.apparatus)
        for unit in self.apparatus.all_units():
            unit.lemma.xml_id = f"{self.app_id(unit)}-lem"
            for number, notes in enumerate(self.note_groups(unit).values(), 1):
                self.note_ids |= {id(note): f"{self.app_id(unit)}-n{number}" for note in notes}
            for number, reading in enumerate(unit.readings, 1):
                reading.xml_id = f"{self.app_id(unit)}-r{number}"
        for t in self.apparatus.transpositions:
            away, arrival = t.reading_at(t.away), t.reading_at(t.arrival)
            self.counterparts.setdefault(id(away), []).append(arrival)
            self.counterparts.setdefault(id(arrival), []).append(away)
        self.queue = deque(self.apparatus.entries())

    def write(self, sentences: Sentences, t1: int, takes) -> None:
        """The base's text from where writing stands to its token `t1`, with the units at the head
        of the queue that `takes` accepts: a moved clause's place holds the units inside it."""
        tokens = self.base.classic.tokens
        places: list[tuple[object, etree._Element]] = []  # the moved clauses' places open here: (unit, its lem)

        def close_place() -> None:
            place, lem = places.pop()
            self.append_base(Sentences(lem), self.position, self.t, place.t1, end=tokens[place.t1 - 1].end)
            if not places:
                sentences.went_on("".join(lem.itertext()))
            self.position, self.t = tokens[place.t1 - 1].end, place.t1

        while self.queue and takes(self.queue[0]):
            unit = self.queue.popleft()
            while places and unit.t0 >= places[-1][0].t1:
                close_place()
            if places:
                self.append_base(Sentences(places[-1][1]), self.position, self.t, unit.t0)
            else:
                self.text_to(sentences, unit.t0)
            app = self.app_element(unit)
            if places:
                places[-1][1].append(app)
            else:
                sentences.element(app, "".join(app.find(f".//{{{TEI_NS}}}lem").itertext()))
            if id(unit) in self.places:
                places.append((unit, app.find(f".//{{{TEI_NS}}}lem")))
                self.position, self.t = self.offset(unit.t0), unit.t0
            else:
                (places[-1][1] if places else sentences.parent).extend(self.overdue(unit))
                self.position = tokens[unit.t1 - 1].end if unit.t1 > unit.t0 else self.offset(unit.t0)
                self.t = unit.t1
        while places:
            close_place()
        self.text_to(sentences, t1)
        self.position, self.t = self.offset(t1), t1

    def text_to(self, sentences: Sentences, stop: int) -> None:
        """The base's text on to token `stop`, a new paragraph at each step of the rite that begins on the way."""
        for start in sorted(g for g in self.paragraphs if self.t < g <= stop and g < self.section_end):
            self.append_base(sentences, self.position, self.t, start)
            sentences.paragraph(self.new_paragraph(start))
            self.position, self.t = self.offset(start), start
        self.append_base(sentences, self.position, self.t, stop)

    def body(self):
        self.prepare()
        body = el("body")
        tokens = self.base.classic.tokens
        n = len(tokens)
        holder = body  # the body, or the division the sections are in
        for number, section in enumerate(self.sections, 1):
            last = number == len(self.sections)
            if section.opens is not None:
                heading = section.opens
                holder = el("div", {"type": "division", XML_ID: f"d-{heading.head}"}, parent=body)
                el(
                    "head",
                    {"type": "division"},
                    self.base.classic_between(tokens[heading.t0].start, tokens[heading.t1 - 1].end),
                    parent=holder,
                )
                self.position, self.t = self.offset(section.t0), section.t0  # the heading is not the section's text
            div = el("div", {"type": "section", "n": str(number), XML_ID: section.xml_id}, parent=holder)
            head = {"type": section.kind}  # incipit: its first words
            if section.kind != "incipit":  # a witness's label, or a step the 疏 of a witness or a book names
                head["source"] = self.wit([section.source])
            el("head", head, section.title, parent=div)
            p = self.paragraph(div, section, 1, section.t0)
            self.new_paragraph = lambda start, div=div, section=section: self.paragraph(
                div, section, len(div.findall(f"{{{TEI_NS}}}p")) + 1, start
            )
            self.section_end = section.t1
            self.unit_starts = set(section.units)
            self.write(Sentences(p, number), section.t1, lambda u: u.t0 < section.t1 or (last and u.t0 == n))
        return body

    def paragraph(self, div: etree._Element, section, number: int, start: int) -> etree._Element:
        """A paragraph of the section; one that a step of the rite begins names it (`@n`, the
        commentary's name for it) and the witness whose commentary divides the text so (`@corresp`)."""
        attrib = {XML_ID: f"{section.xml_id}-p{number}"}
        step = self.paragraphs.get(start)
        if step is not None and not (section.kind == "step" and start == section.t0):  # not the section's own
            attrib |= {"n": step.title, "corresp": self.wit([step.source])}
        return el("p", attrib, parent=div)


class CommentaryWriter(EditionWriter):
    """The 注 collated: each note of the base's 注 after the last character of the 經 passage it
    comments on, as a `note type="commentary"` whose @target is the anchor where the passage
    begins (`k` and the number of base characters before it), holding the edited 注 and its
    apparatus, written as the 經's; the ids of its apps begin `zhu-app`."""

    def __init__(
        self,
        commentary,
        persons: dict[str, Person],
        evidence: tuple[EvidenceMeta, ...] = (),
        metas: tuple[WitnessMeta, ...] = (),
    ):
        super().__init__(
            commentary.apparatus, [], persons, prefix=COMMENTARY_APP_PREFIX, evidence=evidence, metas=metas
        )
        self.commentary = commentary
        self.prepare()

    def after_passages(self) -> dict[int, Callable[[], list]]:
        """Base gap of the 經 -> what stands there: the anchor where the first passage begins, and
        after each passage its note and the anchor where the next begins."""
        glosses = self.commentary.glosses
        out = {0: lambda: [passage_anchor(0)]}
        for gloss in glosses:
            out[gloss.c1] = partial(self.note, gloss, gloss is not glosses[-1])
        return out

    def note(self, gloss, anchored: bool) -> list[etree._Element]:
        tag, attrib = layer_element("commentary", self.owners)
        n = str(gloss.index + 1)
        note = el(tag, {**attrib, XML_ID: f"zhu-{n}", "n": n, "target": f"#k{gloss.c0}"})
        self.write(Sentences(note), gloss.t1, lambda u: self.commentary.gloss_of(u).index == gloss.index)
        return [note, passage_anchor(gloss.c1)] if anchored else [note]


class WitnessPlaces:
    """Where a witness has an entry of the edition in its raw file, by the entry's xml:id, and the
    editor's decision applied to it (`decided`, the decisions' findings): what a failure of
    validation names, since the TEI carries no offsets into the raw files."""

    CONTEXT = 2  # tokens on each side of a place where the witness reads nothing

    def __init__(self, apparatus, commentary=None, decided=None):
        layers = [(APP_PREFIX, apparatus)] + ([(COMMENTARY_APP_PREFIX, commentary.apparatus)] if commentary else [])
        self.units = {app_id(prefix, u): (collated, u) for prefix, collated in layers for u in collated.all_units()}
        self.decisions = {}
        for decision in decided.decisions.items if decided else ():
            unit = decided.outcome(decision).applied_to
            if not isinstance(unit, str) and unit is not None:
                self.decisions.setdefault(id(unit), (decided.decisions.path, decision))

    def decision_at(self, app: str) -> Place | None:
        """The first decision applied to the entry, where it is written."""
        _, unit = self.units.get(app, (None, None))
        if id(unit) not in self.decisions:
            return None
        path, decision = self.decisions[id(unit)]
        return Place(str(path), decision.line, "", f"decision {decision.number} ({decision.kind})")

    def __call__(self, app: str, siglum: str) -> Place | None:
        """The witness's file, the line, and what it reads there ('reads 「…」'), or where it reads
        nothing there, the text next to it."""
        collated, unit = self.units.get(app, (None, None))
        witness = collated.witnesses.get(siglum) if collated else None
        if witness is None or not witness.classic.tokens:
            return None
        stream = witness.classic
        w0, w1 = (unit.t0, unit.t1) if siglum == collated.base.meta.siglum else self.span(collated.maps[siglum], unit)
        at = stream.starts[min(w0, len(stream.tokens) - 1)]
        if w1 > w0:
            read = f"reads 「{witness.classic_between(stream.starts[w0], stream.ends[w1 - 1])}」"
        else:
            w0, w1 = max(w0 - self.CONTEXT, 0), min(w0 + self.CONTEXT, len(stream.tokens))
            read = f"reads nothing there, next to 「{witness.classic_between(stream.starts[w0], stream.ends[w1 - 1])}」"
        return Place(str(witness.raw.path_of(at)), witness.raw.line_of(at), read)

    @staticmethod
    def span(wmap, unit) -> tuple[int, int]:
        """The witness's tokens against the unit's base tokens and the gaps inside it (at an
        addition, its gap); an empty span where it reads nothing, at the token nearest the place."""
        gaps = range(unit.t0, unit.t1 + 1) if unit.t1 == unit.t0 else range(unit.t0 + 1, unit.t1)
        spans = [(wmap.start[t], wmap.end[t]) for t in range(unit.t0, unit.t1) if wmap.start[t] is not None]
        spans += [span for gap in gaps for span in wmap.inserted.get(gap, ())]
        if spans and max(e for _, e in spans) > min(s for s, _ in spans):
            return min(s for s, _ in spans), max(e for _, e in spans)
        nearest = min(
            (t for t, start in enumerate(wmap.start) if start is not None), key=lambda t: abs(t - unit.t0), default=None
        )
        at = 0 if nearest is None else wmap.start[nearest]
        return at, at


def passage_anchor(gap: int) -> etree._Element:
    return el("anchor", {XML_ID: f"k{gap}"})


def layer_milestones(base: Witness) -> dict[int, Callable[[], list]]:
    """Base gap -> a `milestone` where the base's text collated changes layer: unit tradition
    where a 傳 begins, unit classic where the classic text takes up again after it; none in a
    text without 傳."""
    codes = base.classic.codes
    changes = [t for t in range(1, len(codes)) if codes[t] != codes[t - 1]]
    if codes and codes[0] != CODES["classic"]:
        changes.insert(0, 0)
    return {t: partial(lambda unit: [el("milestone", {"unit": unit})], LAYER_OF_CODE[codes[t]]) for t in changes}


def joined_inserts(*inserts: dict[int, Callable[[], list]]) -> dict[int, Callable[[], list]]:
    """What stands at each base gap, from several sources, in their order."""
    out: dict[int, Callable[[], list]] = {}
    for source in inserts:
        for gap, make in source.items():
            out[gap] = partial(lambda before, after: before() + after(), out[gap], make) if gap in out else make
    return out


def in_edition_script(text: str, meta, script: str) -> str:
    """Words of a witness's metadata in the edition's script (a book of evidence has none: its
    stanza is the edition's)."""
    return in_script(text, script, getattr(meta, "script", script))


def witness_description(meta, parent: etree._Element, script: str) -> None:
    """A witness's name and siglum as abbreviations, and the edition it reproduces as a bibl, its
    title and author in the edition's `script`."""
    if meta.name:
        el("abbr", {"type": "name"}, meta.name, parent=parent)
        append_text(parent, " ")
    el("abbr", {"type": "siglum"}, meta.siglum, parent=parent)
    append_text(parent, " ")
    bibl = el("bibl", parent=parent)
    el("title", text=in_edition_script(meta.title, meta, script), parent=bibl)
    if meta.author:
        el("author", text=in_edition_script(meta.author, meta, script), parent=bibl)
    if meta.edition:
        el("edition", text=meta.edition, parent=bibl)


def append_extent(
    note: etree._Element, writer: EditionWriter, extant: list[tuple[int, int]], counted: str = "base characters"
) -> None:
    """Where a witness is extant, each stretch a `seg type="extant"` (its first and last
    characters, @n the characters of the base it spans) followed by the count in words."""
    tokens, raw = writer.base.classic.tokens, writer.base.raw
    stretches = [(a, b) for a, b in extant if b > a]
    for number, (a, b) in enumerate(stretches):
        append_text(note, "; " if number else "")
        el(
            "seg",
            {"type": "extant", "n": f"{a + 1}–{b}"},
            f"{tokens[a].source(raw)}…{tokens[b - 1].source(raw)}",
            parent=note,
        )
        append_text(note, f" ({counted} {a + 1}–{b})")
    append_text(note, "." if stretches else "nowhere.")


def commentary_extent(zhu: CommentaryWriter, siglum: str, parent: etree._Element) -> None:
    """Where a witness is extant in the 注 apparatus (`note type="extent" subtype="commentary"`),
    or why it is not collated there; that it quotes the 注 in part (`note type="abridged"`)."""
    status = zhu.apparatus.statuses.get(siglum)
    if status is None:
        return
    if not status.included:
        el("note", {"type": "status", "subtype": "commentary"}, "注 not collated: " + status.reason, parent=parent)
        return
    if zhu.apparatus.witnesses[siglum].abridged:
        el(
            "note",
            {"type": "abridged", "subtype": "commentary"},
            "It quotes the 注 in part: where it does not quote it, it is not extant (lacunaStart, lacunaEnd), "
            "and no omission is recorded.",
            parent=parent,
        )
    note = el(
        "note", {"type": "extent", "subtype": "commentary"}, "Extant in the 注 against the base's 注: ", parent=parent
    )
    append_extent(note, zhu, status.extant, "characters of the base’s 注")


def list_wit(writer: EditionWriter, sources: SourcesForTei, zhu: CommentaryWriter | None):
    """The witnesses of the apparatus in listWit, Zheng Xuan's 今文 and 古文 among them, extant
    only inside the readings a note reports (witStart/witEnd there), and the editions a 校语
    reports, attested only where one reports them (witDetail type reported); witnesses kept out
    of both apparatus in a listBibl (type excluded), so that no viewer takes them for witnesses
    extant throughout; one the 經's leaves out and the 注's includes is a witness whose status
    says so. Those of the 注's apparatus say where they are extant in it."""
    commentary = set(zhu.apparatus.witnesses) if zhu is not None else set()

    def build(parent: etree._Element) -> None:
        list_wit_element = el("listWit", parent=parent)
        excluded = el("listBibl", {"type": "excluded"})
        for siglum, status in writer.apparatus.statuses.items():
            meta = next(m for m in sources.witnesses if m.siglum == siglum)
            if status.included or siglum in commentary:
                witness = el("witness", {XML_ID: meta.xml_id, "n": meta.siglum}, parent=list_wit_element)
            else:
                witness = el("bibl", {XML_ID: meta.xml_id, "n": meta.siglum}, parent=excluded)
            witness_description(meta, witness, sources.config.script)
            el("note", {"type": "quality"}, f"{status.quality:.3f}", parent=witness)
            el(
                "note",
                {"type": "status"},
                ("included: " if status.included else "excluded: ") + status.reason,
                parent=witness,
            )
            if siglum == writer.base.meta.siglum:
                el("note", {"type": "role"}, "base", parent=witness)
            note = el(
                "note",
                {"type": "extent"},
                (meta.extent + " " if meta.extent else "") + "Extant against the base: ",
                parent=witness,
            )
            append_extent(note, writer, status.extant)
            if zhu is not None and (status.included or siglum in commentary):
                commentary_extent(zhu, siglum, witness)
        for book in sources.evidence:
            witness = el("witness", {XML_ID: book.xml_id, "n": book.siglum}, parent=list_wit_element)
            witness_description(book, witness, sources.config.script)
            el("note", {"type": "status"}, EVIDENCE_STATUS[book.kind], parent=witness)
        traditions = Conventions(sources.config.apparatus_style).templates["headings"]["traditions"]
        for xml_id, name in TRADITION_WITNESSES:
            witness = el("witness", {XML_ID: xml_id, "n": name}, parent=list_wit_element)
            el("abbr", {"type": "siglum"}, name, parent=witness)
            append_text(witness, " " + traditions[xml_id])
            el(
                "note",
                {"type": "status"},
                "hypothetical: a tradition reported by Zheng Xuan's notes, attested only where a note reports it",
                parent=witness,
            )
        for edition in (e for e in writer.editions if e in writer.reported_by):
            reported_witness(edition, writer, sources, list_wit_element)
        if len(excluded):
            parent.append(excluded)

    return build


def reported_witness(edition: str, writer: EditionWriter, sources: SourcesForTei, parent: etree._Element) -> None:
    """An edition a 校语 reports, in listWit: its name as the notes give it, its title, and who
    reports it in which witness; its status says it is attested only where they report it."""
    described = reported_editions.editions()[edition]
    witness = el("witness", {XML_ID: edition, "n": described.names[0]}, parent=parent)
    el("abbr", {"type": "siglum"}, described.names[0], parent=witness)
    append_text(witness, " ")
    el("title", text=described.title, parent=el("bibl", parent=witness))
    names = {p.id: p.name for p in sources.persons.values()}
    witnesses = writer.apparatus.witnesses
    reporters = "; ".join(
        f"{names.get(author, author)} in {witnesses[siglum].meta.name or siglum} ({siglum})"
        for author, siglum in writer.reported_by[edition]
    )
    el(
        "note",
        {"type": "status"},
        f"reported: its readings as the 校語 of {reporters} report them (named {'、'.join(described.names)}), "
        "attested only in the apps where such a note reports its reading (witDetail type reported)",
        parent=witness,
    )


# A book of evidence in listWit: attested only where it quotes or judges the text (witDetail).
EVIDENCE_STATUS = {
    "subcommentary-quotations": "evidence: the 疏 printed without the 經 and 注; its lemmata and 云X者 quote them, "
    "attested only where a witDetail cites a quotation",
    "collation-notes": "evidence: a 校勘記 whose entries say what a character should be, "
    "attested only where a witDetail cites an entry",
}

VARIANT_FORMS_ID = "variant-forms"
VARIANT_FORMS_COLUMNS = ("text", "form", "count", "witnesses_column", "sources")  # by their headings


def editorial_principles(
    sources: SourcesForTei,
    writer: EditionWriter,
    zhu: CommentaryWriter | None,
    encoding: etree._Element,
    gaiji: set[GaijiEntry],
    body: etree._Element,
) -> etree._Element:
    """The 凡例, from the config and the data, in the style the edition chose: a `front` div
    (type fanli, @subtype the style) that the renderers show, and the items that say how the text
    was made as parts of the header's editorialDecl (normalization/@method markup where variant
    forms are recorded at each place)."""
    config = sources.config
    conventions = Conventions(config.apparatus_style)
    statuses = writer.apparatus.statuses
    metas = {m.siglum: m for m in sources.witnesses}
    shown = lambda meta: conventions.templates["witness_entry"].format(
        name=meta.name or meta.siglum, title=in_edition_script(meta.title, meta, config.script)
    )
    collated = [metas[s] for s, status in statuses.items() if status.included and s != config.base]
    values = {
        "base": shown(metas[config.base]),
        "count": conventions.words(len(collated)),
        "collated": conventions.list_of([shown(m) for m in collated]),
        "excluded": conventions.list_of([shown(metas[s]) for s, status in statuses.items() if not status.included]),
        "emending": conventions.words(EMENDING_SUPPORT),
        "chapter": config.chapter or config.title,
        "abbreviations": conventions.list_of(
            [
                conventions.templates["abbreviation"].format(name=metas[s].name, siglum=s)
                for s in statuses
                if metas[s].name
            ]
        ),
    }
    # A leaf whose 注 runs on from a note before it, or into one after it, has entries in the 注 too.
    units = [*writer.apparatus.leaves, *(zhu.apparatus.leaves if zhu is not None else ())]
    leaves = len({unit.lost_leaf.line for unit in units})
    values["lost_leaves"] = conventions.words(leaves) if leaves else ""
    read_on = sum(READS_ON in s.attrs for s in writer.apparatus.base.segments)
    values["leaves_read_on"] = conventions.words(read_on) if read_on else ""
    values["reported"] = conventions.list_of(
        [reported_editions.editions()[e].names[0] for e in writer.editions if e in writer.reported_by]
    )
    values["remarks"] = conventions.list_of(remarks_carried(body, [metas[s] for s in statuses]))
    if zhu is not None:
        zhu_collated = [s for s, status in zhu.apparatus.statuses.items() if status.included and s != config.base]
        values["commentary"] = conventions.list_of([shown(metas[s]) for s in zhu_collated])
        values["abridged"] = conventions.list_of(
            [shown(metas[s]) for s in zhu_collated if zhu.apparatus.witnesses[s].abridged]
        )
        # the compilations collated in their 經 whose 注 is not (an editor may include it)
        values["compilations"] = conventions.list_of(
            [
                shown(metas[s])
                for s, witness in writer.apparatus.witnesses.items()
                if witness.compilation and s in zhu.apparatus.statuses and not zhu.apparatus.statuses[s].included
            ]
        )
    values |= related_forms(conventions, writer.apparatus, zhu.apparatus if zhu is not None else None)
    values |= division_values(conventions, writer.sections, metas, sources.evidence)
    described = sorted(f"〔{e.ids}〕" for e in gaiji if not e.mapping and e.ids)
    undescribed = sum(1 for e in gaiji if not e.mapping and not e.ids)
    values |= {
        "gaiji": conventions.words(len(gaiji)) if gaiji else "",
        "described": conventions.list_of(described),
        "undescribed": conventions.words(undescribed) if undescribed else "",
    }
    choices = {"variant_forms": config.variant_forms, "usages": config.usages}
    items = conventions.fanli(values, choices, config.comparison_script)
    decl = el("editorialDecl", parent=encoding)
    at_each_place = {"variant_forms": config.variant_forms == "apparatus", "usages": config.usages == "apparatus"}
    for key, text in items:
        part = table()["fanli_declarations"].get(key)
        if part:
            attrib = {XML_ID: f"decl-{key}"}
            if part == "normalization":
                attrib["method"] = "markup" if at_each_place.get(key) else "silent"
            el("p", text=text, parent=el(part, attrib, parent=decl))
    front = el("front")
    div = el(
        "div",
        {
            "type": "fanli",
            "subtype": config.apparatus_style,
            XML_ID: "fanli",
            XML_LANG: "zh" if config.apparatus_style == "chinese" else "en",
        },
        parent=front,
    )
    el("head", text=conventions.templates["fanli_head"], parent=div)
    for key, text in items:
        el("p", {"n": key}, text, parent=div)
    return front


def division_values(conventions: Conventions, sections, metas: dict, evidence) -> dict[str, str]:
    """What the 凡例 says of the sections and citation units: how many, the witnesses whose labels
    and the sources whose 疏 name them, whether passages are grouped where nothing names them, and
    whether some units are passages of an unpunctuated text."""
    names = {m.siglum: m.name or m.siglum for m in metas.values()} | {b.siglum: b.name or b.siglum for b in evidence}
    by_kind = lambda kind: list(dict.fromkeys(names[s.source] for s in sections if s.kind == kind))
    words = conventions.templates["division_words"]
    return {
        "sections": conventions.words(len(sections)),
        "labels": conventions.list_of(by_kind("label")),
        "steps": conventions.list_of(by_kind("step")),
        "grouped": words["grouped"] if any(s.kind == "incipit" for s in sections) else "",
        "passages": words["passages"] if any(s.units for s in sections) else "",
    }


def remarks_carried(body: etree._Element, witnesses: list[WitnessMeta]) -> list[str]:
    """The names of the witnesses (in their order) that carry a 校语 that reports no reading at its
    place (series E)."""
    carrying = {
        ref.lstrip("#")
        for note in body.iterfind(".//{*}app/{*}note[@type='textual']")
        if not reports_a_reading(note)
        for ref in note.get("source", "").split()
    }
    return [meta.name or meta.siglum for meta in witnesses if meta.xml_id in carrying]


def related_forms(conventions: Conventions, *apparatus) -> dict[str, str]:
    """What the 凡例 says of the tables of `collation/relations`: the graphic families, examples of
    the taboo characters, and the words a site's filter replaced that the apparatus (of the 經 and
    of the 注) has, each with what the site wrote for them."""
    templates = conventions.templates
    rows = relations.table_rows()
    families = [conventions.list_of(list(row.characters)) for row in rows[relations.GRAPHIC]]
    examples = [
        templates["taboo_example"].format(character=row.characters[0], substitute=row.characters[1])
        for row in rows[relations.TABOO_TYPE]
    ]
    filtered: dict[str, list[str]] = {}
    for collated in (a for a in apparatus if a is not None and a.relations is not None):
        for unit in collated.all_units():
            for reading in unit.readings:
                if reading.subtype != relations.WORD_FILTER:
                    continue
                for r, m in zip(reading.norm, unit.lemma.norm):
                    row = collated.relations.row(m, r) if r != m else None
                    if row is not None and row.characters[0] not in filtered.setdefault(row.characters[1], []):
                        filtered[row.characters[1]].append(row.characters[0])
    words = [
        templates["word_filter_example"].format(words=conventions.list_of(found), substitute=substitute)
        for substitute, found in sorted(filtered.items())
    ]
    return {
        "graphic_families": templates["clause_joiner"].join(families),
        "taboo": conventions.list_of(examples),
        "word_filter": conventions.list_of(words),
    }


def variant_forms_table(writer: EditionWriter, conventions: Conventions) -> etree._Element:
    """The 异体字表, in the style's words: one row per pair of the edited text's form and a
    witness's form, with the count, each witness by a `ref` whose @n is its count, and the tables
    of the fold (`Conventions.fold_source`)."""
    headings = conventions.templates["headings"]
    back = el("back")
    div = el("div", {"type": VARIANT_FORMS_ID, XML_ID: VARIANT_FORMS_ID}, parent=back)
    el("head", text=headings["variant_forms_mark"], parent=div)
    pairs = writer.apparatus.variant_forms
    el("p", text=headings["variant_forms_note"].format(count=conventions.words(len(pairs))), parent=div)
    table = el("table", {"rows": str(len(pairs) + 1), "cols": str(len(VARIANT_FORMS_COLUMNS))}, parent=div)
    label = el("row", {"role": "label"}, parent=table)
    for column in VARIANT_FORMS_COLUMNS:
        el("cell", text=headings[column], parent=label)
    for pair in pairs:
        row = el("row", parent=table)
        el("cell", text=pair.text, parent=row)
        el("cell", text=pair.form, parent=row)
        el("cell", text=str(sum(pair.counts.values())), parent=row)
        witnesses = el("cell", parent=row)
        for number, siglum in enumerate(sorted(pair.counts, key=writer.order.index)):
            if number:
                append_text(witnesses, " ")
            el("ref", {"target": writer.wit([siglum]), "n": str(pair.counts[siglum])}, siglum, parent=witnesses)
        sources = dict.fromkeys(map(conventions.fold_source, pair.sources))
        el("cell", text=conventions.templates["clause_joiner"].join(sources), parent=row)
    return back


def edition_document(
    sources: SourcesForTei,
    apparatus,
    sections,
    editors: dict[str, str],
    paragraphs: dict | None = None,
    commentary=None,
) -> etree._ElementTree:
    """The edition; `paragraphs`: base token -> the step of the rite a paragraph begins with there;
    with the 注 collated (`commentary`), each note of it after its 經 passage."""
    metas = tuple(sources.witnesses)
    writer = EditionWriter(
        apparatus, sections, sources.persons, paragraphs=paragraphs, evidence=sources.evidence, metas=metas
    )
    zhu = CommentaryWriter(commentary, sources.persons, sources.evidence, metas) if commentary else None
    writer.inserts = joined_inserts(zhu.after_passages() if zhu is not None else {}, layer_milestones(apparatus.base))
    body = writer.body()
    tei = el("TEI", {XML_LANG: "lzh"})
    gaiji = writer.gaiji | (zhu.gaiji if zhu else set()) | mark_stand_ins(body, sources.gaiji)
    tei_header = header(
        sources,
        sources.config.title,
        list_wit(writer, sources, zhu),
        gaiji,
        codepoints_used(body),
        variant_encoding=True,
    )
    title_stmt = tei_header.find(f".//{{{TEI_NS}}}titleStmt")
    if sources.config.chapter:  # the chapter's own title, as the base heads it: 鄉射禮第五
        title_stmt.insert(1, el("title", {"type": "chapter"}, sources.config.chapter))
    for ident, name in editors.items():
        resp_stmt = el("respStmt", {XML_ID: f"ed-{ident}"}, parent=title_stmt)
        el("resp", text="editorial decisions", parent=resp_stmt)
        el("name", text=name, parent=resp_stmt)
    front = editorial_principles(sources, writer, zhu, tei_header.find(f"{{{TEI_NS}}}encodingDesc"), gaiji, body)
    tei.append(tei_header)
    text = el("text", parent=tei)
    text.append(front)
    text.append(body)
    text.append(variant_forms_table(writer, Conventions(sources.config.apparatus_style)))
    return etree.ElementTree(tei)
