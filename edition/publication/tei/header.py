"""The TEI header of every document: title and responsibility, publication, encoding (the
`charDecl` of stand-ins and uncommon characters), languages and the persons named."""

from __future__ import annotations

import os
from datetime import UTC, date, datetime
from typing import Protocol

import regex
from lxml import etree

from ... import __version__
from ...collation.apparatus import AUTO_RESP, GRAPHIC_RESP, SUPPLIED_RESP
from ...collation.punctuation_model import PROPOSED_RESP, described
from ...intake.gaiji import GaijiEntry, GaijiTable, describe_form
from ...intake.model import EvidenceMeta, WitnessMeta
from ...intake.page_images import PageImage
from ...settings import EditionConfig, Person, cjk_face, work_urn
from ...tables import describe_not_text
from ..model import FACE
from .markup import LANGUAGES, XML_ID, codepoint_id, el


class NumberedChapter(Protocol):
    number: int


class SourcesForTei(Protocol):
    """What the TEI reads of an edition's sources: its settings, its witnesses, the persons of
    its layers and the stand-ins (work.sources.Sources is one)."""

    config: EditionConfig
    witnesses: list[WitnessMeta]
    persons: dict[str, Person]
    gaiji: GaijiTable
    evidence: tuple[EvidenceMeta, ...]
    chapter: NumberedChapter | None  # the chapter of the work it is of
    page_images: dict[str, dict[str, PageImage]]  # each witness's photographs of its pages, by page id

    def person_by_name(self, name: str) -> Person | None: ...


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
    "as one), more than the base's reading and than any other, one of them beyond the witnesses collated "
    "(a book of evidence, or the base's own words: 本校); "
    "or the base has the words of an emendation elsewhere, "
    "and a witness reads the emendation here too (本校)"
)


SUPPLIED_LEAVES = (
    "supplied where the base has lost a leaf: the 經 and 注 the other witnesses read there, "
    "from the one named (lem/@source), in the edition's forms"
)


GRAPHIC_CHOICE = (
    "a graphic family's member (己已巳) for the base's, where a witness reads another member and the "
    "base's own words about it call for one other than the base's (edition/collation/data/"
    "graphic_senses.tsv: 以己, 而已, 乙巳…; lem/@cause 理校); the base's is a reading of type graphic"
)


def build_date() -> date:
    """The day of the build: of SOURCE_DATE_EPOCH where it is set (a reproducible build), else today."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    return datetime.fromtimestamp(int(epoch), UTC).date() if epoch else date.today()


def citation_prefix(config: EditionConfig, chapter_number: int | None) -> str:
    """What a citation (3.2) follows in its URN: the work's URN and the chapter's number
    (urn:cts:chineseLit:yili:5.), or the work's alone for an edition of no numbered chapter."""
    return f"{work_urn(config)}:{chapter_number}." if chapter_number is not None else f"{work_urn(config)}:"


def citation_scheme(encoding, prefix: str) -> None:
    """How the edition is cited, declared for machines: a sentence's citation, 3.2, is its
    section's number and its number in the section (refsDecl/citeStructure), and its URN,
    urn:cts:chineseLit:yili:5.3.2, is the edition's (publicationStmt/idno) with the section's
    delimiter and the citation; the URN points at the sentence (listPrefixDef: the scheme "urn")."""
    section = el(
        "citeStructure",
        {"unit": "section", "match": "//body//div[@type='section']", "use": "@n", "delim": prefix[-1]},
        parent=el("refsDecl", parent=encoding),
    )
    el(
        "citeStructure",
        {"unit": "sentence", "match": ".//anchor[@type='sentence']", "use": "substring-after(@n, '.')", "delim": "."},
        parent=section,
    )
    prefixes = el("listPrefixDef", parent=encoding)
    pattern = regex.escape(prefix.removeprefix("urn:"))
    for match, replacement, example, said in (
        (r"(\d+)\.(\d+)", "#c$1.$2", "1.2", "section 1, its second sentence"),
        (r"(\d+)", "#xpath(//body//div[@type='section'][@n='$1'])", "1", "section 1"),
    ):
        el(
            "p",
            text=f"{prefix}{example}: {said}",
            parent=el(
                "prefixDef",
                {"ident": "urn", "matchPattern": f"{pattern}{match}", "replacementPattern": replacement},
                parent=prefixes,
            ),
        )


def header(
    sources: SourcesForTei,
    title: str,
    source_desc_content,
    gaiji: set[GaijiEntry],
    codepoints: list[str],
    variant_encoding: bool = False,
    chapter_number: int | None = None,
) -> etree._Element:
    tei_header = el("teiHeader")
    file_desc = el("fileDesc", parent=tei_header)
    title_stmt = el("titleStmt", parent=file_desc)
    el("title", text=title, parent=title_stmt)
    for editor in sources.config.editors:
        el("editor", text=editor, parent=title_stmt)
    resp_stmt = el("respStmt", parent=title_stmt)
    el("resp", text="generated by", parent=resp_stmt)
    el("name", {"type": "software"}, f"edition {__version__}", parent=resp_stmt)
    if variant_encoding:
        for xml_id, said in (
            (AUTO_RESP, AUTOMATIC_EMENDATION),
            (SUPPLIED_RESP, SUPPLIED_LEAVES),
            (GRAPHIC_RESP, GRAPHIC_CHOICE),
            (PROPOSED_RESP, described()),
        ):
            statement = el("respStmt", {XML_ID: xml_id}, parent=title_stmt)
            el("resp", text=said, parent=statement)
            el("name", {"type": "software"}, f"edition {__version__}", parent=statement)
    publication = el("publicationStmt", parent=file_desc)
    el("authority", text="、".join(sources.config.editors) or f"edition {__version__}", parent=publication)
    if sources.config.place:
        el("pubPlace", text=sources.config.place, parent=publication)
    el("date", {"when": build_date().isoformat()}, parent=publication)
    prefix = citation_prefix(sources.config, chapter_number)
    if variant_encoding:
        el("idno", {"type": "URN"}, prefix[:-1], parent=publication)
    el(
        "p",
        text=(
            f"Generated by edition {__version__} from the files in sources/. Do not edit: edit the sources and rebuild."
        ),
        parent=el("availability", parent=publication),
    )
    source_desc = el("sourceDesc", parent=file_desc)
    source_desc_content(source_desc)
    encoding = el("encodingDesc", parent=tei_header)
    if variant_encoding:
        el("variantEncoding", {"method": "parallel-segmentation", "location": "internal"}, parent=encoding)
        face = f'font-family: "{cjk_face(sources.config)}"'  # the face the views set the text in
        tags = el("tagsDecl", parent=encoding)
        el("rendition", {XML_ID: FACE, "scheme": "css", "selector": "text"}, face, parent=tags)
        citation_scheme(encoding, prefix)
    app_info = el("appInfo", parent=encoding)
    application = el("application", {"ident": "edition", "version": __version__}, parent=app_info)
    el("label", text="edition", parent=application)
    char_decl(gaiji, codepoints, encoding)
    profile = el("profileDesc", parent=tei_header)
    lang_usage = el("langUsage", parent=profile)
    for ident, name in LANGUAGES.items():
        el("language", {"ident": ident}, name, parent=lang_usage)
    if sources.persons:  # a work's table may list no one yet, and an empty listPerson is no TEI
        persons = el("listPerson", parent=el("particDesc", parent=profile))
    for person in sources.persons.values():
        node = el("person", {XML_ID: person.id}, parent=persons)
        el("persName", text=person.name, parent=node)
        if person.role:
            el("occupation", text=person.role, parent=node)
    return tei_header
