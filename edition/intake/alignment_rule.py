"""Alignment: where layout alone cannot tell classic text from commentary, or where a 傳 ends, the
other witnesses can.

A rule of kind `alignment` takes the stretches that earlier rules put in its `within` layers, or
with a `pattern` only its matches there (read `across` other layers, as a pattern rule reads), and
gives each character of a stretch that aligns in order with a reference's text the layer of the
reference's character (its `layer`, classic, where the reference gives none), where the witness's
sure text (its other characters of the reference's layers) lacks that text. In the 注疏 of the
四庫全書 the text after 注 runs on, unmarked, from Zheng's note into the classic text
(`classic-by-alignment`, within commentary: it decides what of the text is collated); in the
四部叢刊 the text after the 也 that ends a 傳 may be the classic text that follows, up to its note,
or the 傳 going on (`tradition-by-alignment`, within the 傳 and the classic text: it only divides
the text collated, `Rule.divides`).

The references are the texts collated of the other witnesses (intake reads witnesses in turns, see
witness.intake_witnesses), with their layers: where a reference's own alignment rules left a stretch
undecided, its characters there are UNDECIDED, text for sure but not how it divides; a rule that
divides takes nothing from them, another gives them the layer of the character before. A reference
that aligns in order over less than half of the shorter of its own text and the witness's sure text
(a scrambled one) decides nothing, unless its firm runs are most of the sure text where they stand
(a 卷 that holds the end of one chapter and the start of the next), nor does one that lacks a layer
a rule that divides would give (a witness without a 傳 cannot tell it from the classic text); the
others are tried in the order of how much of the sure text they align in order, and the first that
places a stretch decides it.

Against a reference, the sure text is aligned first, as collation aligns a witness with the base (no
anchor spanning a place where a stretch stands); its runs of at least `min_run` equal characters are
firm. Between two firm runs, the witness's characters (sure and stretches) are aligned with the
reference text between them at a cost: a sure character left out costs as much as a reference
character left out, a stretch's character left out costs nothing (it is commentary), so a stretch's
characters align only where the sure text lacks the reference's text, and never take it from the
sure text; each run of a stretch's characters opened, or closed before its stretch ends, costs a
little, so that of the words of the notes the classic text is the run where it takes up again and
runs on to the next marker, not the same characters scattered. A stretch's aligned characters form
runs; a run is decided if it is `min_run` long, or two or more at the stretch's edge where the
reference's text goes on next to it (sure text, or a run decided so, in turn: 三獻文注…五獻察注…
七獻神注… before 大饗), or the whole stretch however short where the reference's text goes on next to
it on both sides (甥 between two 傳). Before the first firm run and after the last, the reference
may go on beyond the text: what it has there costs less than a note's character paired with it
(月令's 草木蚤死 at the end of its 卷). Where the reference lacks sure text between two firm runs (its
own lost leaf, 士虞禮's 記), the text on each side of what it lacks is aligned apart with the
reference's text between the runs. The decided span of a stretch runs from its first to its last
run, with up to `EDGE` substituted characters at the stretch's edge next to them (a variant where
the classic text ends); a character of it already in the layer it would take keeps its place.
With `whole`, a stretch is one unit (a line): half of it or more decided decides all of it. With
`marked`, the word in large characters that marks a stretch (the 注 of the 注疏) is the classic
text's own where the stretch is decided from its first character and the reference reads that word
just before it (周禮 令禽注于虞中, 有司 挹湆注于疏匕). What no
reference decides stays as the layout put it, and is recorded as undecided
(`Layering.undecided`). The work is one anchored alignment per reference and one bounded alignment
per stretch between firm runs (`MAX_CELLS`): deterministic and bounded.
"""

from __future__ import annotations

from array import array
from bisect import bisect_left
from collections.abc import Callable
from dataclasses import dataclass
from itertools import groupby
from typing import TYPE_CHECKING

import regex

from .align import align
from .layering import TimeLimit
from .model import CODES, LAYER_OF_CODE, Stream
from .rule import TRANSMITTED, UNASSIGNED

