"""Apparatus: the variation units of every included witness against the base, with typed readings
and the edited text (the lemma).

Each witness's alignment yields marks on a doubled axis of the base (base token i is 2i+1, the gap
before it is 2i): its substitutions and omissions, its additions, its orthographic differences
where the apparatus records them at each place (see `Orthography`), and where its text starts and
stops. Marks of all witnesses that touch are merged into variation units. In each unit every
extant witness has one reading; readings with the same comparison text form one substantive
reading, their display forms its orthographic variants. The base reading is the lemma unless
intake flagged it as an intrusion, or the base stands alone (no other witness extant there and no
quotation in a witness's commentary, see `evidence`, reads as it) and a reading has for it at
least two witnesses, or one and a quotation, and more than any other reading there: then that
reading is the lemma, marked as an automatic emendation. Where the base stands alone but the rule
does not apply, or a quotation attests another reading than the base's, the place is a candidate
for the editor.

A clause that a witness reads elsewhere (a block its alignment moves, cut where sections end) is
one unit at each end, apart from the marks: at its place in the base a unit over the whole clause,
whose lemma holds the other witnesses' units inside it; at the place where the witness reads it a
unit with the witness's text, which holds the differences of that text from the base's clause.
Marks never straddle either end. A witness reads each base token once (`read_once`): where it also
has text in place against a clause it reads elsewhere, or reads the clause at a second place, that
text is an addition of its own, outside the clause's place.

Every witness has one reading in every unit where it stands: at a base token it is extant at, at a
gap inside its extant text (before the base's first token and after its last, for a witness extant
throughout), as its witStart, witEnd, lacunaStart and lacunaEnd in the TEI say; nowhere inside a
clause it reads elsewhere, whose place holds the other witnesses' units.

Every orthographic difference of a witness from the base's text is also counted, pair by pair,
for the 异体字表; and every character a witness writes otherwise than the base where it reads
the same is kept with its place, for the views of the witness.
"""

from __future__ import annotations

import gc
from bisect import bisect_left
from collections import defaultdict
from dataclasses import dataclass
from functools import wraps
from itertools import chain

from ..intake.align import STRETCH, align, layout_problem
from ..intake.model import TRANSMITTED, Move, Supplied, Witness, witness_position
from .evidence import Attestation, quoting
from .evidence import find as find_quotations
from .external_evidence import ExternalEvidence
from .labels import section_cuts
from .lineage import Lineage
from .model import (
    COLLATION,
    REASONING,
    Aligned,
    Apparatus,
    Reading,
    Transposition,
    Unit,
    VariantForm,
    WitnessStatus,
    reading_text,
)
from .own_usage import OwnUsage
from .reading import UNMAPPED, Orthography, classify, merge_same, wildcard_equal
from .rearrangement import without_rearrangements
from .relations import GRAPHIC, Relations
from .witness_map import WitnessMap, clause_boundaries, passage_boundaries

AUTO_RESP = "edition-auto"
SUPPLIED_RESP = "edition-supplied"  # the text of a lost leaf of the base, supplied
CONTEXT = 4  # the base's characters on each side of a graphic family's member that may call for it
GRAPHIC_RESP = "edition-graphic"  # the member of a graphic family the words call for, for the base's
# Witnesses that must agree against the base for an automatic emendation, a quotation in the
# commentary counting as one.
EMENDING_SUPPORT = 2
NOWHERE = "none of its text aligns with the base's"  # a witness forced in that is extant nowhere
LINES_NAMED = 12
NEAR = 24  # characters of the base within which words a witness leaves out and adds again are moved (倒文)


def merge_marks(marks: list[tuple[int, int]], cuts: dict[int, str]) -> list[tuple[int, int]]:
    """Merge marks that overlap, or touch (a deletion next to an addition is one substitution),
    but never across a cut (a gap on the doubled axis where a moved clause begins, ends or is
    read, a lost leaf begins or ends, or a note of the 注 ends): a span that reaches a cut is split
    there, the gap itself going with the part before it, the part after it (at the end of a moved
    clause's place or of a leaf: what a witness adds there stands after it, not inside), or alone
    (where one such place ends and another begins), as `cuts` says ("before", "after", "alone")."""
    merged: list[list[int]] = []
    for a, b in sorted(set(marks)):
        if merged and a <= merged[-1][1] + 1:
            merged[-1][1] = max(merged[-1][1], b)
        else:
            merged.append([a, b])
    added = {a for a, b in marks if a == b and a % 2 == 0}  # the gaps where a witness adds
    out = []
    for a, b in merged:
        for cut in sorted(c for c in cuts if a <= c <= b):
            side = cuts[cut]
            end = cut if side == "before" else cut - 1
            if a <= end:
                out.append((a, end))
            if side == "alone" and cut in added:
                out.append((cut, cut))
            a = cut if side == "after" else cut + 1
        if a <= b:
            out.append((a, b))
    return out


def with_repetition(base_text: str, b0: int, b1: int, words: str, cuts: set[int]) -> tuple[int, int]:
    """The mark of an omission of base tokens b0:b1 or an addition at gap b0 (b1 == b0) of
    `words`, on the doubled axis: where the base has the same words right before or after, the
    mark holds them too, for which of the two is lacked or added is no fact (先升升堂 read 先升堂:
    「升升，某本作升」, not 「某本無升」); not across a gap in `cuts`: where no unit may straddle, or
    the base has a clause boundary (無擯(注)擯者: two words, not one written twice)."""
    n = len(words)
    apart = lambda a, b: not any(a < cut < b for cut in cuts)
    if b0 >= n and base_text[b0 - n : b0] == words and apart(b0 - n, b1):
        return 2 * (b0 - n) + 1, 2 * b1 - 1 if b1 > b0 else 2 * b0
    if base_text[b1 : b1 + n] == words and apart(b0, b1 + n):
        return 2 * b0 + 1 if b1 > b0 else 2 * b0, 2 * (b1 + n) - 1
    return (2 * b0 + 1, 2 * b1 - 1) if b1 > b0 else (2 * b0, 2 * b0)


