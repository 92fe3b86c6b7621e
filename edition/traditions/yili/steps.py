"""Steps: the ritual's steps as a commentary divides the classic text, for paragraphs that follow them.

賈公彥's 疏 opens each step with a formula, 自此至X論Y之事: the step begins with the passage of
經 (and its 注) that the 疏 follows and runs to the classic words X; its name is Y. The formulas
are data (`data/steps.toml`); every included witness that carries their layer is read.

In its witness a step begins where the passage before the formula's block begins, and ends after
the words X in the witness's own classic text: the X that ends where the witness's next step
begins, else the first from the step's start, within `max_tokens`; a formula whose X is not there
is reported, not guessed. Both ends are mapped onto the base through the witness map.

The same step in several witnesses (by its place, or by its name, compared folded) is one step:
where they place it differently (002, like the 監本, sets 息勞司正 at 明日賓朝服, where the 考證
of WYG moves it to 主人釋服) the witness that agrees best with the base places it, and the other
is reported. Steps then follow one another: a step whose passage begins before the end of the
step before (WYG sets the 疏 of 舉觶 after 司正降復位, the words that end the 旅酬) begins at that
end; text before a step that no step covers joins it where it is a passage without notes (鄉射之禮,
printed apart before ○主人戒賓). A step inside another would be kept, nested: the 疏 of this
chapter has none.

A formula of the classic text itself (the garment that opens each 章 of 喪服) is a passage of it
whole, and its step begins with that passage; where the 疏 names the same step, the 疏's name is
its title.
"""

from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass, replace
from functools import partial
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING

import regex
from rapidfuzz.distance import Levenshtein

from ...collation.analysis import Context, Placements, Report
from ...collation.external_evidence import Commented
from ...collation.model import Apparatus, Step, Unplaced
from ...intake.normalize import Normalizer
from ...tables import read_toml
from ...text import HAN

if TYPE_CHECKING:
    from ...intake.model import Segment, Stream, Witness

NAME = "steps"
PHASE = "divisions"
DATA = Path(str(resources.files("edition.traditions.yili") / "data" / "steps.toml"))
TRANSPARENT = ("format", "chrome")  # layers that neither end a block nor a passage
GAP = "▯"
ENDING = 3  # the last characters of a step's last words that may end it where the next step begins
SHORTEST_WIDENED = 3  # last words looked for with a character more inside: two would be found anywhere


@dataclass(frozen=True)
class StepPattern:
    name: str
    layer: str
    passage: frozenset[str]  # the layers of the passage a block follows
    separator: regex.StepPattern  # layout between passages
    pattern: regex.StepPattern


@dataclass(frozen=True)
class Patterns:
    """The data file compiled in the edition's comparison script."""

    patterns: tuple[StepPattern, ...]
    # words for an end that are no words of the text -> the words the step stops before (None: the text's end)
    ends: dict[str, str | None]
    max_tokens: int


@dataclass
class Placed:
    step: Step
    reach: int  # the base gap where the passages of classic text alone before it begin
    title_norm: str


@dataclass(frozen=True)
class PlacedFormula:
    """A formula found in a witness, placed in the witness's classic tokens."""

    source: str
    line: int
    title: str
    title_norm: str
    last: str
    last_norm: str
    position: int | None  # where the passage the block follows begins
    reach: int | None  # where it begins with the passages without notes before it
    end: int | None = None
    own_words: bool = False  # a formula of the classic text (its passage, whole)


def folded(normalizer: Normalizer, text: str) -> str:
    """Text in the comparison script with its variant forms folded, character for character."""
    return "".join(normalizer.fold(c)[0] if HAN.match(c) else c for c in text)


def load(normalizer: Normalizer, path: Path = DATA) -> Patterns:
    doc, _ = read_toml(path)

    def fold(text: str) -> str:
        return folded(normalizer, text)

    patterns = tuple(
        StepPattern(
            p["name"],
            p["layer"],
            frozenset(p["passage"]),
            regex.compile(p["separator"]),
            regex.compile(fold(p["pattern"])),
        )
        for p in doc["pattern"]
    )
    ends = {fold(e["words"]): None if e.get("to_end") else fold(e["before"]) for e in doc.get("end", ())}
    return Patterns(patterns, ends, doc["max_tokens"])


