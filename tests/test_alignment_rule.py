"""An alignment rule's decisions on the 禮記注疏's real words: where the text it reads has no sure
text at all (服問 read against the base's 奔喪…); where the classic text takes up again at the end
of a 注 whose next note has the same words scattered (月令); where the reference is the text of
part of a 卷 only (卷五十八: the end of 深衣, then 投壺); clauses of three characters each run on
after a note (禮器); the classic text after the last firm run of a 卷 (月令)."""

from edition.intake.alignment_rule import Stretches, decide, firm_runs, holds_in_part, weighted
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
    decided, _, _ = decide(firms, read, rule, 4, Unlimited())
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
    decided, _, _ = decide([(4, "介虫败谷", [1] * 4, {}, set())], read, rule, 4, Unlimited())
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


def decided_words(sure_and_stretches, reference):
    """The classic text decided in a text made of sure parts (str) and stretches ([str])."""
    text = "".join(part if isinstance(part, str) else part[0] for part in sure_and_stretches)
    stretch = [
        -1 if isinstance(part, str) else number for number, part in enumerate(sure_and_stretches) for _ in "".join(part)
    ]
    read = Stretches(text, list(range(len(text))), list(range(1, len(text) + 1)), [0] * len(text), stretch)
    in_order, firm, unread = firm_runs(reference, text, read.sure, 4)
    rule = Rule("classic-by-alignment", "alignment", ("commentary",), "classic")
    decided, _, _ = decide([(in_order, reference, [1] * len(reference), firm, unread)], read, rule, 4, Unlimited())
    return sorted(text[a:b] for a, b in decided.values())


def test_clauses_each_run_on_after_a_note_are_decided_one_from_the_next():
    """WYG 禮器: 一獻質注謂祭羣小祀也三獻文注謂祭社稷五祀五獻察注察明也…七獻神注謂祭先公大饗其王事與: each
    clause is three characters at the end of a note, and only the last stands next to sure text; each
    decided decides the one before it, as the reference reads them one after the other."""
    read = ["于彼乎于此乎一献质", ["谓祭群小祀也三献文"], ["谓祭社稷五祀五献察"], ["察明也谓祭四望山川也七献神"]]
    read += [["谓祭先公"], "大飨其王事与"]
    assert decided_words(read, "于彼乎于此乎一献质三献文五献察七献神大飨其王事与") == ["七献神", "三献文", "五献察"]
    # where the reference reads words between them that the text lacks, no clause is next to another
    assert decided_words(read, "于彼乎于此乎一献质甲三献文乙五献察丙七献神丁大飨其王事与") == []


def test_the_classic_text_after_the_last_firm_run_is_decided_though_the_reference_goes_on():
    """WYG 月令, the end of its 卷: 收雷先行注先猶蚤也冬主閉藏草木蚤死注寒氣盛也, against the whole chapter of
    the base, which goes on to 季秋之月: what the reference has beyond the text costs less than a note's
    characters paired with it, so 草木蚤死 is paired as a run, not 先猶蚤也… with 草木蚤死季秋…."""
    read = ["行冬令则风灾数起", ["子之气乘之也北风杀物"], "收雷先行", ["先犹蚤也冬主闭藏草木蚤死"], ["寒气盛也"]]
    reference = "行冬令则风灾数起收雷先行草木蚤死季秋之月日在房昏虚中旦柳中其日庚辛其帝少皞其神蓐收"
    assert decided_words(read, reference) == ["草木蚤死"]


