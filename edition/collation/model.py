"""Collation's model: readings, variation units, the apparatus, and the findings of the analyses its
entries hold; and the placements the analyses hand the apparatus (see `analysis`).

Each placement says where it goes and what it brings; the apparatus alone writes it into its
entries (`Apparatus.receive`).
"""

from __future__ import annotations

from bisect import bisect_right
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from ..intake.model import Alignment, Supplied, Token, Witness, WitnessMeta
from .lineage import Agreement
from .reading import UNMAPPED, classify
from .relations import Relations
from .witness_map import WitnessMap

COLLATION = "對校"  # the basis of an emendation on the witnesses' readings
REASONING = "理校"  # the basis of an emendation on the sense of the words (a graphic family's member)
INTERNAL_BASIS = "本校"  # on the book itself: the same words emended alike elsewhere
OPENING_MARKERS = ("witStart", "lacunaEnd")  # where a witness's text begins again; the others, where it stops


# --- readings, variation units and the apparatus


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
    forms: tuple[str, ...] = ()  # each token as the witness writes it
    simplified: bool = False  # its witness writes simplified script
    # Of a moved clause where it is read: (first, end, unit) of each difference from the base's clause, by token.
    inner: list = field(default_factory=list)
    owner: str = ""  # the siglum of the witness whose tokens these are; "" for the editor's own reading
    # The readings of other witnesses that read the same here but write it in other characters.
    alike: list[Reading] = field(default_factory=list)

    def __post_init__(self):
        self.source = self.source or self.display

    @classmethod
    def of(cls, witness: Witness, tokens: list[Token], **fields) -> Reading:
        display, norm = reading_text(witness, tokens)
        forms = tuple(t.source(witness.raw) for t in tokens)
        return cls(
            [witness.meta.siglum],
            tokens,
            display,
            norm,
            forms=forms,
            simplified=witness.meta.writes_simplified,
            owner=witness.meta.siglum,
            **fields,
        )

    def same_text(self, sigla: list[str]) -> Reading:
        """A reading of these witnesses with this one's text, untyped."""
        return Reading(
            sigla,
            self.tokens,
            self.display,
            self.norm,
            source=self.source,
            forms=self.forms,
            simplified=self.simplified,
            owner=self.owner,
        )


def gaps_of(t0: int, t1: int) -> range:
    """The base gaps a unit over tokens t0:t1 reads additions at: those inside it; at t0 == t1, that gap."""
    return range(t0, t0 + 1) if t0 == t1 else range(t0 + 1, t1)


def reading_text(witness: Witness, tokens: list[Token]) -> tuple[str, str]:
    display = "".join(t.source(witness.raw) for t in tokens)
    norm = "".join(t.char if len(t.char) == 1 else UNMAPPED for t in tokens)
    return display, norm


class Annotation:
    """What an analysis leaves on an entry beyond its readings (a 校语 on its place, an edition a
    校语 reports reading there…): kept through merges of entries, and written by its own class.
    The TEI writer asks each kind, once before writing (`prepare`: ids it will point at), then
    entry by entry for what to add there (`encode`: a `publication.tei.apparatus.Encoded`), and
    last for what it adds to the edition's witnesses and principles. `NAME` is its analysis's."""

    NAME = ""

    @classmethod
    def prepare(cls, writer) -> None:
        """Before any entry is written."""

    @classmethod
    def encode(cls, writer, unit: Unit, annotations: list) -> object:
        raise NotImplementedError(f"{cls.__name__} does not say how it is written")

    def joined(self, other: Annotation) -> Annotation | None:
        """The one annotation this and `other`, of its kind on the same entry, make where they are
        one finding (a reading two notes report); None where they are two."""
        return None

    def noted_by(self, siglum: str, words: str) -> bool:
        """Whether the note `words` of witness `siglum` says it (an editor's decision moves it by them)."""
        return False

    def moved(self, apparatus: Apparatus, unit: Unit, t0: int, t1: int) -> Annotation:
        """This annotation where an editor moves it: to base tokens t0:t1, in `unit`."""
        raise NotImplementedError(f"{type(self).__name__} cannot be moved")

    @classmethod
    def witnesses(cls, writer, sources, parent) -> None:
        """What the kind adds to the edition's listWit."""

    @classmethod
    def principles(cls, writer) -> dict[str, list[str]]:
        """The words the 凡例 takes from the kind, by the name of its slot."""
        return {}


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
    # What analyses leave on the entry beyond its readings, each carrying its own path to print (`Annotation`).
    annotations: list[Annotation] = field(default_factory=list)
    decided: Decision | None = None  # the editorial decision that chose the lemma
    editor_notes: list[Decision] = field(default_factory=list)  # editorial decisions of kind "note"
    # Reading (comparison text) -> the commentary's quotations that attest it.
    evidence: dict[str, list[Quotation]] = field(default_factory=dict)
    basis: str = ""  # of an emendation: 對校, 本校, 他校 or 理校
    same_as: Unit | None = None  # the emendation elsewhere whose error, in the same words, this one corrects
    lost_leaf: Supplied | None = None  # the base's lost leaf whose supplied text this unit holds
    # The lemma is the member of a graphic family (己已巳) that the base's words call for, another than
    # the base's (`apparatus.graphic_sense`): emended on the sense (basis 理校), said in an entry.
    graphic: bool = False
    gaps: range = range(0)  # the base gaps whose additions it reads: inside it, and at an edge it was merged over

    @property
    def all_readings(self) -> list[Reading]:
        return [self.lemma, *self.readings]

    def reading_of(self, siglum: str) -> Reading | None:
        return next((r for r in self.all_readings if siglum in r.sigla), None)

    @property
    def types(self) -> set[str]:
        return {r.type for r in self.readings if r.type}

    def take_lemma(self, chosen: Reading, relations: Relations | None = None) -> None:
        """Make `chosen` (one of the readings, or the editor's own) the lemma; the former lemma
        becomes a reading, and every reading is typed against the new one (by `relations`, the
        tables of graphic families, usages, taboo characters and word filters)."""
        former = self.lemma
        if chosen in self.readings:
            self.readings.remove(chosen)
        chosen.type = chosen.subtype = None
        if former.sigla or former.norm:
            self.readings.append(former)
        self.lemma = chosen
        for reading in self.readings:
            reading.type, reading.subtype = classify(reading, chosen, relations)


