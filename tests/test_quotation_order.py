"""The placement in order, as a property: whatever the base and the quotations, what is placed
never goes backwards within a layer and stays inside the base's text."""

from array import array
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from edition.collation.quotation_order import CLASSIC, COMMENTARY, BaseLayers, BaseSpan, Candidate, chain
from edition.intake.model import RawText
from edition.traditions.yili.collation_notes import ShiwuChapter, ShiwuEntry, ShiwuPlacer, ShiwuQuote, note_formulas
from edition.traditions.yili.subcommentary_quotations import (
    FIRST,
    LAST,
    WHOLE,
    ShuChapter,
    ShuComment,
    ShuPlacer,
    ShuQuote,
)
from edition.traditions.yili.subcommentary_quotations import formulas as shu_formulas

ALPHABET = "主人賓西東面北上拜升降于之也"


class FakeStream:
    """A comparison stream as BaseLayers reads one: text, raw starts and ends, own characters."""

    def __init__(self, text: str, starts: list[int]):
        self.text, self.starts = text, array("i", starts)
        self.ends = array("i", [s + 1 for s in starts])

    def source(self, raw, i, j):
        return "".join(raw.text[s:e] for s, e in zip(self.starts[i:j], self.ends[i:j]))


def base_of(passages: list[tuple[str, str]]) -> BaseLayers:
    """A base of passages of 經, each followed by its 注."""
    raw, layers = "", {CLASSIC: ([], []), COMMENTARY: ([], [])}
    for jing, zhu in passages:
        for layer, words in ((CLASSIC, jing), (COMMENTARY, zhu)):
            for char in words:
                layers[layer][0].append(char)
                layers[layer][1].append(len(raw))
                raw += char
    text = RawText(Path("base.txt"), raw.encode(), raw, "utf-8")
    streams = {name: FakeStream("".join(chars), starts) for name, (chars, starts) in layers.items()}
    return BaseLayers(text, streams[CLASSIC], streams[COMMENTARY])


words = st.text(ALPHABET, min_size=1, max_size=12)
passages = st.lists(st.tuples(words, words), min_size=1, max_size=12)


def quoted(draw, base: BaseLayers, layer: str) -> str:
    """Words of the layer (a stretch of it, maybe with a character changed), or words of nowhere."""
    text = base.texts[layer]
    if draw(st.booleans()):
        return draw(st.text(ALPHABET, min_size=2, max_size=6))
    a = draw(st.integers(0, len(text) - 1))
    b = draw(st.integers(a + 1, min(len(text), a + 8)))
    words = text[a:b]
    if len(words) > 2 and draw(st.booleans()):
        k = draw(st.integers(0, len(words) - 1))
        words = words[:k] + draw(st.sampled_from(ALPHABET)) + words[k + 1 :]
    return words


def assert_in_order(spans_by_layer: dict[str, list[BaseSpan]], base: BaseLayers) -> None:
    for layer, spans in spans_by_layer.items():
        starts = [s.t0 for s in spans]
        assert starts == sorted(starts), layer
        assert all(0 <= s.t0 <= s.t1 <= base.size(layer) for s in spans)


@settings(max_examples=60, deadline=None)
@given(st.data(), passages)
def test_lemmata_of_the_subcommentary_are_placed_in_order(data, parts):
    base = base_of(parts)
    comments = []
    for index in range(data.draw(st.integers(1, 10))):
        lemma = []
        for layer in data.draw(st.sampled_from([(CLASSIC,), (COMMENTARY,), (CLASSIC, COMMENTARY)])):
            words = quoted(data.draw, base, layer)
            if len(words) >= 4 and data.draw(st.booleans()):
                halves = ((words[:2], FIRST), (words[-2:], LAST))
            else:
                halves = ((words, WHOLE),)
            lemma += [ShuQuote(1, 1, "f.txt", 1, 0, 1, w, w, layer, role, index) for w, role in halves]
        comments.append(ShuComment(1, index, 1, "f.txt", 1, tuple(lemma), ()))
    result = ShuPlacer(base, shu_formulas()).place(ShuChapter(1, "test", comments=comments))
    spans: dict[str, list[BaseSpan]] = {}
    for p in result.placed:  # in the order of the comments
        spans.setdefault(p.span.layer, []).append(p.span)
    assert_in_order(spans, base)
    assert len(result.placed) + len(result.unplaced) == sum(len(c.lemma) for c in comments)


@settings(max_examples=60, deadline=None)
@given(st.data(), passages)
def test_entries_of_the_collation_notes_are_placed_in_order(data, parts):
    base = base_of(parts)
    entries = []
    for index in range(data.draw(st.integers(1, 10))):
        layer = data.draw(st.sampled_from([CLASSIC, COMMENTARY]))
        words = quoted(data.draw, base, layer)
        quote = ShiwuQuote(layer, words, words, 1, 0, 1, tuple(words))
        heading = data.draw(st.sampled_from(ALPHABET))
        entries.append(ShiwuEntry(1, index, 1, "f.txt", 1, 0, 1, heading, heading, (quote,), "", "", ()))
    result = ShiwuPlacer(base, note_formulas()).place(ShiwuChapter(1, "test", entries))
    spans: dict[str, list[BaseSpan]] = {}
    for p in result.placed:
        spans.setdefault(p.layer, []).append(p.span)
        assert p.span.t0 <= p.target[0] <= p.target[1] <= base.size(p.layer)
    assert_in_order(spans, base)
    assert len(result.placed) + len(result.unplaced) == len(entries)


@given(st.lists(st.lists(st.tuples(st.integers(0, 50), st.floats(0.1, 3)), max_size=4), max_size=12))
def test_the_chain_goes_forward(items):
    cands = [[Candidate((BaseSpan(CLASSIC, s, s + 1, 1.0),), w, s, s + 1) for s, w in item] for item in items]
    chosen = [c for c in chain(cands) if c is not None]
    assert [c.start for c in chosen] == sorted({c.start for c in chosen})  # strictly forward
    # no single candidate outweighs the chain
    best = max((c.weight for item in cands for c in item), default=0)
    assert sum(c.weight for c in chosen) >= best - 1e-9
