"""校语: the witnesses' notes on readings found in every layer, with their authors, placed on the
base characters they discuss and written with the apparatus entry there in build/edition.xml;
Zheng Xuan's 今文/古文 notes left to them; a synthetic witness shows the mechanism is general."""

import json
from copy import deepcopy

import pytest
import regex
from lxml import etree
from stripped import quoted_words, quoting

from edition.publication import validate
from edition.publication.tei import TEI_NS, XML_ID
from edition.traditions import jinguwen, textual_note

NS = {"t": TEI_NS}


@pytest.fixture(scope="module")
def notes(apparatus, sources):
    passages, unrecognised = textual_note.collect(apparatus, sources.persons, sources.normalizer())
    return [n for p in passages for n in p.notes], unrecognised


@pytest.fixture(scope="module")
def edition(built):
    return etree.parse(str(built / "edition.xml"))


def one(notes, siglum: str, words: str):
    found = [n for n in notes if n.siglum == siglum and words in n.words]
    assert len(found) == 1, [n.words for n in found]
    return found[0]


def base_at(apparatus, note) -> str:
    return "".join(t.source(apparatus.base.raw) for t in apparatus.base.classic.tokens[note.t0 : note.t1])


def entry_of(edition, words: str):
    """The app holding the textual note that quotes `words`, and that note."""
    found = quoting(edition, words)
    assert len(found) == 1, words
    return found[0].getparent(), found[0]


def test_jiang_yongs_remark_on_feng_is_his_and_stands_with_the_entry_where_the_base_reads_quan(
    notes, apparatus, edition
):
    note = one(notes[0], "000", "奉本作拳")
    assert (note.author, note.layer, note.words) == ("jiang-yong", "scholia", "奉本作拳朱子正作奉今从之")
    assert [(f.formula, f.lemma, f.reading) for f in note.found][0] == ("reads-otherwise", "奉", "拳")
    assert base_at(apparatus, note) == "拳" and note.confidence == "high"
    app, tei_note = entry_of(edition, "奉本作拳")
    assert (tei_note.get("resp"), tei_note.get("source"), tei_note.get("target")) == (
        "#jiang-yong",
        "#w000",
        "#" + app.get(XML_ID),
    )
    assert app.findtext("t:lem", namespaces=NS) == "拳"
    assert any(r.text == "奉" for r in app.iterfind("t:rdg", NS))
    # the 考證 of WYG discusses the same place: one entry for both
    (official,) = app.xpath("t:note[@resp='#siku-guanchen']/t:quote", namespaces=NS)
    assert quoted_words(official).startswith("楅髤横而奉之○奉石經及釋文作拳")


def test_the_one_edition_reading_fu_is_found_in_000_and_in_sbcks_zhu_and_placed_after_wo_su(
    notes, apparatus, sources, edition
):
    """刋本一作肤 stands in 000's brackets (a remark of 江永's, by its layout) and in SBCK's 注;
    刋 is no character of the classic text there, so both stand on the last one of the clause, 素."""
    fold = sources.normalizer().fold
    remark, zhu = one(notes[0], "000", "刋本一作肤"), one(notes[0], "SBCK", "刋本一作膚")
    assert (remark.author, zhu.author) == ("jiang-yong", "zheng-xuan")
    for note in (remark, zhu):
        (found,) = note.found
        assert (found.formula, found.lemma, fold(found.reading)[0]) == ("one-reads", "刋", fold("膚")[0])
        assert (
            base_at(apparatus, note) == "素" and note.confidence == "low" and "not in the classic text" in note.reason
        )
    app, _ = entry_of(edition, "刋本一作肤")
    assert app.xpath("t:note[@resp='#zheng-xuan']/t:quote[@source='#wSBCK']", namespaces=NS)


def test_ao_jigong_and_the_officials_in_wygs_kaozheng_each_speak_for_themselves(notes, apparatus, edition):
    ao = one(notes[0], "WYG", "敖繼公云請下似脱一賓字")
    reply = one(notes[0], "WYG", "臣紱按鄉飲酒禮云乃請賓")
    assert (ao.author, reply.author, ao.layer) == ("ao-jigong", "siku-chen-fu", "kaozheng")
    assert ao.words.startswith(
        "主人戒賓賓出迎再拜主人答再拜乃請○"
    )  # the entry's heading, its place, goes with its first words
    assert [(f.formula, f.place, f.reading) for f in ao.found] == [("beside", "請", "賓")]
    assert base_at(apparatus, ao) == "請" and (reply.t0, reply.t1) == (ao.t0, ao.t1)
    official = one(notes[0], "WYG", "纁石經及楊本敖本作薰")
    assert official.author == "siku-guanchen" and base_at(apparatus, official) == "薫"
    app, tei_note = entry_of(edition, "纁石經及楊本敖本作薰")
    assert tei_note.get("resp") == "#siku-guanchen" and app.xpath("t:rdg[@wit='#wWYG'][.='纁']", namespaces=NS)
    assert [quoted_words(q) for q in app.xpath("t:note[@resp='#ao-jigong']/t:quote", namespaces=NS)] == [
        "敖繼公云古字通用今从纁"
    ]
    # a 今文 reading that 敖繼公 would adopt is a 校语 of his
    assert one(notes[0], "WYG", "宜從今文").author == "ao-jigong"


