"""A witness's layer slips: where its layout put words of the 經 among its 注, or of the 注 among its
經 (the 四庫's 注 runs on into the 經 with no mark where a note ends in the text), collation finds
the same words twice, as a pair of false readings of that witness: the 經 lacks them, and the 注
next to the place adds them (四庫本無X / 注: …下有X), or the reverse. The pair is one error of the
witness's layers, not two readings: both are taken out, and the witness reads the words where
they stand in the base; where its words differ from the base's in a few characters (須臾焉 for
須焉), that difference is its reading, over those characters alone. Each slip is kept on the
apparatus of the 經 (`Apparatus.slips`): the conspectus counts them, the collation report lists them.
"""

from __future__ import annotations

from dataclasses import dataclass

from rapidfuzz.distance import Indel

from ..text import common_ends
from .model import Apparatus, Commentary, Reading, Unit
from .reading import classify

SHORTEST = 4  # characters of the words a slip moves, at least: fewer are as likely a reading
SIMILAR = 0.85  # how alike the words the two layers lack and add must be (Indel similarity)
NEAR = 2  # notes of the 注 on either side of the 經's place that the words may have slipped into


@dataclass(frozen=True)
class Slip:
    siglum: str
    into: str  # the layer the words went into: commentary (the 經's words read as 注) or classic
    words: str  # the base's words, as compared
    theirs: str  # the witness's, as compared
    classic_unit: Unit
    note_units: tuple[Unit, ...]  # one note's, or those of notes in a row the words fell into
    added: tuple[Reading, ...]  # the witness's readings that add the words, in the layer they went into


def lone(unit: Unit, subtype: str) -> list[Reading]:
    """The unit's readings of one witness alone that lack (omission) or add (addition) words."""
    return [
        r
        for r in unit.readings
        if r.type == "substantive" and r.subtype == subtype and len(r.sigla) == 1 and not r.moves
    ]


def words_of(apparatus: Apparatus, unit: Unit, reading: Reading) -> str:
    """What the reading lacks (the base's words over the unit) or adds (its own), as compared."""
    return apparatus.base.classic.text[unit.t0 : unit.t1] if reading.subtype == "omission" else reading.norm


def find(apparatus: Apparatus, commentary: Commentary) -> list[Slip]:
    """Every reading of the 經 paired with readings of the 注 about its place (in the notes `NEAR`
    on either side, up to `NEAR` in a row), of one witness, the one lacking what the others add or
    the reverse, the words alike."""
    glosses = commentary.glosses
    notes = [(commentary.gloss_of(u).index, u) for u in commentary.apparatus.units]
    found: list[Slip] = []
    taken: set[int] = set()
    for unit in apparatus.units:
        here = next((g.index for g in glosses if g.c1 >= unit.t1), len(glosses))
        for subtype, other in (("omission", "addition"), ("addition", "omission")):
            for reading in lone(unit, subtype):
                siglum, words = reading.sigla[0], words_of(apparatus, unit, reading)
                if len(words) < SHORTEST:
                    continue
                near = [
                    (u, r)
                    for index, u in notes
                    if abs(index - here) <= NEAR and id(u) not in taken
                    for r in lone(u, other)
                    if r.sigla == [siglum]
                ]
                pair = next(
                    (
                        (near[i : j + 1], theirs)
                        for i in range(len(near))
                        for j in range(i, min(len(near), i + NEAR + 1))
                        if Indel.normalized_similarity(
                            words, theirs := "".join(words_of(commentary.apparatus, u, r) for u, r in near[i : j + 1])
                        )
                        >= SIMILAR
                    ),
                    None,
                )
                if pair is None:
                    continue
                run, theirs = pair
                taken |= {id(u) for u, _ in run}
                note_units = tuple(u for u, _ in run)
                if subtype == "omission":  # the 經's words among its 注
                    added = tuple(r for _, r in run)
                    found.append(Slip(siglum, "commentary", words, theirs, unit, note_units, added))
                else:  # the 注's words among its 經
                    found.append(Slip(siglum, "classic", theirs, words, unit, note_units, (reading,)))
    return found


def mend(apparatus: Apparatus, commentary: Commentary) -> list[Slip]:
    """Take each slip's readings out: the witness reads the lemma in the layer that holds its
    words; where they differ from the base's inside them, the one unit of the layer that lacked
    them holds that difference alone, as the witness writes it (one at their edge is where the
    layers were cut: the word 疏 before a 疏 that opens there)."""
    slips = find(apparatus, commentary)
    for slip in slips:
        into_commentary = slip.into == "commentary"
        lacking = (slip.classic_unit,) if into_commentary else slip.note_units
        adding = slip.note_units if into_commentary else (slip.classic_unit,)
        owner = apparatus if into_commentary else commentary.apparatus
        for unit in adding:
            reads_lemma(unit, slip.siglum)
        narrowed = difference(owner, lacking[0], slip) if len(lacking) == 1 and len(lacking[0].readings) == 1 else None
        if narrowed is None:
            for unit in lacking:
                reads_lemma(unit, slip.siglum)
        else:
            owner.units[owner.units.index(lacking[0])] = narrowed
    emptied = {
        id(u) for slip in slips for u in (slip.classic_unit, *slip.note_units) if not u.readings and not u.markers
    }
    for owner in (apparatus, commentary.apparatus):
        owner.units = [u for u in owner.units if id(u) not in emptied]
        owner.number()
    apparatus.slips = slips
    return slips


def reads_lemma(unit: Unit, siglum: str) -> None:
    unit.readings = [r for r in unit.readings if r.sigla != [siglum]]
    unit.lemma.sigla.append(siglum)


def difference(owner: Apparatus, unit: Unit, slip: Slip) -> Unit | None:
    """The unit over the characters where the witness's words differ from the base's inside
    them, their common start and end trimmed, its reading those of its words; None where they
    differ at an edge only, or not at all."""
    tokens = [t for r in slip.added for t in r.tokens]
    start, end = common_ends(slip.words, slip.theirs)
    if not start or not end or len(tokens) != len(slip.theirs):
        return None
    t0, t1 = unit.t0 + start, unit.t1 - end
    narrowed = owner.make_unit(t0, t1, range(t0 + 1, t1) if t1 > t0 else range(t0, t0 + 1))
    reading = Reading.of(owner.witnesses[slip.siglum], tokens[start : len(tokens) - end])
    reading.type, reading.subtype = classify(reading, narrowed.lemma, owner.relations)
    narrowed.readings = [r for r in narrowed.readings if slip.siglum not in r.sigla] + [reading]
    narrowed.lemma.sigla = [s for s in narrowed.lemma.sigla if s != slip.siglum]
    return narrowed