def find_steps(
    apparatus: Apparatus, patterns: Patterns, commented: list[Commented] = (), fold=lambda text: text
) -> tuple[list[Step], list[Unplaced]]:
    """The steps the included witnesses' formulas name, and those of the 疏's comments on passages
    of the base (the 單疏本's, `commented`, compared by `fold`), in base order (an outer step
    before one nested in it), and the formulas that could not be placed, with the reason. Where
    two place the same step apart, the witness that agrees best with the base places it; a book
    of evidence after every witness."""
    quality = {siglum: status.quality for siglum, status in apparatus.statuses.items()}
    formulas = [f for siglum, witness in apparatus.witnesses.items() for f in witness_formulas(witness, patterns)]
    formulas += commented_formulas(commented, apparatus.base.classic.text, patterns, fold)
    placed: list[Placed] = []
    unplaced: list[Unplaced] = []
    for f in sorted(formulas, key=lambda f: (f.own_words, -quality.get(f.source, -1.0))):
        if f.position is None:
            unplaced.append(unplaced_of(f, "its block follows no classic text"))
            continue
        wmap = apparatus.maps.get(f.source)
        t0, reach = (wmap.gap_of(f.position), wmap.gap_of(f.reach)) if wmap else (f.position, f.reach)
        named = next((p.step for p in placed if same_title(p.title_norm, f.title_norm)), None)
        if named is not None and named.t0 != t0:
            unplaced.append(
                unplaced_of(
                    f,
                    f"{named.source} begins the same step at base token {named.t0}, this at {t0}; "
                    f"{named.source} agrees better with the base",
                )
            )
            continue
        if f.end is None:
            unplaced.append(
                unplaced_of(
                    f,
                    f"{f.last} is not in {f.source}'s classic text within {patterns.max_tokens} characters "
                    "of the step's start",
                )
            )
            continue
        t1 = wmap.gap_of(f.end) if wmap else f.end
        # the same step: where another begins and ends it, or (a book of evidence) begins or ends it
        same = next(
            (
                p
                for p in placed
                if (p.step.t0, p.step.t1) == (t0, t1)
                or f.source not in quality
                and (t0 == p.step.t0 or t1 == p.step.t1)
            ),
            None,
        )
        if same is None:
            placed.append(Placed(Step(f.title, t0, t1, f.source, f.line), reach, f.title_norm))
        else:
            same.step = replace(same.step, agreeing=(*same.step.agreeing, f.source))
    return in_sequence(placed), sorted(unplaced, key=lambda u: (u.source, u.line))


@dataclass(frozen=True)
class StepFindings:
    steps: list[Step]  # in base order
    unplaced: list[Unplaced]  # the formulas not placed


def find(apparatus: Apparatus, context: Context) -> StepFindings:
    commented = context.external.passages if context.external else []
    fold = partial(folded, context.normalizer)
    return StepFindings(*find_steps(apparatus, load(context.normalizer), commented, fold))


def place(apparatus: Apparatus, found: StepFindings) -> Placements:
    """Steps divide the text into paragraphs; they place nothing in the entries."""
    yield from ()


def report(apparatus: Apparatus, found: StepFindings, context: Context) -> Report:
    formulas = len(found.steps) + sum(len(s.agreeing) for s in found.steps) + len(found.unplaced)
    lines = (
        f"  steps of the rite: {formulas} formulas of the 疏, {len(found.steps)} steps placed, "
        f"{len(found.unplaced)} formulas not placed",
        *(f"    {u.source} line {u.line} 論{u.title}: {u.reason}" for u in found.unplaced),
    )
    return Report("steps", lines=lines)


