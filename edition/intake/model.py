"""Intake's model: a witness as read (its raw text, its layers' segments, its comparison streams)
and an alignment of one witness against the base."""

from __future__ import annotations

import hashlib
import re
import sys
from array import array
from bisect import bisect_left, bisect_right
from collections import Counter
from dataclasses import dataclass, field, replace
from functools import cache, cached_property
from itertools import accumulate, repeat
from pathlib import Path
from typing import NamedTuple

from .gaiji import GaijiEntry
from .rule import LAYERS, TRANSMITTED, UNASSIGNED

BOM = "\ufeff"


@dataclass
class RawText:
    """A witness file as bytes and as text; offsets everywhere are code-point offsets into `text`."""

    path: Path
    data: bytes
    text: str
    encoding: str
    _line_starts: list[int] = field(default_factory=list, repr=False)

    def __post_init__(self):
        self._line_starts = [0] + [m.end() for m in re.finditer("\n", self.text)]

    def line_of(self, offset: int) -> int:
        """1-based line number of a code-point offset."""
        return bisect_right(self._line_starts, offset)

    def column_of(self, offset: int) -> int:
        return offset - self._line_starts[self.line_of(offset) - 1] + 1

    def path_of(self, offset: int) -> Path:
        """The file a code-point offset is in."""
        return self.path

    @property
    def line_count(self) -> int:
        return self.text.count("\n") + (0 if self.text.endswith("\n") else 1)

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.data).hexdigest()

    @property
    def has_bom(self) -> bool:
        return self.text.startswith(BOM)

    @property
    def newline(self) -> str:
        crlf = self.text.count("\r\n")
        return "CRLF" if crlf and crlf == self.text.count("\n") else ("mixed" if crlf else "LF")

    def encode(self, text: str) -> bytes:
        return text.encode(self.encoding)


@dataclass
class SplicedText(RawText):
    """A witness's raw text with text of another spliced in where it has lost a leaf: its bytes
    and path are still its file's, and an offset is that file's line (a spliced character the
    line of the remark it stands for)."""

    original: RawText | None = None
    splices: tuple[tuple[int, int, int], ...] = ()  # (start, end, offset in the file) of each, in order

    def original_offset(self, offset: int) -> int:
        shift = 0
        for start, end, at in self.splices:
            if offset < start:
                break
            if offset < end:
                return at
            shift += end - start
        return offset - shift

    def line_of(self, offset: int) -> int:
        return self.original.line_of(self.original_offset(offset))

    def column_of(self, offset: int) -> int:
        return self.original.column_of(self.original_offset(offset))

    def path_of(self, offset: int) -> Path:
        return self.original.path_of(self.original_offset(offset))


@dataclass
class JoinedText(RawText):
    """A witness read from several files in order (the 卷 of one chapter), their texts one after
    another: its path is its first file's, and an offset is in the file `path_of` names, at the
    line of that file `line_of` gives."""

    parts: tuple[RawText, ...] = ()
    starts: tuple[int, ...] = ()  # where each file's text starts

    @classmethod
    def of(cls, parts: list[RawText]) -> JoinedText:
        starts = tuple(accumulate((len(p.text) for p in parts[:-1]), initial=0))
        data, text = b"".join(p.data for p in parts), "".join(p.text for p in parts)
        return cls(parts[0].path, data, text, parts[0].encoding, parts=tuple(parts), starts=starts)

    def part(self, offset: int) -> tuple[RawText, int]:
        """The file's text an offset is in, and the offset there."""
        i = bisect_right(self.starts, offset) - 1
        return self.parts[i], offset - self.starts[i]

    def line_of(self, offset: int) -> int:
        raw, at = self.part(offset)
        return raw.line_of(at)

    def column_of(self, offset: int) -> int:
        raw, at = self.part(offset)
        return raw.column_of(at)

    def path_of(self, offset: int) -> Path:
        return self.part(offset)[0].path

    @property
    def line_count(self) -> int:
        return sum(p.line_count for p in self.parts)


CODES = {layer: code for code, layer in enumerate((UNASSIGNED, *LAYERS))}  # a layer as one byte
LAYER_OF_CODE = tuple(CODES)
LINE_END = len(CODES)  # the code of a line terminator until it is made format, after the rules


@cache
def runs_of(layers: frozenset[str], line_ends: bool = False) -> re.Pattern:
    """A pattern for runs of characters in any of `layers`, on Layering.codes; line terminators
    still unassigned count as unassigned, or with `line_ends` always."""
    codes = {CODES[layer] for layer in layers} | ({LINE_END} if line_ends or UNASSIGNED in layers else set())
    return re.compile(b"[" + re.escape(bytes(sorted(codes))) + b"]+")


