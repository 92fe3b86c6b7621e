"""A model of 句讀: which mark, if any, follows each character of an unpunctuated text, learnt from
punctuated texts of the genre by a conditional random field (CRFsuite, through python-crfsuite).

A text is a run of characters, each labelled with the break that follows it (，。、；：？！, or
none); quotation marks and brackets are no break and are not proposed. The features of a
character are the characters around it (compared in simplified script, so that a text in either
script reads alike), and the layout's own evidence where the text has it: a 注 after the
character (a note nearly always follows a whole clause), the text's end, and its layer (經 or
注); and what the genre's unpunctuated texts say of the runs about it (`ngram_statistics`). The
trained model is package data (`data/punctuation.crfsuite`), with the statistics it reads
(`data/punctuation-ngrams.tsv.gz`), its provenance and scores (`data/punctuation.json`);
`punctuation_training` makes all three.
"""

from __future__ import annotations

import json
from contextlib import nullcontext
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path

import opencc
import pycrfsuite

from .ngram_statistics import NgramStatistics

BREAKS = "，。、；：？！"  # the marks proposed
SENTENCE_BREAKS = "。；：？！"  # those that end a sentence or a clause of one
NONE = "O"
DATA = resources.files("edition.collation") / "data"
MODEL, PROVENANCE = DATA / "punctuation.crfsuite", DATA / "punctuation.json"
STATISTICS = DATA / "punctuation-ngrams.tsv.gz"
SIMPLIFIED = opencc.OpenCC("t2s.json")
WINDOW = 3
PROPOSED_RESP = "edition-punctuation-model"  # who a proposed mark is by, in the TEI


@dataclass
class Labelled:
    """A text as the model reads it: its characters, the break after each ("" none), the
    characters a 注 follows, and its layer (classic or commentary)."""

    chars: str
    breaks: list[str]
    notes_after: set[int] = field(default_factory=set)
    layer: str = "classic"


@cache
def folded(char: str) -> str:
    return SIMPLIFIED.convert(char)


def features(text: Labelled, statistics: NgramStatistics | None = None) -> list[list[str]]:
    """Each character's features: the characters in a window around it, the pairs and triples it
    is in, the layout's evidence, and the statistics' (if given)."""
    chars = [folded(c) for c in text.chars]
    said = statistics.features("".join(chars)) if statistics else [[] for _ in chars]
    padded = ["<"] * WINDOW + chars + [">"] * WINDOW
    out = []
    for i in range(len(chars)):
        at = i + WINDOW
        window = {k: padded[at + k] for k in range(-WINDOW, WINDOW + 1)}
        item = [f"c{k}={c}" for k, c in window.items()]
        item += [f"b{k}={window[k]}{window[k + 1]}" for k in range(-2, 2)]
        item += [f"t{k}={window[k]}{window[k + 1]}{window[k + 2]}" for k in (-2, -1, 0)]
        item.append(f"layer={text.layer}")
        if i in text.notes_after:
            item += ["note", f"note_c0={window[0]}"]
        if i == len(chars) - 1:
            item.append("end")
        out.append(item + said[i])
    return out


def labels(text: Labelled) -> list[str]:
    return [b or NONE for b in text.breaks]


@cache
def shipped_statistics() -> NgramStatistics:
    with resources.as_file(STATISTICS) as path:
        return NgramStatistics.read(path)


class PunctuationModel:
    """The trained model: the breaks it proposes for a text. Without a path, the shipped model
    with the shipped statistics; with one, the model there with the statistics given."""

    def __init__(self, path: Path | None = None, statistics: NgramStatistics | None = None):
        self.tagger = pycrfsuite.Tagger()
        self.statistics = shipped_statistics() if path is None else statistics
        with resources.as_file(MODEL) if path is None else nullcontext(path) as model:
            self.tagger.open(str(model))

    def breaks(self, text: Labelled) -> list[str]:
        """The break after each character ("" none)."""
        if not text.chars:
            return []
        return ["" if label == NONE else label for label in self.tagger.tag(features(text, self.statistics))]


@cache
def model() -> PunctuationModel:
    return PunctuationModel()


@cache
def provenance() -> dict:
    return json.loads(PROVENANCE.read_text(encoding="utf-8"))


def described() -> str:
    """The model in a sentence: what it is, what it learnt from, how it scores held out."""
    said = provenance()
    scores = said["held_out_scores"]
    return (
        f"punctuation proposed by a model of 句讀 ({said['model']}), learnt from {said['trained_on']['liji']['text']} "
        f"and the punctuated witnesses {', '.join(said['trained_on']['witnesses'])}, with the n-gram statistics of "
        f"{', '.join(said['statistics_from']['texts'])}; on held-out text it scores "
        f"F1 {scores['sentence_breaks']['f1']} on sentence breaks and {scores['all_breaks']['f1']} on all breaks"
    )


@dataclass(frozen=True)
class Score:
    precision: float
    recall: float
    f1: float
    gold: int  # breaks in the gold text


def score(gold: list[list[str]], proposed: list[list[str]], kinds: str) -> Score:
    """How the proposed breaks match the gold ones, counting a break of `kinds` at a place: for
    sentence breaks, one of 。；：？！ where the gold has one of them."""
    hit = wanted = made = 0
    for g_text, p_text in zip(gold, proposed, strict=True):
        for g, p in zip(g_text, p_text, strict=True):
            wanted += bool(g) and g in kinds
            made += bool(p) and p in kinds
            hit += bool(g) and g in kinds and bool(p) and p in kinds
    precision = hit / made if made else 0.0
    recall = hit / wanted if wanted else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return Score(round(precision, 3), round(recall, 3), round(f1, 3), wanted)


def train(
    texts: list[Labelled],
    path: Path,
    statistics: NgramStatistics | None = None,
    iterations: int = 150,
    c1: float = 1.0,
    c2: float = 0.01,
) -> None:
    """A model learnt from `texts` (with the features of `statistics`, if given), written to `path`
    (deterministic: the same texts, the same file)."""
    trainer = pycrfsuite.Trainer(verbose=False)
    for text in texts:
        if text.chars:
            trainer.append(features(text, statistics), labels(text))
    trainer.set_params({"c1": c1, "c2": c2, "max_iterations": iterations, "feature.possible_transitions": True})
    trainer.train(str(path))
