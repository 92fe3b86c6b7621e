"""Lost leaves: where the base has lost a leaf (a transcriber's remark `# page missing`), the text
another witness reads there is supplied, 經 and 注 alike, into the text collated as the base.

The leaf is found in a witness by the base's text on either side of the remark: its last
characters before the remark and its first after it, the 經, the 傳 and the 注 read as one stream
in reading order, matched in the witness's stream of the same layers (exactly, from `CONTEXT`
characters down to `SHORTEST`; else approximately, where the witness reads otherwise at the
seam). What the witness reads between the two is the leaf; the base's characters on either side
stay its own to the last one. Nothing is lost where the witness reads on from one to the other
(a remark of an unreadable image whose text was transcribed, a leaf after the 卷's last words):
then nothing is supplied and the remark marks no lacuna.

The leaf is supplied from one witness: of those that read it, not a compilation (it orders and
abridges the text its own way: the 欽定儀禮義疏 would supply its own words at a page seam), one that
carries every text layer of the base, in the base's script, first in the edition's order, whose
text of those layers agrees with the base's as a witness the collation includes does (`min_quality`
of it aligns in order: a book whose own commentary its layout reads as 注 supplies none). Only its
經, 傳 and 注 go in, never its 疏, 音義, 考證 or layout, each in its own layer, so that the 注 of the leaf
stands after its own 經; and in the edited text's forms: every variant form, a taboo form among them
(𤣥), folded to its standard character (`variants`). A stretch that holds text the base has
elsewhere (the witness orders the passages otherwise) or more than a leaf can hold is not supplied:
the place stays a lacuna, reported with the reason, for the editor.

Collation then reads the base with its leaves supplied: the base is not extant there (`Witness.supplied`).
"""

from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass, replace

import regex
from rapidfuzz import fuzz
from rapidfuzz.distance.Levenshtein import distance as edits

from ..intake.align import align
from ..intake.model import CODES, TRANSMITTED, Segment, SplicedText, Stream, Supplied, Witness
from ..intake.normalize import TEXT_LAYERS, Normalizer
from ..text import HAN

TEXT = (*TRANSMITTED, "commentary")  # the layers a leaf is supplied in
CONTEXT = 16  # characters of the base on either side of a remark matched in a witness, at most
SHORTEST = 4  # an exact match of fewer is no match
APPROXIMATE = 75  # rapidfuzz's partial ratio an approximate match needs
READS_ON = "reads_on"  # a remark's attribute: the witness that reads on where the base marks a leaf lost
SMALLEST = 8  # characters between the two sides that are a leaf: fewer are a reading of the witness
LARGEST = 2400  # characters a supplied stretch may hold: two leaves of a 注疏's 經 and 注
RUN = 30  # characters of a stretch's 經 read by the base elsewhere that make it a reordering, not a leaf
CLASSIC_CODES = frozenset(CODES[layer] for layer in TRANSMITTED)


@dataclass(frozen=True)
class LeafFinding:
    """What became of one remark of the base: supplied from `source`, nothing lost, or a lacuna
    left for the editor, with the reason."""

    line: int
    remark: str
    status: str  # "supplied", "none lost" or "lacuna"
    source: str = ""
    classic: int = 0  # characters of 經 and 傳 supplied
    commentary: int = 0  # characters of 注 supplied
    reason: str = ""