if TYPE_CHECKING:
    from .layering import Layering
    from .normalize import Normalizer
    from .rule import Rule

MIN_RUN = 4
EDGE = 2  # substituted characters at a stretch's edge that go with its classic run
PART_HELD = 200  # firm characters of a reference that holds part of the witness only
MAX_CELLS = 400_000  # the largest alignment between two firm runs; a larger window is left undecided
LEFT_OUT, SUBSTITUTED = 2, 2  # costs of a sure or reference character left out, of a sure character substituted
CANDIDATE_SUBSTITUTED = 1  # a stretch's character in place of a reference character: cheaper than leaving both
# The costs above counted in quarters; a run of a stretch's characters opened, or closed before the
# stretch ends: less than any of them.
SCALE, RUN_OPENED, RUN_CLOSED = 4, 1, 1
UNDECIDED = CODES[UNASSIGNED]  # a reference's character whose layer its own alignment rules left undecided
FORMAT = CODES["format"]
WORD = regex.compile(r"\p{Han}")


@dataclass(frozen=True)
class Reference:
    """The text collated (comparison streams) of the other witnesses, and the normalizer that
    makes a witness's own comparison stream; `layers`: per text, the CODES of its characters'
    layers where it holds more than the rule's layer (the 經 and the 傳; UNDECIDED where it is
    not sure which); `streams`: per witness, the comparison stream of all its text layers (the
    注, the 音義, the 疏 for a rule of kind attestation that reads its notes); `elsewhere`: the
    base's text of the work's other chapters, which a rule of kind attestation also reads where it
    reads the 經 (a compilation moves the 記 of one chapter into another)."""

    texts: tuple[str, ...]
    normalizer: Normalizer
    layers: tuple[bytes, ...] = ()
    streams: tuple[Stream, ...] = ()
    elsewhere: str = ""

    @classmethod
    def of(cls, witnesses, normalizer: Normalizer, elsewhere: str = "") -> Reference:
        """The text collated of each witness, with its layers; where its own rules of kind
        alignment left a stretch as its layout put it (`undecided`), the layer UNDECIDED: its
        text is sure there, not how it divides."""
        texts, layers = [], []
        for witness in witnesses:
            stream, codes = witness.classic, bytearray(witness.classic.codes)
            if witness.undecided:
                undecided = bytearray(len(witness.raw.text))
                for start, end in witness.undecided:
                    undecided[start:end] = b"\x01" * (end - start)
                for i, start in enumerate(stream.starts):
                    if undecided[start]:
                        codes[i] = UNDECIDED
            texts.append(stream.text)
            layers.append(bytes(codes))
        return cls(tuple(texts), normalizer, tuple(layers), tuple(witness.stream for witness in witnesses), elsewhere)

    def texts_of(self, layers: tuple[str, ...]) -> tuple[str, ...]:
        """Each witness's text of `layers`: its text collated where they are the 經 and the 傳."""
        if set(layers) <= set(TRANSMITTED):
            return self.texts
        return tuple(stream.only(layers).text for stream in self.streams)

    def searched_of(self, layers: tuple[str, ...]) -> tuple[str, ...]:
        """The long texts that also attest a stretch of `layers` (attestation.moved_in): the base's
        text of the work's other chapters, where they are the 經 and the 傳."""
        return (self.elsewhere,) if self.elsewhere and set(layers) <= set(TRANSMITTED) else ()

    def codes(self, number: int, layer: str) -> bytes:
        """The layers of text `number`'s characters: all `layer` where none are given."""
        return self.layers[number] if self.layers else bytes((CODES[layer],)) * len(self.texts[number])


# The references of a witness, or what makes them when a rule first needs them (a witness read
# later, by its layout alone, is read only where there is something to decide), or none.
References = Reference | Callable[[], Reference | None] | None


