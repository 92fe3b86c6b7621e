"""Witnesses: their metadata stanzas, and each witness file read into what intake makes of it: raw
text, layers, comparison stream (a `model.Witness`)."""

from __future__ import annotations

from pathlib import Path

from ..errors import EditionError
from ..tables import TomlLines, read_toml
from .alignment_rule import Reference
from .model import Segment, Witness, WitnessMeta
from .normalize import TEXT_LAYERS, Normalizer
from .profile import Profile, split_layers
from .raw import read_raw
from .rule import Rule

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