@dataclass
class Transposition:
    """A clause that witness `siglum` reads at base gap `at` (its tokens w0:w1), which the base
    reads at b0:b1; `away` and `arrival` are its units at the two places."""

    id: int
    siglum: str
    b0: int
    b1: int
    at: int
    w0: int
    w1: int
    display: str
    differences: int  # characters in which the moved block differs from the base's text
    ops: tuple = ()  # the witness's text of it aligned with the base's (intake.model.Op)
    away: Unit | None = None
    arrival: Unit | None = None

    def reading_at(self, unit: Unit) -> Reading:
        return next(r for r in unit.readings if self.id in r.moves)


@dataclass
class VariantForm:
    """A pair of the 异体字表: the base's form, a witness's form, where each witness writes it."""

    text: str
    form: str
    counts: dict[str, int]
    sources: tuple[str, ...]


@dataclass
class WitnessStatus:
    siglum: str
    quality: float
    included: bool
    reason: str
    extant: list[tuple[int, int]]
    alignment: Alignment | None = None


@dataclass
class Aligned:
    """A layer of the witnesses aligned with the base's: each witness's status, the maps of those
    included, and the base's lost leaves ((t0, t1, the leaf, whether the span is an entry of this
    layer), `apparatus.lost_spans`)."""

    base: Witness
    statuses: dict[str, WitnessStatus]
    maps: dict[str, WitnessMap]
    lost: list[tuple[int, int, Supplied, bool]]

    @property
    def included(self) -> dict[str, Witness]:
        """The witnesses included, base first."""
        return {self.base.meta.siglum: self.base, **{s: m.witness for s, m in self.maps.items()}}

    @property
    def metas(self) -> dict[str, WitnessMeta]:
        return {s: w.meta for s, w in self.included.items()}


