"""Where a 傳 ends, SBCK's layout alone cannot always tell (`tradition-by-alignment`): after the 也
that ends a 傳, the classic text may follow unmarked up to its note, or the 傳 may go on up to the
next 傳曰. A witness read before that lays the same text out plainly, WYG with a ○ before each
passage of the classic text, decides: first on a small pair of files made by hand, then on the real
喪服 (卷十一), where SBCK's layout swallows six short passages of the classic text into the 傳
before them (issue 21), each read by hand against both files."""

from pathlib import Path

import pytest
from conftest import WORK

from edition.intake.model import WitnessMeta
from edition.intake.profile import load_profile
from edition.intake.witness import ToRead, intake_witnesses
from edition.publication import report
from edition.work.work_sources import Work

# SBCK's layout: the 傳 in large characters after 傳曰 up to the next note, the 注 in (…). Its tails
# after a 傳's last 也: 夫之昆弟之子 (a passage of the classic text before its note, read as 傳),
# 公妾大夫之妾爲其子 (classic text up to the next 傳曰, read rightly), 謂吾姑者吾謂之姪夫之祖父母…
# (the 傳 goes on, then the classic text: read as classic text whole), 甥 (one character).
SBCK_LIKE = (
    "# -*- mode: mandoku-view -*-\n"
    "#+TITLE: 儀禮\n"
    "婦爲舅姑傳曰何以期也從服也夫之昆¶\n"
    "弟之子(男女/皆是)傳曰何以期也報之也公妾大¶\n"
    "夫之妾爲其子傳曰何以期也妾不得體君¶\n"
    "爲其子得遂也(此言二妾不得從於女/君尊降其子也)姪丈夫¶\n"
    "婦人報(爲姪男女/服同)傳曰姪者何也謂吾姑者吾謂之¶\n"
    "姪夫之祖父母世父母叔父母傳曰何以大¶\n"
    "功也從服也(從夫/之服)從母昆弟傳曰何以緦也以名服也¶\n"
    "甥(姊妹/之子)傳曰甥者何也謂吾舅者吾謂之甥何以緦也報之也(報之/者)¶\n"
)

# WYG's layout: a ○ before each passage of the classic text, the 注 after the word 注, 疏(…), the 傳
# after 傳曰 up to the next ○ (its 注 and 疏 inside it); here the 傳 after 甥 runs on, unmarked, from
# the 注 (注姊妹之子傳曰甥者何也…): `classic-by-alignment` gives it back to the 傳 by SBCK's text.
WYG_LIKE = (
    "# -*- mode: mandoku-view -*-\n"
    "#+TITLE: 儀禮注疏\n"
    "○婦爲舅姑疏(釋曰婦文在後/也)傳曰何以期也從服也疏(傳釋曰答/辭也)○夫之¶\n"
    "昆弟之子注男女皆是疏(釋曰二母爲之亦如/巳子服期也)傳曰何以期也報之也¶\n"
    "○公妾大夫之妾爲其子疏(釋曰重出/此文)傳曰何以期也妾¶\n"
    "不得體君爲其子得遂也注此言二妾不得從於女君尊降其子也¶\n"
    "○姪丈夫婦人報注爲姪男女服同疏(釋曰姪/者)傳曰姪者何也謂吾姑者吾謂之姪疏(傳釋/曰)¶\n"
    "○夫之祖父母世父母叔父母傳曰何以大功也從服也注從夫之服¶\n"
    "○從母昆弟傳曰何以緦也以名服也疏(傳釋/曰)○甥注姊妹之子¶\n"
    "傳曰甥者何也謂吾舅者吾謂之甥何以緦也報之也疏(傳釋曰報之/者)¶\n"
)

# SBCK's text as WYG lays it out: its 經 and 傳, a note wherever one stands.
DECIDED = [
    ("classic", "婦爲舅姑"),
    ("tradition", "傳曰何以期也從服也"),
    ("classic", "夫之昆弟之子"),
    ("tradition", "傳曰何以期也報之也"),
    ("classic", "公妾大夫之妾爲其子"),
    ("tradition", "傳曰何以期也妾不得體君爲其子得遂也"),
    ("classic", "姪丈夫婦人報"),
    ("tradition", "傳曰姪者何也謂吾姑者吾謂之姪"),
    ("classic", "夫之祖父母世父母叔父母"),
    ("tradition", "傳曰何以大功也從服也"),
    ("classic", "從母昆弟"),
    ("tradition", "傳曰何以緦也以名服也"),
    ("classic", "甥"),
    ("tradition", "傳曰甥者何也謂吾舅者吾謂之甥何以緦也報之也"),
]


def transmitted(witness) -> list[tuple[str, str, int]]:
    """The 經 and 傳 in reading order: (layer, text, the line it begins on), a run of one layer
    through format only (a note divides it)."""
    out: list[list] = []
    joined = False
    for segment in witness.segments:
        if segment.layer == "format":
            continue
        if segment.layer in ("classic", "tradition"):
            if joined and out[-1][0] == segment.layer:
                out[-1][1] += segment.text(witness.raw)
            else:
                out.append([segment.layer, segment.text(witness.raw), segment.line])
            joined = True
        else:
            joined = False
    return [tuple(run) for run in out]


