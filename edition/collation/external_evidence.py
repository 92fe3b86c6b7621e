"""Evidence apart from the witnesses: books that quote or judge the 經 and 注 without being witnesses
of them, each a source of its own for an emendation (`lineage`).

- `subcommentary-quotations`: the 單疏本 of 賈公彥's 疏, printed without the 經 and 注, whose
  lemmata 「X至Y」 and 云X者 quote them (`subcommentary_quotations`);
- `collation-notes`: 張淳's 儀禮識誤, a Song 校勘記 whose entries say what a character should
  be (`collation_notes`).

Each is read, its chapter placed on the base (with its lost leaves supplied, as collation reads
it), and asked place by place which reading of a variation unit it attests: the 單疏本 the
reading with which the base over the quotation reads the quoted words; the 識誤 the reading its
heading gives for the characters it is about. What it attests is a quotation of the model, as
the witnesses' commentary's are (`evidence`): kept on the entry and written in the TEI as
`witDetail type="evidence"`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..intake.model import EvidenceMeta, Witness
from ..intake.normalize import Normalizer
from . import collation_notes, subcommentary_quotations
from .model import Quotation
from .quotation_order import BaseLayers, BaseSpan, attested

SUBCOMMENTARY = "subcommentary-quotations"
COLLATION_NOTES = "collation-notes"
KINDS = (SUBCOMMENTARY, COLLATION_NOTES)


@dataclass(frozen=True)
class Placed:
    """What a source says at base tokens t0:t1 of a layer: the words it reads there (compared),
    and the quotation that says it."""

    layer: str
    t0: int
    t1: int
    words: str
    quotation: Quotation


@dataclass(frozen=True)
class Commented:
    """A passage of the base's 經 that a comment of the 單疏本 explains (its lemma placed at base
    tokens t0:t1), with the comment's first words (釋曰…, for the formulas that name a step)."""

    source: str
    line: int
    opening: str
    t0: int
    t1: int


@dataclass
class ExternalEvidence:
    """The sources' placed quotations, asked which readings they attest at a place; and the
    passages of the 經 the 疏's comments explain."""

    placed: list[Placed]
    base: BaseLayers
    reports: dict[str, dict]  # by siglum: what was placed and what not (the reader's report)
    passages: list[Commented] = field(default_factory=list)  # in base order

    def of(self, layer: str, t0: int, t1: int, readings: set[str]) -> dict[str, list[Quotation]]:
        """Reading (comparison text) -> the sources' quotations that attest it at base tokens t0:t1
        of the layer (the 經 is `classic`, the 注 `commentary`)."""
        out: dict[str, list[Quotation]] = {}
        if len(readings) < 2:
            return out
        text = self.base.texts[layer]
        for p in self.placed:
            if p.layer == layer:
                for reading in attested(p.words, BaseSpan(layer, p.t0, p.t1, 1.0), text, t0, t1, readings):
                    out.setdefault(reading, []).append(p.quotation)
        return out


def chapters_found(source: EvidenceMeta, normalizer: Normalizer, chapters: list) -> set[int]:
    """The numbers of the work's `chapters` that the book's reader, by its kind, finds in its folder:
    none where the folder holds a book of another kind."""
    reader = subcommentary_quotations if source.kind == SUBCOMMENTARY else collation_notes
    return set(reader.read_edition(source.folder, normalizer, chapters, encoding=source.encoding).chapters)


def read(sources: tuple[EvidenceMeta, ...], chapters: list, number: int, base: Witness, normalizer: Normalizer):
    """Every source's quotations of chapter `number` (of the work's `chapters`), placed on `base`."""
    layers = BaseLayers.of(base)
    placed: list[Placed] = []
    reports: dict[str, dict] = {}
    passages: list[Commented] = []
    for source in sources:
        if source.kind == SUBCOMMENTARY:
            edition = subcommentary_quotations.read_edition(
                source.folder, normalizer, chapters, encoding=source.encoding
            )
            chapter = edition.chapters.get(number)
            if chapter is None:
                reports[source.siglum] = {"chapter": number, "placed": [], "unplaced": [], "lost": True}
                continue
            placement = subcommentary_quotations.place(chapter, layers)
            placed += [shu_quote(source, p) for p in placement.placed]
            passages += commented(source, chapter, placement)
            reports[source.siglum] = subcommentary_quotations.report(placement)
        else:
            edition = collation_notes.read_edition(source.folder, normalizer, chapters, encoding=source.encoding)
            chapter = edition.chapters.get(number)
            if chapter is None:
                reports[source.siglum] = {"chapter": number, "placed": [], "unplaced": []}
                continue
            placement = collation_notes.place(chapter, layers)
            placed += [note_reading(source, p, layers) for p in placement.placed]
            reports[source.siglum] = collation_notes.report(placement)
    return ExternalEvidence(placed, layers, reports, sorted(passages, key=lambda p: (p.t0, p.t1)))


def commented(source: EvidenceMeta, chapter, placement) -> list[Commented]:
    """The passages of the 經 whose lemma in the 單疏本 was placed, each with its comment's first words."""
    comments = {c.index: c for c in chapter.comments}
    out: dict[int, Commented] = {}
    for p in placement.placed:
        q = p.quote
        if q.layer == subcommentary_quotations.CLASSIC and q.role != subcommentary_quotations.PHRASE:
            comment = comments[q.comment]
            out.setdefault(q.comment, Commented(source.siglum, comment.line, comment.opening, *p.passage))
    return list(out.values())


def shu_quote(source: EvidenceMeta, p) -> Placed:
    q = p.quote
    quotation = Quotation(
        source.siglum, "subcommentary", f"shu-{q.role}", q.text, q.norm, q.start, q.end, q.line, p.span.t0, 0, 0
    )
    return Placed(p.span.layer, p.span.t0, p.span.t1, q.norm, quotation)


def note_reading(source: EvidenceMeta, p, layers: BaseLayers) -> Placed:
    """A 識誤 entry as what it reads over the words it quotes: the heading in its target's stead
    (nothing there, for an omission)."""
    t0, t1 = p.target
    entry, span = p.entry, p.span
    base = layers.texts[span.layer]
    heading = entry.heading_norm if p.kind != "omission" else ""
    words = base[span.t0 : t0] + heading + base[t1 : span.t1]
    said = f"{entry.heading}：{entry.judgement or p.quote.text[p.quoted :]}"  # his words, run on from a quotation
    quotation = Quotation(
        source.siglum, "collation-notes", p.kind, said, heading, entry.start, entry.end, entry.line, t0, 0, 0
    )
    return Placed(span.layer, span.t0, span.t1, words, quotation)