@dataclass
class Apparatus:
    base: Witness
    witnesses: dict[str, Witness]  # included, base first
    statuses: dict[str, WitnessStatus]
    units: list[Unit]  # in base order; those inside a moved clause's place are nested in its unit there
    transpositions: list[Transposition]
    maps: dict[str, WitnessMap]
    section_cuts: list[int]
    section_titles: dict[int, tuple[str, str]]
    make_unit: Callable[[int, int, range], Unit]
    variant_forms: list[VariantForm]
    own_forms: dict[str, dict[int, tuple[str, str]]]  # siglum -> base token -> (characters, "script" or "orthographic")
    moved: list[Unit] = field(default_factory=list)  # the units of the transpositions, at both ends
    # The base's lost leaves: a unit over the text supplied for each, holding the units inside it.
    leaves: list[Unit] = field(default_factory=list)
    family: dict[str, str] = field(default_factory=dict)  # siglum -> its family (`lineage`)
    agreements: list[Agreement] = field(default_factory=list)  # every pair of witnesses against the base
    punctuation: dict[int, str] = field(default_factory=dict)  # base gap -> editorial punctuation there
    # Base gap -> the witness its punctuation is carried from, "" the model of 句讀.
    punctuation_by: dict[int, str] = field(default_factory=dict)
    punctuation_decided: dict[int, Decision] = field(default_factory=dict)  # base gap -> the editor's mark there
    relations: Relations | None = None  # the tables readings are typed by (see `reading.classify`)
    # Base token -> siglum -> where the witness starts or stops there (witStart, lacunaEnd, lacunaStart,
    # witEnd): what each unit made over the token holds.
    markers: dict[int, dict[str, list[str]]] = field(default_factory=dict)
    kinds: list[type[Annotation]] = field(default_factory=list)  # of the annotations received, in that order
    slips: list = field(default_factory=list)  # a witness's layer slips taken out (`layer_slips.Slip`), of the 經's

    def entries(self) -> list[Unit]:
        """The units that stand in the text, in its order. At one gap: the clauses moved there
        (in the witness's order), then additions; a moved clause's place comes before the units
        nested in it, and a lost leaf before a moved clause's place over the same tokens (the
        leaf holds it)."""
        arrivals = {id(t.arrival): t.w0 for t in self.transpositions}
        places = self.places

        def key(u: Unit):
            if id(u) in arrivals:
                return (u.t0, 0, arrivals[id(u)])
            return (u.t0, 1 if u.t0 == u.t1 else 2 if id(u) in places else 3, -u.t1)

        return sorted(self.leaves + self.units + self.moved, key=key)

    @property
    def holders(self) -> list[Unit]:
        """The units that hold those inside them: a moved clause's place, a lost leaf."""
        return [t.away for t in self.transpositions] + self.leaves

    @property
    def places(self) -> set[int]:
        """The ids of the units that hold those inside them: a moved clause's place, a lost leaf."""
        return {id(u) for u in self.holders}

    def all_units(self) -> list[Unit]:
        """Every unit in the order of the document, those inside a moved reading after its unit."""
        return [v for u in self.entries() for v in (u, *(inner for r in u.readings for _, _, inner in r.inner))]

    def number(self) -> None:
        for index, unit in enumerate(self.all_units()):
            unit.index = index

    def overlapping(self, t0: int, t1: int) -> list[Unit]:
        """The units (not those of moved clauses) that share base tokens t0:t1 or a gap inside them
        (at t0 == t1, the gap t0 itself)."""
        gaps = gaps_of(t0, t1)
        return [
            u for u in self.units if u.t0 < t1 and t0 < u.t1 or any(g in gaps for g in u.gaps or gaps_of(u.t0, u.t1))
        ]

    def unit_over(self, t0: int, t1: int) -> Unit:
        """The unit covering base tokens t0:t1 (at t0 == t1, the gap t0): an existing one (a moved
        clause's place among them), or one made by merging those it overlaps, or a new one, never
        across either end of a moved clause's place (it is cut to the part where it begins). Units
        stay in order and keep their readings, and no witness's addition is read by two units."""
        ends = sorted({g for u in self.holders for g in (u.t0, u.t1)})
        t1 = min([t1, *(g for g in ends if t0 < g < t1)])
        place = next((u for u in self.holders if (u.t0, u.t1) == (t0, t1) and t0 < t1), None)
        if place is not None:  # a moved clause's place, a lost leaf, is its own unit
            return place
        overlapping = self.overlapping(t0, t1)
        wanted = set(gaps_of(t0, t1))
        within = [u for u in overlapping if u.t0 <= t0 and t1 <= u.t1 and wanted <= set(u.gaps or gaps_of(u.t0, u.t1))]
        if len(overlapping) == 1 and within:
            return overlapping[0]
        gaps = [g for u in overlapping for g in (u.gaps or gaps_of(u.t0, u.t1))]
        if overlapping:
            t0, t1 = min(t0, *(u.t0 for u in overlapping)), max(t1, *(u.t1 for u in overlapping))
        inside = gaps_of(t0, t1)
        unit = self.make_unit(
            t0, t1, range(min([*inside, *gaps]), max([*inside, *gaps]) + 1) if inside or gaps else inside
        )
        for old in overlapping:
            unit.annotations += old.annotations
            self.units.remove(old)
        self.units.append(unit)
        self.units.sort(key=lambda u: (u.t0, u.t1))
        self.number()
        return unit

    def markers_beside(self, t0: int, t1: int) -> None:
        """Where a witness starts or stops at base tokens t0:t1, which no entry holds (a heading),
        it starts at the token after them and stops at the token before, in the entry there."""
        moved: dict[int, dict[str, list[str]]] = {}
        for token in range(t0, t1):
            for siglum, names in self.markers.pop(token, {}).items():
                for name in names:
                    side = t1 if name in OPENING_MARKERS else t0 - 1
                    if 0 <= side < len(self.base.classic.tokens):
                        moved.setdefault(side, {}).setdefault(siglum, []).append(name)
        for side, by_witness in moved.items():
            opening = side == t1
            here = self.markers.setdefault(side, {})
            for siglum, names in by_witness.items():
                here[siglum] = [*names, *here.get(siglum, [])] if opening else [*here.get(siglum, []), *names]
            unit = self.unit_over(side, side + 1)  # a unit made now holds them already
            for siglum, names in by_witness.items():
                held = unit.markers.get(siglum, [])
                if not set(names) <= set(held):
                    unit.markers[siglum] = [*names, *held] if opening else [*held, *names]

    def with_reading(self, unit: Unit, t0: int, t1: int, reading: str) -> str:
        """The unit's base text with base tokens t0:t1 read as `reading`."""
        tokens, raw = self.base.classic.tokens, self.base.raw
        return (
            "".join(t.source(raw) for t in tokens[unit.t0 : t0])
            + reading
            + "".join(t.source(raw) for t in tokens[t1 : unit.t1])
        )

    def receive(self, placement: Placement) -> Unit | None:
        """Write what an analysis found into the entries (see `analysis`); the entry that took it."""
        match placement:
            case Punctuated(marks, by):
                self.punctuation, self.punctuation_by = dict(marks), dict(by)
            case HeadingApart(division):
                self.units = [
                    u for u in self.units if not (division.t0 <= u.t0 and u.t1 <= division.t1 and u.t0 < u.t1)
                ]
                self.markers_beside(division.t0, division.t1)
                for gap in range(division.t0 + 1, division.t1 + 1):
                    mark, by = self.punctuation.pop(gap, ""), self.punctuation_by.pop(gap, "")
                    if mark and division.t0 not in self.punctuation:
                        self.punctuation[division.t0], self.punctuation_by[division.t0] = mark, by
            case MovedAnnotation(holder, annotation, t0, t1):
                holder.annotations.remove(annotation)
                unit = self.unit_over(t0, t1)
                unit.annotations.append(annotation.moved(self, unit, t0, t1))
                return unit
            case Annotated(unit, annotation):
                for i, held in enumerate(unit.annotations):  # the same finding again: one annotation
                    joined = held.joined(annotation) if type(held) is type(annotation) else None
                    if joined is not None:
                        unit.annotations[i] = joined
                        break
                else:
                    unit.annotations.append(annotation)
                if type(annotation) not in self.kinds:
                    self.kinds.append(type(annotation))
                return unit
            case EntryOver(t0, t1):
                return self.unit_over(t0, t1)
            case PunctuationRuling(gap, decision):
                if decision.mark:
                    self.punctuation[gap] = decision.mark
                else:
                    self.punctuation.pop(gap, None)
                self.punctuation_by.pop(gap, None)
                self.punctuation_decided[gap] = decision
                return None
            case Ruling(unit, chosen, decision, basis):
                if chosen is not None:
                    unit.take_lemma(chosen, self.relations)
                unit.decided, unit.basis = decision, basis
                unit.emended = unit.candidate = unit.graphic = False
                return unit
            case ErrorRuling(reading, unit, decision):
                reading.error = decision
                return unit
            case EditorNote(unit, decision):
                unit.editor_notes.append(decision)
                return unit
            case HeldBack(unit):
                base = unit.reading_of(self.base.meta.siglum)
                if unit.emended and unit.decided is None and base is not None and base is not unit.lemma:
                    unit.take_lemma(base, self.relations)
                    unit.emended, unit.graphic, unit.candidate, unit.basis = False, False, True, ""
                return unit
            case SameError(repeat, reading):
                unit, origin = repeat.unit, repeat.origin
                unit.take_lemma(reading, self.relations)
                unit.emended, unit.decided, unit.graphic = origin.emended, origin.decided, False
                unit.basis, unit.same_as, unit.candidate = INTERNAL_BASIS, origin, False
                return unit
        return None


