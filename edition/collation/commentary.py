"""The 注 collated: Zheng Xuan's commentary of every witness that carries it against the base's, in
an apparatus of its own, each unit tied to the 經 passage it comments on.

Collation runs unchanged on layer views of the witnesses (`Witness.layer_view`), whose compared
text is their 注: moved notes (a witness's own order), lacunae, variant forms and emendations are
treated as in the 經. A witness that quotes the 注 in part (`abridged` in witnesses.toml) is an
excerpt: what it leaves out is where it does not quote, not an omission. A compiler's book, whose
layers are told by what the others attest (楊復's 儀禮圖, the 欽定儀禮義疏), is collated in its 經
alone unless the editor includes it.

The base's 注 falls into glosses: a run of 注 with no 經 between. A gloss stands after the 經
passage it comments on, the 經 since the gloss before; each unit belongs to the gloss of its first
token (an addition at the seam of two glosses goes with the one before, which it continues), and
no unit or moved clause straddles a seam: a witness that moves a 經 passage with its 注 moves
each note of it as a clause of its own.
"""

from __future__ import annotations

from itertools import groupby

from ..intake.model import CODES, Witness
from ..intake.rule import TRANSMITTED
from .apparatus import align_witnesses, apparatus_of
from .external_evidence import ExternalEvidence
from .lineage import Lineage
from .model import Aligned, Commentary, Gloss
from .reading import Orthography

LAYER = "commentary"
COMPILATION = (
    "a compilation: it quotes the 注 by its compiler's choice and in his order, with his words between, "
    "so that what it leaves out or adds is no reading"
)


def glosses(base: Witness) -> list[Gloss]:
    """The base's 注 as glosses, each with the 經 passage before it."""
    out: list[Gloss] = []
    classic = note = passage = 0  # tokens of 經 and of 注 so far; where the next passage begins
    for code, run in groupby(base.stream.only((*TRANSMITTED, LAYER)).codes):
        length = sum(1 for _ in run)
        if code == CODES[LAYER]:
            out.append(Gloss(len(out), note, note + length, passage, classic))
            note, passage = note + length, classic
        else:
            classic += length
    return out


def collate_commentary(
    witnesses: list[Witness],
    base_siglum: str,
    orthography: Orthography,
    min_quality: float,
    include: tuple[str, ...] = (),
    exclude: tuple[str, ...] = (),
    external: ExternalEvidence | None = None,
) -> Commentary | None:
    """The 注 of the witnesses that carry it collated against the base's; None if the base has none."""
    aligned = align_commentary(witnesses, base_siglum, min_quality, include, exclude)
    return aligned and commentary_of(aligned, orthography, external, Lineage.of([aligned.maps], aligned.metas))


def align_commentary(
    witnesses: list[Witness],
    base_siglum: str,
    min_quality: float,
    include: tuple[str, ...] = (),
    exclude: tuple[str, ...] = (),
) -> Aligned | None:
    """The 注 of the witnesses that carry it aligned with the base's; None if the base has none."""
    views = [w.layer_view(LAYER) for w in witnesses if w.segments_of(LAYER)]
    if not any(v.meta.siglum == base_siglum for v in views):
        return None
    quoted = {v.meta.siglum: COMPILATION for v in views if v.compilation}
    return align_witnesses(views, base_siglum, min_quality, include, exclude, quoted)


def commentary_of(
    aligned: Aligned, orthography: Orthography, external: ExternalEvidence | None, lineage: Lineage
) -> Commentary:
    """The apparatus of the aligned 注, no unit straddling the seam of two of the base's glosses."""
    notes = glosses(aligned.base)
    apparatus = apparatus_of(aligned, orthography, tuple(g.t1 for g in notes[:-1]), external, lineage)
    return Commentary(apparatus, notes)
