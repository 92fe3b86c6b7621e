"""Variation units: a stretch of the base with every extant witness's reading of it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .reading import Reading, classify

if TYPE_CHECKING:  # the findings of the analyses that the unit holds
    from .decisions import Decision
    from .evidence import Quotation
    from .model import Reported
    from .textual_note import TextualNote


@dataclass
class Unit:
    index: int
    t0: int  # base tokens t0:t1
    t1: int
    lemma: Reading
    readings: list[Reading]
    emended: bool = False
    # The rule of automatic emendation does not apply, but the base may be wrong: for the editor to decide.
    candidate: bool = False
    markers: dict[str, list[str]] = field(default_factory=dict)  # siglum -> witStart, witEnd, lacunaStart, lacunaEnd
    reported: list[Reported] = field(default_factory=list)  # readings of the 今文/古文 traditions
    textual_notes: list[TextualNote] = field(default_factory=list)  # the witnesses' 校语 on this place
    decided: Decision | None = None  # the editorial decision that chose the lemma
    editor_notes: list[Decision] = field(default_factory=list)  # editorial decisions of kind "note"
    # Reading (comparison text) -> the commentary's quotations that attest it.
    evidence: dict[str, list[Quotation]] = field(default_factory=dict)
    basis: str = ""  # of an emendation: 對校, 本校, 他校 or 理校
    same_as: Unit | None = None  # the emendation elsewhere whose error, in the same words, this one corrects

    @property
    def all_readings(self) -> list[Reading]:
        return [self.lemma, *self.readings]

    def reading_of(self, siglum: str) -> Reading | None:
        return next((r for r in self.all_readings if siglum in r.sigla), None)

    @property
    def types(self) -> set[str]:
        return {r.type for r in self.readings if r.type}

    def take_lemma(self, chosen: Reading) -> None:
        """Make `chosen` (one of the readings, or the editor's own) the lemma; the former lemma
        becomes a reading, and every reading is typed against the new one."""
        former = self.lemma
        if chosen in self.readings:
            self.readings.remove(chosen)
        chosen.type = chosen.subtype = None
        if former.sigla or former.norm:
            self.readings.append(former)
        self.lemma = chosen
        for reading in self.readings:
            reading.type, reading.subtype = classify(reading, chosen)