def layers(witness) -> list[tuple[str, str]]:
    return [(layer, text) for layer, text, _ in transmitted(witness)]


def files(tmp_path: Path, texts: dict[str, tuple[str, str]]) -> list[ToRead]:
    """The texts as witness files of the given profiles, in the order given."""
    out = []
    for siglum, (text, profile) in texts.items():
        path = tmp_path / f"{siglum}.txt"
        path.write_text(text, encoding="utf-8")
        out.append(ToRead(WitnessMeta(siglum, path.name, siglum, "traditional", profile), path, load_profile(profile)))
    return out


def read(tmp_path: Path, sources, texts: dict[str, tuple[str, str]]) -> dict:
    return {w.meta.siglum: w for w in intake_witnesses(files(tmp_path, texts), sources.normalizer())}


# --- the mechanism, on files made by hand -----------------------------------------------------------


def test_the_layout_alone_leaves_the_tails_of_the_tradition_as_it_guesses(tmp_path, sources):
    alone = read(tmp_path, sources, {"S": (SBCK_LIKE, "mandoku-notes")})["S"]
    assert layers(alone)[:3] == [
        ("classic", "婦爲舅姑"),
        ("tradition", "傳曰何以期也從服也夫之昆弟之子"),
        ("tradition", "傳曰何以期也報之也"),
    ]
    assert ("classic", "謂吾姑者吾謂之姪夫之祖父母世父母叔父母") in layers(alone)
    assert ("tradition", "傳曰何以緦也以名服也甥") in layers(alone)
    assert {alone.raw.text[a:b].replace("¶\n", "") for a, b in alone.undecided} >= {
        "夫之昆弟之子",
        "公妾大夫之妾爲其子",
        "謂吾姑者吾謂之姪夫之祖父母世父母叔父母",
        "甥",
    }, "no other witness decided them: no reference there for another witness"


def test_the_other_witness_decides_where_a_tradition_ends(tmp_path, sources):
    read_ = read(tmp_path, sources, {"S": (SBCK_LIKE, "mandoku-notes"), "W": (WYG_LIKE, "mandoku-zhushu")})
    sbck, wyg = read_["S"], read_["W"]
    assert layers(sbck) == DECIDED
    assert sbck.undecided == ()
    assert layers(wyg) == DECIDED, "WYG, read first, by its layout and SBCK's text (its 傳 after 甥's 注)"
    by_rule = {(c["rule"], c["layer"]): c["characters"] for c in report.rule_counts(sbck)}
    assert by_rule[("tradition-by-alignment:tradition-by-alignment", "classic")] == len("夫之昆弟之子甥")
    assert by_rule[("tradition-by-alignment:tradition-by-alignment", "tradition")] == len("謂吾姑者吾謂之姪")
    # 公妾大夫之妾爲其子 was classic text already: it keeps its rule and its segment.
    assert any(s.rule == "classic-between-traditions:classic-between" for s in sbck.segments_of("classic"))


def test_a_reference_that_cannot_tell_or_has_not_decided_decides_nothing(tmp_path, sources):
    """A witness without a 傳 (all read as classic text) cannot tell the 傳 from the classic text;
    another SBCK-like witness whose own tails are undecided decides nothing with them (neither is
    its own reference): each keeps its layout's guess, whichever way it went."""
    plain = "".join(text for _, text in DECIDED) + "\n"
    for folder in "abc":
        (tmp_path / folder).mkdir()
    alone = read(tmp_path / "a", sources, {"S": (SBCK_LIKE, "mandoku-notes")})["S"]
    with_plain = read(tmp_path / "b", sources, {"P": (plain, "plain"), "S": (SBCK_LIKE, "mandoku-notes")})["S"]
    assert layers(with_plain) == layers(alone)
    # T has no note after 夫之昆弟之子: its layout reads it as classic text (up to the next 傳曰), S's as 傳.
    other = SBCK_LIKE.replace("(男女/皆是)", "")
    both = read(tmp_path / "c", sources, {"S": (SBCK_LIKE, "mandoku-notes"), "T": (other, "mandoku-notes")})
    assert layers(both["S"]) == layers(alone)
    assert ("classic", "夫之昆弟之子") in layers(both["T"]), "T keeps its own guess: S's is undecided"
    assert ("tradition", "傳曰何以期也從服也夫之昆弟之子") in layers(both["S"])