@dataclass(frozen=True, slots=True)
class Segment:
    layer: str
    start: int
    end: int
    line: int
    rule: str
    attrs: dict = field(default_factory=dict, compare=False, hash=False)

    def text(self, raw: RawText) -> str:
        return raw.text[self.start : self.end]

    @property
    def supplied(self) -> bool:
        """Text another witness supplies where this one has lost a leaf: not the witness's own."""
        return "supplied" in self.attrs


KINDS = ("char", "gap", "gaiji")
HOW = ("", "variant", "opencc")


class Token(NamedTuple):
    """A tuple, so that the many a collation asks for are quick to make."""

    char: str
    kind: str  # "char", "gap" or "gaiji"
    start: int
    end: int
    layer: str
    gaiji: GaijiEntry | None = None
    folded: str = ""  # how the comparison form was reached: "", "variant" or "opencc"

    def source(self, raw: RawText) -> str:
        return raw.text[self.start : self.end]


class Stream:
    """The tokens of some layers of a witness: token i is text[i] (its comparison character, gaps
    as ▯, unmapped gaiji as U+FFFC), raw offsets starts[i]:ends[i], KINDS[kinds[i]], the layer
    of CODES codes[i], HOW[folds[i]], and for a gaiji its (entry, character) entries[gaiji[i]]."""

    def __init__(
        self,
        layers: tuple[str, ...],
        text: str,
        starts: array,
        ends: array,
        kinds: bytearray,
        codes: bytearray,
        folds: bytearray,
        gaiji: array,
        entries: list[tuple[GaijiEntry, str]],
    ):
        self.layers = layers
        self.text = text
        self.starts, self.ends = starts, ends
        self.kinds, self.codes, self.folds = kinds, codes, folds
        self.gaiji, self.entries = gaiji, entries

    @cached_property
    def tokens(self) -> list[Token]:
        """The tokens as Token objects, made when first asked for: collation asks for those of the
        base and of the witnesses it includes, never for a large witness it leaves out."""
        names = ((KINDS, self.kinds), (LAYER_OF_CODE, self.codes), (HOW, self.folds))
        kinds, layers, folds = (map(table.__getitem__, column) for table, column in names)
        chars = map(sys.intern, self.text)  # one str object per distinct character
        tokens = list(map(Token._make, zip(chars, kinds, self.starts, self.ends, layers, repeat(None), folds)))
        for match in re.finditer(re.escape(bytes((KINDS.index("gaiji"),))), self.kinds):
            tokens[match.start()] = self.token(match.start())
        return tokens

    def token(self, i: int) -> Token:
        kind = KINDS[self.kinds[i]]
        entry, char = self.entries[self.gaiji[i]] if kind == "gaiji" else (None, sys.intern(self.text[i]))
        return Token(char, kind, self.starts[i], self.ends[i], LAYER_OF_CODE[self.codes[i]], entry, HOW[self.folds[i]])

    def only(self, layers: tuple[str, ...]) -> Stream:
        spans = [m.span() for m in runs_of(frozenset(layers)).finditer(self.codes)]

        def pick(column):
            out = column[:0]
            for a, b in spans:
                out += column[a:b]
            return out

        columns = (self.starts, self.ends, self.kinds, self.codes, self.folds, self.gaiji)
        return Stream(layers, "".join(self.text[a:b] for a, b in spans), *map(pick, columns), self.entries)

    def source(self, raw: RawText, i: int, j: int | None) -> str:
        """The witness's own characters of tokens i:j."""
        return "".join(raw.text[start:end] for start, end in zip(self.starts[i:j], self.ends[i:j]))

    def of_kind(self, kind: str) -> list[Token]:
        return [self.token(m.start()) for m in re.finditer(re.escape(bytes((KINDS.index(kind),))), self.kinds)]

    def conversions(self, raw: RawText) -> Counter:
        """(witness form, comparison form, how) -> count."""
        converted = (i for m in re.finditer(rb"[^\x00]+", self.folds) for i in range(*m.span()))
        return Counter((raw.text[self.starts[i] : self.ends[i]], self.text[i], HOW[self.folds[i]]) for i in converted)


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
    family: str = ""  # the lineage it belongs to: books of one family are one source for an emendation
    images: str = ""  # the table of its pages' photographs (intake.page_images), relative to the sources
    rules: tuple[dict, ...] = ()

    @property
    def xml_id(self) -> str:
        return f"w{self.siglum}"

    @property
    def writes_simplified(self) -> bool:
        """Simplified or mixed script: a 于 of its may stand for 於."""
        return self.script != "traditional"


@dataclass(frozen=True)
class EvidenceMeta:
    """A book that quotes or judges the text without being a witness of it (the 單疏本, the 識誤):
    its stanza, and the folder of its files."""

    siglum: str
    kind: str  # of book: the tradition's reader of it (the 儀禮's: subcommentary-quotations, collation-notes)
    folder: Path
    title: str
    name: str = ""
    author: str = ""
    edition: str = ""
    remarks: str = ""
    encoding: str = "utf-8"  # of its files
    stanza: tuple[Path, int] | None = None  # the witnesses.toml and the line of its stanza
    status: str = ""  # what it is to the edition, in the words of its reader: where it is attested

    @property
    def xml_id(self) -> str:
        return f"w{self.siglum}"