@dataclass(frozen=True)
class Gloss:
    """A note of the base's 注: its tokens t0:t1 in the base's 注 stream, standing after the 經
    passage it comments on, base classic tokens c0:c1 (at classic gap c1)."""

    index: int
    t0: int
    t1: int
    c0: int
    c1: int


@dataclass
class Commentary:
    apparatus: Apparatus  # of the 注 views: its base tokens are the base's 注
    glosses: list[Gloss]

    @cached_property
    def _starts(self) -> list[int]:
        return [g.t0 for g in self.glosses]

    def gloss_of(self, unit: Unit) -> Gloss:
        """The gloss of the unit's first token; of the token before, for an addition."""
        token = unit.t0 if unit.t1 > unit.t0 else max(unit.t0 - 1, 0)
        return self.glosses[bisect_right(self._starts, token) - 1]

    def counts(self) -> dict[str, Counter]:
        """Siglum -> reading type (subtype for substantive readings) -> readings, over every unit."""
        out: dict[str, Counter] = {siglum: Counter() for siglum in self.apparatus.witnesses}
        for unit in self.apparatus.all_units():
            for reading in unit.readings:
                for siglum in reading.sigla:
                    out[siglum][reading.subtype if reading.type == "substantive" else reading.type] += 1
        return out


# --- the editors' decisions, and what the passes hold in the entries


