"""The 句讀 model: texts read with their breaks, features and labels in step, a model learnt from a
small punctuated text, the scores, and the shipped model with its provenance."""

import hashlib
import itertools
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from edition.collation.punctuation import quoted_marks
from edition.collation.punctuation_model import (
    BREAKS,
    SENTENCE_BREAKS,
    Labelled,
    PunctuationModel,
    features,
    labels,
    provenance,
    score,
    train,
)
from edition.text import WRITTEN
from edition.work.punctuation_training import (
    HELD_OUT,
    PUNCTUATED,
    UNPUNCTUATED,
    WITH_NOTES,
    chapters_of,
    classic_with_notes,
    is_punctuated,
    punctuated,
    scores,
    with_notes_placed,
)

KANRIPO = Path(__file__).resolve().parent.parent.parent / "shared" / "kanripo"


def test_a_punctuated_text_gives_each_character_the_break_after_it():
    text = punctuated("主人曰：「請。」賓,許;乃《射》")
    assert text.chars == "主人曰請賓許乃射"
    assert text.breaks == ["", "", "：", "。", "，", "；", "", ""]  # ASCII marks full-width, quotes no break


def test_features_and_labels_are_in_step_and_carry_the_layout():
    text = Labelled("主人再拜賓荅", ["", "", "", "。", "", ""], notes_after={3}, layer="commentary")
    items = features(text)
    assert len(items) == len(labels(text)) == 6
    assert "c0=拜" in items[3] and "note" in items[3] and "note" not in items[2]
    assert "layer=commentary" in items[0] and "end" in items[-1] and "c-1=<" in items[0]
    assert features(Labelled("賓荅再拜", [""] * 4))[0][3] == features(Labelled("宾答再拜", [""] * 4))[0][3]


def test_a_model_learns_where_clauses_end(tmp_path):
    clauses = ["主人再拜", "賓荅再拜", "主人揖", "賓升", "北面坐", "取爵"]
    sentences = ["".join(f"{a}，{b}。" for a, b in itertools.permutations(clauses, 2))] * 3
    train([punctuated(s) for s in sentences], tmp_path / "m.crfsuite", iterations=60, c1=0.0)
    model = PunctuationModel(tmp_path / "m.crfsuite")
    unseen = punctuated("賓升主人揖取爵北面坐")
    ends = [bool(b) for b in model.breaks(unseen)]  # which break a clause takes depends on its place in a pair
    assert (
        "".join(c + ("|" if end else "") for c, end in zip(unseen.chars, ends, strict=True))
        == "賓升|主人揖|取爵|北面坐|"
    )


def test_scores_count_sentence_breaks_apart_from_all_breaks():
    gold = [["。", "", "，", "", "；"]]
    proposed = [["。", "，", "", "", "，"]]
    sentence = score(gold, proposed, SENTENCE_BREAKS)
    assert (sentence.precision, sentence.recall, sentence.gold) == (1.0, 0.5, 2)
    every = score(gold, proposed, BREAKS)
    assert (every.precision, every.recall, every.f1, every.gold) == (0.667, 0.667, 0.667, 3)


def test_a_text_is_punctuated_from_five_breaks_in_a_hundred_characters():
    assert is_punctuated("主人戒賓，賓出迎，再拜。" * 5)
    assert not is_punctuated("主人戒賓賓出迎再拜(戒警也)" * 5)


def test_the_shipped_model_says_what_it_learnt_from_and_how_it_scores():
    described = provenance()
    assert "python-crfsuite" in described["model"]
    liji = described["trained_on"]["liji"]
    assert liji["held_out"] == list(HELD_OUT) and len(liji["files"]) == 50
    assert set(described["trained_on"]["witnesses"]) == {"鄉射禮/001", "鄉射禮/002"}  # 004 is scrambled
    held_out = described["held_out_scores"]
    assert held_out["characters"] > 1000 and 0.5 < held_out["all_breaks"]["f1"] <= 1
    statistics = described["statistics_from"]
    assert set(statistics["texts"]) == set(UNPUNCTUATED) and statistics["runs_kept"] > 100_000


@pytest.mark.tier("build")
def test_the_held_out_scores_are_the_shipped_model_s_on_the_held_out_pian():
    liji = chapters_of(KANRIPO / PUNCTUATED)
    with_notes_placed(liji, *classic_with_notes(KANRIPO / WITH_NOTES))
    assert all(sum(map(bool, liji[t].breaks)) > 100 for t in HELD_OUT)
    assert sum(len(liji[t].notes_after) for t in HELD_OUT) > 20
    assert scores(PunctuationModel(), [liji[t] for t in HELD_OUT]) == provenance()["held_out_scores"]


@pytest.mark.tier("build")
def test_training_is_deterministic(tmp_path):
    liji = chapters_of(KANRIPO / PUNCTUATED)
    texts = [liji["曲禮上"], liji["投壺"]]
    for name in ("a", "b"):
        train(texts, tmp_path / f"{name}.crfsuite", iterations=20)
    digest = [hashlib.sha256((tmp_path / f"{n}.crfsuite").read_bytes()).hexdigest() for n in "ab"]
    assert digest[0] == digest[1]


@settings(max_examples=40, deadline=None)
@given(
    words=st.lists(st.sampled_from([*"縜監本譌作絹今据考工記正之○", "&KR0056;"]), max_size=30).map("".join),
    unbroken=st.sets(st.integers(0, 31)),
)
def test_a_quoted_note_is_punctuated_after_its_characters_never_where_unbroken_and_ends_a_sentence(words, unbroken):
    """The shipped model on the words of a quoted note: a mark after a character (an entity one),
    none where a formula runs on but at the end, the last a sentence's end; words with marks of
    their own are left as they are."""
    marks = quoted_marks(words, unbroken)
    ends = [m.end() for m in WRITTEN.finditer(words)]
    if not ends:
        assert marks == {}
        return
    assert set(marks) <= set(ends) and marks[ends[-1]] in SENTENCE_BREAKS
    assert not (set(marks) - {ends[-1]}) & unbroken
    assert quoted_marks(words + "，" + words) == {}
