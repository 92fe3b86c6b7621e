"""The edition's front and back matter: the 凡例 (editorial principles) phrased from the
conventions, and the table of variant forms."""

from __future__ import annotations

from lxml import etree

from ...collation import relations
from ...collation.apparatus import EMENDING_SUPPORT
from ...collation.lost_leaf import READS_ON
from ...collation.model import VariantForm
from ...collation.punctuation_model import provenance
from ...intake.gaiji import GaijiEntry
from ...intake.model import EvidenceMeta, WitnessMeta
from ..conventions import Conventions, table
from ..render import reports_a_reading
from .apparatus import CommentaryWriter, EditionWriter
from .header import SourcesForTei, citation_prefix
from .markup import XML_ID, XML_LANG, append_text, el, in_edition_script
from .witnesses import unrecorded_counts

VARIANT_FORMS_ID = "variant-forms"
EDITION_OF_A_KIND = "本"  # a name that ends so names an edition (單疏本, 四庫本), not a book


VARIANT_FORMS_COLUMNS = ("text", "form", "count", "witnesses_column", "sources")  # by their headings


def merged_variant_forms(tables: list[list[VariantForm]]) -> list[VariantForm]:
    """The pairs of several layers' tables as one: each pair's counts summed witness by witness."""
    merged: dict[tuple[str, str], VariantForm] = {}
    for layer in tables:
        for pair in layer:
            key = (pair.text, pair.form)
            if key not in merged:
                merged[key] = VariantForm(pair.text, pair.form, dict(pair.counts), pair.sources)
                continue
            counts = merged[key].counts
            for siglum, n in pair.counts.items():
                counts[siglum] = counts.get(siglum, 0) + n
    return sorted(merged.values(), key=lambda v: (-sum(v.counts.values()), v.text, v.form))


def punctuation_values(conventions: Conventions, writers: list[EditionWriter], metas: dict) -> dict[str, str]:
    """How the edited text (the 經, the 注) is punctuated: its marks, the witnesses they are carried
    from, those the model of 句讀 proposes, with its held-out scores, and the editors' own."""
    by = [b for w in writers for gap, b in w.apparatus.punctuation_by.items() if gap in w.apparatus.punctuation]
    decided = sum(1 for w in writers for d in w.apparatus.punctuation_decided.values() if d.mark)
    scores = provenance()["held_out_scores"]
    return {
        "punctuation_marks": conventions.words(len(by) + decided) if by or decided else "",
        "punctuation_decided": conventions.words(decided) if decided else "",
        "punctuation_carried": conventions.list_of([metas[s].name or s for s in dict.fromkeys(b for b in by if b)]),
        "punctuation_proposed": (
            conventions.templates["proposed_rest"].format(n=conventions.words(by.count("")))
            if any(by) or decided
            else conventions.templates["proposed_all"]
        )
        if "" in by
        else "",
        "sentence_f1": str(scores["sentence_breaks"]["f1"]),
        "all_f1": str(scores["all_breaks"]["f1"]),
    }


def book_cited(conventions: Conventions, book: EvidenceMeta) -> str:
    """A book of evidence as the 凡例 cites it: by its name where that names an edition of a kind
    (單疏本), else its author and title (張淳《儀禮識誤》), the title without what follows it in brackets."""
    if book.name.endswith(EDITION_OF_A_KIND):
        return book.name
    title = book.title.split(" (")[0]
    return conventions.templates["book_cited"].format(author=book.author, title=title) if book.author else title


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
        "urn": f"{citation_prefix(config, sources.chapter.number if sources.chapter else None)}3.2",
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
    values["reported"] = conventions.list_of([])
    for kind in writer.written_kinds():  # what annotations say in the principles (the editions a 校语 reports)
        values |= {name: conventions.list_of(items) for name, items in kind.principles(writer).items()}
    values["remarks"] = conventions.list_of(remarks_carried(body, [metas[s] for s in statuses]))
    values["evidence_books"] = conventions.list_of([book_cited(conventions, book) for book in sources.evidence])
    writers = [writer, *([zhu] if zhu is not None else [])]
    counted = {s: unrecorded_counts(writers, s) for s in statuses if s != config.base}
    values["unrecorded"] = conventions.list_of(
        [metas[s].name or s for s, counts in counted.items() if any(n for k, n in counts.items() if k != "regrouped")]
    )
    values["regrouped"] = conventions.list_of([metas[s].name or s for s, c in counted.items() if c.get("regrouped")])
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
    values |= punctuation_values(conventions, [writer, *([zhu] if zhu is not None else [])], metas)
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


def variant_forms_table(
    writer: EditionWriter, conventions: Conventions, zhu: EditionWriter | None = None
) -> etree._Element:
    """The 异体字表, in the style's words: one row per pair of the edited text's form and a
    witness's form in the 經 and the 注 (`zhu`), with the count, each witness by a `ref` whose @n
    is its count, and the tables of the fold (`Conventions.fold_source`)."""
    headings = conventions.templates["headings"]
    back = el("back")
    div = el("div", {"type": VARIANT_FORMS_ID, XML_ID: VARIANT_FORMS_ID}, parent=back)
    el("head", text=headings["variant_forms_mark"], parent=div)
    pairs = merged_variant_forms([w.apparatus.variant_forms for w in (writer, zhu) if w is not None])
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