@dataclass
class Decision:
    number: int
    line: int
    kind: str
    fields: dict

    def __getattr__(self, name):
        try:
            return self.fields[name]
        except KeyError:
            raise AttributeError(name) from None


@dataclass
class Decisions:
    path: Path
    editors: dict[str, str]
    items: list[Decision] = field(default_factory=list)

    def witnesses(self, include: bool) -> tuple[str, ...]:
        return tuple(d.witness for d in self.items if d.kind == "witness" and d.include == include)


@dataclass(frozen=True)
class Quotation:
    """Words of the classic text a witness's commentary quotes: raw offsets start:end, `near` the
    base gap where the commentary stands, the base text from `near - before` to `near + after`
    the stretch it may quote."""

    siglum: str
    layer: str
    rule: str
    text: str  # its characters as the witness writes them
    norm: str  # the comparison text
    start: int
    end: int
    line: int
    near: int
    before: int
    after: int


@dataclass
class Repeat:
    """Another place `t0:t1` of the base with the words of emendation `origin`."""

    origin: Unit
    t0: int
    t1: int
    unit: Unit | None  # its entry, if it is one
    applied: bool
    why: str = ""  # why it was not emended alike


@dataclass(frozen=True)
class Division:
    """A division of the text that a heading word of the base opens where a passage of its classic
    text begins with it; the heading is base tokens t0:t1, which no section holds."""

    head: str
    t0: int
    t1: int


@dataclass
class Section:
    xml_id: str
    title: str
    source: str  # the siglum whose label or step names it, or "incipit"
    t0: int
    t1: int
    opens: Division | None = None  # the division whose heading stands before it
    kind: str = "incipit"  # what titles it: a witness's "label", a "step" of the 疏, or its first words
    units: tuple[int, ...] = ()  # where its citation units begin after the first; none: by its sentences


@dataclass(frozen=True)
class Step:
    title: str  # in the source's own characters
    t0: int  # base tokens t0:t1
    t1: int
    source: str  # the siglum whose formula names it
    line: int  # the formula's line in the source's file
    agreeing: tuple[str, ...] = ()  # other witnesses whose formula opens the same step at the same place


@dataclass(frozen=True)
class Unplaced:
    source: str
    line: int
    title: str
    last: str  # the words it runs to, in the source's characters
    reason: str


# --- placements


@dataclass(frozen=True)
class Punctuated:
    """The base's punctuation, by the base gap each mark goes to, and who gives each: the siglum of
    the witness it is carried from, "" for the model of 句讀."""

    marks: dict[int, str]
    by: dict[int, str]


@dataclass(frozen=True)
class HeadingApart:
    """A heading that is no text of the collation: no entry inside it, and punctuation carried to
    its end stands before it."""

    division: Division


@dataclass(frozen=True)
class MovedAnnotation:
    """An annotation an editor moves from the entry that holds it to base tokens t0:t1."""

    holder: Unit
    annotation: Annotation
    t0: int
    t1: int


@dataclass(frozen=True)
class Annotated:
    """An annotation of an analysis, on `unit`."""

    unit: Unit
    annotation: Annotation


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
class PunctuationRuling:
    """An editor's mark at base gap `gap` (its `mark`; none where it is empty), over whatever stood there."""

    gap: int
    decision: Decision


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


@dataclass(frozen=True)
class HeldBack:
    """An automatic emendation held back: an edition beyond the witnesses reads the base's words
    there (a 校语 reports it); the base's reading stands, a candidate for the editor."""

    unit: Unit


Placement = (
    Punctuated
    | HeadingApart
    | MovedAnnotation
    | Annotated
    | EntryOver
    | Ruling
    | ErrorRuling
    | EditorNote
    | SameError
    | HeldBack
)
