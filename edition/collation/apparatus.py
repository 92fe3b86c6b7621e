"""Apparatus: the variation units of every included witness against the base, with typed readings
and the edited text (the lemma).

Each witness's alignment yields marks on a doubled axis of the base (base token i is 2i+1, the gap
before it is 2i): its substitutions and omissions, its additions and the blocks it moves, its
orthographic differences where the apparatus records them at each place (see `Orthography`),
and where its text starts and stops. Marks of all witnesses that touch are merged into variation
units. In each unit every extant witness has one reading; readings with the same comparison text
form one substantive reading, their display forms its orthographic variants. The base reading is
the lemma unless intake flagged it as an intrusion, or the base stands alone against every other
witness extant there: then the others' reading is the lemma, marked as an automatic emendation.

Every orthographic difference of a witness from the base's text is also counted, pair by pair,
for the 异体字表; and every character a witness writes otherwise than the base where it reads
the same is kept with its place, for the views of the witness.
"""

from __future__ import annotations

import gc
from bisect import bisect_left
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import wraps

from ..intake.witness import Witness
from ..intake.align import STRETCH, align, layout_problem
from .reading import UNMAPPED, Orthography, Reading, classify, merge_same, reading_text
from .sections import section_cuts
from .variation_unit import Unit
from .witness_map import WitnessMap, WitnessStatus

AUTO_RESP = "edition-auto"
EMENDING_WITNESSES = 2  # other witnesses that must agree against the base for an automatic emendation
LINES_NAMED = 12


@dataclass
class Transposition:
    id: int
    siglum: str
    b0: int
    b1: int
    at: int  # base gap where the witness reads the block
    display: str
    differences: int  # characters in which the moved block differs from the base's text


@dataclass
class VariantForm:
    """A pair of the 异体字表: the base's form, a witness's form, where each witness writes it."""

    text: str
    form: str
    counts: dict[str, int]
    sources: tuple[str, ...]


@dataclass
class Apparatus:
    base: Witness
    witnesses: dict[str, Witness]  # included, base first
    statuses: dict[str, WitnessStatus]
    units: list[Unit]
    transpositions: list[Transposition]
    maps: dict[str, "WitnessMap"]
    section_cuts: list[int]
    section_titles: dict[int, tuple[str, str]]
    make_unit: Callable[[int, int, range], Unit]
    variant_forms: list[VariantForm]
    own_forms: dict[str, dict[int, tuple[str, str]]]  # siglum -> base token -> (its characters, "script" or "orthographic")
    punctuation: dict[int, str] = field(default_factory=dict)  # base gap -> editorial punctuation carried over to it
    punctuation_source: str = ""  # the witness it is carried over from

    def unit_over(self, t0: int, t1: int) -> Unit:
        """The unit covering base tokens t0:t1: an existing one, or one made by merging those it
        overlaps, or a new one. Units stay in order and keep their readings."""
        overlapping = [u for u in self.units if u.t0 < t1 and t0 < u.t1 or (u.t0 == u.t1 and t0 < u.t0 < t1)]
        if len(overlapping) == 1 and overlapping[0].t0 <= t0 and t1 <= overlapping[0].t1:
            return overlapping[0]
        if overlapping:
            t0, t1 = min(t0, *(u.t0 for u in overlapping)), max(t1, *(u.t1 for u in overlapping))
        unit = self.make_unit(t0, t1, range(t0 + 1, t1))
        for old in overlapping:
            unit.reported += old.reported
            self.units.remove(old)
        self.units.append(unit)
        self.units.sort(key=lambda u: (u.t0, u.t1))
        for index, u in enumerate(self.units):
            u.index = index
        return unit


