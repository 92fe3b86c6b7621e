"""The ritual's steps as 賈公彥's 疏 divides the text (自此至X論Y之事), placed on the base: checked
by hand against the raw SBCK file; the formulas not placed reported with the reason; a made-up
witness shows the mechanism is general."""

from itertools import pairwise

import pytest

from edition.collation.model import Step
from edition.collation.sections import paragraph_starts
from edition.traditions.yili import steps


@pytest.fixture(scope="module")
def found(apparatus, sources):
    return steps.find_steps(apparatus, steps.load(sources.normalizer()))


def one(found, title: str) -> Step:
    named = [s for s in found[0] if s.title == title]
    assert len(named) == 1, [s.title for s in found[0]]
    return named[0]


def raw_span(apparatus, step: Step) -> tuple[int, str, int, str]:
    """The step in the raw SBCK file: the line it begins on and its first raw characters, the line
    it ends on and the raw characters before its end."""
    base = apparatus.base
    tokens, raw = base.classic.tokens, base.raw
    a, b = tokens[step.t0].start, tokens[step.t1 - 1].end
    return raw.line_of(a), raw.text[a : a + 12], raw.line_of(b), raw.text[b - 12 : b]


def test_the_first_step_begins_with_the_chapter_and_ends_at_wu_jie(found, apparatus):
    """SBCK line 8 鄕射之禮主人戒賔…, line 15 …無介(雖先飮酒…): WYG prints 鄉射之禮 apart (鄉射之禮○主人戒賓),
    a passage without notes that joins the step after it."""
    step = one(found, "州長將射先戒賓")
    assert (step.t0, step.source) == (0, "WYG")
    assert raw_span(apparatus, step) == (8, "鄕射之禮主人戒賔賔出迎再", 15, "退還射宫/省録射事)無介")


def test_the_host_presents_the_guest_from_its_passage_to_the_last_zhu_ren_zuo_jie_shang_da_bai(found, apparatus):
    """It begins with the passage before its 疏 (SBCK line 39 主人坐取爵于上篚以降) and runs to the
    主人阼階上荅拜 that ends where the next step (賔以虚爵降, line 63–64) begins, not to the first
    one, after 告旨 (line 62)."""
    step = one(found, "主人獻賓")
    line, first, end_line, last = raw_span(apparatus, step)
    assert (line, first) == (39, "主人坐取爵于上篚以降(將")
    assert (end_line, last) == (63, "(卒/盡)主人阼階上荅拜")
    assert apparatus.base.classic.tokens[step.t1].source(apparatus.base.raw) == "賔"  # 賔以虚爵降


def test_the_lv_chou_begins_after_the_separator_not_with_the_clause_that_has_its_own_zhu(found, apparatus):
    """SBCK line 102: …虚爵降奠于篚(不復/用)揖讓升賔厭衆賔升…; WYG: 主人以虛爵降奠于篚注不復用○揖讓升…疏(釋曰自此以下
    至舉觶者降論旅酬之事). Ends at line 110 舉觶者降."""
    step = one(found, "旅酬")
    line, first, end_line, last = raw_span(apparatus, step)
    assert (line, first, end_line) == (102, "揖讓升賔厭衆賔升衆¶\n賔", 110)
    assert last.endswith("其所舉觶者降")


def test_a_step_whose_shu_follows_the_words_that_end_the_step_before_begins_at_that_end(found, apparatus):
    """WYG: 卒受者以觶降奠于篚司正降復位疏(釋曰自此盡唯賓…云司正降復位者…): 司正降復位 ends the 旅酬 after the
    射 (SBCK line 498), so the 舉觶 begins at 使二人舉觶; and the 作樂 at 席工 (line 127), after the
    大夫酢's 衆賔皆升就席."""
    lv_chou, ju_zhi = one(found, "射訖行旅酬"), one(found, "舉觶於賓與大夫爲無算爵")
    assert lv_chou.t1 == ju_zhi.t0
    assert raw_span(apparatus, ju_zhi)[:2] == (498, "使二人舉觶于賔與大夫(二")
    da_fu, yue = one(found, "大夫酢主人訖賓主皆升就席"), one(found, "作樂")
    assert da_fu.t1 == yue.t0 and raw_span(apparatus, yue)[:2] == (127, "席工于西階上少東樂正先升")


def test_to_the_end_of_the_jing_runs_to_the_ji(found, apparatus):
    step = one(found, "息勞司正")
    assert raw_span(apparatus, step)[:2] == (552, "主人釋服乃息¶\n司正(釋")
    assert apparatus.base.classic.tokens[step.t1].source(apparatus.base.raw) == "記"  # 記大夫與則公士爲賔