def in_sequence(placed: list[Placed]) -> list[Step]:
    """The steps in base order, each after the one before it: one that begins before the end of
    the step before begins at that end; one after text no step covers begins with it where that
    text is its passages of classic text alone. A step inside the one before stays, nested."""
    out: list[Step] = []
    covered = 0
    for p in sorted(placed, key=lambda p: (p.step.t0, -p.step.t1)):
        step = p.step
        if step.t1 > covered:
            step = replace(step, t0=covered if step.t0 < covered else p.reach if p.reach >= covered else step.t0)
            covered = step.t1
        out.append(step)
    return out


def same_title(a: str, b: str) -> bool:
    """Two names, compared folded, alike but where either has lost a character (▯)."""
    return len(a) == len(b) and all(x == y or GAP in (x, y) for x, y in zip(a, b))


def unplaced_of(formula: PlacedFormula, reason: str) -> Unplaced:
    return Unplaced(formula.source, formula.line, formula.title, formula.last, reason)


def witness_formulas(witness: Witness, patterns: Patterns) -> list[PlacedFormula]:
    """The formulas of a witness in its order, each with its end: where its last words end."""
    return with_ends([f for p in patterns.patterns for f in formulas_of(witness, p)], witness.classic.text, patterns)


def commented_formulas(commented: list[Commented], classic: str, patterns: Patterns, fold) -> list[PlacedFormula]:
    """The formulas that open the comments on passages of the base (placed on its tokens), each
    with its end in the base's classic text `classic`."""
    found = []
    for passage in commented:
        opening = fold(passage.opening)
        for pattern in (p for p in patterns.patterns if p.layer == "subcommentary"):
            m = pattern.pattern.match(opening)
            if m:
                own = passage.opening  # Han characters only, folded one for one
                title, last = own[slice(*m.span("title"))], own[slice(*m.span("last"))] if last_of(m) else ""
                found.append(
                    PlacedFormula(
                        passage.source, passage.line, title, m["title"], last, last_of(m), passage.t0, passage.t0
                    )
                )
                break
    return with_ends(found, classic, patterns)


def with_ends(formulas: list[PlacedFormula], classic: str, patterns: Patterns) -> list[PlacedFormula]:
    """The formulas in the order of their text `classic`, each with its end there."""
    found = sorted(formulas, key=lambda f: (f.position is None, f.position or 0))
    out = []
    for k, f in enumerate(found):
        following = next(
            (g.position for g in found[k + 1 :] if g.position is not None and g.position > (f.position or 0)), None
        )
        out.append(f if f.position is None else replace(f, end=end_of(classic, f, following, patterns)))
    return out


def end_of(classic: str, formula: PlacedFormula, following: int | None, patterns: Patterns) -> int | None:
    """Where a step ends in its witness's classic text: after its last words, those that end where
    the next step begins if any do, else the first from its start; or right before the words that
    an end that is no words of the text stands for (or at the text's end); where the formula names
    no last words, where the next step begins (or at the text's end)."""
    start, limit = formula.position, formula.position + patterns.max_tokens
    if not formula.last_norm:  # a formula that names no last words: up to the next step
        return following if following is not None else len(classic)
    if formula.last_norm in patterns.ends:
        before = patterns.ends[formula.last_norm]
        if before is None:
            return len(classic)
        found = classic.find(before, start, limit)
        return found if found >= 0 else None
    words = formula.last_norm
    if (
        following is not None
        and following <= limit
        and classic.startswith(words, following - len(words))
        and following - len(words) >= start
    ):
        return following
    found = classic.find(words, start, limit)
    if found >= 0:
        return found + len(words)
    # where the next step begins, the words may end cut short (宿賛冠者亦如之 for 宿贊冠者一人亦如之)
    # or as the base misprints them (末旅 for 未旅)
    if following is not None and start < following <= limit and ends_like(classic[start:following], words):
        return following
    # the 疏 may leave out a word of them (外門外 for 外門之外): the first place that reads them with
    # one character more inside
    if len(words) >= SHORTEST_WIDENED:
        one_more = "|".join(
            regex.escape(words[:k]) + r"\p{Han}" + regex.escape(words[k:]) for k in range(1, len(words))
        )
        if found := regex.search(one_more, classic[start:limit]):
            return start + found.end()
    return None


