"""Evidence apart from the witnesses: books that quote or judge the 經 and 注 without being witnesses
of them, each a source of its own for an emendation (`lineage`).

A book is read by the reader of its kind, which a tradition provides (`EvidenceReader`; the
儀禮's reads the 單疏本 of 賈公彥's 疏 and 張淳's 儀禮識誤). Each is read, its chapter placed on the
base (with its lost leaves supplied, as collation reads it), and asked place by place which
reading of a variation unit it attests: what the book reads over the base tokens it is placed
on. What it attests is a quotation of the model, as the witnesses' commentary's are
(`evidence`): kept on the entry and written in the TEI as `witDetail type="evidence"`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Protocol

from ..intake.model import EvidenceMeta, Witness
from ..intake.normalize import Normalizer
from .model import Quotation
from .quotation_order import BaseLayers, BaseSpan, attested


@dataclass(frozen=True)
class Placed:
    """What a source says at base tokens t0:t1 of a layer: the words it reads there (compared),
    and the quotation that says it; `about`: the tokens it judges, where it quotes the words about
    them for their place only (a 校勘記's entry), so that it attests nothing elsewhere in them."""

    layer: str
    t0: int
    t1: int
    words: str
    quotation: Quotation
    about: tuple[int, int] | None = None


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
            if p.layer == layer and (p.about is None or t0 <= p.about[1] and p.about[0] <= t1):
                for reading in attested(p.words, BaseSpan(layer, p.t0, p.t1, 1.0), text, t0, t1, readings):
                    out.setdefault(reading, []).append(p.quotation)
        return out


@dataclass
class Read:
    """What a reader found of a book's chapter placed on the base: its quotations, the passages of
    the 經 its comments explain, and its report."""

    placed: list[Placed]
    passages: list[Commented]
    report: dict


class EvidenceReader(Protocol):
    """The reader of one kind of book of evidence."""

    STATUS: str  # what the book is to the edition, in its listWit: where it is attested

    def chapters_found(self, source: EvidenceMeta, normalizer: Normalizer, chapters: list) -> set[int]:
        """The numbers of the work's `chapters` it finds in the book's folder."""

    def evidence(
        self, source: EvidenceMeta, normalizer: Normalizer, chapters: list, number: int, layers: BaseLayers
    ) -> Read:
        """The book's chapter `number` placed on the base's layers."""


def read(
    sources: tuple[EvidenceMeta, ...],
    readers: Mapping[str, EvidenceReader],
    chapters: list,
    number: int,
    base: Witness,
    normalizer: Normalizer,
) -> ExternalEvidence:
    """Every source's quotations of chapter `number` (of the work's `chapters`), placed on `base`,
    each by the reader of its kind."""
    layers = BaseLayers.of(base)
    placed: list[Placed] = []
    reports: dict[str, dict] = {}
    passages: list[Commented] = []
    for source in sources:
        found = readers[source.kind].evidence(source, normalizer, chapters, number, layers)
        placed += found.placed
        passages += found.passages
        reports[source.siglum] = found.report
    return ExternalEvidence(placed, layers, reports, sorted(passages, key=lambda p: (p.t0, p.t1)))
