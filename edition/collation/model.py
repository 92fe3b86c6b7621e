"""Collation's model: what the analyses hand the apparatus to receive (`Apparatus.receive`).

Each placement says where it goes and what it brings; the apparatus alone writes it into its
entries. See `analysis` for the pipeline that yields them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .decisions import Decision
    from .headings import Division
    from .jinguwen import Note
    from .reading import Reading
    from .same_error import Repeat
    from .textual_note import TextualNote
    from .variation_unit import Unit


# --- what the analyses find, held in the entries


@dataclass
class Reported:
    """One tradition's reading in one app, with the notes that report it."""

    tradition: str
    kind: str
    reading: str  # over the whole app
    notes: list[Note]
    confidence: str
    core: str = ""  # the tradition's own characters at the anchor
    span: tuple[int, int] = (0, 0)  # the base tokens the tradition's characters stand for
    core_norm: str = ""  # `core` as compared: the same reading in another script or form is this one


# --- placements


@dataclass(frozen=True)
class CarriedPunctuation:
    """A punctuated witness's marks, by the base gap each goes to."""

    marks: dict[int, str]
    source: str  # the witness's siglum


@dataclass(frozen=True)
class HeadingApart:
    """A heading that is no text of the collation: no entry inside it, and punctuation carried to
    its end stands before it."""

    division: Division


@dataclass(frozen=True)
class TraditionReading:
    """A 今文/古文 reading of `core` for base tokens t0:t1, reported by `note`: it goes into the
    entry over them, with the reading of the same tradition there that is the same (compared as
    `core_norm`) if there is one."""

    t0: int
    t1: int
    tradition: str
    kind: str  # what the reading does to the base: substitution, omission, addition, transposition
    core: str
    core_norm: str
    note: Note
    confidence: str


@dataclass(frozen=True)
class MovedTraditionReading:
    """A 今文/古文 reading an editor moves from the entry that holds it to base tokens t0:t1."""

    holder: Unit
    reported: Reported
    t0: int
    t1: int


@dataclass(frozen=True)
class TextualNoteOnPlace:
    """A 校语 on its characters: with the first entry it shares characters with, or one of its own."""

    note: TextualNote


@dataclass(frozen=True)
class EntryOver:
    """An entry over base tokens t0:t1, made where there is none: the apparatus answers with it."""

    t0: int
    t1: int


@dataclass(frozen=True)
class Ruling:
    """An editor's decision on an entry's lemma: `chosen` becomes the lemma (None: the lemma
    stands, settled), on `basis` ("" where the base's reading is the lemma)."""

    unit: Unit
    chosen: Reading | None
    decision: Decision
    basis: str


@dataclass(frozen=True)
class ErrorRuling:
    """An editor's decision that a witness's reading is an error of that witness."""

    reading: Reading
    unit: Unit
    decision: Decision


@dataclass(frozen=True)
class EditorNote:
    """An editor's note on an entry."""

    unit: Unit
    decision: Decision


@dataclass(frozen=True)
class SameError:
    """Another place of an emendation's words, emended alike with `reading` (see `same_error`)."""

    repeat: Repeat
    reading: Reading


Placement = (
    CarriedPunctuation
    | HeadingApart
    | TraditionReading
    | MovedTraditionReading
    | TextualNoteOnPlace
    | EntryOver
    | Ruling
    | ErrorRuling
    | EditorNote
    | SameError
)
