"""Witnesses: their metadata stanzas, and each witness file read into what intake makes of it: raw
text, layers, comparison stream (a `model.Witness`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path

from ..errors import EditionError
from ..tables import TomlLines, read_toml
from .align import align
from .alignment_rule import Reference, References
from .model import JoinedText, Segment, Witness, WitnessMeta
from .normalize import TEXT_LAYERS, Normalizer
from .profile import Profile, layered
from .raw import read_raw
from .rule import READS_OTHERS, Rule

SCRIPTS = ("simplified", "traditional", "mixed")


def load_witness_metadata(path: Path) -> tuple[list[WitnessMeta], TomlLines]:
    """Read `witnesses.toml`: one [[witness]] stanza per witness, validated against the schema."""
    doc, lines = read_toml(path, "witnesses.toml")
    witnesses: list[WitnessMeta] = []
    seen: dict[str, int] = {}
    for number, stanza in enumerate(doc["witness"], 1):
        siglum = stanza["siglum"]
        if siglum in seen:
            raise EditionError(
                path,
                f"duplicate siglum {siglum!r} (also in stanza {seen[siglum]})",
                lines.line(("witness", number - 1)),
            )
        seen[siglum] = number
        fields = {k: v for k, v in stanza.items() if k not in ("rule", "abridged")}
        witnesses.append(
            WitnessMeta(**fields, abridged=tuple(stanza.get("abridged", ())), rules=tuple(stanza.get("rule", ())))
        )
    return witnesses, lines


def elements(segments: list[Segment]) -> list[list[Segment]]:
    """The segments as the transcription's elements hold them: a small-column break inside a note
    (`break = "column"`) and the rest of the note after it belong to the note's element."""
    out: list[list[Segment]] = []
    for segment in segments:
        note = out[-1] if out and out[-1][0].layer in TEXT_LAYERS and out[-1][0].layer != "classic" else None
        goes_on = note and note[-1].attrs.get("break") == "column" and segment.layer == note[0].layer
        if note and (segment.attrs.get("break") == "column" or goes_on):
            note.append(segment)
        else:
            out.append([segment])
    return out


def intake_witness(
    meta: WitnessMeta,
    path: Path,
    profile: Profile,
    repairs: tuple[Rule, ...],
    normalizer: Normalizer,
    reference: References = None,
    more: tuple[tuple[Path, Profile], ...] = (),
) -> Witness:
    """Read a witness file, split it into layers by its profile and its own repairs, and normalize
    it; `reference`: the classic text of the witnesses read before, for rules of kind `alignment`;
    `more`: the further files of a witness of several (the 卷 of one chapter), each with its
    profile, each laid out on its own and read after the first as one text (`JoinedText`)."""
    raws, segments, undecided = [], [], []
    for file, its_profile in ((path, profile), *more):
        raw = read_raw(file, meta.encoding)
        layering = layered(raw, its_profile, repairs, reference)
        shift = sum(len(r.text) for r in raws)
        segments += [replace(s, start=s.start + shift, end=s.end + shift) for s in layering.segments()]
        undecided += [(a + shift, b + shift) for a, b in layering.undecided]
        raws.append(raw)
    raw = JoinedText.of(raws) if more else raws[0]
    return Witness(
        meta=meta,
        raw=raw,
        segments=segments,
        stream=normalizer.stream(raw, segments, TEXT_LAYERS),
        undecided=tuple(undecided),
    )


@dataclass(frozen=True)
class ToRead:
    """A witness to read: its stanza, its file, its profile and its own repairs."""

    meta: WitnessMeta
    path: Path
    profile: Profile
    repairs: tuple[Rule, ...] = ()
    more: tuple[tuple[Path, Profile], ...] = ()  # its further files, each with its profile

    @property
    def turn(self) -> int:
        """When it is read (intake_witnesses): 0 if its layout alone decides its layers, 1 if a rule
        that reads the others (of kind alignment or attestation) decides by them what of its text is
        collated, 2 if its rules of those kinds only divide its text collated (經 and 傳)."""
        profiles = (self.profile, *(profile for _, profile in self.more))
        rules = [rule for rule in (*self.repairs, *(r for p in profiles for r in p.rules)) if rule.kind in READS_OTHERS]
        return 0 if not rules else 2 if all(rule.divides for rule in rules) else 1

    @property
    def compilation(self) -> bool:
        """Its layers are told by what the others attest (a compiler's book): it is no reference
        for them, lest two such books attest each other's compiler's words."""
        return any(rule.kind == "attestation" for rule in (*self.repairs, *self.profile.rules))


