"""Web spam pasted into 001: every insertion found, in both halves, with no classic text taken."""

from pathlib import Path

import pytest
from conftest import SOURCES

from edition.intake.model import RawText
from edition.intake.profile import load_profile, split_layers

SPAM_IN_TRANSLATION = [
    "舌尖上的中国海报",
    "二年级生字表上册",
    "1990属什么",
    "红烧鹅的做法",
    "女孩纹身",
    "英语13怎么写",
    "写事作文400字",
    "裴昌会",
]


def test_all_ten_insertions_of_001_are_found(witnesses):
    w = witnesses["001"]
    found = [s.text(w.raw) for s in w.segments_of("intrusion")]
    assert len(found) == 10
    assert all(text.endswith(" ") for text in found)
    translation_start = next(s.start for s in w.segments_of("label") if s.text(w.raw) == "译文")
    in_classic = [s.text(w.raw) for s in w.segments_of("intrusion") if s.start < translation_start]
    assert in_classic == ["摧 ", "蜂蜜英语 "]
    in_translation = [s.text(w.raw) for s in w.segments_of("intrusion") if s.start > translation_start]
    for spam in SPAM_IN_TRANSLATION:
        assert any(spam in text for text in in_translation), spam


def test_classic_text_reads_on_without_the_spam(witnesses):
    w = witnesses["001"]
    classic = "".join(s.text(w.raw) for s in w.segments_of("classic"))
    assert "主人取爵于上篚，献工。" in classic
    assert "上射升堂，少左;" in classic


def test_no_intrusion_in_witnesses_without_spam(witnesses):
    for siglum in ("000", "002", "003"):
        assert witnesses[siglum].segments_of("intrusion") == []


def with_insertion(anchor: str, spam: str) -> tuple[RawText, str]:
    text = (SOURCES / "001_c77d09b7a3e08e74.txt").read_text(encoding="utf-8")
    assert anchor in text
    text = text.replace(anchor, anchor + spam + " ", 1)
    return RawText(Path("synthetic.txt"), text.encode(), text, "utf-8"), spam + " "


@pytest.mark.parametrize(
    "anchor,spam",
    [
        ("主人阼阶上拜送", "王者荣耀"),
        ("大夫降洗，", "iphone13价格"),
        ("众宾皆入门左", "减肥食谱"),
        ("宾厌众宾，", "小学生日记"),
    ],
)
def test_a_new_insertion_is_cut_exactly(anchor, spam):
    raw, expected = with_insertion(anchor, spam)
    segments = split_layers(raw, load_profile("web-translation"))
    found = [s.text(raw) for s in segments if s.layer == "intrusion"]
    assert expected in found


@pytest.mark.xfail(strict=True, reason="known limit: 二 is common in the text, so the model gives it back to the text")
def test_an_insertion_starting_with_a_common_character():
    raw, expected = with_insertion("不系左下纲，中", "二手房出售")
    segments = split_layers(raw, load_profile("web-translation"))
    assert expected in [s.text(raw) for s in segments if s.layer == "intrusion"]