def firm_runs(reference: str, text: str, sure: list[bool], min_run: int) -> tuple[int, dict[int, int], set[int]]:
    """The sure text aligned with the reference: how many of its characters align in order, the
    reference position of each sure character (by position in `text`) in a firm run, and the
    sure characters the reference has nothing for (it lacks them, as at its own lost leaves)."""
    at = [k for k in range(len(text)) if sure[k]]
    cuts = sorted({0, len(at), *(n for n in range(1, len(at)) if at[n] - at[n - 1] > 1)})
    # What the sure text lacks is the point here, not a lacuna: every stretch between anchors is aligned.
    left_out = {n: text[at[n - 1] + 1 : at[n]] for n in cuts[1:-1]}  # each stretch, at its place
    sure_text = "".join(text[k] for k in at)
    alignment = align(reference, sure_text, lacuna_length=len(reference), cuts=(*left_out,), left_out=left_out)
    firm: dict[int, int] = {}
    unread = {at[w] for op in alignment.ops if op.tag == "insert" for w in range(op.w0, op.w1)}
    for op in (op for op in alignment.ops if op.tag == "equal"):
        for start, end in zip(cuts, cuts[1:]):  # the part on each side of a stretch counts apart
            w0, w1 = max(op.w0, start), min(op.w1, end)
            if w1 - w0 >= min_run:
                firm.update((at[w], op.b0 + w - op.w0) for w in range(w0, w1))
    return alignment.in_order, firm, unread


def weighted(
    reference: str, text: str, sure: list[bool], stretch: list[int], open_start: bool = False, open_end: bool = False
) -> list[tuple[str, int, int]]:
    """The alignment of `text` with `reference` at the costs above: (tag, reference position,
    text position) for each "equal" or "replace" pair, in order. Of alignments otherwise as cheap,
    the one whose stretch characters hold together up to their stretch's end: each run of them
    opened costs RUN_OPENED, and each closed before its stretch ends RUN_CLOSED (the classic text
    where it takes up again in a 注 runs on to the next marker; the same words scattered over the
    notes after it do not). With `open_start` (`open_end`) the reference's text before (after) all
    that is paired costs as much as a stretch's character substituted, less than one left out: the
    reference may go on beyond the text, and what of it the text holds is paired as a run."""
    m, n = len(reference), len(text)
    inf = float("inf")
    skip = [LEFT_OUT * SCALE if s else 0 for s in sure]
    # closing[j]: what skipping text[j - 1] right after a pair costs more: a run closed inside its stretch
    closing = [0] + [
        RUN_CLOSED if j > 1 and not sure[j - 1] and stretch[j - 1] == stretch[j - 2] else 0 for j in range(1, n + 1)
    ]
    # paired[i][j]: the cheapest alignment of reference[:i] and text[:j] that ends in a pair; gap[i][j]: in a gap
    paired = [[inf] * (n + 1) for _ in range(m + 1)]
    gap = [[inf] * (n + 1) for _ in range(m + 1)]
    gap[0][0] = 0
    for j in range(1, n + 1):
        gap[0][j] = gap[0][j - 1] + skip[j - 1]
    for i in range(1, m + 1):
        p_row, g_row, p_above, g_above = paired[i], gap[i], paired[i - 1], gap[i - 1]
        g_row[0] = g_above[0] + (CANDIDATE_SUBSTITUTED if open_start else LEFT_OUT) * SCALE
        r = reference[i - 1]
        for j in range(1, n + 1):
            cost = pair_cost(text[j - 1] == r, sure[j - 1])
            opened = 0 if sure[j - 1] else RUN_OPENED
            p_row[j] = min(p_above[j - 1], g_above[j - 1] + opened) + cost
            g_row[j] = min(
                min(p_row[j - 1] + closing[j], g_row[j - 1]) + skip[j - 1],
                min(p_above[j], g_above[j]) + LEFT_OUT * SCALE,
            )
    pairs = []
    beyond = CANDIDATE_SUBSTITUTED * SCALE
    i = min(range(m + 1), key=lambda i: min(paired[i][n], gap[i][n]) + beyond * (m - i)) if open_end else m
    j, state = n, "paired" if paired[i][n] < gap[i][n] else "gap"
    while i and j:
        if state == "paired":
            cost = pair_cost(text[j - 1] == reference[i - 1], sure[j - 1])
            pairs.append(("equal" if text[j - 1] == reference[i - 1] else "replace", i - 1, j - 1))
            state = "paired" if paired[i][j] == paired[i - 1][j - 1] + cost else "gap"
            i, j = i - 1, j - 1
        elif gap[i][j] == min(paired[i][j - 1] + closing[j], gap[i][j - 1]) + skip[j - 1]:
            state = "paired" if paired[i][j - 1] + closing[j] <= gap[i][j - 1] else "gap"
            j -= 1
        else:
            state = "paired" if paired[i - 1][j] <= gap[i - 1][j] else "gap"
            i -= 1
    pairs.reverse()
    return pairs


