"""Variation units: a stretch of the base with every extant witness's reading of it."""

from __future__ import annotations

from dataclasses import dataclass, field

from .reading import Reading


@dataclass
class Unit:
    index: int
    t0: int  # base tokens t0:t1
    t1: int
    lemma: Reading
    readings: list[Reading]
    emended: bool = False
    candidate: bool = False  # the base stands alone against one witness: for the editor to decide
    markers: dict[str, list[str]] = field(default_factory=dict)  # siglum -> witStart, witEnd, lacunaStart, lacunaEnd
    reported: list = field(default_factory=list)  # readings of the 今文/古文 traditions (jinguwen.Reported)
    textual_notes: list = field(default_factory=list)  # the witnesses' 校语 on this place (textual_note.TextualNote)
    decided: object = None  # the editorial decision that chose the lemma
    editor_notes: list = field(default_factory=list)  # editorial decisions of kind "note"

    @property
    def all_readings(self) -> list[Reading]:
        return [self.lemma, *self.readings]

    def reading_of(self, siglum: str) -> Reading | None:
        return next((r for r in self.all_readings if siglum in r.sigla), None)

    @property
    def types(self) -> set[str]:
        return {r.type for r in self.readings if r.type}
