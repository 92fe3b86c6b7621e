"""Editorial decisions (`sources/decisions.toml`): an editor's choices that survive rebuilds.

A decision is anchored by the text it concerns, never by offsets or generated ids: `context` is
the base text around the place with the characters of the variation unit in [brackets]
(punctuation and script do not matter), optionally narrowed by `section`. After every collation
each decision is looked up again; one whose context is gone, ambiguous, or no longer a variation
unit of the right kind is reported as stale with the reason and applied nowhere.

A decision is on the 經 unless it says `layer = "注"`: then its context is in the base's 注, and
it rules an entry of the 注's apparatus (kinds lemma, reject-emendation, error and note).

Kinds: `lemma` (make `reading` the lemma: an emendation, on the `basis` of 對校 (a witness reads
it; the default), 本校 (the book itself elsewhere), 他校 (another text, cited as `source`) or 理校
(reasoning); a reading no witness reads only on a basis other than 對校; the reading that is the
lemma already settles a candidate without emending), `reject-emendation` (restore the base where
the automatic emendation chose another reading), `error` (`witness`'s reading here is an error of
that witness), `note` (an editor's note on the entry), `punctuation` (the `mark` at the empty
brackets, over the one carried or proposed there; an empty mark takes it away), `anchor` (move what the note
`words` of `witness` reports, an annotation such as a 今文/古文 reading, to this place), and `witness` (force
`witness` in with `include = true` or out with `include = false`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import EditionError
from .analysis import Context, Placements, Report
from .decision_file import layer_of, pattern
from .model import (
    COLLATION,
    Annotation,
    Apparatus,
    Decision,
    Decisions,
    EditorNote,
    EntryOver,
    ErrorRuling,
    MovedAnnotation,
    Placement,
    PunctuationRuling,
    Reading,
    Ruling,
    Unit,
)
from .reading import UNMAPPED

NAME = "decisions"
PHASE = "rulings"
AFTER = ("sections",)


class ContextPlacer:
    """Finds the base tokens a decision's context designates."""

    def __init__(self, apparatus: Apparatus, normalizer, sections):
        self.apparatus = apparatus
        self.normalizer = normalizer
        self.text = "".join(map(self.settled, apparatus.base.classic.text))
        self.sections = {self.norm(s.title): s for s in sections}  # a title in either script

    def settled(self, char: str) -> str:
        """The character folded until it folds no further: a fold of a fold (勑 to 𠡠, 𠡠 to 敕)
        compares as one, whether the editor writes the one or the other."""
        for _ in range(4):
            folded = char if char == UNMAPPED else self.normalizer.fold(char)[0]
            if folded == char:
                break
            char = folded
        return char

    def norm(self, text: str) -> str:
        """As compared, without punctuation, spaces and symbols (but a character the base's
        transcription could not encode, which stands for one), each character settled."""
        return "".join(map(self.settled, self.normalizer.compared(text)))

    def place(self, decision: Decision) -> tuple[int, int] | str:
        before, rest = decision.context.split("[", 1)
        inside, after = rest.split("]", 1)
        before, inside, after = self.norm(before), self.norm(inside), self.norm(after)
        start, end = 0, len(self.text)
        if "section" in decision.fields:
            section = self.sections.get(self.norm(decision.section))
            if section is None:
                return f"section {decision.section!r} no longer exists"
            start, end = section.t0, section.t1
        hits = [m.start() for m in pattern(before + inside + after).finditer(self.text[start:end], overlapped=True)]
        if not hits:
            return f"context {decision.context!r} is no longer in the base text"
        if len(hits) > 1:
            return f"context {decision.context!r} occurs {len(hits)} times; give more context or a section"
        t0 = start + hits[0] + len(before)
        return t0, t0 + len(inside)


def unit_at(apparatus: Apparatus, t0: int, t1: int) -> Unit | None:
    return next((u for u in apparatus.units if u.t0 == t0 and u.t1 == t1), None)


@dataclass(frozen=True)
class Outcome:
    """What became of a decision: where it was applied (an entry, or the witness it includes or
    excludes), or why it is stale."""

    applied_to: Unit | str | None = None
    stale: str = ""


@dataclass
class DecisionFindings:
    decisions: Decisions
    norm: Callable[[str], str]  # a reading as compared
    places: list[tuple[Decision, tuple[int, int]]]  # the base tokens of each decision on the text
    outcomes: dict[int, Outcome] = field(default_factory=dict)  # by the decision's number, as placed

    def outcome(self, decision: Decision) -> Outcome:
        """What became of the decision; one on a layer that was not collated is stale."""
        missing = Outcome(stale=f"the base has no {decision.fields.get('layer')} collated here")
        return self.outcomes.get(decision.number, missing)

    def stale(self) -> list[tuple[Decision, str]]:
        return [(d, self.outcome(d).stale) for d in self.decisions.items if self.outcome(d).stale]

    def merge(self, other: DecisionFindings) -> None:
        """Take the outcomes of the decisions placed on the other layer's apparatus."""
        self.places += other.places
        self.outcomes |= other.outcomes