def test_the_words_quoted_are_punctuated_by_the_model_never_inside_a_formula_and_their_own_marks_kept(edition):
    """敖繼公云請下似脱一賓字: the heading left out, the words punctuated by the model, no break
    inside the formula (請下似脱一賓字) but after the characters it names, the last a sentence's
    end; 002's words, punctuated, keep their own."""
    _, note = entry_of(edition, "請下似脱一賓字")
    (quote,) = note.iterfind("t:quote", NS)
    marks = quote.findall("t:pc", NS)
    assert marks and {m.get("resp") for m in marks} == {"#edition-punctuation-model"}
    assert marks[-1].text in "。；：？！" and marks[-1].tail is None
    said = "".join(quote.xpath("text()|t:pc/text()|t:pc/following-sibling::text()", namespaces=NS))
    assert regex.sub(r"\p{P}", "", said) == "請下似脱一賓字" and regex.search(r"請\p{P}?下似脱一賓字\p{P}$", said)
    _, own = entry_of(edition, "经“宾”上有“于”字者，误")
    assert own.find("t:quote[@source='#w002']", NS) is not None
    assert not own.xpath("t:quote[@source='#w002']/t:pc", namespaces=NS)


def test_a_kaozheng_note_on_the_commentary_stands_on_its_place_and_one_on_a_lost_leaf_nowhere(notes, apparatus):
    on_zhu = one(notes[0], "WYG", "監本一字下衍作字")
    assert base_at(apparatus, on_zhu) == "握" and "commentary" in on_zhu.reason
    lost = one(notes[0], "WYG", "獲者之俎折脊脇肺臑")
    assert lost.confidence == "none" and "no counterpart in the base" in lost.reason


def test_jia_gongyans_note_in_002_and_wyg_is_one_note_on_bin(notes, apparatus, edition):
    """經賓上有于字者誤: the place a formula names ends where it says (賓), whatever comes before it
    unpunctuated."""
    for siglum, words in (("002", "经“宾”上有“于”字者"), ("WYG", "經賓上有于字者誤")):
        note = one(notes[0], siglum, words)
        assert note.author == "jia-gongyan" and base_at(apparatus, note) == "賔"
    app, tei_note = entry_of(edition, "经“宾”上有“于”字者，误")
    assert tei_note.get("source") == "#w002 #wWYG" and len(tei_note.findall("t:quote", NS)) == 2


def test_the_scholars_quoted_in_003_discuss_the_rite_not_the_text(notes, witnesses):
    """五禮通考 quotes 盛世佐, 敖繼公, 張爾岐 and 郝敬 on the meaning (其説不同, 此記未詳, 恐未是,
    記者之誤): none of it is a 校语."""
    scholia = [s.text(witnesses["003"].raw) for s in witnesses["003"].segments_of("scholia")]
    assert any(s.startswith("盛氏世佐曰") for s in scholia) and any(s.startswith("敖氏继公曰") for s in scholia)
    assert not [n.words for n in notes[0] if n.siglum == "003"]


def test_no_note_of_zheng_on_the_jinwen_and_guwen_is_taken_for_one(notes, witnesses):
    for siglum in ("SBCK", "WYG", "000", "002"):
        spans = [(n.start, n.end) for n in jinguwen.find_notes(witnesses[siglum])]
        assert spans
        assert not [
            n.words for n in notes[0] if n.siglum == siglum and any(a < n.end and n.start < b for a, b in spans)
        ]
    assert not [n for n in notes[0] if "或作植" in n.words]


def test_every_note_of_the_edition_is_valid_and_counted(built, edition):
    written = edition.xpath("//t:note[@type='textual']", namespaces=NS)
    report = json.loads((built / "reports" / "textual_notes.json").read_text())
    collation = json.loads((built / "reports" / "collation.json").read_text())
    assert (
        len(edition.xpath("//t:note[@type='textual']/t:quote", namespaces=NS))
        == collation["textual_notes"]
        == report["placed"]
        > 50
    )
    persons = set(edition.xpath("//t:listPerson/t:person/@xml:id", namespaces=NS))
    assert {n.get("resp")[1:] for n in written} <= persons and {"siku-chen-fu", "zhu-xi", "lu-deming"} <= {
        n.get("resp")[1:] for n in written
    }
    assert any(u["words"].startswith("三笙一和而成聲") for u in report["unrecognised"])  # interpretive, reported


