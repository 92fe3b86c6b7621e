"""Readings: what a witness reads in a variation unit, and how a reading is typed against the lemma."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..intake.normalize import Token
from ..intake.witness import Witness

UNMAPPED = "\ufffc"


@dataclass
class Reading:
    sigla: list[str]
    tokens: list[Token]  # of the first witness; the others read the same characters
    display: str  # as printed: the witness's own characters (the base's with its punctuation)
    norm: str  # the comparison text
    type: str | None = None  # None for the lemma
    subtype: str | None = None
    moves: list[int] = field(default_factory=list)  # transpositions this reading takes part in
    moved_away: bool = False
    intrusion: bool = False
    xml_id: str = ""
    source: str = ""  # the witness's own characters without punctuation: what readings are compared by
    error: object = None  # the editorial decision that calls this reading an error of its witness

    def __post_init__(self):
        self.source = self.source or self.display


def reading_text(witness: Witness, tokens: list[Token]) -> tuple[str, str]:
    display = "".join(t.source(witness.raw) for t in tokens)
    norm = "".join(t.char if len(t.char) == 1 else UNMAPPED for t in tokens)
    return display, norm


def wildcard_equal(reading: str, lemma: str) -> bool:
    return len(reading) == len(lemma) and all(r == l or r in "▯" + UNMAPPED for r, l in zip(reading, lemma))


def classify(reading: Reading, lemma: Reading) -> tuple[str, str | None]:
    if reading.intrusion:
        return "intrusion", None
    if reading.moves or reading.moved_away:
        return "transposition", None
    r, l = reading.norm, lemma.norm
    if r == l:
        special = any(t.kind == "gaiji" for t in reading.tokens + lemma.tokens)
        return ("gaiji" if special else "orthographic"), None
    if "▯" in r and (wildcard_equal(r, l) or set(r) == {"▯"}):
        return "lacuna", None
    if UNMAPPED in r and wildcard_equal(r, l):
        return "gaiji", None
    if len(r) >= 2 and sorted(r) == sorted(l):
        return "transposition", None
    if "▯" in r:
        return "lacuna", None
    if not r:
        return "substantive", "omission"
    if not l:
        return "substantive", "addition"
    return "substantive", "substitution"


def merge_same(readings: list[Reading]) -> list[Reading]:
    """Witnesses with the same display and type share one reading."""
    out: list[Reading] = []
    for reading in readings:
        same = next(
            (r for r in out if r.source == reading.source and r.norm == reading.norm and r.type == reading.type and r.moves == reading.moves and r.moved_away == reading.moved_away),
            None,
        )
        if same:
            same.sigla += reading.sigla
        else:
            out.append(reading)
    return out