def test_the_steps_of_the_shu_follow_one_another_with_titles_in_wygs_characters(found):
    placed, _ = found
    assert len(placed) == 29
    assert all(a.t1 <= b.t0 for a, b in pairwise(placed))
    assert {s.source for s in placed} == {"WYG"}
    titles = [s.title for s in placed]
    # ended by 之事, 之節, 事 alone, or the next 注釋曰
    assert {"州長將射先戒賓", "司馬獻獲者", "三番射", "三耦爲第一番射法", "升坐行無算爵賓醉送出"} <= set(titles)
    # 注釋曰自此至反升就席論主人獻工笙之事: WYG's 疏 after a 注 opens a step all the same
    assert one(found, "主人獻工笙").line == 331
    # 注釋曰鄭云雖先飲酒者自此已下先言飲酒 (line 43) quotes no end: no step
    assert 43 not in {s.line for s in placed}


def test_002s_shu_vouches_for_the_step_it_places_alike(found):
    step = one(found, "升坐行無算爵賓醉送出")
    assert (step.source, step.line, step.agreeing) == ("WYG", 1183, ("002",))


def test_the_formulas_not_placed_are_reported_with_the_reason(found):
    unplaced = {(u.source, u.line): u for u in found[1]}
    assert set(unplaced) == {("002", 134)}
    # 002 sets 息勞司正 at 明日賓朝服, as the 監本 does; the 考證 of WYG moves it to 主人釋服
    assert unplaced["002", 134].title == "息劳司正" and unplaced["002", 134].reason.startswith(
        "WYG begins the same step at base token"
    )


def test_a_step_whose_last_words_the_shu_abridges_ends_where_the_next_begins(found, apparatus):
    """WYG's 疏 (line 161): 自此至賓西階上答拜論賓酢主人, where its 經 reads 賓西階上答再拜 (SBCK lines
    78–79, after 拜崇酒): one character more, within one edit in three, where the 酬賓 begins."""
    step, following = one(found, "賓酢主人"), one(found, "酬賓")
    assert (step.source, step.line) == ("WYG", 161)
    assert step.t1 == following.t0
    assert raw_span(apparatus, step)[2:] == (79, "拜崇酒賔¶\n西階上荅再拜")


def test_a_paragraph_begins_at_each_start_with_the_outermost_step_there():
    outer, inner, same_start = (
        Step("三番射", 10, 90, "X", 1),
        Step("第一番射", 30, 50, "X", 2),
        Step("戒賓", 10, 20, "Y", 3),
    )
    assert paragraph_starts([inner, same_start, outer]) == {10: outer, 30: inner}


B_TEXT = (
    "仪礼注疏\n\n"
    "司射适阼阶上，东北面告于主人，曰：“请射于宾。”宾许。\n"
    "[疏]“司射”至“宾许”。\n"
    "○释曰：自此至“纳射器”，论请射纳器之事。\n"
    "司射降自西阶，阶前西面，命弟子纳射器。（弟子，宾党之年少者也。）\n"
    "乃纳射器，皆在堂西。宾与大夫之弓倚于西序，矢在弓下。众弓倚于堂西，矢在其上。\n"
    "[疏]“乃纳”至“其上”。\n"
    "○释曰：自此尽“东序东”，论陈射器之事。\n"
    "主人之弓矢在东序东。\n"
    "司射不释弓矢，遂以比三耦于堂西。\n"
    "[疏]“司射”至“堂西”。\n"
    "○释曰：自此至“堂西”，论比耦之事。\n"
    "○释曰：自此至“射于宾”，论误引之事。\n"
)


def test_a_made_up_shu_divides_a_small_base_through_its_alignment(tmp_path):
    """A witness B in the 注疏 layout against the sample base A, without A's 北括: its steps on A's
    tokens; the third's passage (主人之弓矢… 司射不释…) begins inside the second, which runs to 东序东,
    so it begins at that end; a formula whose words are not in B's text is reported."""
    from probe import sample_sources, write_witness

    from edition.collation import decision_file
    from edition.work.chapter_build import edit
    from edition.work.sources import Sources, decisions_path

    root = sample_sources(tmp_path / "sources")
    write_witness(root, "B", "b.txt", B_TEXT.encode("utf-8"), profile="zhushu", append=True)
    sources = Sources.load(root)
    edited = edit(sources, sources.intake_all(), decision_file.load(decisions_path(root)))
    placed, unplaced = edited.found["steps"].steps, edited.found["steps"].unplaced
    text = edited.apparatus.base.classic.text
    assert [(s.title, s.source, s.line) for s in placed] == [
        ("请射纳器", "B", 5),
        ("陈射器", "B", 9),
        ("比耦", "B", 13),
    ]
    assert [text[s.t0 : s.t1] for s in placed] == [
        "司射适阼阶上东北面告于主人曰请射于宾宾许司射降自西阶阶前西面命弟子纳射器",
        "乃纳射器皆在堂西宾与大夫之弓倚于西序矢在弓下北括众弓倚于堂西矢在其上主人之弓矢在东序东",
        "司射不释弓矢遂以比三耦于堂西",
    ]
    assert [(u.source, u.line, u.title, u.last) for u in unplaced] == [("B", 14, "误引", "射于宾")]
