"""The edition as one TEI document: header, front matter, text with apparatus, back matter."""

from __future__ import annotations

from lxml import etree

from ..conventions import Conventions
from .apparatus import CommentaryWriter, EditionWriter, joined_inserts, layer_milestones
from .front import editorial_principles, variant_forms_table
from .header import SourcesForTei, header
from .leaves import facsimile, page_breaks
from .markup import TEI_NS, TEXT_LANGUAGE, XML_ID, XML_LANG, codepoints_used, el, mark_stand_ins
from .witnesses import list_wit


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
    before_notes, after_notes, in_notes = page_breaks(apparatus, commentary)
    writer.inserts = joined_inserts(
        before_notes,
        zhu.after_passages() if zhu is not None else {},
        layer_milestones(apparatus.base),
        after_notes,
    )
    if zhu is not None:
        zhu.inserts = in_notes
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
        chapter_number=sources.chapter.number if sources.chapter else None,
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
    photographs = facsimile(body, sources.page_images)
    if photographs is not None:
        tei.append(photographs)
    text = el("text", {XML_LANG: TEXT_LANGUAGE[sources.config.script]}, parent=tei)
    text.append(front)
    text.append(body)
    text.append(variant_forms_table(writer, Conventions(sources.config.apparatus_style), zhu))
    return etree.ElementTree(tei)
