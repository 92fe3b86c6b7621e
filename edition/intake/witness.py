"""Witnesses: their metadata stanzas, and each witness as intake reads it: raw text, layers, comparison stream."""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache, cached_property
from pathlib import Path

from ..errors import EditionError
from ..tables import TomlLines, read_toml
from .alignment_rule import Reference, References
from .layering import Segment
from .normalize import TEXT_LAYERS, Normalizer, Stream
from .profile import Profile, layered
from .raw import RawText, read_raw
from .rule import TRANSMITTED, Rule

SCRIPTS = ("simplified", "traditional", "mixed")


@dataclass(frozen=True)
class WitnessMeta:
    siglum: str
    file: str
    title: str
    script: str
    profile: str
    encoding: str = "utf-8"
    author: str = ""
    name: str = ""  # the short name the apparatus uses (禮書綱目); the siglum where there is none
    edition: str = ""  # the edition the witness reproduces, for the conspectus
    extent: str = ""
    remarks: str = ""
    abridged: tuple[str, ...] = ()  # layers it quotes in part (an excerpt): what it leaves out of them is no omission
    rules: tuple[dict, ...] = ()

    @property
    def xml_id(self) -> str:
        return f"w{self.siglum}"

    @property
    def writes_simplified(self) -> bool:
        """Simplified or mixed script: a 于 of its may stand for 於."""
        return self.script != "traditional"


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


@dataclass
class Witness:
    """A witness as collation sees it: its `classic` is the layer compared, the classic text (with
    the 傳 where the witness has one, in reading order), or in a layer view (`layer_view`)
    another layer, which collation then collates unchanged."""

    meta: WitnessMeta
    raw: RawText
    segments: list[Segment]
    stream: Stream  # the comparison stream of every text layer
    layer: str = "classic"  # the layer compared
    # The stretches its rules of kind alignment left as its layout put them (raw spans): where it is
    # no reference for another witness.
    undecided: tuple[tuple[int, int], ...] = ()

    @property
    def compared(self) -> tuple[str, ...]:
        """The layers compared: the classic text and the 傳, or the layer of a layer view."""
        return TRANSMITTED if self.layer == "classic" else (self.layer,)

    @cached_property
    def classic(self) -> Stream:
        """The comparison stream of the layers compared."""
        return self.stream.only(self.compared)

    def layer_view(self, layer: str) -> Witness:
        """The witness with `layer` compared in place of its classic text; raw text, segments and
        stream are shared."""
        return Witness(self.meta, self.raw, self.segments, self.stream, layer, self.undecided)

    @property
    def abridged(self) -> bool:
        """The witness quotes the layer compared in part."""
        return self.layer in self.meta.abridged

    @cached_property
    def _by_layer(self) -> dict[str, list[Segment]]:
        by_layer: dict[str, list[Segment]] = {}
        for segment in self.segments:
            by_layer.setdefault(segment.layer, []).append(segment)
        return by_layer

    def segments_of(self, layer: str) -> list[Segment]:
        return self._by_layer.get(layer, [])

    @cached_property
    def compared_segments(self) -> list[Segment]:
        """The segments of the layers compared, in reading order."""
        return sorted((s for layer in self.compared for s in self.segments_of(layer)), key=lambda s: s.start)

    @cached_property
    def lacunae(self) -> list[Segment]:
        """The transcriber's remarks that mark a lacuna of unknown extent (`# page missing`)."""
        return [s for s in self.segments_of("remark") if "gap" in s.attrs]

    @cached_property
    def lacuna_breaks(self) -> tuple[int, ...]:
        """Where the lacunae stand in the classic stream: the number of classic tokens before each."""
        return tuple(bisect_left(self.classic.starts, s.start) for s in self.lacunae)

    @cached_property
    def intrusions(self) -> list[Segment]:
        """The intrusions into the layer compared: those after a segment of it, but for format."""
        out, layer = [], None
        for segment in self.segments:
            if segment.layer == "intrusion" and layer in self.compared:
                out.append(segment)
            elif segment.layer not in ("intrusion", "format"):
                layer = segment.layer
        return out

    @cached_property
    def _segment_ends(self) -> dict[str, list[int]]:
        return {layer: [s.end for s in segments] for layer, segments in self._by_layer.items()}

    @cached_property
    def _compared_ends(self) -> list[int]:
        return [s.end for s in self.compared_segments]

    def classic_between(self, start: int, end: int) -> str:
        """The witness's characters of the layers compared between two raw offsets, with its
        punctuation but without line ends or any other layer."""
        return between(self.raw.text, self.compared_segments, self._compared_ends, start, end)

    def layer_between(self, layer: str, start: int, end: int) -> str:
        """The characters of one layer between two raw offsets, with its punctuation but without
        line ends or any other layer."""
        return between(self.raw.text, self.segments_of(layer), self._segment_ends.get(layer, []), start, end)