def merge_marks(marks: list[tuple[int, int]], loose: set[tuple[int, int]]) -> list[tuple[int, int]]:
    """Merge marks that overlap, or touch (a deletion next to an addition is one substitution);
    `loose` marks (where a moved block comes in) merge only with marks they overlap."""
    merged: list[list] = []
    for a, b in sorted(set(marks)):
        touching = merged and a == merged[-1][1] + 1 and not merged[-1][2] and (a, b) not in loose
        if merged and (a <= merged[-1][1] or touching):
            merged[-1][1] = max(merged[-1][1], b)
            merged[-1][2] = merged[-1][2] and (a, b) in loose
        else:
            merged.append([a, b, (a, b) in loose])
    return [(a, b) for a, b, _ in merged]


def misread(witness: Witness, alignment) -> str:
    """Why a witness aligns badly: scrambled, or a layout problem, naming the lines of the
    stretches the base lacks."""
    stretches = layout_problem(alignment)
    if stretches is None:
        return "scrambled or unrelated"
    line = witness.raw.line_of
    starts, ends = witness.classic.starts, witness.classic.ends
    spans = [(line(starts[op.w0]), line(ends[op.w1 - 1] - 1)) for op in stretches]
    named = ", ".join(f"{a}–{b}" if b > a else str(a) for a, b in spans[:LINES_NAMED]) + (", …" if len(spans) > LINES_NAMED else "")
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
    for segment in witness.segments_of("intrusion"):
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
) -> Apparatus:
    by_siglum = {w.meta.siglum: w for w in witnesses}
    base = by_siglum[base_siglum]
    base_tokens = base.classic.tokens
    n = len(base_tokens)
    base_text = base.classic.text
    statuses = {base_siglum: WitnessStatus(base_siglum, 1.0, True, "base text", [(0, n)])}
    maps: dict[str, WitnessMap] = {}
    for w in witnesses:
        siglum = w.meta.siglum
        if siglum == base_siglum:
            continue
        alignment = align(base_text, w.classic.text, breaks=w.lacuna_breaks, base_lacunae=base.lacuna_breaks)
        quality = alignment.quality
        if siglum in exclude:
            included, reason = False, "excluded by an editorial decision"
        elif siglum in include:
            included, reason = True, "included by an editorial decision"
        elif quality < min_quality:
            included, reason = False, f"only {quality:.0%} of its characters align in order (minimum {min_quality:.0%}): {misread(w, alignment)}"
        else:
            included, reason = True, f"{quality:.0%} of its characters align in order"
        statuses[siglum] = WitnessStatus(siglum, quality, included, reason, alignment.extant, alignment)
        if included:
            maps[siglum] = WitnessMap(w, alignment, n)

    marks: list[tuple[int, int]] = []
    loose: set[tuple[int, int]] = set()
    transpositions: list[Transposition] = []
    markers: dict[int, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))  # base token -> siglum -> markers
    pairs: dict[tuple[str, str], dict[str, int]] = defaultdict(lambda: defaultdict(int))
    own_forms: dict[str, dict[int, tuple[str, str]]] = {}
    base_simplified = base.meta.writes_simplified
    for siglum, wmap in maps.items():
        w = wmap.witness
        simplified = w.meta.writes_simplified
        own = own_forms[siglum] = {}
        for op in wmap.alignment.ops:
            if op.tag in ("replace", "delete"):
                marks.append((2 * op.b0 + 1, 2 * op.b1 - 1))
            elif op.tag == "insert":
                marks.append((2 * op.b0, 2 * op.b0))
            else:
                for k in range(op.b1 - op.b0):
                    wt, bt = w.classic.tokens[op.w0 + k], base_tokens[op.b0 + k]
                    form, text = wt.source(w.raw), bt.source(base.raw)
                    if form == text:
                        continue
                    if wt.kind != "char" or bt.kind != "char":
                        marks.append((2 * (op.b0 + k) + 1,) * 2)
                    else:
                        difference = orthography.difference(form, simplified, text, base_simplified)
                        if orthography.recorded(difference):
                            marks.append((2 * (op.b0 + k) + 1,) * 2)
                        if difference == "orthographic":
                            pairs[text, form][siglum] += 1
                        own[op.b0 + k] = (form, difference)
        for move in wmap.alignment.moves:
            move_id = len(transpositions)
            wmap.add_move(move_id, move.b0, move.b1, move.w0, move.w1, move.at)
            display, norm = reading_text(w, w.classic.tokens[move.w0 : move.w1])
            differences = sum(max(op.b1 - op.b0, op.w1 - op.w0) for op in move.ops if op.tag != "equal")
            transpositions.append(Transposition(move_id, siglum, move.b0, move.b1, move.at, display, differences))
            marks.append((2 * move.at, 2 * move.at))
            loose.add((2 * move.at, 2 * move.at))
        extant = wmap.alignment.extant
        for number, (b0, b1) in enumerate(extant if extant != [(0, n)] else ()):  # extant throughout: no fragment
            if b1 <= b0:
                continue
            markers[b0][siglum].append("witStart" if number == 0 else "lacunaEnd")
            markers[b1 - 1][siglum].append("witEnd" if number == len(wmap.alignment.extant) - 1 else "lacunaStart")
        for position, text in intrusion_gaps(w):
            gap = wmap.gap_of(position)
            wmap.intrusions.setdefault(gap, []).append((position, text))
            marks.append((2 * gap,) * 2)
    base_intrusions = dict(intrusion_gaps(base))
    for gap in base_intrusions:
        marks.append((2 * gap, 2 * gap))
    for token in markers:
        marks.append((2 * token + 1, 2 * token + 1))
    included = {base_siglum: base, **{s: m.witness for s, m in maps.items()}}
    cuts, titles = section_cuts(included, maps, statuses, n)
    units = build_units(merge_marks(marks, loose), base, maps, base_intrusions, markers, orthography)
    units = cover_moved_away(units, base, maps, n, cuts, orthography)
    for index, unit in enumerate(units):
        unit.index = index

    def unit_maker(t0: int, t1: int, gaps: range) -> Unit:
        return make_unit(t0, t1, gaps, base, maps, base_intrusions, markers, orthography)

    variant_forms = [VariantForm(text, form, dict(counts), orthography.sources(text, form)) for (text, form), counts in pairs.items()]
    variant_forms.sort(key=lambda v: (-sum(v.counts.values()), v.text, v.form))
    return Apparatus(base, included, statuses, units, transpositions, maps, cuts, titles, unit_maker, variant_forms, own_forms)