def find(apparatus: Apparatus, context: Context) -> DecisionFindings:
    """Where each decision's context is in the base text now; a decision whose context is gone
    is stale already."""
    decisions = context.decisions
    placer = ContextPlacer(apparatus, context.normalizer, context.found["sections"])
    found = DecisionFindings(decisions, placer.norm, [])
    placed: list[tuple[Decision, int, int]] = []
    for decision in decisions.items:
        if layer_of(decision) != apparatus.base.layer:
            continue
        if decision.kind == "witness":
            status = apparatus.statuses.get(decision.witness)
            if status is None:
                found.outcomes[decision.number] = Outcome(stale=f"no witness {decision.witness}")
            elif status.included != decision.include:  # forced in, it aligns nowhere
                found.outcomes[decision.number] = Outcome(stale=f"witness {decision.witness}: {status.reason}")
            else:
                found.outcomes[decision.number] = Outcome(decision.witness)
            continue
        place = placer.place(decision)
        if isinstance(place, str):
            found.outcomes[decision.number] = Outcome(stale=place)
            continue
        if decision.kind != "punctuation":  # a mark rules no entry: it stands beside any other decision
            refuse_overlap(decisions.path, decision, *place, placed)
            refuse_disagreement(decisions.path, decision, *place, placed, placer.norm)
            placed.append((decision, *place))
        found.places.append((decision, place))
    return found


def place(apparatus: Apparatus, found: DecisionFindings) -> Placements:
    """Every decision that still finds its entry, ruled there; the others stale, with the reason."""
    base_siglum = apparatus.base.meta.siglum
    for decision, (t0, t1) in found.places:
        if decision.kind == "anchor":
            held = held_annotation(apparatus, decision)
            if held is None:
                stale = f"no note {decision.words!r} of witness {decision.witness} reports a reading"
                found.outcomes[decision.number] = Outcome(stale=stale)
            else:
                found.outcomes[decision.number] = Outcome((yield MovedAnnotation(*held, t0, t1)))
            continue
        if decision.kind == "punctuation":
            if t0 != t1:
                stale = "a mark stands between two characters: bracket none (X[]Y)"
                found.outcomes[decision.number] = Outcome(stale=stale)
            else:
                yield PunctuationRuling(t0, decision)
                found.outcomes[decision.number] = Outcome(f"the mark after base character {t0}")
            continue
        if decision.kind == "note" and t0 == t1 and not apparatus.overlapping(t0, t1):
            stale = "no entry stands at the empty brackets: bracket the characters the note is on"
            found.outcomes[decision.number] = Outcome(stale=stale)
            continue
        if conjectural(decision) and any(on_leaf(leaf, t0, t1) for leaf in apparatus.leaves):
            stale = "the base lost the leaf these characters are on (its text supplied): no emendation of one's own"
            found.outcomes[decision.number] = Outcome(stale=stale)
            continue
        # a note, or an emendation not on the witnesses, may stand where they agree: it makes an entry of its own
        if decision.kind == "note" or conjectural(decision):
            unit = yield EntryOver(t0, t1)
        else:
            unit = unit_at(apparatus, t0, t1)
        if unit is None:
            found.outcomes[decision.number] = Outcome(
                stale="the bracketed characters are no longer one entry of the apparatus"
            )
            continue
        ruling = RULE[decision.kind](unit, decision, base_siglum, found.norm)
        if isinstance(ruling, str):
            found.outcomes[decision.number] = Outcome(stale=ruling)
        else:
            found.outcomes[decision.number] = Outcome((yield ruling))


def on_leaf(leaf: Unit, t0: int, t1: int) -> bool:
    """Base tokens t0:t1 (gap t0 if none) touch the text supplied for a lost leaf."""
    return max(t0, leaf.t0) < min(t1, leaf.t1) or leaf.t0 < t0 == t1 < leaf.t1


def report(apparatus: Apparatus, found: DecisionFindings, context: Context) -> Report:
    summary = summarize(found)
    lines = tuple(f"  stale decision {d.number} (decisions.toml:{d.line}): {stale}" for d, stale in found.stale())
    return Report("decisions", summary, markdown(summary), lines)


def refuse_overlap(path: Path, decision: Decision, t0: int, t1: int, placed: list[tuple[Decision, int, int]]) -> None:
    """Two decisions whose places overlap without being the same place cannot both apply: the
    entry one makes would cut across the other's."""
    for other, o0, o1 in placed:
        shares = t0 < o1 and o0 < t1 or o0 < t0 < o1 or t0 < o0 < t1
        if shares and (t0, t1) != (o0, o1):
            raise EditionError(
                path,
                f"decision {decision.number} ({decision.kind}, {decision.context!r}) overlaps decision {other.number} "
                f"({other.kind}, {other.context!r}, {path}:{other.line}) in the base text: they cannot both apply",
                decision.line,
            )