def between(text: str, segments: list[Segment], ends: list[int], start: int, end: int) -> str:
    """The characters of `segments` (in order, `ends` their ends) between two raw offsets."""
    i = bisect_right(ends, start)
    out = []
    while i < len(segments) and segments[i].start < end:
        out.append(text[max(segments[i].start, start) : min(segments[i].end, end)])
        i += 1
    return "".join(out)


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
) -> Witness:
    """Read a witness file, split it into layers by its profile and its own repairs, and normalize
    it; `reference`: the classic text of the witnesses read before, for rules of kind `alignment`."""
    raw = read_raw(path, meta.encoding)
    layering = layered(raw, profile, repairs, reference)
    segments = layering.segments()
    return Witness(
        meta=meta,
        raw=raw,
        segments=segments,
        stream=normalizer.stream(raw, segments, TEXT_LAYERS),
        undecided=tuple(layering.undecided),
    )


@dataclass(frozen=True)
class ToRead:
    """A witness to read: its stanza, its file, its profile and its own repairs."""

    meta: WitnessMeta
    path: Path
    profile: Profile
    repairs: tuple[Rule, ...] = ()

    @property
    def turn(self) -> int:
        """When it is read (intake_witnesses): 0 if its layout alone decides its layers, 1 if a rule
        of kind alignment decides by the others what of its text is collated, 2 if its rules of
        that kind only divide its text collated (經 and 傳)."""
        rules = [rule for rule in (*self.repairs, *self.profile.rules) if rule.kind == "alignment"]
        return 0 if not rules else 2 if all(rule.divides for rule in rules) else 1


def intake_witnesses(
    witnesses: list[ToRead],
    normalizer: Normalizer,
    progress: Callable[[str], None] = lambda message: None,
    errors: list[str] | None = None,
) -> list[Witness]:
    """Every witness, read in turns (`ToRead.turn`), in each in the order given: first those whose
    layout alone decides their layers; then those with a rule of kind alignment that decides by
    the others what of their text is collated (classic text out of commentary: it needs the
    others' text, not how it divides); last those whose rules of that kind only divide their text
    collated into 經 and 傳, which needs the others' text settled. Each is read against every other
    witness, never itself: those read before as they were read, those still to be read as their
    layout alone reads them (only once a rule has a stretch to decide; where their rules then
    find none, that reading is their reading). A reference is what it is sure of: where its own
    alignment rules left a stretch as its layout put it, its text is there but not its layers
    (`Reference.of`), so that it never decides another witness's stretch with a guess. With
    `errors`, a witness that cannot be read adds its error there instead of stopping. The
    witnesses read, in the order given."""
    read: dict[str, Witness] = {}
    tried: set[str] = set()
    alone: dict[str, Witness | None] = {}  # a witness still to be read, by its layout alone

    def by_layout(item: ToRead) -> Witness | None:
        siglum = item.meta.siglum
        if siglum not in alone:
            progress(f"intake {siglum} {item.meta.file} (by its layout alone, as a reference)")
            try:
                alone[siglum] = intake_witness(item.meta, item.path, item.profile, item.repairs, normalizer)
            except EditionError:
                alone[siglum] = None  # its error is reported when it is read
        return alone[siglum]

    def references(item: ToRead) -> Callable[[], Reference]:
        @cache
        def made() -> Reference:
            others = []
            for other in (o for o in witnesses if o is not item):
                if other.meta.siglum in read:
                    others.append(read[other.meta.siglum])
                elif other.meta.siglum not in tried and (witness := by_layout(other)) is not None:
                    others.append(witness)
            return Reference.of(others, normalizer)

        return made

    for turn in (0, 1, 2):
        for item in (w for w in witnesses if w.turn == turn):
            progress(f"intake {item.meta.siglum} {item.meta.file}")
            tried.add(item.meta.siglum)
            if (early := alone.get(item.meta.siglum)) is not None and not early.undecided:
                read[item.meta.siglum] = early  # its rules found nothing to decide: read as it would be
                continue
            try:
                reference = references(item) if turn else None
                read[item.meta.siglum] = intake_witness(
                    item.meta, item.path, item.profile, item.repairs, normalizer, reference
                )
            except EditionError as error:
                if errors is None:
                    raise
                errors.append(str(error))
    return [read[w.meta.siglum] for w in witnesses if w.meta.siglum in read]