def pair_cost(same: bool, sure: bool) -> int:
    return 0 if same else (SUBSTITUTED if sure else CANDIDATE_SUBSTITUTED) * SCALE


def classic_spans(pairs, sure: list[bool], stretch: list[int], min_run: int, window: int) -> dict[int, tuple[int, int]]:
    """The classic span of each stretch in one window, from its aligned pairs (positions in the
    window; `window`: the length of the reference text there). A run is a diagonal of a stretch's
    aligned characters, equal but for substitutions of up to EDGE characters."""
    runs: list[list[tuple[str, int, int]]] = []
    for tag, i, j in pairs:
        if sure[j]:
            continue
        last = runs[-1][-1] if runs else None
        joins = last and (last[1], last[2]) == (i - 1, j - 1) and stretch[j] == stretch[j - 1]
        if joins and (tag == "equal" or sum(1 for t, _, _ in runs[-1][-EDGE:] if t == "replace") < EDGE):
            runs[-1].append((tag, i, j))
        else:
            runs.append([(tag, i, j)])
    runs = [run for run in runs if any(tag == "equal" for tag, _, _ in run)]

    def equal(run) -> int:
        return sum(1 for tag, _, _ in run if tag == "equal")

    def at_edge(run) -> bool:
        first, last = run[0][2], run[-1][2]
        return (
            first == 0
            or stretch[first - 1] != stretch[first]
            or last + 1 == len(stretch)
            or stretch[last + 1] != stretch[last]
        )

    def trimmed(run):
        """A run keeps substitutions at its end only where they reach the stretch's edge."""
        while run[-1][0] == "replace" and not (
            run[-1][2] + 1 == len(stretch) or stretch[run[-1][2] + 1] != stretch[run[-1][2]]
        ):
            run = run[:-1]
        while run[0][0] == "replace" and not (run[0][2] == 0 or stretch[run[0][2] - 1] != stretch[run[0][2]]):
            run = run[1:]
        return run

    runs = [trimmed(run) for run in runs]
    chosen = [run for run in runs if equal(run) >= min_run]
    classic = (
        {-1, window}
        | {i for tag, i, j in pairs if tag == "equal" and sure[j]}
        | {i for run in chosen for _, i, _ in run}
    )

    def whole(run) -> bool:
        """The run is its whole stretch, and the reference's text goes on next to it on both sides."""
        first, last = run[0][2], run[-1][2]
        return (
            (first == 0 or stretch[first - 1] != stretch[first])
            and (last + 1 == len(stretch) or stretch[last + 1] != stretch[last])
            and run[0][1] - 1 in classic
            and run[-1][1] + 1 in classic
        )

    # A short run decided next to the reference's text decides the one next to it in turn: clauses of
    # three characters, each run on after a note (一獻質注…三獻文注…五獻察注…七獻神注… 大饗).
    short = [run for run in runs if equal(run) < min_run]
    while taken := [
        run
        for run in short
        if (equal(run) >= 2 and at_edge(run) and (run[0][1] - 1 in classic or run[-1][1] + 1 in classic)) or whole(run)
    ]:
        chosen += taken
        classic |= {i for run in taken for _, i, _ in run}
        short = [run for run in short if run not in taken]
    spans: dict[int, tuple[int, int]] = {}
    for run in chosen:
        number, a, b = stretch[run[0][2]], run[0][2], run[-1][2] + 1
        first, last = spans.get(number, (a, b))
        spans[number] = (min(first, a), max(last, b))
    return spans