def test_the_project_schema_rejects_a_textual_note_away_from_its_entry_or_by_nobody(edition):
    doc = deepcopy(edition)
    first, second = doc.xpath("//t:note[@type='textual']", namespaces=NS)[:2]
    first.set("resp", "#nobody")
    second.set("target", "#app-0")
    messages = [p.message for p in validate.problems(doc)]
    assert any("listPerson" in m for m in messages) and any("apparatus entry its @target" in m for m in messages)


B_TEXT = (
    "礼书纲目\n\n"
    "司射适阼阶上东北面告于主人曰请射于賔賔许【今文无告】司射降自西阶阶前西面命弟子纳射器"
    "【盛氏世佐曰纳当作内】乃纳射器皆在堂西賔与大夫之矢倚于西序【矢石经作弓】"
    "矢在弓下北括众弓倚于堂西矢在其上主人之弓矢在东序东司射不释弓矢遂以比三耦于堂西\n\n"
    "右请射\n"
)


def test_a_synthetic_witness_has_its_notes_found_placed_through_its_alignment_and_written(tmp_path):
    """A witness B of the sample edition with two notes of its own: a scholar's, named at its head,
    and one in its 注, on a character where B differs from the base."""
    from probe import sample_sources, write_witness

    from edition.collation import decision_file
    from edition.publication import tei
    from edition.work.chapter_build import edit
    from edition.work.sources import Sources, decisions_path

    root = sample_sources(tmp_path / "sources")
    write_witness(root, "B", "b.txt", B_TEXT.encode("utf-8"), append=True)
    sources = Sources.load(root)
    choices = decision_file.load(decisions_path(root))
    edited = edit(sources, sources.intake_all(), choices)
    apparatus, found, passages = edited.apparatus, edited.sections, edited.found["textual_notes"].passages
    by_words = {n.words: n for p in passages for n in p.notes}
    assert set(by_words) == {"盛氏世佐曰纳当作内", "矢石经作弓"}
    sheng, zhu = by_words["盛氏世佐曰纳当作内"], by_words["矢石经作弓"]
    assert (sheng.author, zhu.author) == ("sheng-shizuo", "zheng-xuan")
    text = apparatus.base.classic.text
    assert text[sheng.t0 : sheng.t1] == "纳" and text[sheng.t0 - 2 : sheng.t0] == "弟子"
    assert text[zhu.t0 : zhu.t1] == "弓"  # B's 矢, mapped onto the base's 弓
    document = tei.edition_document(sources, apparatus, found, choices.editors)
    assert validate.problems(document) == []
    app = document.xpath("//t:app[t:note[@type='textual'][@resp='#zheng-xuan']]", namespaces=NS)[0]
    assert app.findtext("t:lem", namespaces=NS) == "弓" and app.xpath("t:rdg[@wit='#wB'][.='矢']", namespaces=NS)
    # the name of who speaks is the quote's heading, which the 校勘記 leaves out
    (quote,) = document.xpath("//t:app[t:lem='纳']/t:note[@resp='#sheng-shizuo']/t:quote[@source='#wB']", namespaces=NS)
    assert quote.findtext("t:seg[@type='heading']", namespaces=NS) == "盛氏世佐曰"
    assert quoted_words(quote) == "盛氏世佐曰纳当作内" and quote[0].tail.startswith("纳")


def test_a_note_is_by_the_one_who_judges_not_by_the_one_it_quotes(tmp_path):
    """A compiler's 鄭注…案… read as 注 is the compiler's (the person the witness's author names who
    wrote no layer of the text), or no one's where the witness names none, never Zheng Xuan's; an
    unnamed 案 after 敖繼公云… is not 敖繼公's; 朱子云按… is 朱熹's own, and 敖繼公云… that says
    the reading itself stays his."""
    from probe import SAMPLE, sample_sources, write_witness

    from edition.work.sources import Sources

    notes = {
        "郑注纳内也案纳石经作内": "阶前西面",
        "敖继公云矢在弓下北括案矢石经作弓": "倚于西序",
        "朱子云按弓石经作矢": "众弓倚于堂西",
        "敖继公云北当作比": "遂以比三耦于堂西",
    }
    text = SAMPLE
    for words, after in notes.items():
        text = text.replace(after, f"{after}【{words}】", 1)
    root = sample_sources(tmp_path / "sources")
    write_witness(root, "B", "b.txt", text.encode("utf-8"), extra='author = "鄭玄注 江永撰"', append=True)
    write_witness(root, "C", "c.txt", text.encode("utf-8"), append=True)
    sources = Sources.load(root)
    data = textual_note.TextualNotes(sources.persons, sources.normalizer())
    witnesses = {w.meta.siglum: w for w in sources.intake_all()}
    by = {
        siglum: {n.words: n.author for p in textual_note.in_witness(witnesses[siglum], data)[0] for n in p.notes}
        for siglum in "BC"
    }
    assert by["B"] == {
        "郑注纳内也案纳石经作内": "jiang-yong",
        "敖继公云矢在弓下北括案矢石经作弓": "zheng-xuan",  # the layer's, 敖繼公 only quoted
        "朱子云按弓石经作矢": "zhu-xi",
        "敖继公云北当作比": "ao-jigong",
    }
    assert by["C"]["郑注纳内也案纳石经作内"] == "", "C names no compiler: the note is no one's, not Zheng Xuan's"


