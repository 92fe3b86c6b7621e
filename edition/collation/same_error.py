"""The same error in the same words, treated the same everywhere.

Where the base is emended (automatically or by a decision) in a few characters, its words there,
with `NEIGHBOURS` characters on either side, are looked for elsewhere in the base. At each other
place where a witness reads the emendation, and no quotation of the commentary reads the base's
words, the base is emended alike: the same lemma, on the basis 本校 (the book itself), by whoever
emended the first place. Every other place is listed with the reason it was not.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import regex

from .analysis import Context, Placements
from .model import Apparatus, Reading, Repeat, SameError, Unit

NAME = "same_error"
PHASE = "rulings"
AFTER = ("decisions",)

NEIGHBOURS = 1  # characters on either side that must be the same too: the same words, not the same character anywhere
LONGEST = 4  # characters of the base's words, and of the emendation, at most: a slip that recurs, not a lost passage


def emendations(apparatus: Apparatus) -> list[Unit]:
    base = apparatus.base.meta.siglum
    return [u for u in apparatus.units if u.emended or u.decided is not None and u.basis and base not in u.lemma.sigla]


@dataclass
class SameErrorFindings:
    places: list[tuple[Unit, int, int]]  # each emendation, with another place t0:t1 of its words
    repeats: list[Repeat] = field(default_factory=list)  # what became of each place, as placed


def find(apparatus: Apparatus, context: Context) -> SameErrorFindings:
    text = apparatus.base.classic.text
    places = []
    for origin in emendations(apparatus):
        wrong, right = text[origin.t0 : origin.t1], origin.lemma.norm
        if not (0 < len(wrong) <= LONGEST and 0 < len(right) <= LONGEST) or origin.t0 < NEIGHBOURS:
            continue
        words = text[origin.t0 - NEIGHBOURS : origin.t1 + NEIGHBOURS]
        for match in regex.finditer(regex.escape(words), text, overlapped=True):
            t0 = match.start() + NEIGHBOURS
            if t0 != origin.t0:
                places.append((origin, t0, t0 + len(wrong)))
    return SameErrorFindings(places)


def place(apparatus: Apparatus, found: SameErrorFindings) -> Placements:
    """Each other place emended alike where it can be, in order: a place emended so already by an
    earlier one is left as it is."""
    for origin, t0, t1 in found.places:
        unit, reading, why = alike(apparatus, origin, t0, t1)
        found.repeats.append(Repeat(origin, t0, t1, unit, reading is not None, why))
        if reading is not None:
            yield SameError(found.repeats[-1], reading)


def report(apparatus: Apparatus, found: SameErrorFindings, context: Context) -> None:
    return None  # the collation report lists the places (`publication.report`)


def alike(apparatus: Apparatus, origin: Unit, t0: int, t1: int) -> tuple[Unit | None, Reading | None, str]:
    """The entry at t0:t1, if it is one, and the reading there that emends it as `origin` is
    emended; or why it cannot be."""
    unit = next((u for u in apparatus.units if (u.t0, u.t1) == (t0, t1)), None)
    right = origin.lemma.norm
    if unit is not None and unit.lemma.norm == right:
        return unit, None, "emended so already"
    if unit is not None and (unit.decided is not None or unit.emended):
        return unit, None, "decided otherwise here" if unit.decided else "emended otherwise here"
    reading = next((r for r in unit.readings if r.norm == right and not r.moves), None) if unit else None
    if reading is None:
        return unit, None, f"no witness reads {origin.lemma.display} here"
    if unit.evidence.get(unit.lemma.norm):
        return unit, None, "the commentary quotes the base's words here"
    return unit, reading, ""
