"""The witnesses in the edition's header: `listWit` with each witness's status and extent,
the books of evidence, and the witnesses annotations report (the 儀禮's 今文/古文, editions a 校语 reports)."""

from __future__ import annotations

from lxml import etree

from .apparatus import CommentaryWriter, EditionWriter
from .header import SourcesForTei
from .markup import XML_ID, append_text, el, in_edition_script


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


UNRECORDED_WORDS = {
    "lacuna": "characters the transcription marks as not read (▯, □)",
    "word-filter": "words a web site's filter replaced",
    "intrusion": "insertions of the web page (spam)",
    "layer": "words its layout put among the other layer's, the 經's among its 注 or the 注's among its 經",
    "regrouped": "clauses a compiler moved to the place he explains them, his own order (the witness's page shows it)",
}


# Clauses a witness reads elsewhere in a chapter (經 and 注) from which its order is its own: a copyist
# transposes a clause now and then, a compiler regroups (江永's 禮書綱目 moves 68 in 鄉射禮).
REGROUPING = 5


def unrecorded_counts(writers: list[EditionWriter], siglum: str) -> dict[str, int]:
    """What no entry says of a witness, by kind, counted over the apparatus of the 經 and of the 注:
    the characters its transcription marks as not read, the words a site's filter replaced, what
    the page inserted, its layer slips (`writers[0]`, the 經's, holds them), and the clauses it
    moves where it moves REGROUPING or more: its compiler's order, which no entry says clause by
    clause."""
    counts = dict.fromkeys(UNRECORDED_WORDS, 0)
    for writer in writers:
        for unit in writer.apparatus.all_units():
            for reading in unit.readings:
                if siglum in reading.sigla and reading.type in ("lacuna", "intrusion"):
                    counts["word-filter" if reading.subtype == "word-filter" else reading.type] += 1
    counts["layer"] = sum(slip.siglum == siglum for slip in writers[0].apparatus.slips)
    moved = sum(t.siglum == siglum for writer in writers for t in writer.apparatus.transpositions)
    counts["regrouped"] = moved if moved >= REGROUPING else 0
    return counts


def unrecorded(writers: list[EditionWriter], siglum: str, parent: etree._Element) -> None:
    """`note type="unrecorded"` for each kind of what no entry says of the witness, @n the places."""
    for kind, places in unrecorded_counts(writers, siglum).items():
        if places:
            words = f"{places} places: {UNRECORDED_WORDS[kind]}; no readings of the text, no entries."
            el("note", {"type": "unrecorded", "subtype": kind, "n": str(places)}, words, parent=parent)


def list_wit(writer: EditionWriter, sources: SourcesForTei, zhu: CommentaryWriter | None):
    """The witnesses of the apparatus in listWit, then the books of evidence, then those the
    annotations written report (the 儀禮's 今文 and 古文, extant only inside the readings a note
    reports; the editions a 校语 reports, attested only where one reports them); witnesses kept out
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
            el("note", {"type": "script"}, meta.script, parent=witness)
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
            if siglum != writer.base.meta.siglum:
                unrecorded([writer, *([zhu] if zhu is not None else [])], siglum, witness)
        for book in sources.evidence:
            witness = el("witness", {XML_ID: book.xml_id, "n": book.siglum}, parent=list_wit_element)
            witness_description(book, witness, sources.config.script)
            el("note", {"type": "status"}, book.status, parent=witness)
        for kind in writer.written_kinds():  # the witnesses annotations report (今文/古文, editions a 校语 reports)
            kind.witnesses(writer, sources, list_wit_element)
        if len(excluded):
            parent.append(excluded)

    return build