def wholes(decided: dict[int, tuple[int, int]], stretch: list[int]) -> dict[int, tuple[int, int]]:
    """Each stretch half or more of which is decided, decided whole (a rule's `whole`: its
    stretches are lines, the classic text's or the commentary's, not parts of both)."""
    extent: dict[int, tuple[int, int]] = {}
    for k, number in enumerate(stretch):
        if number in decided:
            extent[number] = (extent.get(number, (k, k))[0], k + 1)
    return {
        number: extent[number] if 2 * (b - a) >= extent[number][1] - extent[number][0] else (a, b)
        for number, (a, b) in decided.items()
    }


def candidates(layering: Layering, rule: Rule, limit: TimeLimit) -> list[tuple[int, int]]:
    """The raw spans of the stretches to decide: each match of the rule's pattern in its `within`
    layers (read `across` others), less the line ends at its edges, or without a pattern each run
    of those layers."""
    if rule.pattern is None:
        return layering.spans(rule.within)
    found = []
    for text, start, end, to_raw in layering.views(rule):
        for match in limit.finditer(rule.pattern, text, start, end, to_raw):
            a, b = match.span()
            a += len(match.group()) - len(match.group().lstrip("\n"))
            b -= len(match.group()) - len(match.group().rstrip("\n"))
            if b > a:
                found.append((to_raw(a), to_raw(b - 1) + 1))
    return found


def reference_for(layering: Layering, stretches: list[tuple[int, int]], references: References) -> Reference | None:
    """The other witnesses' text to decide the stretches by, made if need be; where there is none,
    the stretches are recorded as undecided."""
    if not stretches:
        return None
    reference = references() if callable(references) else references
    if reference is None or not reference.texts:
        layering.undecided += stretches
        return None
    return reference


@dataclass
class Stretches:
    """The text an alignment rule reads: the witness's sure text and the characters of its
    stretches, with their raw offsets and layer codes; `stretch` numbers each character's stretch
    (-1 for sure text)."""

    text: str
    starts: list[int]
    ends: list[int]
    codes: list[int]
    stretch: list[int]

    @property
    def sure(self) -> list[bool]:
        return [s < 0 for s in self.stretch]


def read_stretches(
    layering: Layering, rule: Rule, matched: list[tuple[int, int]], stream: Stream, sure_codes: set[int]
) -> Stretches:
    """The stretches: each span matched (without a pattern: each run of candidate characters that one
    rule application claimed), numbered; -1 for sure text. A character of the `within` layers
    that no match holds is neither (commentary the pattern leaves alone): it is not read."""
    at = array("i", [-1]) * len(layering.raw.text)
    for number, (a, b) in enumerate(matched):
        at[a:b] = array("i", [number]) * (b - a)
    read = [k for k, start in enumerate(stream.starts) if at[start] >= 0 or stream.codes[k] in sure_codes]
    text = "".join(stream.text[k] for k in read)
    starts, ends, codes = ([column[k] for k in read] for column in (stream.starts, stream.ends, stream.codes))
    stretch = [at[start] for start in starts]
    if rule.pattern is None:
        owner = [layering.claim[start] for start in starts]
        number = -1
        for k in range(len(text)):
            if stretch[k] >= 0:
                number += 0 if k and stretch[k - 1] >= 0 and owner[k] == owner[k - 1] else 1
                stretch[k] = number
    return Stretches(text, starts, ends, codes, stretch)


def holds_in_part(firm: dict[int, int], sure: list[bool]) -> bool:
    """The reference is the text of part of the witness (a 卷 that holds the end of one chapter
    and the start of the next): its firm runs, PART_HELD characters at least, are most of the sure
    text from the first to the last of them."""
    if len(firm) < PART_HELD:
        return False
    first, last = min(firm), max(firm)
    return 2 * len(firm) >= sum(sure[first : last + 1])


