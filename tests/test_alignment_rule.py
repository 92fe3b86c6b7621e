"""An alignment rule's decisions on the 禮記注疏's real words: where the text it reads has no sure
text at all (服問 read against the base's 奔喪…); where the classic text takes up again at the end
of a 注 whose next note has the same words scattered (月令); where the reference is the text of
part of a 卷 only (卷五十八: the end of 深衣, then 投壺)."""

from edition.intake.alignment_rule import Stretches, decide, holds_in_part, weighted
from edition.intake.rule import Rule

# The real words (simplified, as compared): WYG 禮記注疏 卷五十七's 服問 and SBCK's 奔喪.
READ = "皇君也诸侯妾子之妻为其君姑齐衰与为小君同舅不厌妇也妻齐衰而夫从缌麻不降一等言非服差"
REFERENCE = "奔丧之礼始闻亲丧以哭答使者尽哀问故又哭尽哀遂行日行百里不以夜行唯父母之丧见星而行"


class Unlimited:
    """A time limit that never runs out (the rule's own is the layering's)."""

    def left_from(self, offset):
        return 1.0

    def timed(self, work):
        return work()


def test_a_text_with_no_sure_text_faces_the_whole_reference_and_decides_without_failing():
    n = len(READ)
    read = Stretches(READ, list(range(n)), list(range(1, n + 1)), [0] * n, [0] * n)  # one stretch, nothing sure
    rule = Rule("classic-by-alignment", "alignment", ("commentary",), "classic")
    firms = [(0, REFERENCE, [1] * len(REFERENCE), {}, set())]  # no firm run: nothing sure to anchor it
    decided, _ = decide(firms, read, rule, 4, Unlimited())
    assert decided == {}  # the two texts share no run: nothing of it is classic text


def test_the_classic_text_where_it_takes_up_again_holds_together_not_the_same_words_scattered_after():
    """WYG 月令: 注亥之氣乘之也介蟲敗穀注介甲也甲蟲屬冬敗穀者稻蟹之屬: between two firm runs the reference
    has 介蟲敗穀 only. Skipping a note's character costs nothing, so the next note's 介…蟲…敗穀 is as
    cheap as the first note's end; a run opened costs a little, and the classic text is the end of the first."""
    first, second = "亥之气乘之也介虫败谷", "介甲也甲虫属冬败谷者稻蟹之属"
    text = first + second
    stretch = [0] * len(first) + [1] * len(second)
    pairs = weighted("介虫败谷", text, [False] * len(text), stretch)
    assert [j for _, _, j in pairs] == list(range(len(first) - 4, len(first)))
    read = Stretches(text, list(range(len(text))), list(range(1, len(text) + 1)), [0] * len(text), stretch)
    rule = Rule("classic-by-alignment", "alignment", ("commentary",), "classic")
    decided, _ = decide([(4, "介虫败谷", [1] * 4, {}, set())], read, rule, 4, Unlimited())
    assert decided == {0: (len(first) - 4, len(first))}


def test_a_reference_that_is_part_of_the_witness_judges_where_it_stands():
    """A 卷 whose first half is another chapter's (its sure text there unmatched) is judged by the
    chapter's text where that text stands, not refused as a scrambled reference would be."""
    sure = [True] * 1000
    assert holds_in_part({k: k - 600 for k in range(600, 1000)}, sure)  # the second part, in order
    assert not holds_in_part({k: k for k in range(0, 1000, 5)}, sure)  # runs scattered over all of it
    assert not holds_in_part({k: k for k in range(900, 1000)}, sure)  # too little to judge


def test_the_classic_text_runs_on_to_the_end_of_its_note_rather_than_breaking_off_inside_it():
    """WYG 燕禮 (儀禮注疏 卷六): 注篚下篚南主人辭洗注謙也今文無洗賓坐奠: the classic text 主人辭洗 then 賓坐奠.
    The 洗 of 今文無洗 could as cheaply start the second run; a run that breaks off inside its note
    costs a little, so 主人辭洗 is whole."""
    first, second = "篚下篚南主人辞洗", "谦也今文无洗宾坐奠"
    text = first + second
    stretch = [0] * len(first) + [1] * len(second)
    pairs = weighted("主人辞洗宾坐奠", text, [False] * len(text), stretch)
    assert [text[j] for _, _, j in pairs] == list("主人辞洗宾坐奠")
    assert [j for _, _, j in pairs][:4] == list(range(len(first) - 4, len(first)))