def test_where_the_reference_lacks_sure_text_the_parts_beside_it_are_still_judged():
    """WYG 士虞禮 記, where the base has lost a leaf: the 注疏's 獻畢未徹乃餞, 尊兩甒于廟門外之右… and
    洗在尊東南… are sure text the base lacks between two firm runs. Its 記 有乾肉折俎二尹縮祭半尹在西塾,
    run on after 注酒宜脯也古文脡爲挺, is still told: the text beside what the reference lacks faces
    the reference's text between the runs, where before the whole stretch was left undecided."""
    read = ["他用刚日亦如初曰哀荐成事", ["当祔于祖庙为神安于此后虞改用刚日今文他为它"], "献毕未彻乃饯"]
    read += [["卒哭之祭既三献也饯送行者之酒古文饯为践"], "尊两甒于庙门外之右少南水尊在酒西勺北枋"]
    read += [["少南将有事于北有玄酒即吉也古文甒为庑也"], "洗在尊东南水在洗东篚在西", ["在门之左又少南馔笾豆脯四脡"]]
    read += [["酒宜脯也古文脡为挺有干肉折俎二尹缩祭半尹在西塾"], ["干肉牲体之脯也古文缩为蹙"], "尸出执几从席从"]
    reference = "他用刚日亦如初曰哀荐成事有干肉折俎二尹缩祭半尹在西塾尸出执几从席从尸出门右南"
    assert decided_words(read, reference) == ["有干肉折俎二尹缩祭半尹在西塾"]


def test_a_clause_the_reference_reads_twice_is_paired_with_the_occurrence_before_the_note():
    """WYG 特牲饋食禮 (儀禮注疏 卷十五): 尸實舉于菹豆注為將食庶羞…佐食羞庶羞四豆設于左南上有醢注庶衆也…
    尸又三飯告飽祝侑之如初注禮再成也舉骼及獸魚如初尸又三飯告飽祝侑之如初注禮三成…: the base reads 尸又三飯告飽祝侑之如初
    twice, and the 注疏 runs on into the second time after its note. The sure clause before the note is the
    first time, and what the base reads besides the sure text is left out at the notes that hold
    it, so the words run on after each note are decided classic text."""
    read = ["尸实举于菹豆", ["为将食庶羞举谓肺脊佐食羞庶羞四豆设于左南上有醢"], ["庶众也众羞以豕肉所以为异味"]]
    read += ["尸又三饭告饱祝侑之如初", ["礼再成也举骼及兽鱼如初尸又三饭告饱祝侑之如初"], ["礼三成兽鱼如初者兽骼鱼一也"]]
    read += ["举肩及兽鱼如初"]
    reference = "尸实举于菹豆佐食羞庶羞四豆设于左南上有醢尸又三饭告饱祝侑之如初举骼及兽鱼如初"
    reference += "尸又三饭告饱祝侑之如初举肩及兽鱼如初"
    assert decided_words(read, reference) == ["举骼及兽鱼如初尸又三饭告饱祝侑之如初", "佐食羞庶羞四豆设于左南上有醢"]


def test_what_the_reference_reads_besides_is_left_out_at_each_note_that_holds_it():
    """WYG 公食大夫禮 (儀禮注疏 卷九): …公揖入賓從注揖入道之及廟門公揖入注廟禰廟也賓入三揖…: the clauses between the
    notes are too short to anchor, and the base's 公揖入 stands twice. The base's words the sure
    text lacks are left out at the notes that hold them, each where it shares the most: 及廟門公揖入
    after 賓從, so 公揖入賓從 pairs with the first 公揖入 and the words run on are decided."""
    read = ["公如宾服迎宾于大门内", ["不出大门降于国君"], "大夫纳宾"]
    read += [["大夫谓上摈也纳宾以公命宾入门左公再拜宾辟再拜稽首"], ["左西方宾位也辟逡遁不敢当君拜也"], "公揖入宾从"]
    read += [["揖入道之及庙门公揖入"], ["庙祢庙也"], "宾入三揖", ["每曲揖及当碑揖相人偶"], "至于阶三让"]
    reference = "公如宾服迎宾于大门内大夫纳宾宾入门左公再拜宾辟再拜稽首公揖入宾从及庙门公揖入宾入三揖至于阶三让"
    assert decided_words(read, reference) == ["及庙门公揖入", "宾入门左公再拜宾辟再拜稽首"]
