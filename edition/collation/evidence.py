"""Evidence of the commentary: where a witness's 注 or 疏 quotes the classic text, and which reading
of a variation unit the quotation attests.

The patterns of `data/quotations.toml` find what may be a quotation (a 疏 heading 「X」至「Y」, the
range of a passage 自此至X, a lemma 釋曰X者 or 云X者, the words a 注 opens with). A quotation counts
only where it is the classic text nearby: found once in the base text around the commentary's
place, and over the unit, with one reading of the unit in the base's stead and with no other.
Quotations are compared as the witnesses are, through the normalizer: script and variant forms
do not matter.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING

import regex

from ..intake.model import Witness
from ..intake.normalize import TEXT_LAYERS, UNMAPPED
from ..tables import read_toml
from .model import Quotation
from .own_usage import OwnNote, OwnUsage

if TYPE_CHECKING:
    from .external_evidence import ExternalEvidence

QUOTATIONS = Path(str(resources.files("edition.collation") / "data" / "quotations.toml"))
LOOK_BACK = 40  # classic characters of a witness searched back for one the alignment places in the base


@dataclass(frozen=True)
class QuotationPattern:
    name: str
    layer: str
    pattern: regex.QuotationPattern
    before: int
    after: int


@dataclass(frozen=True)
class Quoting:
    """What `data/quotations.toml` says: the shortest quotation, the least a quotation inside a
    reading needs, the patterns, and how the base's note takes up the words it glosses."""

    shortest: int
    inside: int
    patterns: tuple[QuotationPattern, ...]
    own_note: OwnNote


@cache
def quoting() -> Quoting:
    doc, _ = read_toml(QUOTATIONS, "quotations")  # the schema checks that each pattern compiles and has a group `quote`
    found = (
        QuotationPattern(t["name"], t["layer"], regex.compile(t["pattern"], regex.VERSION0), t["before"], t["after"])
        for t in doc["quotation"]
    )
    note = doc["own_note"]
    return Quoting(doc["shortest"], doc["inside"], tuple(found), OwnNote(note["layer"], note["ending"]))


def passages(witness: Witness, layer: str) -> list[tuple[str, list[int]]]:
    """The layer's text passage by passage, a passage ending where another text layer (or a
    translation) begins; each with the raw offset of every character."""
    out: list[tuple[list[str], list[int]]] = []
    open_passage = False
    for segment in witness.segments:
        if segment.layer == layer and not segment.supplied:
            if not open_passage:
                out.append(([], []))
                open_passage = True
            out[-1][0].append(segment.text(witness.raw))
            out[-1][1].extend(range(segment.start, segment.end))
        elif segment.layer in TEXT_LAYERS or segment.layer == "translation":
            open_passage = False
    return [("".join(parts), offsets) for parts, offsets in out]


def base_gap(witness: Witness, offset: int, base_of: dict[int, int] | None) -> int | None:
    """The base gap after the last classic character before raw `offset` that the witness's
    alignment places in the base (the witness's own count for the base itself)."""
    position = bisect_left(witness.classic.starts, offset)
    if base_of is None:
        return position
    for k in range(position - 1, max(-1, position - 1 - LOOK_BACK), -1):
        if k in base_of:
            return base_of[k] + 1
    return None


def find(witnesses: Iterable[tuple[Witness, dict[int, int] | None]]) -> list[Quotation]:
    """Every quotation the patterns find in the commentary of the witnesses, each given with its
    tokens' base tokens (None for the base itself), in the order of the places where they stand."""
    found_by, shortest = quoting().patterns, quoting().shortest
    out: dict[tuple[str, int, int], Quotation] = {}
    for witness, base_of in witnesses:
        layers = {p.layer: passages(witness, p.layer) for p in found_by}
        for pattern in found_by:
            for text, offsets in layers[pattern.layer]:
                for match in pattern.pattern.finditer(text):
                    near = base_gap(witness, offsets[match.start()], base_of)
                    if near is None:
                        continue
                    for a, b in match.spans("quote"):
                        for p0, p1 in pieces(witness, offsets[a], offsets[b - 1] + 1, shortest):
                            q = quotation(witness, pattern, p0, p1, near)
                            out.setdefault((q.siglum, q.start, q.end), q)
    return sorted(out.values(), key=lambda q: q.near)


