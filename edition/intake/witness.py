"""Witnesses: their metadata stanzas, and each witness as intake reads it: raw text, layers, comparison stream."""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from ..errors import EditionError
from ..tables import TomlLines, read_toml
from .alignment_rule import Reference
from .layering import Segment
from .normalize import TEXT_LAYERS, Normalizer, Stream
from .profile import Profile, split_layers
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
        return Witness(self.meta, self.raw, self.segments, self.stream, layer)

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
    reference: Reference | None = None,
) -> Witness:
    """Read a witness file, split it into layers by its profile and its own repairs, and normalize
    it; `reference`: the classic text of the witnesses read before, for rules of kind `alignment`."""
    raw = read_raw(path, meta.encoding)
    segments = split_layers(raw, profile, repairs, reference)
    return Witness(
        meta=meta,
        raw=raw,
        segments=segments,
        stream=normalizer.stream(raw, segments, TEXT_LAYERS),
    )