def intake_witnesses(
    witnesses: list[ToRead],
    normalizer: Normalizer,
    progress: Callable[[str], None] = lambda message: None,
    errors: list[str] | None = None,
    elsewhere: Callable[[], str] = str,
    base: str = "",
    min_quality: float = 0.0,
) -> list[Witness]:
    """Every witness, read in turns (`ToRead.turn`), in each in the order given: first those whose
    layout alone decides their layers; then those with a rule that reads the others (of kind
    alignment or attestation) and decides by them what of their text is collated (classic text
    out of commentary: it needs the others' text, not how it divides); last those whose rules of
    those kinds only divide their text collated into 經 and 傳, which needs the others' text
    settled. Each is read against every other witness but itself and the compilations
    (`ToRead.compilation`): those read before as they were read, those still to be read as their
    layout alone reads them (only once a rule has a stretch to decide; where their rules then
    find none, that reading is their reading). A reference is what it is sure of: where its own
    alignment rules left a stretch as its layout put it, its text is there but not its layers
    (`Reference.of`), so that it never decides another witness's stretch with a guess. With
    `errors`, a witness that cannot be read adds its error there instead of stopping. A
    compilation's references hold the base's text of the work's other chapters too (`elsewhere`,
    see Reference). A witness whose classic text aligns with the `base`'s less than `min_quality`
    is no reference: one the collation leaves out decides nothing of another. The witnesses read,
    in the order given."""
    turns = Turns(witnesses, normalizer, progress, elsewhere, base, min_quality)
    for turn in (0, 1, 2):
        for item in (w for w in witnesses if w.turn == turn):
            try:
                turns.take(item, turn)
            except EditionError as error:
                if errors is None:
                    raise
                errors.append(str(error))
    return [turns.read[w.meta.siglum] for w in witnesses if w.meta.siglum in turns.read]


class Turns:
    """The witnesses of an edition as `intake_witnesses` reads them: those read, those tried, and
    those still to be read as their layout alone reads them, for the others' references."""

    def __init__(
        self,
        witnesses: list[ToRead],
        normalizer: Normalizer,
        progress: Callable[[str], None],
        elsewhere: Callable[[], str],
        base: str,
        min_quality: float,
    ):
        self.witnesses, self.normalizer, self.progress = witnesses, normalizer, progress
        self.elsewhere, self.base, self.min_quality = elsewhere, base, min_quality
        self.read: dict[str, Witness] = {}
        self.tried: set[str] = set()
        self.alone: dict[str, Witness | None] = {}  # a witness still to be read, by its layout alone
        self.qualities: dict[int, float] = {}

    def by_layout(self, item: ToRead) -> Witness | None:
        siglum = item.meta.siglum
        if siglum not in self.alone:
            self.progress(f"intake {siglum} {item.meta.file} (by its layout alone, as a reference)")
            try:
                self.alone[siglum] = intake_witness(
                    item.meta, item.path, item.profile, item.repairs, self.normalizer, more=item.more
                )
            except EditionError:
                self.alone[siglum] = None  # its error is reported when it is read
        return self.alone[siglum]

    def trusted(self, witness: Witness) -> bool:
        """The base, or a witness that aligns with the base's classic text as the collation keeps
        one (the base as read, else by its layout alone)."""
        item = next((w for w in self.witnesses if w.meta.siglum == self.base), None)
        anchor = self.read.get(self.base) or (self.by_layout(item) if item is not None else None)
        if anchor is None or witness.meta.siglum == self.base:
            return True
        if id(witness) not in self.qualities:
            base_text, text = anchor.classic.text, witness.classic.text
            # a share of its characters aligned once each with the base's is at most their ratio
            within = self.min_quality * len(text) <= len(base_text)
            self.qualities[id(witness)] = align(base_text, text).quality if within else 0.0
        return self.qualities[id(witness)] >= self.min_quality

    def references(self, item: ToRead) -> Callable[[], Reference]:
        @cache
        def made() -> Reference:
            others = []
            for other in (o for o in self.witnesses if o is not item and not o.compilation):
                if other.meta.siglum in self.read:
                    others.append(self.read[other.meta.siglum])
                elif other.meta.siglum not in self.tried and (witness := self.by_layout(other)) is not None:
                    others.append(witness)
            others = [other for other in others if self.trusted(other)]
            return Reference.of(others, self.normalizer, self.elsewhere() if item.compilation else "")

        return made

    def take(self, item: ToRead, turn: int) -> None:
        """Read a witness in its turn (after the first, against the others)."""
        self.progress(f"intake {item.meta.siglum} {item.meta.file}")
        self.tried.add(item.meta.siglum)
        if (early := self.alone.get(item.meta.siglum)) is not None and not early.undecided:
            self.read[item.meta.siglum] = early  # its rules found nothing to decide: read as it would be
            return
        reference = self.references(item) if turn else None
        self.read[item.meta.siglum] = replace(
            intake_witness(item.meta, item.path, item.profile, item.repairs, self.normalizer, reference, item.more),
            compilation=item.compilation,
        )