def pieces(witness: Witness, start: int, end: int, shortest: int) -> list[tuple[int, int]]:
    """The witness's tokens between raw offsets start:end, as runs without a lost or unknown
    character of at least `shortest` tokens."""
    stream = witness.stream
    i, j = bisect_left(stream.starts, start), bisect_left(stream.starts, end)
    return [(i + m.start(), i + m.end()) for m in regex.finditer(rf"[^▯{UNMAPPED}]{{{shortest},}}", stream.text[i:j])]


def quotation(witness: Witness, pattern: QuotationPattern, p0: int, p1: int, near: int) -> Quotation:
    stream, raw = witness.stream, witness.raw
    start, end = stream.starts[p0], stream.ends[p1 - 1]
    return Quotation(
        witness.meta.siglum,
        pattern.layer,
        pattern.name,
        stream.source(raw, p0, p1),
        stream.text[p0:p1],
        start,
        end,
        raw.line_of(start),
        near,
        pattern.before,
        pattern.after,
    )


@dataclass
class Attestation:
    """The quotations found, asked place by place which reading they attest."""

    quotations: list[Quotation]
    base_text: str  # the base's comparison text
    inside: int  # characters a quotation inside a reading needs
    external: ExternalEvidence | None = None  # books of evidence apart from the witnesses, placed on the base
    layer: str = "classic"  # the layer of the base collated, as `external` names it
    own: OwnUsage | None = None  # the base's own words elsewhere (本校)

    def __post_init__(self):
        self.nears = [q.near for q in self.quotations]
        self.before = max((q.before for q in self.quotations), default=0)
        self.after = max((q.after for q in self.quotations), default=0)

    def of(self, t0: int, t1: int, readings: set[str]) -> dict[str, list[Quotation]]:
        """Reading (comparison text) -> the quotations that attest it at base tokens t0:t1."""
        out: dict[str, list[Quotation]] = {}
        if len(readings) < 2:
            return out
        for q in self.quotations[bisect_left(self.nears, t1 - self.after) : bisect_right(self.nears, t0 + self.before)]:
            w0, w1 = q.near - q.before, q.near + q.after
            if not (w0 <= t0 and t1 <= w1):
                continue
            covering = [r for r in readings if self.covers(q.norm, max(0, w0), t0, t1, w1, r)]
            if len(covering) == 1:
                out.setdefault(covering[0], []).append(q)
        if self.external is not None:
            for reading, quotations in self.external.of(self.layer, t0, t1, readings).items():
                out.setdefault(reading, []).extend(quotations)
        if self.own is not None:
            for reading, quotations in self.own.of(t0, t1, readings).items():
                out.setdefault(reading, []).extend(quotations)
        return out

    def covers(self, quote: str, w0: int, t0: int, t1: int, w1: int, reading: str) -> bool:
        """The quotation is found once in the stretch w0:w1 of the base text with `reading` for
        tokens t0:t1, and over the reading (across the gap, if the reading is empty): over its
        edge, or inside it with at least `inside` characters."""
        left, right = self.base_text[w0:t0], self.base_text[t1:w1]
        text = left + reading + right
        hits = [m.start() for m in regex.finditer(regex.escape(quote), text, overlapped=True)]
        if len(hits) != 1:
            return False
        a, b = len(left), len(left) + len(reading)
        start, end = hits[0], hits[0] + len(quote)
        if not reading:
            return start < a < end
        return start < b and end > a and (start < a or end > b or len(quote) >= self.inside)