@pytest.mark.tier("build")  # reads a chapter of the corpus
def test_an_official_the_persons_do_not_name_judges_for_the_kaozheng_not_for_the_scholar_quoted(sources):
    """燕禮's 考證 (KR1d0028_006.txt line 1090): 敖繼公云此降字衍大射儀無之(臣清植/)按此降字或當在…: 敖繼公
    says the 降 is superfluous, and his words end where the official judges; 臣清植 is none of
    persons.tsv, so his 按 is the 考證's own author's (四庫館臣), not 敖繼公's."""
    from texts import intake_kanripo

    data = textual_note.TextualNotes(sources.persons, sources.normalizer())
    witness = intake_kanripo(sources.normalizer(), range(6, 7))["WYG", 6]
    notes = [n for p in textual_note.in_witness(witness, data)[0] for n in p.notes if "此降字" in n.words]
    assert [(n.author, n.words[-12:]) for n in notes] == [
        ("ao-jigong", "繼公云此降字衍大射儀無之"),
        ("siku-guanchen", "而傳寫者誤寫於公許之上與"),
    ]


def test_a_commentators_reading_of_a_character_is_a_gloss_on_it_or_on_nothing(tmp_path):
    """X讀爲Y (讀如, 讀若, 讀曰) and 杜子春讀X爲Y (周禮注) say how the commentator reads X: a note on X
    where the clause it follows holds X, no reading of a copy; where the clause does not, on nothing
    (not on the clause's last character, as a note on a reading is). X亦當作Y inside a note is on X;
    so are 鄭司農云X當爲Y, the named authority's, and X當爲Y聲之誤也."""
    from probe import SAMPLE, sample_sources, write_witness

    from edition.collation import decision_file
    from edition.work.chapter_build import edit
    from edition.work.sources import Sources, decisions_path

    notes = {
        "比读如庇": "遂以比三耦于堂西",
        "杜子春读括为适": "矢在弓下北括",
        "巾读为巾车之巾": "倚于西序",
        "弓亦当作矢": "众弓倚于堂西",  # a note on a reading, mid-note after 亦 or 皆
        "郑司农云上当为尚": "矢在其上",  # a named authority's (周禮注)
        "东当为阶声之误也": "主人之弓矢在东序东",  # with the cause of the error
    }
    text = SAMPLE
    for words, after in notes.items():
        text = text.replace(after, f"{after}【{words}】", 1)
    root = sample_sources(tmp_path / "sources")
    (root / "persons.tsv").write_text(
        (root / "persons.tsv").read_text(encoding="utf-8")
        + "du-zichun\t杜子春\tscholar quoted in the 注\t\t\t\t\n"
        + "zheng-zhong\t鄭衆\tscholar quoted in the 注\t\t鄭司農\t\t\n",
        encoding="utf-8",
    )
    write_witness(root, "B", "b.txt", text.encode("utf-8"), append=True)
    sources = Sources.load(root)
    edited = edit(sources, sources.intake_all(), decision_file.load(decisions_path(root)))
    found = {n.words: n for p in edited.found["textual_notes"].passages for n in p.notes}
    assert {w: [(f.formula, f.kind, f.lemma, f.reading) for f in n.found] for w, n in found.items()} == {
        "比读如庇": [("reads-as", "gloss", "比", "")],
        "杜子春读括为适": [("reads-as", "gloss", "括", "")],
        "巾读为巾车之巾": [("reads-as", "gloss", "巾", "")],
        "弓亦当作矢": [("should-read", "substitution", "弓", "矢")],
        "郑司农云上当为尚": [("should-read", "substitution", "上", "尚")],
        "东当为阶声之误也": [("should-read", "substitution", "东", "阶")],
    }
    text = edited.apparatus.base.classic.text
    placed = ("比读如庇", "杜子春读括为适", "弓亦当作矢")
    assert [text[found[w].t0 : found[w].t1] for w in placed] == ["比", "括", "弓"]
    assert found["巾读为巾车之巾"].confidence == "none"
    assert found["郑司农云上当为尚"].author == "zheng-zhong"  # quoted by Zheng Xuan, the note is 鄭衆's
