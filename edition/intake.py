"""Intake: each witness read, split into layers and normalized, with what was found in it."""

from __future__ import annotations

from dataclasses import dataclass

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

    @property
    def classic(self) -> Stream:
        return self.stream.only(("classic",))

    def segments_of(self, layer: str) -> list[Segment]:
        return [s for s in self.segments if s.layer == layer]


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