def build_units(spans, base: Witness, maps: dict[str, WitnessMap], base_intrusions, markers, orthography: Orthography) -> list[Unit]:
    units = []
    for a, b in spans:
        t0, t1 = a // 2, (b + 1) // 2
        gaps = range((a + 1) // 2, b // 2 + 1)
        units.append(make_unit(t0, t1, gaps, base, maps, base_intrusions, markers, orthography))
    return units


def cover_moved_away(units: list[Unit], base: Witness, maps: dict[str, WitnessMap], n: int, cuts: list[int], orthography: Orthography) -> list[Unit]:
    """A witness that reads a stretch of the base elsewhere must be attested in it: stretches of a
    moved-away block that no unit covers become units of their own, cut where sections end."""
    cut_set = set(cuts)
    covered = [False] * n
    for unit in units:
        for i in range(unit.t0, unit.t1):
            covered[i] = True
    extra = []
    for siglum, wmap in maps.items():
        run_start = None
        for i in range(n + 1):
            inside = i < n and i in wmap.moved_away and not covered[i]
            if inside and run_start is not None and i in cut_set:
                extra.append((run_start, i))
                run_start = None
            if inside and run_start is None:
                run_start = i
            elif not inside and run_start is not None:
                extra.append((run_start, i))
                run_start = None
        for t0, t1 in extra:
            for k in range(t0, t1):
                covered[k] = True
    for t0, t1 in extra:
        units.append(make_unit(t0, t1, range(t0 + 1, t1), base, maps, {}, {}, orthography))
    return sorted(units, key=lambda u: (u.t0, u.t1))


def make_unit(t0: int, t1: int, gaps: range, base: Witness, maps, base_intrusions, markers, orthography: Orthography) -> Unit:
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
        extant_tokens = [i for i in range(t0, t1) if wmap.extant[i]]
        moved_away = sorted({wmap.moved_away[i] for i in range(t0, t1) if i in wmap.moved_away})
        moved_in = [m for g in gaps for m in wmap.moved_in.get(g, ())]
        if not extant_tokens and not moved_away and not moved_in and not any(wmap.gap_inside(g) for g in gaps):
            continue
        positions = wmap.positions(t0, t1, gaps)
        tokens = [wmap.witness.classic.tokens[p] for p in positions]
        reading = Reading.of(wmap.witness, tokens, moves=moved_in + moved_away, moved_away=bool(moved_away))
        intruded = sorted(item for g in gaps for item in wmap.intrusions.get(g, ()))
        if intruded:
            reading.display = reading.source = spliced(wmap.witness, positions, intruded)
            reading.intrusion = True
        if len(extant_tokens) < t1 - t0 and not moved_away and not moved_in:
            # the witness starts or stops inside the unit: it agrees if it reads the base where it is extant
            part = "".join(t.char for i, t in zip(range(t0, t1), base_tokens) if wmap.extant[i])
            if reading.norm == part:
                partial_agreement.append(siglum)
                continue
        readings[siglum] = reading
    intrusion = "".join(base_intrusions.get(g, "") for g in gaps)
    if intrusion:
        gap = next(g for g in gaps if g in base_intrusions)
        before, after = base_tokens[: gap - t0], base_tokens[gap - t0 :]
        base_reading.display = base_reading.source = reading_text(base, before)[0] + intrusion + reading_text(base, after)[0]
        base_reading.intrusion = True
    lemma, others, emended, candidate = choose_lemma(readings, base_siglum, base_text, source, orthography)
    lemma.sigla += partial_agreement
    return Unit(0, t0, t1, lemma, others, emended, candidate, dict(unit_markers))


def against_the_base(base_reading: Reading, voters: list[Reading]) -> bool:
    """Every other witness extant in place agrees on one substantive reading that is not the base's."""
    if not voters or any(v.norm != voters[0].norm for v in voters) or voters[0].norm == base_reading.norm:
        return False
    if "▯" in voters[0].norm or UNMAPPED in voters[0].norm:
        return False
    return classify(base_reading, voters[0])[0] == "substantive"


def choose_lemma(readings: dict[str, Reading], base_siglum: str, base_text: str, base_source: str, orthography: Orthography) -> tuple[Reading, list[Reading], bool, bool]:
    """The lemma, the other readings typed against it, whether the base was emended (at least
    `EMENDING_WITNESSES` others agree against it) and whether the place is a candidate for the
    editor (fewer do)."""
    base_reading = readings[base_siglum]
    voters = [r for s, r in readings.items() if s != base_siglum and not r.moves]
    alone = not base_reading.intrusion and against_the_base(base_reading, voters)
    emended = alone and len(voters) >= EMENDING_WITNESSES
    if emended:  # printed as a witness that writes it in characters, in the base's script if one does
        model = min(voters, key=lambda v: (any(t.kind != "char" for t in v.tokens), v.simplified != base_reading.simplified))
    else:
        model = Reading([base_siglum], base_reading.tokens, base_text, base_reading.norm, source=base_source, forms=base_reading.forms, simplified=base_reading.simplified)
    lemma = Reading([], model.tokens, model.display, model.norm, source=model.source, forms=model.forms, simplified=model.simplified)
    others = []
    for siglum, reading in readings.items():
        if not reading.moves and not reading.intrusion and orthography.same(reading, lemma):
            lemma.sigla.append(siglum)
            continue
        reading.type, reading.subtype = classify(reading, lemma)
        others.append(reading)
    lemma.sigla.sort(key=lambda s: s != model.sigla[0])  # the lemma's tokens are its first witness's
    return lemma, merge_same(others, orthography), emended, alone and not emended