def firm_references(reference: Reference, layers: list, needed: set[int], read: Stretches, min_run: int, limit):
    """The references that can judge, each with its firm runs against the sure text, those that
    align most of it in order first."""
    firms = []
    sure = read.sure
    for reference_text, reference_codes in zip(reference.texts, layers):
        if not needed <= set(reference_codes):
            continue
        limit.left_from(0)
        in_order, firm, unread = limit.timed(
            lambda reference_text=reference_text: firm_runs(reference_text, read.text, sure, min_run)
        )
        if in_order >= min(len(reference_text), sum(sure)) / 2 or holds_in_part(firm, sure):
            firms.append((in_order, reference_text, reference_codes, firm, unread))
    firms.sort(key=lambda found: -found[0])
    return firms


def between_unread(w0: int, w1: int, unread: set[int], min_run: int) -> list[tuple[int, int]]:
    """The parts of the text w0:w1 between runs of sure text that the reference has nothing for (its
    own lost leaf, `min_run` characters or more): each faces the reference's text of the whole
    window, since where the reference lacks text its alignment cannot tell where the parts stand."""
    runs = [
        run
        for lacks, group in groupby(range(w0, w1), key=lambda k: k in unread)
        if lacks and len(run := list(group)) >= min_run
    ]
    bounds = [w0, *(k for run in runs for k in (run[0], run[-1] + 1)), w1]
    return [(p0, p1) for p0, p1 in zip(bounds[::2], bounds[1::2]) if p0 < p1]


def decide(firms: list, read: Stretches, rule: Rule, min_run: int, limit) -> tuple[dict, dict, dict]:
    """Each stretch's classic span (by position in the text read) as the first reference that places
    it decides, the layer of the reference's character each decided character aligns with, and what
    the reference reads before each decided span (up to its own aligned character before)."""
    text, stretch, sure, starts = read.text, read.stretch, read.sure, read.starts
    decided: dict[int, tuple[int, int]] = {}
    code_at: dict[int, int] = {}
    before: dict[int, str] = {}
    placed: set[int] = set()
    for _, reference_text, reference_codes, firm, unread in firms:
        anchors = sorted(firm)
        for left, right in zip([None, *anchors], [*anchors, None]):
            w0, w1 = (left + 1 if left is not None else 0), (right if right is not None else len(text))
            inside = {stretch[k] for k in range(w0, w1) if stretch[k] >= 0} - placed
            # with no firm run at all (a text read with no sure text), the whole reference faces it
            r1 = (
                firm[right]
                if right is not None
                else min(len(reference_text), firm[left] + 1 + 2 * (w1 - w0))
                if left is not None
                else len(reference_text)
            )
            r0 = firm[left] + 1 if left is not None else max(0, r1 - 2 * (w1 - w0))
            if not inside:
                continue
            parts = between_unread(w0, w1, unread, min_run)
            # where the reference lacks sure text and has none between the runs, it cannot judge
            if parts != [(w0, w1)] and r1 <= r0:
                continue
            for p0, p1 in parts:
                part = {stretch[k] for k in range(p0, p1) if stretch[k] >= 0} - placed
                if not part or (r1 - r0) * (p1 - p0) > MAX_CELLS:
                    continue
                placed |= part
                if r1 <= r0:
                    continue
                limit.left_from(starts[p0])
                pairs = limit.timed(
                    lambda p0=p0, p1=p1: weighted(
                        reference_text[r0:r1],
                        text[p0:p1],
                        sure[p0:p1],
                        stretch[p0:p1],
                        left is None and p0 == w0,
                        right is None and p1 == w1,
                    )
                )
                if rule.divides:  # what the reference left undecided cannot decide how the text divides
                    pairs = [(tag, i, j) for tag, i, j in pairs if sure[p0 + j] or reference_codes[r0 + i] != UNDECIDED]
                spans = classic_spans(pairs, sure[p0:p1], stretch[p0:p1], min_run, r1 - r0)
                decided |= {stretch[p0 + a]: (p0 + a, p0 + b) for a, b in spans.values()}
                paired = [j for _, _, j in pairs]  # in order: a span's first character is paired
                for a, _ in spans.values():
                    k = bisect_left(paired, a)
                    last = pairs[k - 1][1] if k else -1
                    before[stretch[p0 + a]] = reference_text[r0 + last + 1 : r0 + pairs[k][1]]
                for _, i, j in pairs:
                    if reference_codes[r0 + i] != UNDECIDED:  # else it goes with the character before
                        code_at.setdefault(p0 + j, reference_codes[r0 + i])
    return decided, code_at, before