@dataclass(frozen=True)
class Supplied:
    """Text spliced into a witness where it has lost a leaf (raw offsets start:end of its spliced
    text), read from witness `source` (raw offsets source_start:source_end of its file); the
    witness's remark that marks the loss, at `line` of its file; the layers the text holds."""

    start: int
    end: int
    source: str
    source_start: int
    source_end: int
    line: int
    remark: str
    layers: frozenset[str]


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
    supplied: tuple[Supplied, ...] = ()  # text of other witnesses where this one has lost a leaf
    # A compiler's book (ToRead.compilation): it quotes the 注 by his choice and in his order, with
    # his words between, so its 注 is no witness of the 注.
    compilation: bool = False

    @cached_property
    def supplied_spans(self) -> list[tuple[int, int, Supplied]]:
        """The tokens of the layers compared that are supplied: (first, end, what) of each lost
        leaf that holds some."""
        starts = self.classic.starts
        spans = [(bisect_left(starts, s.start), bisect_left(starts, s.end), s) for s in self.supplied]
        return [(t0, t1, s) for t0, t1, s in spans if t1 > t0]

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
        return replace(self, layer=layer)

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

    def layer_offsets(self, layer: str, start: int, end: int) -> list[int]:
        """The raw offset of each character of `layer_between` the same offsets."""
        spans = spans_between(self.segments_of(layer), self._segment_ends.get(layer, []), start, end)
        return [offset for a, b in spans for offset in range(a, b)]


def between(text: str, segments: list[Segment], ends: list[int], start: int, end: int) -> str:
    """The characters of `segments` (in order, `ends` their ends) between two raw offsets."""
    return "".join(text[a:b] for a, b in spans_between(segments, ends, start, end))


def spans_between(segments: list[Segment], ends: list[int], start: int, end: int) -> list[tuple[int, int]]:
    """The raw spans of `segments` (in order, `ends` their ends) between two raw offsets."""
    i = bisect_right(ends, start)
    out = []
    while i < len(segments) and segments[i].start < end:
        out.append((max(segments[i].start, start), min(segments[i].end, end)))
        i += 1
    return out


@dataclass(frozen=True)
class Op:
    """One step of an alignment: base[b0:b1] against witness[w0:w1]."""

    tag: str  # "equal", "replace", "delete" (base only), "insert" (witness only)
    b0: int
    b1: int
    w0: int
    w1: int


@dataclass(frozen=True)
class Move:
    """A block the witness reads at w0:w1, which the base reads at b0:b1; the witness places it
    at base gap `at` (before base token `at`)."""

    b0: int
    b1: int
    w0: int
    w1: int
    at: int
    ops: tuple[Op, ...]

    def split(self, b: int) -> tuple[Move, Move]:
        """The block cut at base position b0 < b < b1 into two, both placed at the same gap."""
        w = witness_position(self.ops, b, self.w0)
        left = [part for op in self.ops for part in cut_op(op, b, w)[:1] if part.b1 <= b and part.w1 <= w]
        right = [part for op in self.ops for part in cut_op(op, b, w)[-1:] if part.b0 >= b and part.w0 >= w]
        return Move(self.b0, b, self.w0, w, self.at, tuple(left)), Move(b, self.b1, w, self.w1, self.at, tuple(right))


@dataclass
class Alignment:
    base_length: int
    witness_length: int
    ops: list[Op]  # in base order; covers the witness's extant stretches
    moves: list[Move] = field(default_factory=list)
    extant: list[tuple[int, int]] = field(default_factory=list)  # base ranges where the witness is extant

    @property
    def in_order(self) -> int:
        """Witness characters matched in the order of the base."""
        return sum(op.w1 - op.w0 for op in self.ops if op.tag == "equal")

    @property
    def quality(self) -> float:
        return self.in_order / self.witness_length if self.witness_length else 0.0


def witness_position(ops, b: int, default: int) -> int:
    """The witness position that stands against base position b in these ops."""
    for op in ops:
        if op.b0 <= b <= op.b1:
            return op.w0 + min(b - op.b0, op.w1 - op.w0)
    return default


def cut_op(op: Op, b: int, w: int) -> tuple[Op, ...]:
    """An op cut at base position b and witness position w, if it spans them."""
    if not (op.b0 < b < op.b1 or op.w0 < w < op.w1):
        return (op,)
    b, w = min(max(b, op.b0), op.b1), min(max(w, op.w0), op.w1)
    return Op(op.tag, op.b0, b, op.w0, w), Op(op.tag, b, op.b1, w, op.w1)