def misread(witness: Witness, alignment) -> str:
    """Why a witness aligns badly: scrambled, or a layout problem, naming the lines of the
    stretches the base lacks."""
    stretches = layout_problem(alignment)
    if stretches is None:
        return "scrambled or unrelated"
    raw, starts, ends = witness.raw, witness.classic.starts, witness.classic.ends
    several = raw.path_of(0) != raw.path_of(max(len(raw.text) - 1, 0))  # 卷 read as one: each named

    def lines(first: int, last: int) -> str:
        a, b = raw.line_of(first), raw.line_of(last)
        return (f"{raw.path_of(first).name} " if several else "") + (f"{a}–{b}" if b > a else str(a))

    named = ", ".join(lines(starts[op.w0], ends[op.w1 - 1] - 1) for op in stretches[:LINES_NAMED]) + (
        ", …" if len(stretches) > LINES_NAMED else ""
    )
    return (
        f"a layout problem, not a scrambled text: it aligns in long runs with {len(stretches)} stretches of "
        f"{STRETCH} or more characters between them that the base lacks (commentary read as classic text?), "
        f"at lines {named}; check its layout profile"
    )


def spliced(witness: Witness, positions: list[int], intrusions: list[tuple[int, str]]) -> str:
    """The witness's characters at token `positions`, with each intruded text where it stands
    (before the token of its position)."""
    out, pending = [], list(intrusions)
    for p in positions:
        while pending and pending[0][0] <= p:
            out.append(pending.pop(0)[1])
        out.append(witness.classic.tokens[p].source(witness.raw))
    return "".join(out + [text for _, text in pending])


def intrusion_gaps(witness: Witness) -> list[tuple[int, str]]:
    """(number of classic tokens before it, text) for each intrusion inside the classic text."""
    starts = witness.classic.starts
    out = []
    for segment in witness.intrusions:
        position = bisect_left(starts, segment.start)
        if 0 < position < len(starts):
            out.append((position, segment.text(witness.raw).strip()))
    return out


def cyclic_gc_paused(function):
    """Collation allocates millions of small objects and no reference cycles; the cyclic
    collector's passes over them made the time grow faster than the input."""

    @wraps(function)
    def paused(*args, **kwargs):
        enabled = gc.isenabled()
        gc.disable()
        try:
            return function(*args, **kwargs)
        finally:
            if enabled:
                gc.enable()

    return paused


@cyclic_gc_paused
def collate(
    witnesses: list[Witness],
    base_siglum: str,
    orthography: Orthography,
    min_quality: float = 0.5,
    include: tuple[str, ...] = (),
    exclude: tuple[str, ...] = (),
    seams: tuple[int, ...] = (),
    external: ExternalEvidence | None = None,
    lineage: Lineage | None = None,
) -> Apparatus:
    """The apparatus of the witnesses against the base; no unit or moved clause straddles one of
    the base gaps in `seams` (for the 注: where one note of the base ends and the next begins). The
    witnesses' lineage is `lineage` (of every layer collated), else found in this layer alone."""
    aligned = align_witnesses(witnesses, base_siglum, min_quality, include, exclude)
    return apparatus_of(aligned, orthography, seams, external, lineage or Lineage.of([aligned.maps], aligned.metas))


def align_witnesses(
    witnesses: list[Witness],
    base_siglum: str,
    min_quality: float = 0.5,
    include: tuple[str, ...] = (),
    exclude: tuple[str, ...] = (),
    not_collated: dict[str, str] | None = None,
    elsewhere: str = "",
) -> Aligned:
    """Every witness aligned with the base, and included in the apparatus or not: by an editorial
    decision, else not where `not_collated` says why, else by how much of it aligns in order
    (`min_quality`). `elsewhere`: the base's text of the work's other chapters, which a
    compilation's repetitions may come from (rearrangement.py)."""
    by_siglum = {w.meta.siglum: w for w in witnesses}
    base = by_siglum[base_siglum]
    n = len(base.classic.tokens)
    base_text = base.classic.text
    base_clauses = clause_boundaries(base)
    base_passages = passage_boundaries(base)
    # The base's lost leaves: one entry over the text supplied for each that holds text of the
    # layer collated (the 注 of a leaf that holds 經 is in that entry's place in the 經, but for
    # the 注 at its edges), else the base not extant there.
    lost = lost_spans(base)
    base_extant = extant_around([(t0, t1) for t0, t1, *_ in lost], n)
    statuses = {base_siglum: WitnessStatus(base_siglum, 1.0, True, "base text", base_extant)}
    maps: dict[str, WitnessMap] = {}
    for w in witnesses:
        siglum = w.meta.siglum
        if siglum == base_siglum:
            continue
        alignment = align(
            base_text,
            w.classic.text,
            breaks=w.lacuna_breaks,
            base_clauses=base_clauses,
            witness_clauses=clause_boundaries(w),
            base_lacunae=base.lacuna_breaks,
            excerpt=w.abridged,
            near=NEAR,
            base_passages=base_passages,
        )
        if w.compilation:
            others = tuple(o.classic.text for o in witnesses if o is not w and o is not base and not o.compilation)
            alignment = without_rearrangements(alignment, base_text, w.classic.text, w.stream.text, elsewhere, others)
        quality = alignment.quality
        if siglum in exclude:
            included, reason = False, "excluded by an editorial decision"
        elif siglum in include and not any(b > a for a, b in alignment.extant):
            included, reason = False, f"{NOWHERE}: forcing it in would collate nothing"
        elif siglum in include:
            included, reason = True, "included by an editorial decision"
        elif siglum in (not_collated or {}):
            included, reason = False, not_collated[siglum]
        elif quality < min_quality:
            included, reason = (
                False,
                f"only {quality:.0%} of its characters align in order (minimum {min_quality:.0%}): "
                f"{misread(w, alignment)}",
            )
        else:
            included, reason = True, f"{quality:.0%} of its characters align in order"
        statuses[siglum] = WitnessStatus(siglum, quality, included, reason, alignment.extant, alignment)
        if included:
            maps[siglum] = WitnessMap(w, alignment, n)
    return Aligned(base, statuses, maps, lost)