def supply(
    witnesses: list[Witness], base_siglum: str, normalizer: Normalizer, min_quality: float = 0.5
) -> tuple[list[Witness], list[LeafFinding]]:
    """The witnesses with the base's lost leaves supplied, and what became of each remark; a
    witness whose text of the leaf's layers aligns with the base's less than `min_quality` (the
    collation's own threshold) supplies none."""
    base = next(w for w in witnesses if w.meta.siglum == base_siglum)
    if not base.lacunae:
        return witnesses, []
    layers = tuple(layer for layer in TEXT if base.segments_of(layer))
    base_stream = base.stream.only(layers)
    candidates = sorted(
        (w for w in witnesses if w is not base and w.classic.text and not w.compilation),
        key=lambda w: (not all(w.segments_of(layer) for layer in layers), w.meta.script != base.meta.script),
    )
    streams = {w.meta.siglum: w.stream.only(layers) for w in candidates}
    agreement: dict[str, float] = {}  # each witness's, once it reads a leaf (see `unlike_the_base`)
    leaves: list[tuple[Segment, Witness | None, int, int]] = []
    findings = []
    for remark in base.lacunae:
        at = bisect_left(base_stream.starts, remark.start)
        found = None
        reasons = []
        # A witness that reads on across the remark (or moves a clause away from beside the leaf)
        # says nothing is lost only where none holds text there.
        for witness in candidates:
            stream = streams[witness.meta.siglum]
            seam = find_seam(base_stream.text, at, stream.text)
            if seam is None:
                reasons.append(f"{witness.meta.siglum}: the base's text on either side is not found in it")
                continue
            p, q = seam
            why = (
                lost_too(witness, stream, p, q)
                or unlike_a_leaf(base, stream, p, q)
                or unlike_the_base(base_stream, stream, agreement, witness.meta.siglum, min_quality)
            )
            if why:
                reasons.append(f"{witness.meta.siglum}: {why}")
                continue
            if q - p >= SMALLEST:
                found = (witness, p, q)
                break
            found = found or (witness, p, q)
        line, said = base.raw.line_of(remark.start), remark.text(base.raw).strip()
        if found is None:
            leaves.append((remark, None, 0, 0))
            reason = "; ".join(reasons) or "no other witness"
            findings.append(LeafFinding(line, said, "lacuna", reason=reason))
            continue
        witness, p, q = found
        leaves.append((remark, witness, p, q))
        if q - p < SMALLEST:
            findings.append(LeafFinding(line, said, "none lost", witness.meta.siglum, reason=read_on(q - p)))
            continue
        stream = streams[witness.meta.siglum]
        held = stream.codes[p:q]
        commentary = held.count(CODES["commentary"])
        findings.append(LeafFinding(line, said, "supplied", witness.meta.siglum, q - p - commentary, commentary))
    return [spliced(base, leaves, streams, normalizer) if w is base else w for w in witnesses], findings


def read_on(extra: int) -> str:
    return (
        "the witnesses read on from one side of the remark to the other"
        if not extra
        else f"the witness reads {extra} character(s) there: a reading, not a leaf"
    )


def find_seam(base: str, at: int, witness: str) -> tuple[int, int] | None:
    """Where the witness's text of the leaf begins and ends: after its match of the base's text
    before `at`, before its match of the base's text after it."""
    ends = matches(base[max(0, at - CONTEXT) : at], witness, before=True) if at else [0]
    starts = matches(base[at : at + CONTEXT], witness, before=False) if at < len(base) else [len(witness)]
    pairs = [(p, next((q for q in starts if q >= p), None)) for p in ends]
    pairs = [(p, q) for p, q in pairs if q is not None and q - p <= LARGEST]
    if not pairs:
        return None
    return min(pairs, key=lambda pair: pair[1] - pair[0])


def matches(context: str, witness: str, before: bool) -> list[int]:
    """Where the witness's match of `context` ends (`before`: the base's text before the remark)
    or begins: exact for the longest part of it next to the remark that is found, else
    approximate."""
    for length in range(len(context), SHORTEST - 1, -1):
        part = context[-length:] if before else context[:length]
        found = [m.start() for m in regex.finditer(regex.escape(part), witness, overlapped=True)]
        if found:
            return [f + length for f in found] if before else found
    return approximate(context, witness, before)


def approximate(context: str, witness: str, before: bool) -> list[int]:
    """Where the witness's best approximate match of `context` ends (or begins): found roughly by
    rapidfuzz, then the end (start) nearby whose stretch is fewest edits from the context."""
    if len(context) < SHORTEST:
        return []
    best = fuzz.partial_ratio_alignment(context, witness)
    if best is None or best.score < APPROXIMATE:
        return []
    slack = len(context) // 4 + 1
    if before:
        ends = range(max(0, best.dest_end - slack), min(len(witness), best.dest_end + slack) + 1)
        cost = {e: min(edits(context, witness[s:e]) for s in near(e - len(context), slack)) for e in ends}
        return [min(cost, key=lambda e: (cost[e], abs(e - best.dest_end)))]
    starts = range(max(0, best.dest_start - slack), min(len(witness), best.dest_start + slack) + 1)
    cost = {s: min(edits(context, witness[s:e]) for e in near(s + len(context), slack)) for s in starts}
    return [min(cost, key=lambda s: (cost[s], abs(s - best.dest_start)))]


def near(position: int, slack: int) -> range:
    return range(max(0, position - slack), position + slack + 1)


def lost_too(witness: Witness, stream: Stream, p: int, q: int) -> str:
    """A witness that has lost a leaf of its own between its tokens p - 1 and q tells nothing of it."""
    start = stream.ends[p - 1] if p else 0
    end = stream.starts[q] if q < len(stream.text) else len(witness.raw.text)
    return "it has lost a leaf there too" if any(start <= s.start < end for s in witness.lacunae) else ""


