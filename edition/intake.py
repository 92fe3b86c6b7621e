"""Intake: each witness read, split into layers and normalized, with what was found in it."""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass
from functools import cached_property

from .layers import Segment, split_layers
from .normalize import TEXT_LAYERS, Normalizer, Stream
from .sources import Sources
from .witness import RawText, WitnessMeta, read_raw


@dataclass
class Witness:
    meta: WitnessMeta
    raw: RawText
    segments: list[Segment]
    stream: Stream  # the comparison stream of every text layer

    @cached_property
    def classic(self) -> Stream:
        return self.stream.only(("classic",))

    @cached_property
    def _by_layer(self) -> dict[str, list[Segment]]:
        by_layer: dict[str, list[Segment]] = {}
        for segment in self.segments:
            by_layer.setdefault(segment.layer, []).append(segment)
        return by_layer

    def segments_of(self, layer: str) -> list[Segment]:
        return self._by_layer.get(layer, [])

    @cached_property
    def _classic_ends(self) -> list[int]:
        return [s.end for s in self.segments_of("classic")]

    def classic_between(self, start: int, end: int) -> str:
        """The witness's classic characters between two raw offsets, with its punctuation but
        without line ends or any other layer."""
        segments = self.segments_of("classic")
        i = bisect_right(self._classic_ends, start)
        out = []
        while i < len(segments) and segments[i].start < end:
            out.append(self.raw.text[max(segments[i].start, start) : min(segments[i].end, end)])
            i += 1
        return "".join(out)


def normalizer_for(sources: Sources) -> Normalizer:
    return Normalizer(sources.config.comparison_script, sources.variants, sources.gaiji)


def intake_witness(sources: Sources, meta: WitnessMeta, normalizer: Normalizer) -> Witness:
    raw = read_raw(sources.path(meta), meta.encoding)
    segments = split_layers(raw, sources.profiles[meta.profile], sources.witness_rules[meta.siglum])
    return Witness(
        meta=meta,
        raw=raw,
        segments=segments,
        stream=normalizer.stream(raw, segments, TEXT_LAYERS),
    )


def intake(sources: Sources) -> list[Witness]:
    normalizer = normalizer_for(sources)
    return [intake_witness(sources, meta, normalizer) for meta in sources.witnesses]