def test_the_witnesses_are_read_in_turns(tmp_path, sources):
    """WYG's rule decides what of its text is collated, SBCK's only how its text divides: WYG is
    read first (against SBCK by its layout alone), SBCK last (against WYG as read), whatever the
    order of their stanzas; the result keeps that order."""
    order = []
    texts = {"S": (SBCK_LIKE, "mandoku-notes"), "W": (WYG_LIKE, "mandoku-zhushu")}
    found = intake_witnesses(files(tmp_path, texts), sources.normalizer(), order.append)
    assert [w.meta.siglum for w in found] == ["S", "W"]
    assert order == ["intake W W.txt", "intake S S.txt (by its layout alone, as a reference)", "intake S S.txt"]
    assert [t.turn for t in files(tmp_path, texts)] == [2, 1]
    assert layers(found[0]) == DECIDED


# --- the real 喪服: SBCK 卷十一 read against WYG 卷十一 ---------------------------------------------------


@pytest.fixture(scope="module")
def sangfu():
    """SBCK's 喪服 as intake reads it (with WYG, as a build reads the chapter), its 經 and 傳."""
    work = Work.load(WORK)
    read_ = {w.meta.siglum: w for w in work.sources(work.chapter("喪服")).intake_all()}
    return transmitted(read_["SBCK"])


def around(runs, line: int, classic: str) -> tuple[tuple, tuple, tuple]:
    """The 傳 before the passage of the classic text that begins on `line`, the passage, the 傳 after it."""
    at = next(i for i, (layer, text, first) in enumerate(runs) if first == line and text == classic)
    return runs[at - 1], runs[at], runs[at + 1]


# The six places of issue 21, SBCK line, 經 and the 傳 after it, read by hand against SBCK and WYG
# (WYG lines 910, 1098, 1545, 1727, 1731, 1740: ○ before the 經, its 注, 疏(…), then 傳曰).
SWALLOWED = [
    (169, "夫之昆弟之子", "傳曰何以期也報之也"),
    (220, "舊君", "傳曰大夫爲舊君何以服齊衰三月也"),
    (346, "從母丈夫婦人報", "傳曰何以小功也以名加也外親之服皆緦也"),
    (393, "甥", "傳曰甥者何也謂吾舅者吾謂之甥何以緦也報之也"),
    (394, "壻", "傳曰何以緦報之也"),
    (397, "舅", "傳曰何以緦從服也"),
]


@pytest.mark.parametrize(("line", "classic", "tradition"), SWALLOWED, ids=[c for _, c, _ in SWALLOWED])
def test_the_six_passages_the_tradition_swallowed_are_classic_text(sangfu, line, classic, tradition):
    before, passage, after = around(sangfu, line, classic)
    assert before[0] == "tradition" and before[1].endswith("也"), before
    assert passage[0] == "classic"
    assert after[0] == "tradition" and after[1].startswith(tradition), after


# Five places that were right and stay so: a 經 (most of them a tail after a 傳's last 也, which WYG
# confirms) and its 傳, the 傳 whole.
RIGHT = [
    (159, "姑姊妹女子子適人無主者姑姊妹報", "傳曰無主者謂其無祭主者也何以期也爲其無祭主故也"),
    (170, "公妾大夫之妾爲其子", "傳曰何以期也妾不得體君爲其子得遂也"),
    (205, "爲舊君君之母妻", "傳曰爲舊君者孰謂也仕焉而巳者也何以服齊衰三月也言與民同也君之母妻則小君也"),
    (395, "妻之父母", "傳曰何以緦從服也"),
    (457, "大夫弔於命婦錫衰命婦弔於大夫亦錫衰", "傳曰錫者何也麻之有錫者也錫者十五升抽其半無事其縷有事其布曰錫"),
]


@pytest.mark.parametrize(("line", "classic", "tradition"), RIGHT, ids=[c for _, c, _ in RIGHT])
def test_the_places_that_were_right_stay_right(sangfu, line, classic, tradition):
    _, passage, after = around(sangfu, line, classic)
    assert passage[0] == "classic"
    assert after[:2] == ("tradition", tradition)


def test_where_the_tradition_goes_on_and_where_sbck_alone_tells(sangfu):
    """Two tails SBCK's layout read as classic text up to the next 傳曰 are 傳 (WYG's 疏 on them
    opens 傳釋曰), the passage of the classic text after them stays. Where no 也 ends a 傳 before
    the next 傳曰, SBCK's layout tells, and it stays 傳 though WYG sets it apart with a ○ (line 93:
    出妻之子爲父後者則爲出母無服, which 賈疏 reads as the old 傳 that 子夏 quotes)."""
    texts = [(layer, text) for layer, text, _ in sangfu]
    assert ("tradition", "傳曰姪者何也謂吾姑者吾謂之姪") in texts
    assert ("classic", "夫之祖父母世父母叔父母") in texts
    assert ("tradition", "傳曰何以緦也以名服也大夫以上爲庶母無服") in texts
    assert ("classic", "貴臣貴妾") in texts
    quoting = next(text for layer, text, first in sangfu if first == 91 and layer == "tradition")
    assert "親者屬出妻之子爲父後者則爲出母無服傳曰與尊者爲一體不敢服其私親也" in quoting