def ends_like(text: str, words: str) -> bool:
    """Whether `text` ends with `words` as a 疏 may quote them: their last ENDING characters, or the
    whole words with one edit in three (at least one) and the same last character."""
    if text.endswith(words[-ENDING:]):
        return True
    if text[-1:] != words[-1:]:
        return False
    edits = max(1, len(words) // 3)
    lengths = range(max(2, len(words) - edits), min(len(text), len(words) + edits) + 1)
    return any(Levenshtein.distance(text[-n:], words) <= edits for n in lengths)


def last_of(match: regex.Match) -> str:
    """The last words a formula names (至X), or none (此齊衰三年章: up to the next step)."""
    return match.groupdict().get("last") or ""


def formulas_of(witness: Witness, pattern: StepPattern) -> list[PlacedFormula]:
    """The formulas of a layer's blocks: in a commentary anywhere in a block, the step beginning
    with the passage before it; in the classic text, a passage whole, the step beginning with it."""
    stream = witness.stream.only((pattern.layer,))
    own_words = pattern.layer == "classic"
    out = []
    for first, last in blocks(witness, pattern.layer):
        i0 = bisect_left(stream.starts, witness.segments[first].start)
        i1 = bisect_left(stream.starts, witness.segments[last].end)
        if own_words:
            whole = pattern.pattern.fullmatch(stream.text, i0, i1)
            matches = [whole] if whole else []
        else:
            matches = pattern.pattern.finditer(stream.text, i0, i1)
        for m in matches:
            if own_words:
                position = reach = bisect_left(witness.classic.starts, stream.starts[i0])
            else:
                position, reach = passage_start(witness, first, pattern)
            out.append(
                PlacedFormula(
                    witness.meta.siglum,
                    witness.raw.line_of(stream.starts[m.start()]),
                    own(witness, stream, pattern.layer, *m.span("title")),
                    m.group("title"),
                    own(witness, stream, pattern.layer, *m.span("last")) if last_of(m) else "",
                    last_of(m),
                    position,
                    reach,
                    own_words=own_words,
                )
            )
    return out


def own(witness: Witness, stream: Stream, layer: str, i: int, j: int) -> str:
    """The witness's characters of stream tokens i:j, with its punctuation between them."""
    return witness.layer_between(layer, stream.starts[i], stream.ends[j - 1])


def blocks(witness: Witness, layer: str) -> list[tuple[int, int]]:
    """The blocks of a layer: (first, last) indexes in the witness's segments of each run of its
    segments with nothing but layout between them."""
    out: list[tuple[int, int]] = []
    inside = False
    for index, segment in enumerate(witness.segments):
        if segment.layer == layer:
            out[-1:] = [(out[-1][0], index)] if inside else [*out[-1:], (index, index)]
            inside = True
        elif segment.layer not in TRANSPARENT:
            inside = False
    return out


def passage_start(witness: Witness, block: int, pattern: StepPattern) -> tuple[int | None, int | None]:
    """The classic tokens where the passage the block at segment `block` follows begins (the
    nearest text of the passage layers before it, back to any other layer's text or a separator),
    and where the passages of classic text alone right before that one begin."""
    segments, raw = witness.segments, witness.raw
    k = block - 1
    while k >= 0 and segments[k].layer not in pattern.passage:
        k -= 1
    passages: list[list[Segment]] = [[]]  # their text segments, going back
    while k >= 0 and (segments[k].layer in pattern.passage or segments[k].layer in TRANSPARENT):
        if segments[k].layer not in TRANSPARENT:
            passages[-1].append(segments[k])
        elif pattern.separator.fullmatch(segments[k].text(raw)) and passages[-1]:
            passages.append([])
        k -= 1
    firsts = [min((s.start for s in p if s.layer == "classic"), default=None) for p in passages]
    first = next((i for i, start in enumerate(firsts) if start is not None), None)
    if first is None:
        return None, None
    reach = first
    while reach + 1 < len(passages) and passages[reach + 1] and all(s.layer == "classic" for s in passages[reach + 1]):
        reach += 1
    starts = witness.classic.starts
    return bisect_left(starts, firsts[first]), bisect_left(starts, firsts[reach])