def refuse_disagreement(
    path: Path, decision: Decision, t0: int, t1: int, placed: list[tuple[Decision, int, int]], norm
) -> None:
    """Two decisions on the same place that make different lemmata (two readings, or a reading and
    the base's kept against its emendation) cannot both apply: the later would override the other."""

    def lemma_of(d: Decision) -> str | None:
        return norm(d.reading) if d.kind == "lemma" else "" if d.kind == "reject-emendation" else None

    mine = lemma_of(decision)
    for other, o0, o1 in placed:
        theirs = lemma_of(other)
        if (o0, o1) == (t0, t1) and None not in (mine, theirs) and (mine != theirs or decision.kind != other.kind):
            raise EditionError(
                path,
                f"decision {decision.number} ({decision.kind}, {decision.context!r}) and decision {other.number} "
                f"({other.kind}, {path}:{other.line}) rule the same place differently: keep one",
                decision.line,
            )


def basis(decision: Decision) -> str:
    return decision.fields.get("basis", COLLATION)


def conjectural(decision: Decision) -> bool:
    """A lemma decision that need not rest on a witness's reading."""
    return decision.kind == "lemma" and basis(decision) != COLLATION


def choose_lemma(unit: Unit, decision: Decision, base_siglum: str, norm: Callable[[str], str]) -> Placement | str:
    wanted = norm(decision.reading)
    if wanted == norm(unit.lemma.norm):  # the lemma stays: the editor has decided the place
        return Ruling(unit, None, decision, basis(decision) if base_siglum not in unit.lemma.sigla else "")
    chosen = next((r for r in unit.readings if norm(r.norm) == wanted and not r.moves), None)
    if chosen is None and not conjectural(decision):
        return (
            f"no witness reads {decision.reading!r} here any more "
            "(an emendation of the editor's own needs basis 本校, 他校 or 理校)"
        )
    return Ruling(unit, chosen or Reading([], [], decision.reading, wanted), decision, basis(decision))


def reject_emendation(unit: Unit, decision: Decision, base_siglum: str, norm: Callable[[str], str]) -> Placement | str:
    if not unit.emended:
        return "there is no automatic emendation here any more"
    base = next((r for r in unit.readings if base_siglum in r.sigla), None)
    if base is None:
        return "the base's reading is not in this entry"
    return Ruling(unit, base, decision, "")


def mark_error(unit: Unit, decision: Decision, base_siglum: str, norm: Callable[[str], str]) -> Placement | str:
    reading = next((r for r in unit.readings if decision.witness in r.sigla), None)
    if reading is None:
        return f"witness {decision.witness} has no reading of its own here any more"
    return ErrorRuling(reading, unit, decision)


def add_note(unit: Unit, decision: Decision, base_siglum: str, norm: Callable[[str], str]) -> Placement | str:
    return EditorNote(unit, decision)


RULE = {"lemma": choose_lemma, "reject-emendation": reject_emendation, "error": mark_error, "note": add_note}


def held_annotation(apparatus: Apparatus, decision: Decision) -> tuple[Unit, Annotation] | None:
    """The entry that holds what the note `words` of `witness` reports, and that annotation."""
    for unit in apparatus.units:
        for annotation in unit.annotations:
            if annotation.noted_by(decision.witness, decision.words):
                return unit, annotation
    return None


def summarize(found: DecisionFindings) -> dict:
    decisions = found.decisions
    outcomes = {d.number: found.outcome(d) for d in decisions.items}
    return {
        "editors": decisions.editors,
        "decisions": [
            {
                "number": d.number,
                "line": d.line,
                "kind": d.kind,
                **({"basis": basis(d)} if d.kind == "lemma" else {}),
                **d.fields,
                "applied_to": applied_name(d, outcomes[d.number].applied_to),
                "stale": outcomes[d.number].stale,
            }
            for d in decisions.items
        ],
    }


def applied_name(decision: Decision, applied_to: Unit | str | None) -> str:
    """The id of the entry a decision was applied to (of the 注's apparatus: zhu-app-N), or the witness."""
    if isinstance(applied_to, Unit):
        prefix = "zhu-" if layer_of(decision) == "commentary" else ""
        return f"{prefix}app-{applied_to.index + 1}"
    return applied_to or ""


def markdown(summary: dict) -> str:
    lines = ["# Editorial decisions", ""]
    for d in summary["decisions"]:
        where = f"applied to {d['applied_to']}" if d["applied_to"] else f"STALE: {d['stale']}"
        basis = f", {d['basis']}" + (f" from {d['source']}" if "source" in d else "") if "basis" in d else ""
        context = d.get("context", d.get("witness", ""))
        lines.append(
            f"- {d['number']} ({d['kind']}{basis}, decisions.toml line {d['line']}, {d['resp']}): {context} — {where}"
        )
    return "\n".join(lines) + "\n"