def marking_words(layering: Layering, rule: Rule, read: Stretches, decided: dict, before: dict, normalizer) -> None:
    """The word that marks a stretch decided from its first character, where the reference reads
    that word, and nothing else, just before the stretch's text: the classic text's own word."""
    for number, (a, _) in decided.items():
        if a and read.stretch[a - 1] == number:
            continue
        end = start = read.starts[a]
        while start > 0 and layering.codes[start - 1] == FORMAT and WORD.match(layering.raw.text[start - 1]):
            start -= 1
        word = layering.raw.text[start:end]
        if word and word.translate(normalizer.comparison) == before.get(number):
            layering.assign(start, end, rule.layer, rule)


def assign(layering: Layering, rule: Rule, read: Stretches, decided: dict, code_at: dict) -> None:
    """Each decided character into the layer of the reference's character it aligns with (an
    unpaired one with the character before); the rest of the stretches recorded as undecided."""
    for a, b in decided.values():
        decided_codes, code = [], CODES[rule.layer]
        for k in range(a, b):
            code = code_at.get(k, code)
            decided_codes.append(code if code != read.codes[k] else None)  # None: it is in that layer already
        for code, run in groupby(range(a, b), key=lambda k: decided_codes[k - a]):
            run = list(run)
            if code is None:
                continue
            pieces = layering.spans(rule.within, read.starts[run[0]], read.ends[run[-1]])
            for piece, (c, d) in enumerate(pieces):
                layering.assign(c, d, LAYER_OF_CODE[code], rule, join=piece > 0)
    inside_span = bytearray(len(read.text))
    for a, b in decided.values():
        inside_span[a:b] = b"\x01" * (b - a)
    left = [k for k in range(len(read.text)) if read.stretch[k] >= 0 and not inside_span[k]]
    for _, run in groupby(enumerate(left), key=lambda item: item[1] - item[0]):
        run = [k for _, k in run]
        layering.undecided.append((read.starts[run[0]], read.ends[run[-1]]))


def apply(layering: Layering, rule: Rule, references: References) -> None:
    matched = candidates(layering, rule, TimeLimit(rule, layering.raw))
    reference = reference_for(layering, matched, references)
    if reference is None:
        return
    limit = TimeLimit(rule, layering.raw, sum(map(len, reference.texts)))
    min_run = int(rule.params.get("min_run", MIN_RUN))
    layers = [reference.codes(number, rule.layer) for number in range(len(reference.texts))]
    # A reference tells the layers apart that its text holds: one without a 傳 cannot tell it from the classic text.
    needed = {CODES[layer] for layer in (rule.layer, *rule.within) if layer in TRANSMITTED}
    sure_codes = ({code for codes in layers for code in set(codes)} - {UNDECIDED}) | {CODES[rule.layer]}
    sure_layers = tuple(layer for layer, code in CODES.items() if code in sure_codes)
    layered_as = (*sure_layers, *(layer for layer in rule.within if layer not in sure_layers))
    stream = reference.normalizer.stream(layering.raw, layering.segments(), layered_as)
    read = read_stretches(layering, rule, matched, stream, sure_codes)
    firms = firm_references(reference, layers, needed, read, min_run, limit)
    decided, code_at, before = decide(firms, read, rule, min_run, limit)
    if rule.params.get("whole"):
        decided = wholes(decided, read.stretch)
    assign(layering, rule, read, decided, code_at)
    if rule.params.get("marked"):
        marking_words(layering, rule, read, decided, before, reference.normalizer)
