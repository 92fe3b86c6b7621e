"""Alignment of one witness's comparison stream against the base, character by character: how
collation places a witness, and how intake tells a witness's classic text by the others'.

Unique k-grams shared by both texts are anchors. The longest chain of anchors in the order of
both texts is the witness's text in place; between chained anchors the texts are aligned locally
(rapidfuzz's Levenshtein opcodes). Runs of anchors that fall outside the chain are blocks the
witness has moved: each is aligned to its place in the base and recorded as a transposition. A
block grows over matching neighbours up to a clause boundary (`base_clauses`, `witness_clauses`:
punctuation, a separator or a note between two characters, in either text) or a cut. Stretches
of the base with no witness text at the start, the end or inside (longer than `lacuna_length`)
are where the witness is not extant, and so is the base text between the chained anchors around
a `break`, where the witness has a lacuna of unknown extent (a missing page): the witness text on
either side of it is aligned from its own side, and what lies between is not extant however
short. With `near`, words the witness leaves out and adds again, the same, within `near`
characters of the base and inside one of its passages (`base_passages`: 以得 for 得以; 尊 eighteen
characters on in a note of 喪服) are one substitution, not an omission and an addition. A stretch
the witness reads elsewhere counts as extant. An `excerpt` (a witness that quotes the base's text
in part, as an abridged 注) is extant only where it has text: every stretch of the
base it leaves out is where it does not quote, however short. The work is near-linear in the
length of the texts: only the short stretches between anchors are aligned by dynamic programming.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from difflib import SequenceMatcher

from rapidfuzz.distance import Indel, Levenshtein

from .model import Alignment, Move, Op

WILDCARDS = "▯\ufffc"
CLAUSE = 10  # characters aligned in one run: a clause read in order, not a chance match
STRETCH = 20  # characters between runs that the base lacks: a note, not a variant


def layout_problem(alignment: Alignment) -> list[Op] | None:
    """Why a witness aligns badly, from the runs of its alignment: None if it is scrambled (it
    aligns in short runs), else the long stretches the base lacks between its long runs (a layout
    problem: most often commentary read as classic text)."""
    runs = [op.w1 - op.w0 for op in alignment.ops if op.tag == "equal"]
    stretches = [op for op in alignment.ops if op.tag in ("insert", "replace") and op.w1 - op.w0 >= STRETCH]
    unaligned = alignment.witness_length - alignment.in_order
    if sum(r for r in runs if r >= CLAUSE) < sum(runs) / 2 or sum(op.w1 - op.w0 for op in stretches) < unaligned / 2:
        return None
    return stretches


def unique_kgrams(
    text: str, k: int, skip: frozenset[int] = frozenset(), among: dict[str, int] | None = None
) -> dict[str, int]:
    """The k-grams that stand once in `text`, by position, but for those with a wildcard; none
    starting at a position in `skip` is counted, and with `among` only those in it (the text may
    be huge: what is kept is bounded by `among`)."""
    seen: dict[str, int] = {}
    for i in range(len(text) - k + 1):
        if i in skip:
            continue
        gram = text[i : i + k]
        if among is None or gram in among:
            seen[gram] = -1 if gram in seen else i
    return {g: i for g, i in seen.items() if i >= 0 and not any(c in WILDCARDS for c in g)}


def anchors(base: str, witness: str, k: int, cuts: tuple[int, ...] = ()) -> list[tuple[int, int]]:
    """(witness position, base position) of k-grams unique in both, in witness order. The shorter
    text's unique k-grams are found first and only those are counted in the longer: either may be
    huge (a large witness, or a large reference of an alignment rule). A k-gram across a cut
    (before witness position p) is none."""
    across = frozenset(i for p in cuts for i in range(max(0, p - k + 1), p))
    if len(witness) < len(base):
        in_witness = unique_kgrams(witness, k, across)
        in_base = unique_kgrams(base, k, among=in_witness)
    else:
        in_base = unique_kgrams(base, k)
        in_witness = unique_kgrams(witness, k, across, among=in_base)
    return sorted((w, in_base[g]) for g, w in in_witness.items() if g in in_base)


def longest_chain(points: list[tuple[int, int]]) -> tuple[list[int], list[int]]:
    """Indices of a longest chain increasing in both coordinates (points sorted by the first),
    and the indices left out."""
    tails: list[int] = []
    tail_index: list[int] = []
    previous = [-1] * len(points)
    for i, (_, b) in enumerate(points):
        j = bisect_left(tails, b)
        if j == len(tails):
            tails.append(b)
            tail_index.append(i)
        else:
            tails[j] = b
            tail_index[j] = i
        previous[i] = tail_index[j - 1] if j else -1
    chain = []
    i = tail_index[-1] if tail_index else -1
    while i >= 0:
        chain.append(i)
        i = previous[i]
    chain.reverse()
    chosen = set(chain)
    return chain, [i for i in range(len(points)) if i not in chosen]


def runs(points: list[tuple[int, int]], k: int) -> list[tuple[int, int, int, int]]:
    """Merge anchors on one diagonal into matched runs (w0, w1, b0, b1)."""
    out: list[list[int]] = []
    for w, b in points:
        if out and w - out[-1][0] == b - out[-1][2] and w <= out[-1][1]:
            out[-1][1] = max(out[-1][1], w + k)
            out[-1][3] = max(out[-1][3], b + k)
        else:
            out.append([w, w + k, b, b + k])
    return [tuple(r) for r in out]


def disjoint(chain: list[tuple[int, int, int, int]]) -> list[tuple[int, int, int, int]]:
    """The runs of a chain, each begun after the one before ends in both texts: the k-grams of two
    anchors on neighbouring diagonals overlap where the witness writes a character twice (摯摯) or
    once where the base repeats it (先升堂 for 先升升堂), and a character is matched once; what lies
    between is a difference."""
    out: list[tuple[int, int, int, int]] = []
    for w0, w1, b0, b1 in chain:
        overlap = max(out[-1][1] - w0, out[-1][3] - b0, 0) if out else 0
        if w0 + overlap < w1:
            out.append((w0 + overlap, w1, b0 + overlap, b1))
    return out


def local_ops(base: str, witness: str, b0: int, w0: int) -> list[Op]:
    ops = []
    for tag, i1, i2, j1, j2 in Levenshtein.opcodes(base, witness):
        ops.append(Op(tag, b0 + i1, b0 + i2, w0 + j1, w0 + j2))
    return ops


def best_cut(base: str, witness: str, op: Op, b: int) -> int:
    """Where to cut the witness side of `op` when its base side is cut at b: the witness position
    that leaves each part the fewest differences (德太 for 來先 cut between 來 and 先: 德|太)."""
    left, right = base[op.b0 : b], base[b : op.b1]
    costs = (
        Levenshtein.distance(left, witness[op.w0 : w]) + Levenshtein.distance(right, witness[w : op.w1])
        for w in range(op.w0, op.w1 + 1)
    )
    return op.w0 + min(enumerate(costs), key=lambda pair: pair[1])[0]


def quoted_ops(base: str, witness: str, b0: int, w0: int) -> list[Op]:
    """The ops of a quotation: its longest runs matched first (difflib), what lies between them
    aligned locally, so that the quoted text stays together and is not scattered over what the
    witness leaves out."""
    ops = []
    for tag, i1, i2, j1, j2 in SequenceMatcher(None, base, witness, autojunk=False).get_opcodes():
        if tag == "replace":
            ops += local_ops(base[i1:i2], witness[j1:j2], b0 + i1, w0 + j1)
        else:
            ops.append(Op(tag, b0 + i1, b0 + i2, w0 + j1, w0 + j2))
    return ops


def align(
    base: str,
    witness: str,
    k: int = 6,
    min_move: int = 8,
    min_placed: int = 4,
    lacuna_length: int = 40,
    breaks: tuple[int, ...] = (),
    cuts: tuple[int, ...] = (),
    left_out: dict[int, str] | None = None,
    base_clauses: frozenset[int] = frozenset(),
    witness_clauses: frozenset[int] = frozenset(),
    base_lacunae: tuple[int, ...] = (),
    excerpt: bool = False,
    near: int = 0,
    base_passages: frozenset[int] = frozenset(),
) -> Alignment:
    """`breaks`: witness positions where a lacuna of unknown extent stands (before that character);
    `cuts`: witness positions that no anchor may span (breaks are cuts too), with `left_out` the text
    left out of the witness at each, if known; `base_clauses` and
    `witness_clauses`: positions of the two texts with a clause boundary before them, where a moved
    block stops growing; `base_lacunae`: positions of the base where it has lost a leaf; `excerpt`:
    the witness quotes the base in part, and what it leaves out is no omission."""
    points = anchors(base, witness, k, (*breaks, *cuts))
    witness_clauses = witness_clauses | {*breaks, *cuts}  # no block grows across a cut either
    chain_idx, rest_idx = longest_chain(points)
    chain = [r for r in disjoint(runs([points[i] for i in chain_idx], k)) if r[1] - r[0] >= k]
    chain = read_on_at_base_lacunae(chain, base_lacunae, lacuna_length)
    if not chain:
        return Alignment(len(base), len(witness), [])
    moved = off_chain_blocks([points[i] for i in rest_idx], chain, k, min_move)
    moved = merge_blocks(
        extend_moves(moved, base, witness, base_clauses, witness_clauses), 2, base_clauses, witness_clauses
    )
    lacunae: list[tuple[int, int]] = []
    at_cuts = {cut: (left_out or {}).get(cut, "") for cut in cuts}
    ops = chain_ops(base, witness, chain, moved, lacuna_length, breaks, lacunae, base_lacunae, excerpt, at_cuts)
    placed = place_insertions(ops, base, witness, moved, min_placed, base_lacunae)
    if placed:
        moved = merge_blocks(moved + placed)
        ops = coalesce([part for op in ops for part in without_blocks(op, moved)])
    ops = coalesce(joined_near(ops, base, witness, near, base_passages))
    moves = [
        Move(b0, b1, w0, w1, base_gap_at(ops, w0), tuple(local_ops(base[b0:b1], witness[w0:w1], b0, w0)))
        for w0, w1, b0, b1 in sorted(moved)
    ]
    return Alignment(
        len(base), len(witness), ops, moves, extant_ranges(ops, moves, 0 if excerpt else lacuna_length, lacunae)
    )


def off_chain_blocks(points, chain, k: int, min_move: int):
    """Anchor runs outside the chain, long enough, on base text the chain does not use."""
    out = []
    for w0, w1, b0, b1 in runs(points, k):
        if w1 - w0 < min_move:
            continue
        if any(b0 < cb1 and cb0 < b1 for _, _, cb0, cb1 in chain):
            continue
        if any(w0 < cw1 and cw0 < w1 for cw0, cw1, _, _ in chain):
            continue
        out.append((w0, w1, b0, b1))
    return out


def merge_blocks(blocks, slack: int = 2, base_clauses=frozenset(), witness_clauses=frozenset()):
    """Merge blocks that follow each other in both texts with at most `slack` characters between
    them (a substitution inside a moved clause); where blocks overlap in the witness only (anchors
    run across a clause boundary the comparison streams do not show), the boundary between them
    is the first clause boundary in the overlap, or else the later one gives up the overlap."""
    out: list[tuple[int, int, int, int]] = []
    for w0, w1, b0, b1 in sorted(set(blocks)):
        if out:
            lw0, lw1, lb0, lb1 = out[-1]
            if -slack <= w0 - lw1 <= slack and -slack <= b0 - lb1 <= slack:
                out[-1] = (lw0, max(lw1, w1), lb0, max(lb1, b1))
                continue
            if w0 < lw1:
                boundary = next(
                    (
                        q
                        for q in range(w0, lw1)
                        if q in witness_clauses or lb1 - (lw1 - q) in base_clauses or b0 + (q - w0) in base_clauses
                    ),
                    lw1,
                )
                out[-1] = (lw0, boundary, lb0, lb1 - (lw1 - boundary))
                b0 += boundary - w0
                w0 = boundary
                if w0 >= w1:
                    continue
        out.append((w0, w1, b0, b1))
    return [block for block in out if block[1] > block[0]]


def read_on_at_base_lacunae(chain, base_lacunae: tuple[int, ...], lacuna_length: int):
    """Where the base has lost a leaf, a witness that reads on without a break into the text after
    it reads the lost text just before: the run before the one after the lacuna, close in the
    witness but far in the base, matched a parallel passage, and so did the runs the witness reads
    without a break before it. They leave the chain (the text becomes the witness's, at the lacuna)."""
    for gap in base_lacunae:
        after = next((i for i, r in enumerate(chain) if r[2] >= gap), None)
        if not after:
            continue
        start = after - 1
        if chain[after][0] - chain[start][1] > lacuna_length or chain[after][2] - chain[start][3] <= lacuna_length:
            continue
        while start > 0 and chain[start][0] - chain[start - 1][1] <= lacuna_length:
            start -= 1
        chain = chain[:start] + chain[after:]
    return chain


def chain_ops(
    base, witness, chain, moved, lacuna_length, breaks, lacunae, base_lacunae=(), excerpt=False, cuts=None
) -> list[Op]:
    """The ops along the chain; the base ranges of lacunae at breaks are added to `lacunae`. The
    witness's text before its first run reaches back no further than a base lacuna before it."""
    first = chain[0]
    bound = max((g for g in base_lacunae if g <= first[2]), default=None)
    ops = edge_ops(base, witness, 0, first[0], first[2], before=True, moved=moved, bound=bound, outer=True)
    ops.append(Op("equal", first[2], first[3], first[0], first[1]))
    previous = first
    for current in chain[1:]:
        inside = [p for p in breaks if previous[1] <= p <= current[0]]
        if inside:
            ops += lacuna_ops(base, witness, previous[3], current[2], previous[1], current[0], inside, moved, lacunae)
        else:
            gap = (previous[3], current[2], previous[1], current[0])
            at_cuts = {c: left_out for c, left_out in (cuts or {}).items() if gap[2] <= c <= gap[3]}
            unmoved = split_by_moves(gap[2], gap[3], moved) == [(gap[2], gap[3])]
            ops += (at_cut_ops(base, witness, *gap, at_cuts) if at_cuts and unmoved else None) or gap_ops(
                base, witness, *gap, moved, lacuna_length, excerpt
            )
        ops.append(Op("equal", current[2], current[3], current[0], current[1]))
        previous = current
    ops += edge_ops(base, witness, previous[1], len(witness), previous[3], before=False, moved=moved, outer=True)
    return coalesce(ops)


def place_insertions(ops: list[Op], base: str, witness: str, moved, min_length: int, base_lacunae=()):
    """Text the witness adds that the base reads elsewhere, where the witness does not read it in
    place: short moved clauses the anchors were too coarse to catch. Each added stretch is looked
    up by its `min_length`-grams in the base text no alignment uses yet, which must hold them once.
    What the witness reads where the base has lost a leaf is the lost text, not moved."""
    used = [False] * len(base)
    for op in ops:
        if op.tag in ("equal", "replace"):
            used[op.b0 : op.b1] = [True] * (op.b1 - op.b0)
    for _, _, b0, b1 in moved:
        used[b0:b1] = [True] * (b1 - b0)
    index: dict[str, list[int]] = {}
    for i in range(len(base) - min_length + 1):
        if not any(used[i : i + min_length]):
            index.setdefault(base[i : i + min_length], []).append(i)
    placed = []
    pending = [
        (op.w0, op.w1) for op in ops if op.tag == "insert" and op.w1 - op.w0 >= min_length and op.b0 not in base_lacunae
    ]
    while pending:
        w0, w1 = pending.pop()
        block = best_free_run(base, witness, w0, w1, index, used, min_length)
        if block is None:
            continue
        placed.append(block)
        used[block[2] : block[3]] = [True] * (block[3] - block[2])
        pending += [(a, c) for a, c in ((w0, block[0]), (block[1], w1)) if c - a >= min_length]
    return placed


def joined_near(ops: list[Op], base: str, witness: str, near: int, passages=frozenset()) -> list[Op]:
    """Words the witness leaves out and adds again, the same, within `near` characters of the base
    and inside one of its passages (倒文: 以得 for 得以): one substitution over both places and what
    stands between them, not an omission and an addition."""
    out, bounds = list(ops), sorted(passages)
    words = lambda op: base[op.b0 : op.b1] if op.tag == "delete" else witness[op.w0 : op.w1]
    i = 0
    while near and i < len(out):
        first = out[i]
        for j in range(i + 1, len(out)) if first.tag in ("insert", "delete") else ():
            last = out[j]
            if last.b0 - first.b1 > near or bisect_right(bounds, first.b0) < bisect_left(bounds, last.b1):
                break
            if {first.tag, last.tag} == {"insert", "delete"} and words(first) == words(last):
                out[i : j + 1] = [Op("replace", first.b0, last.b1, first.w0, last.w1)]
                break
        i += 1
    return out


def best_free_run(base, witness, w0, w1, index, used, size):
    """The longest run of witness[w0:w1] that stands once in the unused base text."""
    best = None
    for w in range(w0, w1 - size + 1):
        hits = index.get(witness[w : w + size], ())
        if len(hits) != 1 or any(used[hits[0] : hits[0] + size]):
            continue
        b = hits[0]
        start_w, start_b = w, b
        while start_w > w0 and start_b > 0 and not used[start_b - 1] and witness[start_w - 1] == base[start_b - 1]:
            start_w, start_b = start_w - 1, start_b - 1
        end_w, end_b = w + size, b + size
        while end_w < w1 and end_b < len(base) and not used[end_b] and witness[end_w] == base[end_b]:
            end_w, end_b = end_w + 1, end_b + 1
        if best is None or end_w - start_w > best[1] - best[0]:
            best = (start_w, end_w, start_b, end_b)
    return best


def without_blocks(op: Op, blocks) -> list[Op]:
    """An insert op with the witness ranges of placed blocks cut out of it, a delete op with their
    base ranges: a block's text is read elsewhere, and its place is no omission."""
    if op.tag == "insert":
        return [Op("insert", op.b0, op.b1, a, b) for a, b in split_by_moves(op.w0, op.w1, blocks)]
    if op.tag == "delete":
        base_ranges = [(b0, b1, w0, w1) for w0, w1, b0, b1 in blocks]
        return [Op("delete", a, b, op.w0, op.w1) for a, b in split_by_moves(op.b0, op.b1, base_ranges)]
    return [op]


def extend_moves(
    moved, base: str, witness: str, base_clauses=frozenset(), witness_clauses=frozenset(), confirm: int = 3
):
    """Grow each moved block over matching neighbours, across single substitutions that the next
    `confirm` characters confirm, but never into another block's anchored core nor across a
    clause boundary of either text."""
    cores = {w for w0, w1, _, _ in moved for w in range(w0, w1)}

    def agree(w: int, b: int, step: int) -> bool:
        for i in range(confirm):
            wi, bi = w + step * i, b + step * i
            if not (0 <= wi < len(witness) and 0 <= bi < len(base)) or witness[wi] != base[bi]:
                return False
        return True

    out = []
    for w0, w1, b0, b1 in moved:
        while (
            w0 > 0
            and b0 > 0
            and w0 - 1 not in cores
            and w0 not in witness_clauses
            and b0 not in base_clauses
            and (witness[w0 - 1] == base[b0 - 1] or agree(w0 - 2, b0 - 2, -1))
        ):
            w0, b0 = w0 - 1, b0 - 1
        while (
            w1 < len(witness)
            and b1 < len(base)
            and w1 not in cores
            and w1 not in witness_clauses
            and b1 not in base_clauses
            and (witness[w1] == base[b1] or agree(w1 + 1, b1 + 1, 1))
        ):
            w1, b1 = w1 + 1, b1 + 1
        out.append((w0, w1, b0, b1))
    return out


def split_by_moves(w0: int, w1: int, moved) -> list[tuple[int, int]]:
    """The parts of witness[w0:w1] outside moved blocks."""
    parts, position = [], w0
    for mw0, mw1, _, _ in sorted(moved):
        if mw1 <= w0 or mw0 >= w1:
            continue
        if mw0 > position:
            parts.append((position, mw0))
        position = max(position, mw1)
    if position < w1:
        parts.append((position, w1))
    return parts


def gap_ops(base, witness, b0, b1, w0, w1, moved, lacuna_length, excerpt=False) -> list[Op]:
    """Align the stretch between two chained anchors, leaving moved blocks out of it. An
    excerpt's text there is what it quotes of the stretch: it stands where it matches."""
    parts = split_by_moves(w0, w1, moved)
    text = "".join(witness[a:b] for a, b in parts)
    offsets = [i for a, b in parts for i in range(a, b)]
    if not excerpt and b1 - b0 > lacuna_length and b1 - b0 > 3 * len(text):
        # The witness lacks a long stretch: its few characters stand at the start.
        out = [Op("insert", b0, b0, a, b) for a, b in parts]
        return out + [Op("delete", b0, b1, parts[-1][1] if parts else w1, parts[-1][1] if parts else w1)]
    local = (quoted_ops if excerpt else local_ops)(base[b0:b1], text, b0, 0)
    return [part for op in local for part in remap(op, offsets, w0)]


AT_CUT_WORK = 100_000  # the largest gap aligned around its cuts: base splits squared, by parts


def at_cut_ops(base, witness, b0, b1, w0, w1, cuts: dict[int, str]) -> list[Op] | None:
    """The stretch between two chained anchors where the witness's text is cut (text left out of it
    stands there; `cuts` maps each cut to it): what the base reads besides the witness's is left
    out at the cuts, each part of the witness's text between them aligned with the base's in
    order, at the fewest differences; of alignments as good, the one whose base text left out at
    each cut shares the most with the text left out there. A base that repeats a clause
    (尸又三飯告飽祝侑之如初 twice, the 注疏 running on into the second after its note) so pairs the
    witness's clause with the time before the note that holds the rest. None where the base reads
    no more than the witness (nothing of it need be left out), or the gap is too large."""
    bounds = [w0, *sorted(c for c in cuts if w0 < c < w1), w1]
    n = b1 - b0
    if n <= w1 - w0 or (n + 1) ** 2 * len(bounds) > AT_CUT_WORK:
        return None
    weight = 2 * n + 1  # one difference outweighs any text shared

    def left_out(cut: int, s: int, e: int) -> int:
        return -Indel.similarity(base[b0 + s : b0 + e], cuts[cut]) if e > s and cut in cuts else 0

    def cheapest(found):
        return min(found, key=lambda step: step[0])

    # best[e]: (cost, steps) of the text so far aligned with base[b0 : b0 + e]; a step is
    # (p0, p1, s, e), the witness's p0:p1 with the base's s:e, or (cut, s, e) left out at a cut
    best = {e: (left_out(w0, 0, e), [(w0, 0, e)]) for e in range(n + 1 if w0 in cuts else 1)}
    for p0, p1 in zip(bounds, bounds[1:]):
        if p0 != w0:
            best = {
                s: cheapest((c + left_out(p0, e, s), [*how, (p0, e, s)]) for e, (c, how) in best.items() if e <= s)
                for s in range(min(best), n + 1)
            }
        part = witness[p0:p1]
        best = {
            e: cheapest(
                (c + weight * Levenshtein.distance(base[b0 + s : b0 + e], part), [*how, (p0, p1, s, e)])
                for s, (c, how) in best.items()
                if s <= e
            )
            for e in range(min(best), n + 1)
        }
    _, steps = cheapest(
        (c + left_out(w1, e, n), [*how, (w1, e, n)]) for e, (c, how) in best.items() if w1 in cuts or e == n
    )
    ops = []
    for step in steps:
        if len(step) == 3 and step[2] > step[1]:
            ops.append(Op("delete", b0 + step[1], b0 + step[2], step[0], step[0]))
        elif len(step) == 4:
            p0, p1, s, e = step
            ops += local_ops(base[b0 + s : b0 + e], witness[p0:p1], b0 + s, p0)
    return ops


def lacuna_ops(base, witness, b0, b1, w0, w1, breaks, moved, lacunae) -> list[Op]:
    """The stretch between two chained anchors around lacunae of unknown extent: the witness's
    text before the first break aligned on from b0, its text after the last aligned back from b1,
    text between breaks added at the lacuna, and the base in between not extant."""
    ops = edge_ops(base, witness, w0, breaks[0], b0, before=False, moved=moved, bound=b1)
    end = max((op.b1 for op in ops), default=b0)
    after = edge_ops(base, witness, breaks[-1], w1, b1, before=True, moved=moved, bound=end)
    start = min((op.b0 for op in after), default=b1)
    ops += [Op("insert", end, end, a, b) for a, b in split_by_moves(breaks[0], breaks[-1], moved)]
    if start > end:
        ops.append(Op("delete", end, start, breaks[-1], breaks[-1]))
        lacunae.append((end, start))
    return ops + after


def remap(op: Op, offsets: list[int], fallback: int) -> list[Op]:
    """Map positions in the concatenated gap text back to witness positions: an op whose text runs
    over a moved block cut out of the gap is split there, so that no op spans the block (an equal
    op's base advances with its witness; a substitution keeps its base text before the block, and
    what it reads after it is added there)."""
    if op.w1 == op.w0:
        at = offsets[op.w0] if op.w0 < len(offsets) else offsets[-1] + 1 if offsets else fallback
        return [Op(op.tag, op.b0, op.b1, at, at)]
    pieces, start = [], op.w0
    for i in range(op.w0 + 1, op.w1 + 1):
        if i == op.w1 or offsets[i] != offsets[i - 1] + 1:
            pieces.append((start, i))
            start = i
    out, b = [], op.b0
    for number, (i0, i1) in enumerate(pieces):
        w0, w1 = offsets[i0], offsets[i1 - 1] + 1
        if op.tag == "equal":
            out.append(Op("equal", b, b + i1 - i0, w0, w1))
            b += i1 - i0
        else:
            out.append(Op(op.tag if number == 0 else "insert", op.b0 if number == 0 else op.b1, op.b1, w0, w1))
    return out


BEYOND = 200  # characters at a text's edge that the base has nothing to pair with: another text's


def edge_ops(
    base, witness, w0, w1, b_edge, before: bool, moved, bound: int | None = None, outer: bool = False
) -> list[Op]:
    """The witness's text before its first anchor or after its last (or next to a lacuna), against
    as much base, which reaches no further than `bound`. At the `outer` edges of the text, what the
    witness has beyond the base's edge, BEYOND characters or more than the base has there to pair
    with them, is another text's (the end of the chapter before, in a file that holds two): no
    op covers it, so it is no addition, and the witness is not extant there."""
    parts = split_by_moves(w0, w1, moved)
    text = "".join(witness[a:b] for a, b in parts)
    if not text:
        return []
    offsets = [i for a, b in parts for i in range(a, b)]
    span = len(text) + max(4, len(text) // 2)
    if before:
        b0, b1 = max(0 if bound is None else bound, b_edge - span), b_edge
    else:
        b0, b1 = b_edge, min(len(base) if bound is None else bound, b_edge + span)
    if outer and len(text) - (b1 - b0) - max(4, (b1 - b0) // 2) >= BEYOND:  # kept: as much as the base has
        beyond = len(text) - (b1 - b0)
        text, offsets = (text[beyond:], offsets[beyond:]) if before else (text[:-beyond], offsets[:-beyond])
    local = [part for op in local_ops(base[b0:b1], text, b0, 0) for part in remap(op, offsets, w0)]
    # The base beyond the witness's edge is not a deletion: the witness simply is not extant there.
    if before:
        while local and local[0].tag == "delete":
            local.pop(0)
    else:
        while local and local[-1].tag == "delete":
            local.pop()
    return local


def coalesce(ops: list[Op]) -> list[Op]:
    out: list[Op] = []
    for op in ops:
        if op.b0 == op.b1 and op.w0 == op.w1:
            continue
        if out and out[-1].tag == op.tag and out[-1].b1 == op.b0 and out[-1].w1 == op.w0:
            last = out.pop()
            op = Op(op.tag, last.b0, op.b1, last.w0, op.w1)
        out.append(op)
    return out


def base_gap_at(ops: list[Op], w: int) -> int:
    """The base gap at which witness position w stands, by the ops around it."""
    for op in ops:
        if op.w0 <= w < op.w1 or (op.w0 == op.w1 == w):
            return op.b0 if op.tag != "equal" else op.b0 + (w - op.w0)
        if op.w0 >= w:
            return op.b0
    return ops[-1].b1 if ops else 0


def extant_ranges(
    ops: list[Op], moves: list[Move], lacuna_length: int, lacunae: set[tuple[int, int]]
) -> list[tuple[int, int]]:
    """Base ranges where the witness has text, in place or elsewhere (the blocks it moves); long
    deletions, and the base at its lacunae of unknown extent, are lacunae, not omissions; a short
    stretch between two extant ones that is no lacuna is an omission, and extant."""
    ranges: list[list[int]] = []

    def continues(b0: int) -> bool:
        end = ranges[-1][1] if ranges else None
        return end is not None and b0 - end <= lacuna_length and not any(end <= a and b <= b0 for a, b in lacunae)

    moved = [Op("equal", m.b0, m.b1, m.w0, m.w1) for m in moves]
    for op in sorted(ops + moved, key=lambda op: (op.b0, op.b1)):
        if op.tag == "delete" and (op.b1 - op.b0 > lacuna_length or (op.b0, op.b1) in lacunae):
            continue
        if op.b1 == op.b0 and ranges and ranges[-1][1] >= op.b0:
            continue
        if continues(op.b0):
            ranges[-1][1] = max(ranges[-1][1], op.b1)
        else:
            ranges.append([op.b0, op.b1])
    return [tuple(r) for r in ranges]