def apparatus_of(
    aligned: Aligned,
    orthography: Orthography,
    seams: tuple[int, ...],
    external: ExternalEvidence | None,
    lineage: Lineage,
) -> Apparatus:
    """The apparatus of the aligned witnesses: units, moved clauses, lost leaves, typed readings
    and the lemma chosen at each place."""
    base, statuses, maps, lost = aligned.base, aligned.statuses, aligned.maps, aligned.lost
    n = len(base.classic.tokens)
    for wmap in maps.values():
        wmap.separate(orthography.relations.each_related, base.classic.text)
    cuts, titles = section_cuts(aligned.included, maps, statuses, n)
    leaf_ends = {g for t0, t1, *_ in lost for g in (t0, t1)}
    transpositions = moved_clauses_of(
        maps, base.classic.text, set(cuts) | set(seams) | leaf_ends, set(seams) | leaf_ends
    )
    cut_gaps = {g for t in transpositions for g in (t.b0, t.b1, t.at)} | set(seams) | leaf_ends
    pairs: dict[tuple[str, str], dict[str, int]] = defaultdict(lambda: defaultdict(int))
    forms = FormComparison(base, orthography, pairs)
    marks, markers, own_forms = witness_marks(base, maps, forms, cut_gaps | clause_boundaries(base))
    leaf_markers = base_leaf_markers(markers, base.meta.siglum, lost, n)
    base_intrusions = dict(intrusion_gaps(base))
    marks += [(2 * gap, 2 * gap) for gap in base_intrusions]
    moved_markers = markers_moved(markers, maps)
    marks += [(2 * token + 1, 2 * token + 1) for token in markers if markers[token]]
    attestation = attestation_of(base, maps, external)
    made = dict(
        base=base,
        maps=maps,
        base_intrusions=base_intrusions,
        markers=markers,
        orthography=orthography,
        family=lineage.family,
        attestation=attestation,
        lost=lost,
    )
    units = [
        make_unit(a // 2, (b + 1) // 2, range((a + 1) // 2, b // 2 + 1), **made)
        for a, b in merge_marks(marks, holder_cuts(cut_gaps, transpositions, lost))
    ]

    def unit_maker(t0: int, t1: int, gaps: range) -> Unit:
        return make_unit(t0, t1, gaps, **made)

    moved = moved_units(transpositions, base, maps, units, moved_markers, orthography, forms, lost)
    variant_forms = [
        VariantForm(text, form, dict(counts), orthography.sources(text, form)) for (text, form), counts in pairs.items()
    ]
    variant_forms.sort(key=lambda v: (-sum(v.counts.values()), v.text, v.form))
    leaves = [(t0, t1, s) for t0, t1, s, entry in lost if entry]
    apparatus = Apparatus(
        base,
        aligned.included,
        statuses,
        units,
        transpositions,
        maps,
        cuts,
        titles,
        unit_maker,
        variant_forms,
        own_forms,
        moved,
        [leaf_unit(base, maps, t0, t1, supplied, leaf_markers.get((t0, t1), {})) for t0, t1, supplied in leaves],
        family=lineage.family,
        agreements=lineage.agreements,
        relations=orthography.relations,
        markers=markers,
    )
    apparatus.number()
    return apparatus


def attestation_of(base: Witness, maps: dict[str, WitnessMap], external: ExternalEvidence | None) -> Attestation:
    """What attests the readings: the quotations in the witnesses' commentaries, the books of
    evidence, the base's own words elsewhere and its notes."""
    # Each witness's map to the base is made as the search reaches it: one such dict alive at a time.
    searched = chain([(base, None)], ((m.witness, m.base_of()) for m in maps.values()))
    quoted = find_quotations(searched)
    return Attestation(
        quoted, base.classic.text, quoting().inside, external, base.layer, OwnUsage(base, quoting().own_note)
    )


def moved_clauses_of(
    maps: dict[str, WitnessMap], base_text: str, ends: set[int], seams: set[int]
) -> list[Transposition]:
    """The clauses each witness reads elsewhere (cut at `ends`: sections, seams, lost leaves), as
    transpositions; each map divided at every gap where a clause begins, ends or is read, and at
    `seams`, so that what a witness reads for text on both sides of one is read on each side once."""
    transpositions: list[Transposition] = []
    ends = ends | {g for m in maps.values() for move in m.alignment.moves for g in (move.b0, move.b1)}
    moved_clauses = {siglum: clauses(wmap.alignment.moves, ends) for siglum, wmap in maps.items()}
    cut_gaps = {g for moves in moved_clauses.values() for m in moves for g in (m.b0, m.b1, m.at)} | seams
    for wmap in maps.values():
        wmap.divide(cut_gaps, base_text)
    for siglum, wmap in maps.items():
        pieces = moved_clauses[siglum]
        kept = read_once(wmap, pieces)
        for number, move in enumerate(kept, len(transpositions)):
            wmap.add_move(number, move.b0, move.b1)
        # a reading of a clause it reads elsewhere too; a compilation's repetition is none (rearrangement.py)
        for move in (m for m in pieces if m not in kept and not wmap.witness.compilation):
            wmap.add_insertion(outside_moves(wmap, move.at), move.w0, move.w1)
        for move in kept:
            tokens = wmap.witness.classic.tokens[move.w0 : move.w1]
            differences = sum(max(op.b1 - op.b0, op.w1 - op.w0) for op in move.ops if op.tag != "equal")
            transpositions.append(
                Transposition(
                    len(transpositions),
                    siglum,
                    move.b0,
                    move.b1,
                    outside_moves(wmap, move.at),
                    move.w0,
                    move.w1,
                    reading_text(wmap.witness, tokens)[0],
                    differences,
                    move.ops,
                )
            )
    return transpositions


def holder_cuts(
    cut_gaps: set[int], transpositions: list[Transposition], lost: list[tuple[int, int, Supplied, bool]]
) -> dict[int, str]:
    """The cuts on the doubled axis, each with the side a mark at it stands on. The places that hold
    other units (moved clauses' places, lost leaves): no unit straddles their ends, and what stands
    at the gap where one ends stands after it."""
    holders = [(t.b0, t.b1) for t in transpositions] + [(t0, t1) for t0, t1, _, entry in lost if entry]
    opening, closing = {t0 for t0, _ in holders}, {t1 for _, t1 in holders}
    return {
        2 * g: "alone" if g in opening and g in closing else "after" if g in closing else "before" for g in cut_gaps
    }


def markers_moved(markers: Markers, maps: dict[str, WitnessMap]) -> dict[tuple[int, str], list[str]]:
    """A witness's markers inside a clause it reads elsewhere, taken out: they go with that clause's
    unit there."""
    return {
        (token, siglum): markers[token].pop(siglum)
        for token in list(markers)
        for siglum in list(markers[token])
        if siglum in maps and token in maps[siglum].moved_away
    }


Marks = list[tuple[int, int]]
Markers = dict[int, dict[str, list[str]]]  # base token -> siglum -> witStart, witEnd, lacunaStart, lacunaEnd


def witness_marks(
    base: Witness, maps: dict[str, WitnessMap], forms: FormComparison, boundaries: set[int]
) -> tuple[Marks, Markers, dict[str, dict[int, tuple[str, str]]]]:
    """Each witness's marks on the doubled axis (a repetition's entry holds no two sides of one of
    the `boundaries`), where it starts and stops, and the characters it writes otherwise than the
    base where it reads the same."""
    base_text, n = base.classic.text, len(base.classic.tokens)
    marks: Marks = []
    markers: Markers = defaultdict(lambda: defaultdict(list))
    own_forms: dict[str, dict[int, tuple[str, str]]] = {}
    for siglum, wmap in maps.items():
        w = wmap.witness
        own = own_forms[siglum] = {}
        for op in wmap.alignment.ops:  # but where it reads the base's tokens elsewhere, in a moved clause
            if op.tag == "replace" or op.tag == "delete" and wmap.extant[op.b0]:  # not where it is not extant
                for t0, t1 in runs(i for i in range(op.b0, op.b1) if i not in wmap.moved_away):
                    marks.append(
                        (2 * t0 + 1, 2 * t1 - 1)
                        if op.tag == "replace"
                        else with_repetition(base_text, t0, t1, base_text[t0:t1], boundaries)
                    )
            elif op.tag == "insert":
                marks.append(with_repetition(base_text, op.b0, op.b0, w.classic.text[op.w0 : op.w1], boundaries))
            elif op.tag == "equal":
                for b, (form, difference, recorded) in forms.of(w, op).items():
                    if b in wmap.moved_away:
                        continue
                    if recorded:
                        marks.append((2 * b + 1,) * 2)
                    if difference is not None:
                        own[b] = (form, difference)
        for gap in wmap.inserted:  # what it adds, its insertions and the text it reads again elsewhere
            marks.append((2 * gap, 2 * gap))
        for t0, t1 in runs(i for i in range(n) if wmap.lacks(i)):
            marks.append((2 * t0 + 1, 2 * t1 - 1))
        fragment_markers(markers, siglum, wmap.alignment.extant, n)
        for position, text in intrusion_gaps(w):
            gap = wmap.gap_of(position)
            wmap.intrusions.setdefault(gap, []).append((position, text))
            marks.append((2 * gap,) * 2)
    return marks, markers, own_forms


def base_leaf_markers(
    markers: Markers, base_siglum: str, lost: list[tuple[int, int, Supplied, bool]], n: int
) -> dict[tuple[int, int], dict[str, list[str]]]:
    """The base's markers at its lost leaves. Where the 經's entry holds the 注 of a leaf, the base's
    lacunaStart and lacunaEnd in the 注 (witEnd and witStart where the leaf ends or starts the base's
    text) stand in the base's readings of the entries of the 注 at the leaf's edges (returned by
    edge), else beside them (in `markers`)."""
    held = [(t0, t1) for t0, t1, _, entry in lost if not entry]
    edges = {(t0, t1) for t0, t1, _, entry in lost if entry}
    leaf_markers: dict[tuple[int, int], dict[str, list[str]]] = {}
    fragment_markers(markers, base_siglum, extant_around(held, n), n)
    for t0, t1 in held:
        lead = next(((a, b) for a, b in edges if b == t0), None)
        trail = next(((a, b) for a, b in edges if a == t1), None)
        for edge, token, names in ((lead, t0 - 1, ("lacunaStart", "witEnd")), (trail, t1, ("lacunaEnd", "witStart"))):
            if edge is not None:  # a leaf lost at the start of the base's text is where it starts
                name = next(m for m in markers[token][base_siglum] if m in names)
                markers[token][base_siglum].remove(name)
                if not markers[token][base_siglum]:
                    del markers[token][base_siglum]
                leaf_markers[edge] = {base_siglum: [name]}
    return leaf_markers


def lost_spans(base: Witness) -> list[tuple[int, int, Supplied, bool]]:
    """The base tokens of the text supplied for each lost leaf, and whether they are an entry of
    the layer collated. A leaf is an entry where it holds text of that layer; but in the 注, the
    經's entry holds the 注 of a leaf that holds 經, but for the 注 at its edges (the end of a note
    whose beginning the base has, before the leaf's first 經; the beginning of one whose end it
    has, after its last): each of those stands in its note, outside the 經's entry, and is an
    entry of the 注."""
    out = []
    starts = base.classic.starts
    for t0, t1, supplied in base.supplied_spans:
        if base.layer == "classic" or not supplied.layers & set(TRANSMITTED):
            out.append((t0, t1, supplied, True))
            continue
        classic = [
            s for layer in TRANSMITTED for s in base.segments_of(layer) if supplied.start <= s.start < supplied.end
        ]
        first = bisect_left(starts, min(s.start for s in classic), t0, t1)
        last = bisect_left(starts, max(s.end for s in classic), t0, t1)
        parts = ((t0, first, True), (first, last, False), (last, t1, True))
        out += [(a, b, supplied, entry) for a, b, entry in parts if b > a]
    return out


def extant_around(lost: list[tuple[int, int]], n: int) -> list[tuple[int, int]]:
    """The base tokens 0:n but for the lost spans."""
    out, start = [], 0
    for t0, t1 in sorted(lost):
        if t0 > start:
            out.append((start, t0))
        start = max(start, t1)
    return out + [(start, n)] if start < n or not out else out


def base_lacks(lost: list[tuple[int, int, Supplied, bool]], t0: int, t1: int, n: int) -> bool:
    """The base reads nothing of its own at tokens t0:t1 (at gap t0 if they are none) of its `n`:
    they are inside a lost leaf (`lost`: its tokens, and whether it is an entry of its own, outside
    which the gaps at its edges stand); or the gap is before its first token or after its last in
    a layer where it is extant in part (where another entry holds a leaf's text of this layer, its
    witStart and witEnd stand at those tokens, see `fragment_markers`)."""
    if t0 == t1 in (0, n) and any(not entry for *_, entry in lost):
        return True
    return any(a <= t0 and t1 <= b and (t0 < t1 or a < t0 < b or not entry) for a, b, _, entry in lost)


def fragment_markers(markers, siglum: str, extant: list[tuple[int, int]], n: int) -> None:
    """Where a witness's text starts and stops (witStart, witEnd) and where it has lost text
    (lacunaStart, lacunaEnd), on the base tokens it is extant at; none for a witness extant throughout."""
    for number, (b0, b1) in enumerate(extant if extant != [(0, n)] else ()):
        if b1 <= b0:
            continue
        markers[b0][siglum].append("witStart" if number == 0 else "lacunaEnd")
        markers[b1 - 1][siglum].append("witEnd" if number == len(extant) - 1 else "lacunaStart")


def leaf_unit(
    base: Witness,
    maps: dict[str, WitnessMap],
    t0: int,
    t1: int,
    supplied: Supplied,
    markers: dict[str, list[str]],
) -> Unit:
    """A lost leaf's entry: the text supplied over base tokens t0:t1, read by the witnesses extant
    there (the units inside it are nested in it; not by one that reads elsewhere a clause that
    holds the leaf, whose place holds the leaf's entry), and the base's lacuna (with its `markers`,
    where the 經's entry holds the rest of the leaf's 注)."""
    tokens = base.classic.tokens
    lemma = Reading.of(base, tokens[t0:t1])
    lemma.display = base.classic_between(tokens[t0].start, tokens[t1 - 1].end)
    lemma.sigla = [s for s, m in maps.items() if any(m.extant[i] for i in range(t0, t1)) and not m.moves_around(t0, t1)]
    lacuna = Reading([base.meta.siglum], [], "", "", "lacuna")
    return Unit(0, t0, t1, lemma, [lacuna], markers=markers, lost_leaf=supplied)


def read_once(wmap: WitnessMap, pieces: list[Move]) -> list[Move]:
    """The witness's moved clauses that are transpositions: each base token is read once, where the
    witness reads it most as the base does (in place before a moved clause, the first moved clause
    before the others among equals). Clauses are cut where any other begins or ends (`clauses`):
    two of a witness are the same base tokens or none of the same."""
    agreement = lambda move: sum(op.b1 - op.b0 for op in move.ops if op.tag == "equal")
    best: dict[tuple[int, int], Move] = {}
    for move in pieces:
        span = (move.b0, move.b1)
        if agreement(move) > max(wmap.in_place(*span), agreement(best[span]) if span in best else -1):
            best[span] = move
    return [move for move in pieces if best.get((move.b0, move.b1)) is move]


def outside_moves(wmap: WitnessMap, gap: int) -> int:
    """The gap where what the witness has at base gap `gap` stands: before the clause's place, if
    `gap` is inside a clause the witness reads elsewhere (whose place is the other witnesses')."""
    while gap > 0 and wmap.moved_away.get(gap) is not None and wmap.moved_away.get(gap - 1) == wmap.moved_away[gap]:
        gap -= 1
    return gap


def clauses(moves: list[Move], ends: set[int]) -> list[Move]:
    """The moved blocks cut where sections end and where other moved blocks begin or end: each
    part is a clause of its own, and the places of two clauses are either one or apart."""
    out = []
    for move in moves:
        for cut in sorted(c for c in ends if move.b0 < c < move.b1):
            first, move = move.split(cut)
            out.append(first)
        out.append(move)
    return out


def runs(positions) -> list[tuple[int, int]]:
    """Consecutive positions as ranges (start, end)."""
    out: list[list[int]] = []
    for i in positions:
        if out and out[-1][1] == i:
            out[-1][1] = i + 1
        else:
            out.append([i, i + 1])
    return [(a, b) for a, b in out]


@dataclass
class FormComparison:
    """How a witness writes the characters it reads as the base does; the variant forms counted
    pair by pair for the 异体字表."""

    base: Witness
    orthography: Orthography
    pairs: dict[tuple[str, str], dict[str, int]]

    def of(self, witness: Witness, op) -> dict[int, tuple[str, str | None, bool]]:
        """Base token -> (the witness's characters, its difference of form or None for a stand-in,
        whether the apparatus records it at its place), for each token of an equal op written otherwise."""
        out = {}
        simplified, base_simplified = witness.meta.writes_simplified, self.base.meta.writes_simplified
        for k in range(op.b1 - op.b0):
            wt, bt = witness.classic.tokens[op.w0 + k], self.base.classic.tokens[op.b0 + k]
            form, text = wt.source(witness.raw), bt.source(self.base.raw)
            if form == text:
                continue
            if wt.kind != "char" or bt.kind != "char":
                out[op.b0 + k] = (form, None, True)
                continue
            difference = self.orthography.difference(form, simplified, text, base_simplified)
            if difference == "orthographic":
                self.pairs[text, form][witness.meta.siglum] += 1
            out[op.b0 + k] = (form, difference, self.orthography.recorded(difference))
        return out


def moved_units(
    transpositions: list[Transposition],
    base: Witness,
    maps: dict[str, WitnessMap],
    units: list[Unit],
    moved_markers,
    orthography: Orthography,
    forms: FormComparison,
    lost: list[tuple[int, int, Supplied, bool]] = (),
) -> list[Unit]:
    """Each transposition's two units: the clause's place in the base (shared by the witnesses
    that move the same clause), with the witness's reading empty, and the place where the witness
    reads it, with its text and the differences of that text from the base's."""
    base_siglum = base.meta.siglum
    tokens = base.classic.tokens
    out: list[Unit] = []
    for t in sorted(transpositions, key=lambda t: (t.b0, t.b1)):
        away = next((u for u in out if (u.t0, u.t1) == (t.b0, t.b1)), None)
        if away is None:
            lemma = Reading.of(base, tokens[t.b0 : t.b1])
            lemma.display = base.classic_between(tokens[t.b0].start, tokens[t.b1 - 1].end)
            away = Unit(0, t.b0, t.b1, lemma, [])
            out.append(away)
        wmap = maps[t.siglum]
        away.readings.append(Reading([t.siglum], [], "", "", "transposition", moves=[t.id], moved_away=True))
        for token in range(t.b0, t.b1):
            away.markers.setdefault(t.siglum, []).extend(moved_markers.get((token, t.siglum), []))
        t.away = away
        moved_tokens = wmap.witness.classic.tokens[t.w0 : t.w1]
        arriving = Reading.of(wmap.witness, moved_tokens, type="transposition", moves=[t.id])
        arriving.inner = differences_in(t, wmap, base, units, orthography, forms)
        extant_here = [s for s, m in maps.items() if s != t.siglum and m.gap_inside(t.at)]
        base_here = [] if base_lacks(lost, t.at, t.at, len(tokens)) else [base_siglum]
        t.arrival = Unit(0, t.at, t.at, Reading([*base_here, *extant_here], [], "", ""), [arriving])
        out.append(t.arrival)
    for unit in out:
        if unit.t0 < unit.t1:
            unit.lemma.sigla = [
                *([] if base_lacks(lost, unit.t0, unit.t1, len(tokens)) else [base_siglum]),
                *(
                    s
                    for s, m in maps.items()
                    if not any(r for r in unit.readings if s in r.sigla)
                    and any(m.reads_in_place(i) for i in range(unit.t0, unit.t1))
                ),
            ]
    return out


def differences_in(
    t: Transposition,
    wmap: WitnessMap,
    base: Witness,
    units: list[Unit],
    orthography: Orthography,
    forms: FormComparison,
) -> list[tuple[int, int, Unit]]:
    """Where a moved clause, as the witness reads it, differs from the edited text of the clause
    (the base's, or the lemma of a unit inside it that emends the base): (its first token, after
    its last, relative to the clause, and the unit of the difference)."""
    spans = []
    for op in t.ops:
        if op.tag != "equal":
            spans.append((op.b0, op.b1))
        else:
            spans += [(b, b + 1) for b, (_, _, recorded) in forms.of(wmap.witness, op).items() if recorded]
    # what the edition emends inside the clause (an addition at its edge stands outside it)
    emended = [u for u in units if (u.emended or u.graphic) and inside_clause(u, t.b0, t.b1)]
    spans += [(u.t0, u.t1) for u in emended]
    out = []
    tokens = wmap.witness.classic.tokens
    for b0, b1 in merge_spans(spans):
        w0, w1 = witness_position(t.ops, b0, t.w0), witness_position(t.ops, b1, t.w1)
        emending = next((u for u in emended if (u.t0, u.t1) == (b0, b1)), None)
        edited = emending.lemma if emending else None
        # the edited text, with the witnesses that read it in place (the basis of its emendation);
        # the moving witness is among them only if its moved reading reads it too (below)
        if edited:
            lemma = edited.same_text([s for s in edited.sigla if s != t.siglum])
        else:
            lemma = Reading.of(base, base.classic.tokens[b0:b1])
        readings = [Reading.of(wmap.witness, tokens[w0:w1])]
        if edited:  # where the edition emends the base, the base's reading too, which the witness may refute
            readings.append(Reading.of(base, base.classic.tokens[b0:b1]))
        others = []
        for reading in readings:
            if orthography.same(reading, lemma):
                lemma.sigla += reading.sigla
            else:
                reading.type, reading.subtype = classify(reading, lemma, orthography.relations)
                others.append(reading)
        if others:
            out.append(
                (
                    w0 - t.w0,
                    w1 - t.w0,
                    Unit(
                        0,
                        b0,
                        b1,
                        lemma,
                        others,
                        emended=emending is not None and emending.emended,
                        basis=emending.basis if emending else "",
                        graphic=emending is not None and emending.graphic,
                    ),
                )
            )
    return out


def inside_clause(unit: Unit, b0: int, b1: int) -> bool:
    """The unit lies within base tokens b0:b1 (an addition at a gap strictly inside them)."""
    return b0 < unit.t0 < b1 if unit.t0 == unit.t1 else b0 <= unit.t0 and unit.t1 <= b1


def merge_spans(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Overlapping spans of base tokens as one; insertions (empty spans) at a span's edge join it."""
    out: list[list[int]] = []
    for a, b in sorted(spans):
        if out and a <= out[-1][1] and not (a == out[-1][1] and a < b and out[-1][0] < out[-1][1]):
            out[-1][1] = max(out[-1][1], b)
        else:
            out.append([a, b])
    return [(a, b) for a, b in out]


def make_unit(
    t0: int,
    t1: int,
    gaps: range,
    base: Witness,
    maps,
    base_intrusions,
    markers,
    orthography: Orthography,
    attestation: Attestation,
    lost: list[tuple[int, int, Supplied, bool]] = (),
    family: dict[str, str] | None = None,
) -> Unit:
    """The unit over base tokens t0:t1 (and the gaps `gaps`): every extant witness's reading,
    the lemma chosen, typed; inside a lost leaf of the base (`base_lacks`), the lemma is what
    the witnesses read there, the base reading nothing."""
    base_siglum = base.meta.siglum
    base_tokens = base.classic.tokens[t0:t1]
    base_text = base.classic_between(base_tokens[0].start, base_tokens[-1].end) if base_tokens else ""
    base_reading = Reading.of(base, base_tokens)
    source, base_reading.display = base_reading.source, base_text  # shown with the base's punctuation
    readings: dict[str, Reading] = {base_siglum: base_reading}
    unit_markers: dict[str, list[str]] = defaultdict(list)
    for i in range(t0, t1):
        for siglum, names in markers.get(i, {}).items():
            unit_markers[siglum] += names
    partial_agreement = []
    for siglum, wmap in maps.items():
        extant_tokens = [i for i in range(t0, t1) if wmap.reads_in_place(i)]
        if not extant_tokens and not any(wmap.gap_inside(g) for g in gaps):
            continue
        positions = wmap.positions(t0, t1, gaps)
        tokens = [wmap.witness.classic.tokens[p] for p in positions]
        reading = Reading.of(wmap.witness, tokens)
        intruded = sorted(item for g in gaps for item in wmap.intrusions.get(g, ()))
        if intruded:
            reading.display = reading.source = spliced(wmap.witness, positions, intruded)
            reading.intrusion = True
        if len(extant_tokens) < t1 - t0:
            # the witness starts or stops inside the unit: it agrees if it reads the base where it is extant
            part = "".join(t.char for i, t in zip(range(t0, t1), base_tokens) if wmap.reads_in_place(i))
            if reading.norm == part:
                partial_agreement.append(siglum)
                continue
        readings[siglum] = reading
    intrusion = "".join(base_intrusions.get(g, "") for g in gaps)
    if intrusion:
        gap = next(g for g in gaps if g in base_intrusions)
        before, after = base_tokens[: gap - t0], base_tokens[gap - t0 :]
        base_reading.display = base_reading.source = (
            reading_text(base, before)[0] + intrusion + reading_text(base, after)[0]
        )
        base_reading.intrusion = True
    evidence = attestation.of(t0, t1, {r.norm for r in readings.values() if not r.moves})
    if base_lacks(lost, t0, t1, len(base.classic.tokens)):
        lemma, others = supplied_lemma(readings.pop(base_siglum), readings, orthography)
        lemma.sigla += partial_agreement
        read = {lemma.norm, *(r.norm for r in others)}  # the base's nothing may be no reading here
        evidence = {norm: quotations for norm, quotations in evidence.items() if norm in read}
        return Unit(0, t0, t1, lemma, others, markers=dict(unit_markers), evidence=evidence, gaps=gaps)
    words = base.classic.text
    context = (words[max(0, t0 - CONTEXT) : t0], words[t1 : t1 + CONTEXT])
    lemma, others, emended, candidate, graphic = choose_lemma(
        readings, base_siglum, base_text, source, orthography, evidence, family, bool(partial_agreement), context
    )
    lemma.sigla += partial_agreement
    return Unit(
        0,
        t0,
        t1,
        lemma,
        others,
        emended,
        candidate,
        dict(unit_markers),
        evidence=evidence,
        basis=COLLATION if emended else REASONING if graphic else "",
        graphic=graphic,
        gaps=gaps,
    )


def support(readings: list[Reading], quotations: list, family: dict[str, str]) -> set[str]:
    """The independent sources of a reading: the families of the witnesses that read it and of
    those whose commentary quotes it (a witness's 疏 quoting its own reading is that witness
    again), and any source of evidence apart from the witnesses (`lineage`)."""
    return {family.get(s, s) for r in readings for s in r.sigla} | {family.get(q.siglum, q.siglum) for q in quotations}


def reads_the_base_word(voter: Reading, base_reading: Reading, relations: Relations | None) -> bool:
    """The witness reads as the base, even with a lost character, or differs from it only by
    characters a table of `relations` relates to the base's (己/已, 說/脫, 玄/元, a site's 防 for 褻)."""
    return wildcard_equal(voter.norm, base_reading.norm) or (
        relations is not None and not voter.intrusion and relations.between(voter.norm, base_reading.norm) is not None
    )


def base_support(
    base_reading: Reading, voters: list[Reading], evidence: dict[str, list], family, relations: Relations | None = None
) -> set[str]:
    """The sources of the base's reading: the base, the witnesses that read its word and the
    quotations of it."""
    readers = [base_reading, *(v for v in voters if reads_the_base_word(v, base_reading, relations))]
    return support(readers, evidence.get(base_reading.norm, []), family)


def emendation(
    base_reading: Reading,
    voters: list[Reading],
    evidence: dict[str, list],
    family: dict[str, str],
    relations: Relations | None = None,
    beyond_witnesses: bool = True,
) -> list[Reading]:
    """The witnesses whose reading emends the base automatically: their reading, in known
    characters, has at least `EMENDING_SUPPORT` independent sources, more than the base's word
    and than any other substantive reading there (readings with a lost or unknown character that
    may be theirs do not count), and, `beyond_witnesses`, a source apart from the witnesses
    collated (`independent`). None if the rule does not apply, or the base's reading is an
    intrusion. Only substantive readings count: a variant form, a graphic variant, a usage, a
    taboo substitution or a site's filter (typed by `relations`) never emends, and a witness that
    reads one of them reads the base's word."""
    if base_reading.intrusion:
        return []
    groups: dict[str, list[Reading]] = defaultdict(list)
    for v in voters:
        if classify(v, base_reading, relations)[0] == "substantive":
            groups[v.norm].append(v)
    sources = {norm: len(support(group, evidence.get(norm, []), family)) for norm, group in groups.items()}
    best = max((norm for norm in sources if UNMAPPED not in norm), key=sources.get, default=None)
    if best is None or sources[best] < EMENDING_SUPPORT:
        return []
    if sources[best] <= len(base_support(base_reading, voters, evidence, family, relations)):
        return []
    if beyond_witnesses and not independent(evidence.get(best, []), base_reading, family):
        return []
    rivals = [norm for norm in sources if norm != best and not wildcard_equal(norm, best)]
    return [] if any(sources[norm] >= sources[best] for norm in rivals) else groups[best]


def independent(quotations: list, base_reading: Reading, family: dict[str, str]) -> bool:
    """Evidence beyond the witnesses collated: a book of evidence apart from them (the 單疏本, a
    校勘記, an edition it reports), or the base itself (its commentary, its words elsewhere: 本校).
    A collated witness's commentary quoting its own reading is that witness again."""
    return any(q.siglum not in family or q.siglum in base_reading.sigla for q in quotations)


def for_the_editor(
    base_reading: Reading,
    voters: list[Reading],
    evidence: dict[str, list],
    family: dict[str, str],
    relations: Relations | None = None,
) -> bool:
    """A candidate for emendation where the base is not emended: the base's word has no source
    but the base (and its family) and a witness reads otherwise substantively, witnesses agree
    against it as an emendation would need but for evidence beyond them, or a quotation attests
    another reading (not one that a table of `relations` relates to the base's: 熟 for 孰)."""
    otherwise = any(classify(v, base_reading, relations)[0] == "substantive" for v in voters)
    alone = not base_reading.intrusion and len(base_support(base_reading, voters, evidence, family, relations)) == 1
    agreed = bool(emendation(base_reading, voters, evidence, family, relations, beyond_witnesses=False))
    attested = any(
        norm != base_reading.norm and (relations is None or relations.between(norm, base_reading.norm) is None)
        for norm in evidence
    )
    return alone and otherwise or agreed or attested


def other_member(base_reading: Reading, voters: list[Reading], relations: Relations) -> bool:
    """A witness reads another member of a graphic family (己已巳) than the base's."""
    return (
        not base_reading.intrusion
        and relations.member(base_reading.norm)
        and any(not v.intrusion and classify(v, base_reading, relations)[0] == GRAPHIC for v in voters)
    )


def graphic_sense(
    base_reading: Reading, voters: list[Reading], relations: Relations, context
) -> tuple[bool, Reading | None]:
    """Where a witness reads another member of a graphic family than the base's: whether the base's
    words about it (`context`) call for a member (`Relations.sense`), and the reading the edited
    text takes where they call for another than the base's: that of a witness that reads it, or
    the member as no witness reads it."""
    called = relations.sense(*context, base_reading.norm) if other_member(base_reading, voters, relations) else None
    if called is None:
        return False, None
    if called[0] == base_reading.norm:
        return True, None
    taken = next((v for v in voters if v.norm == called[0] and not v.intrusion), None)
    return True, taken or Reading([], [], called[0], called[0])


def choose_lemma(
    readings: dict[str, Reading],
    base_siglum: str,
    base_text: str,
    base_source: str,
    orthography: Orthography,
    evidence: dict[str, list],
    family: dict[str, str],
    partial: bool = False,
    context: tuple[str, str] = ("", ""),
) -> tuple[Reading, list[Reading], bool, bool, bool]:
    """The lemma, the other readings typed against it, whether the base was emended (`emendation`),
    whether the place is a candidate for the editor (`for_the_editor`), and whether the lemma is the
    member of a graphic family that the base's words before and after it (`context`) call for
    (`graphic_sense`; not where a witness that starts or stops inside the unit reads the base's
    text, `partial`)."""
    base_reading = readings[base_siglum]
    voters = [r for s, r in readings.items() if s != base_siglum and not r.moves]
    relations = orthography.relations
    emending = emendation(base_reading, voters, evidence, family, relations)
    emended = bool(emending)
    decided, graphic = (False, None) if emended or partial else graphic_sense(base_reading, voters, relations, context)
    if emending:  # printed as a witness that writes it in characters, in the base's script if one does
        model = min(
            emending,
            key=lambda v: (any(t.kind != "char" for t in v.tokens), v.simplified != base_reading.simplified),
        )
    elif graphic:
        model = graphic
    else:
        model = Reading(
            [base_siglum],
            base_reading.tokens,
            base_text,
            base_reading.norm,
            source=base_source,
            forms=base_reading.forms,
            simplified=base_reading.simplified,
            owner=base_siglum,
        )
    lemma, others = typed_against(model, readings, orthography)
    # the words decide nothing between the members the witnesses read: the editor does
    undecided = not decided and not partial and other_member(base_reading, voters, relations)
    candidate = (
        not emended and not graphic and (undecided or for_the_editor(base_reading, voters, evidence, family, relations))
    )
    return lemma, others, emended, candidate, bool(graphic)


def typed_against(
    model: Reading, readings: dict[str, Reading], orthography: Orthography
) -> tuple[Reading, list[Reading]]:
    """The lemma, `model`'s text read by every witness that reads the same, and the others typed
    against it (those that read alike sharing one reading)."""
    lemma = model.same_text([])
    others = []
    for siglum, reading in readings.items():
        if not reading.moves and not reading.intrusion and orthography.same(reading, lemma):
            lemma.sigla.append(siglum)
            continue
        reading.type, reading.subtype = classify(reading, lemma, orthography.relations)
        others.append(reading)
    lemma.sigla.sort(key=lambda s: s != model.owner)  # the lemma's tokens are its owner's
    return lemma, merge_same(others, orthography)


def supplied_lemma(
    supplied: Reading, readings: dict[str, Reading], orthography: Orthography
) -> tuple[Reading, list[Reading]]:
    """Inside a lost leaf of the base: the text supplied, unless more witnesses agree on another
    reading (in known characters) than read the text supplied; the base reads nothing there."""
    groups: dict[str, list[Reading]] = defaultdict(list)
    for reading in readings.values():
        if not reading.moves and not reading.intrusion:
            groups[reading.norm].append(reading)
    most = max((norm for norm in groups if UNMAPPED not in norm), key=lambda norm: len(groups[norm]), default=None)
    model = supplied
    if most is not None and most != supplied.norm and len(groups[most]) > len(groups.get(supplied.norm, ())):
        model = min(groups[most], key=lambda v: v.simplified != supplied.simplified)
    return typed_against(model, readings, orthography)