def unlike_the_base(base: Stream, stream: Stream, agreement: dict[str, float], siglum: str, min_quality: float) -> str:
    """Why a witness supplies no leaf of these layers: its text of them, aligned with the base's,
    agrees in order less than the collation asks of a witness (its layout reads other text as
    the base's layers)."""
    if siglum not in agreement:
        agreement[siglum] = align(base.text, stream.text).quality
    quality = agreement[siglum]
    if quality >= min_quality:
        return ""
    return f"only {quality:.0%} of its text of those layers aligns in order with the base's (minimum {min_quality:.0%})"


def unlike_a_leaf(base: Witness, stream: Stream, p: int, q: int) -> str:
    """Why a witness's stretch p:q is no leaf of the base's: a run of its 經 that the base reads
    elsewhere (the witness orders the passages otherwise), longer than the formulas a rite repeats."""
    classic = "".join(c for c, code in zip(stream.text[p:q], stream.codes[p:q]) if code in CLASSIC_CODES)
    text = base.classic.text
    found = next((classic[i : i + RUN] for i in range(len(classic) - RUN + 1) if classic[i : i + RUN] in text), None)
    return f"its 經 「{found}…」 is in the base elsewhere: it orders the passages otherwise" if found else ""


def spliced(
    base: Witness,
    leaves: list[tuple[Segment, Witness | None, int, int]],
    streams: dict[str, Stream],
    normalizer: Normalizer,
) -> Witness:
    """The base with each leaf's text spliced in after its remark, in the leaf's layers and the
    edited text's forms; a remark where nothing is lost, or where a leaf is supplied, marks no
    lacuna any more (one where nothing is lost says which witness reads on there, `READS_ON`)."""
    text, raw = base.raw.text, base.raw
    parts: list[str] = []
    segments: list[Segment] = []
    supplied: list[Supplied] = []
    splices: list[tuple[int, int, int]] = []
    position = shift = 0
    remarks = {id(remark): (witness, p, q) for remark, witness, p, q in leaves}
    for segment in base.segments:
        leaf = remarks.get(id(segment))
        moved = replace(segment, start=segment.start + shift, end=segment.end + shift)
        if leaf is None or leaf[0] is None:
            segments.append(moved)
            continue
        witness, p, q = leaf
        attrs = {k: v for k, v in segment.attrs.items() if k != "gap"}
        if q - p < SMALLEST:  # the remark stays, said to read on in the witness
            segments.append(replace(moved, attrs=attrs | {READS_ON: witness.meta.siglum}))
            continue
        segments.append(replace(moved, attrs=attrs))
        parts.append(text[position : segment.end])
        position = segment.end
        start = segment.end + shift
        pieces = leaf_segments(witness, streams[witness.meta.siglum], p, q)
        line = raw.line_of(segment.start)
        cursor = start
        for piece in pieces:
            own = fold(witness.raw.text[piece.start : piece.end], normalizer)
            parts.append(own)
            segments.append(
                Segment(piece.layer, cursor, cursor + len(own), line, "supplied", {"supplied": witness.meta.siglum})
            )
            cursor += len(own)
        stream = streams[witness.meta.siglum]
        supplied.append(
            Supplied(
                start,
                cursor,
                witness.meta.siglum,
                stream.starts[p],
                stream.ends[q - 1],
                line,
                segment.text(raw).strip(),
                frozenset(piece.layer for piece in pieces),
            )
        )
        splices.append((start, cursor, segment.end))
        shift += cursor - start
    parts.append(text[position:])
    composite = SplicedText(raw.path, raw.data, "".join(parts), raw.encoding, original=raw, splices=tuple(splices))
    segments.sort(key=lambda s: s.start)
    stream = normalizer.stream(composite, segments, TEXT_LAYERS)
    return Witness(base.meta, composite, segments, stream, base.layer, base.undecided, tuple(supplied))


def leaf_segments(witness: Witness, stream: Stream, p: int, q: int) -> list[Segment]:
    """The witness's segments of the leaf's layers between its stream tokens p and q, cut to them."""
    start, end = stream.starts[p], stream.ends[q - 1]
    out = []
    for segment in witness.segments:
        if segment.layer in TEXT and segment.end > start and segment.start < end:
            out.append(replace(segment, start=max(segment.start, start), end=min(segment.end, end)))
    return out


def fold(text: str, normalizer: Normalizer) -> str:
    """The witness's characters in the edited text's forms: each Han character's standard form."""
    return HAN.sub(lambda m: normalizer.variants.standard(m.group()), text)
