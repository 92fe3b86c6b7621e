"""Layers of the family: two compilations of the 儀禮 in the 四庫全書 that no feature was written for,
楊復's 儀禮圖 (KR1d0032: the 經 with 鄭注, 音義, excerpts of the 疏 and his own glosses in one note,
the 記 moved beside the passages, his labels, remarks, quotations and tables) and the 欽定儀禮義疏
(KR1d0037: the 經 at the margin, the compilers' commentary indented, quoting 鄭氏康成曰, 賈疏 and
later scholars by name). Each file is added with `edition add-witness FILE --siglum X` and nothing
else to a copy of its chapter (鄉射禮, 聘禮, 喪服), read with the others, and checked by hand in a
passage of the 經, a note and a label of each chapter; its 經 is measured against the base's."""

import atexit
import shutil
import tempfile
from dataclasses import replace
from functools import cache
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import exported_chapter
from hypothesis import given
from hypothesis import strategies as st
from test_mandoku import read, transcription
from texts import runs

from edition.cli import main
from edition.collation.apparatus import align_witnesses, collate
from edition.collation.commentary import align_commentary
from edition.collation.rearrangement import (
    RUN,
    has,
    lacking,
    paired,
    rewritten,
    scattered,
    unlike,
    without_rearrangements,
)
from edition.intake.align import align
from edition.intake.alignment_rule import Reference
from edition.intake.attestation import attested, held
from edition.intake.model import Alignment, Move, Op
from edition.work.sources import Sources

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "kanripo"
FILES = {  # chapter -> (楊復's 卷, the 義疏's 卷 of it)
    3: ("KR1d0032-WYG/KR1d0032_003.txt", "KR1d0037-WYG/KR1d0037_007.txt"),
    5: ("KR1d0032-WYG/KR1d0032_005.txt", "KR1d0037-WYG/KR1d0037_010.txt"),
    6: ("KR1d0032-WYG/KR1d0032_006.txt", "KR1d0037-WYG/KR1d0037_014.txt"),  # the 義疏's second 卷 of it
    8: ("KR1d0032-WYG/KR1d0032_008.txt", "KR1d0037-WYG/KR1d0037_017.txt"),
    11: ("KR1d0032-WYG/KR1d0032_011.txt", "KR1d0037-WYG/KR1d0037_024.txt"),
}


@cache
def family(chapter: int) -> tuple[dict[str, str], dict, Sources]:
    """The chapter with both compilations added as YF (楊復) and QD (欽定): what add-witness said of
    each, every witness read, and the sources."""
    root = Path(tempfile.mkdtemp(prefix="family-"))
    atexit.register(shutil.rmtree, root, True)
    sources = shutil.copytree(exported_chapter(chapter), root / "sources")
    said = {}
    for siglum, name in zip(("YF", "QD"), FILES[chapter]):
        result = CliRunner().invoke(
            main, ["add-witness", str(FIXTURES / name), "--siglum", siglum, "--sources", str(sources)]
        )
        assert result.exit_code == 0, result.output
        said[siglum] = result.output
    read = Sources.load(sources)
    return said, {w.meta.siglum: w for w in read.intake_all()}, read


def witness(chapter: int, siglum: str):
    return family(chapter)[1][siglum]


def line(chapter: int, siglum: str, number: int) -> list[tuple[str, str]]:
    return runs(witness(chapter, siglum), range(number, number + 1))


# --- what add-witness composes -------------------------------------------------------------------


@pytest.mark.tier("build")  # reads a chapter of the corpus
@pytest.mark.parametrize("chapter", [5, 8, 11])  # 士相見禮 has no 記 to mark nor indented 疏 to read
def test_each_is_composed_of_general_features_and_sure(chapter):
    said = family(chapter)[0]
    for siglum, features in (
        ("YF", ("section-labels", "record-marks", "small-notes", "classic-by-attestation", "notes-by-attestation")),
        ("QD", ("section-labels", "commentary-headings", "indented-commentary", "classic-lines-by-alignment")),
    ):
        assert all(f"found {feature}:" in said[siglum] for feature in features), said[siglum]
        assert "written to sources/profiles/" in said[siglum] and "how sure: " in said[siglum]
    assert "found indented-commentary" not in said["YF"], "楊復's indented lines are labels and tables"


@pytest.mark.tier("build")  # reads a chapter of the corpus
@pytest.mark.parametrize("chapter", [3, 5, 8, 11])
def test_their_transcriptions_are_valid_and_give_back_the_files(chapter):
    _, witnesses, sources = family(chapter)
    for siglum in ("YF", "QD"):
        transcription(sources, witnesses[siglum])


# --- the 經 they read, against the base's ---------------------------------------------------------


def covered(text: str, by: str) -> float:
    """The share of `text` that runs of five characters of `by` hold (the compilers move the 記)."""
    return sum(attested(text, (by,), 5)) / len(text)


@pytest.mark.tier("build")  # reads a chapter of the corpus
@pytest.mark.parametrize("chapter", [3, 5, 8, 11])
@pytest.mark.parametrize("siglum", ["YF", "QD"])
def test_the_classic_text_read_is_the_bases(chapter, siglum):
    """Precision: the share of the witness's 經 (and 傳) that the base's holds, or WYG's where the
    base has lost a leaf; recall: the share of the base's 經 that the witness holds anywhere, in its
    text or its commentary, that its 經 holds, over the stretch of the base its file covers."""
    witnesses = family(chapter)[1]
    base, wyg, read = witnesses["SBCK"].classic.text, witnesses["WYG"].classic.text, witnesses[siglum]
    classic = read.classic.text
    assert sum(attested(classic, (base, wyg), 5)) / len(classic) >= 0.98
    in_classic, anywhere = attested(base, (classic,), 5), attested(base, (classic, read.stream.text), 5)
    alignment = align(base, classic, lacuna_length=len(base))
    matched = [op for op in (*alignment.ops, *(op for move in alignment.moves for op in move.ops)) if op.tag == "equal"]
    span = range(
        min(op.b0 for op in matched if op.b1 - op.b0 >= 10), max(op.b1 for op in matched if op.b1 - op.b0 >= 10)
    )
    assert sum(in_classic[i] for i in span) / sum(anywhere[i] for i in span) >= 0.98


# --- places checked by hand: a passage of the 經, a note, a label of each chapter -------------------


@pytest.mark.tier("build")  # reads a chapter of the corpus
def test_yang_fu_xiang_she_li():
    """卷五: the 經 runs on after the notes; a note holds 音義, 注 and 疏 after ○; a label is set in."""
    assert line(5, "YF", 26) == [
        ("classic", "許主人再拜賔答再拜主人退賔送再拜"),
        ("commentary", "退還射宫省録射事"),
        ("classic", "無介"),
        ("commentary", "雖先"),
    ]
    assert line(5, "YF", 27)[-3:] == [
        ("classic", "大夫與則公士為賔"),
        ("phonetic", "與音預"),
        ("commentary", "不敢使鄉人加尊於大夫"),
    ], "○記 marks the moved 記; 與音預 is 音義 though no ○ stands before it in the note"
    assert line(5, "YF", 28)[-1][0] == "subcommentary", "疏曰… is the 疏"
    assert line(5, "YF", 32) == [("label", "右戒賔")], "set in with U+3000"
    assert line(5, "YF", 54) == [("label", "右設席陳器具饌"), ("scholia", "見前圖")]
    assert line(5, "YF", 512)[0] == ("classic", "右以純數告若有竒者亦曰竒"), "no label: the others read it"
    assert line(5, "YF", 317) == [("scholia", "今案司射專主射事如請射作射之類皆司射主")], "his remark"
    assert line(5, "YF", 626)[-1] == ("label", "記"), "○記 at the end of a line: the 記 goes on on the next"
    assert line(5, "YF", 627)[0] == ("classic", "歌騶虞若采蘋皆五終射無筭")


@pytest.mark.tier("build")  # reads a chapter of the corpus
def test_qinding_shi_xiang_jian_li():
    """卷五: a line of the 經 at the margin after a paragraph of commentary that opened there is given
    back whole before a label is judged (請退可也 stands twice in the base, close together); the label
    after it stays a label (右侍坐于君子: 侍坐於君子 is also the 經's)."""
    assert line(3, "QD", 726)[0] == ("classic", "夜侍坐問夜膳葷請退可也")
    assert line(3, "QD", 732) == [("label", "右侍坐于君子")]
    assert line(3, "QD", 542) == [("label", "右大夫相見")]


@pytest.mark.tier("build")  # reads a chapter of the corpus
def test_qinding_yan_li():
    """卷十二 (燕禮第六之二): a line of the 經 at the margin after a paragraph of commentary, 士旅酌卒,
    of which the other witnesses' 經 aligns 士旅酌 alone, is given back whole (`whole`)."""
    assert line(6, "QD", 604)[0] == ("classic", "士旅酌卒")


@pytest.mark.tier("build")  # reads a chapter of the corpus
def test_yang_fu_pin_li():
    """卷八: a passage, its note of 注 and 疏, the label after it, then 聘義 quoted in large characters."""
    assert line(8, "YF", 1008) == [("classic", "小聘曰問不享有獻不及夫人主人不筵几不禮面不")]
    assert line(8, "YF", 1009) == [
        ("classic", "升不郊勞"),
        ("commentary", "記貶扵聘所以為小也獻私獻也面猶覿也"),
        ("subcommentary", "疏曰不享者謂不以束帛加璧獻國所有"),
    ]
    assert line(8, "YF", 1013) == [("label", "右小聘")]
    assert line(8, "YF", 1015) == [("scholia", "聘義")]
    assert line(8, "YF", 1016)[0] == ("scholia", "聘禮上公七介侯伯五介子男三介所以明貴賤也")


@pytest.mark.tier("build")  # reads a chapter of the corpus
def test_yang_fu_sang_fu():
    """卷十一: the 傳 takes up again after its note; the next entry opens a line of its own; the 記
    moved beside the 經 is marked, a quotation of the 小記 is his."""
    assert line(11, "YF", 46)[-1] == ("tradition", "絞帶者繩帶也"), "the 傳 after the note"
    assert line(11, "YF", 54)[-1] == ("tradition", "居倚")
    assert line(11, "YF", 39)[-1] == ("phonetic", "緝七")
    assert line(11, "YF", 40) == [
        ("phonetic", "入反蕡扶云反搹音革去起吕反擔市艶反"),
        ("commentary", "盈手曰搹搹扼也中人之扼圍九寸以五分一為殺者象五服"),
    ]
    assert line(11, "YF", 69)[:3] == [
        ("classic", "父○"),
        ("tradition", "傳曰為父何以斬衰也父至尊也"),
        ("subcommentary", "疏曰父是一家之尊"),
    ]
    assert line(11, "YF", 942) == [("label", "右朋友")]
    assert line(11, "YF", 943)[:2] == [("label", "記"), ("classic", "改葬緦")]
    assert line(11, "YF", 773)[-1] == ("scholia", "小記為母之君母外祖適母母卒則不服○服問傳曰"), "quoted from the 禮記"
    assert line(11, "YF", 291) == [("scholia", "同")], "the end of a quotation (○小記…與大夫之適子), wrapped"
    # the 傳 ends before a ○ that opens his quotation of the 檀弓, whose last word wraps before a note
    assert line(11, "YF", 282)[:3] == [
        ("tradition", "服也"),
        ("classic", "○"),
        ("scholia", "檀弓縣子瑣曰吾聞之古者不降上下各以其"),
    ]
    assert line(11, "YF", 284)[0] == ("scholia", "也伯文殷時滕君也爵為伯名文"), "and the note of his after it"
    # the end of a 傳 with a variant form (已 for 巳) before the label 右小功五月 and the title of his
    # table 小功降正義服圖, none of which the others have: the table's title is his, the 傳 is not
    assert line(11, "YF", 798)[0] == ("tradition", "子者貴人之子也為庶母何以小功也以慈已加也")
    assert line(11, "YF", 801)[-1] == ("scholia", "小功降正義服圖")


@pytest.mark.tier("build")  # reads a chapter of the corpus
def test_qinding_xiang_she_li():
    """卷八: the chapter opens with commentary at the margin; the 經 after it is given back; lines of
    commentary read through their notes; the 經's notes are 音義; a label closes the section."""
    assert [layer for layer, _ in line(5, "QD", 12)] == ["commentary"], "正義鄭氏康成曰州長春秋…"
    assert line(5, "QD", 106) == [("classic", "鄉射之禮")]
    assert line(5, "QD", 115) == [("classic", "主人戒賓賓出迎再拜主人答再拜乃請")]
    assert line(5, "QD", 117) == [
        ("commentary", "鄉大夫也"),
        ("subcommentary", "賈疏州長戒賓不自稱稱鄉大夫以戒"),
        ("commentary", "出迎出門也請告也"),
    ]
    assert line(5, "QD", 118) == [("commentary", "告賓以射事不言拜辱此為習民以禮樂不主為賓")]
    assert line(5, "QD", 120) == [("commentary", "以季春"), ("subcommentary", "賈氏公彦曰不言日數戒賓與射同日同")]
    assert line(5, "QD", 125) == [("scholia", "敖氏繼公曰迎者出見之之稱雖不入門亦謂之")], "at the margin"
    assert line(5, "QD", 145) == [("label", "右戒賓")]
    assert line(5, "QD", 182)[-1] == ("phonetic", "勺上灼反篚音匪")


@pytest.mark.tier("build")  # reads a chapter of the corpus
def test_qinding_pin_li():
    """卷十五: the 經 after a section's 總論 at the margin; a line whose indentation was lost."""
    assert line(8, "QD", 777) == [("label", "右展幣")]
    assert line(8, "QD", 780) == [("scholia", "總論敖氏繼公曰自入竟至此凡三展者以聘事")]
    assert line(8, "QD", 788) == [("classic", "賓至于近郊張旜君使下大夫請行反君使卿朝服用")]
    assert line(8, "QD", 790) == [("classic", "束帛勞"), ("phonetic", "勞力報反下並同")]
    assert line(8, "QD", 753)[0][0] != "classic", "周官大司徒職…: commentary that lost its indentation"
    assert line(8, "QD", 796)[-1] == ("commentary", "鄭氏康成曰士請事大")
    assert line(8, "QD", 798) == [("commentary", "夫請行卿勞彌尊賓也其服皆朝服")], "he goes on"


@pytest.mark.tier("build")  # reads a chapter of the corpus
def test_qinding_sang_fu():
    """卷二十二: the 經 and its 音義, the 傳 at the margin, 傳曰 quoted inside the commentary."""
    assert line(11, "QD", 154)[0] == ("classic", "斬衰裳苴絰杖絞帶冠繩纓菅屨者")
    assert line(11, "QD", 154)[1][0] == "phonetic"
    assert line(11, "QD", 214) == [("tradition", "傳曰斬者何不緝也")]
    assert all(layer != "tradition" for layer, _ in line(11, "QD", 228)), "閒傳曰 is quoted"
    assert line(11, "QD", 217) == [("scholia", "存疑敖氏繼公曰其領袖亦有純")]


# --- each feature on a small file -------------------------------------------------------------------

COMPILATION = ["mandoku", "section-labels", "record-marks", "small-notes", "compiler-remarks", "rest-is-classic"]
REFERENCE = "鄉射之禮主人戒賓賓出迎再拜主人答再拜乃請賓禮辭許主人再拜賓答再拜主人退賓送再拜無介乃席賓南面東上"


def reference(tmp_path, sources, text: str = REFERENCE + "¶\n", features=("mandoku", "rest-is-classic")):
    return Reference.of([read(tmp_path, sources, text, list(features), name="reference")], sources.normalizer())


def test_labels_set_in_or_with_a_remark_and_a_line_of_the_classic_text_that_opens_with_you(tmp_path, sources):
    text = (
        "鄉射之禮主人戒賓賓出迎再拜主人答再拜乃¶\n請賓禮辭許主人再拜賓答再拜主人退賓送再拜¶\n"
        "　　　　右戒賓¶\n無介(雖先飲酒)¶\n右設席(見前圖/之)¶\n乃席賓南面東上¶\n"
    )
    features = [*COMPILATION, "section-labels-by-alignment"]
    w = read(tmp_path, sources, text, features, reference(tmp_path, sources))
    assert [(s.layer, s.text(w.raw)) for s in w.segments if s.layer in ("label", "scholia")] == [
        ("label", "右戒賓"),
        ("label", "右設席"),
        ("scholia", "見前圖"),
        ("scholia", "之"),
    ]
    assert all(s.attrs["section"] == "closes" for s in w.segments_of("label"))
    assert runs(w)[0] == ("classic", REFERENCE[: REFERENCE.index("無介")])
    classic = "乃席賓南面東上右以純數告若有竒者亦曰竒"
    w = read(
        tmp_path,
        sources,
        "乃席賓南面東上¶\n右以純數告若有竒者亦曰竒¶\n",
        features,
        reference(tmp_path, sources, classic + "¶\n"),
    )
    assert runs(w) == [("classic", classic)], "the others read it as the classic text"


def test_a_long_label_wraps_into_a_short_line_of_its_own(tmp_path, sources):
    """楊復 (特牲饋食禮: 右尸卒爵酢賔賔獻祝佐食致爵主人主婦酢 / 于主人) and the 義疏 (右賓作止爵尸酢賓賓獻祝佐食
    致于主人主婦 / 自酢) end a label near the width of a line on a line of its own, after blank
    lines: the label's, not the classic text's. A short label is followed by the classic text."""
    text = (
        "鄉射之禮主人戒賓賓出迎再拜主人答再拜乃¶\n¶\n右主人戒賓賓出迎再拜主人答再拜乃請賓禮¶\n¶\n¶\n辭許¶\n"
        "請賓禮辭許主人再拜賓答再拜主人退賓送再拜¶\n右戒賓¶\n無介¶\n"
    )
    w = read(tmp_path, sources, text, COMPILATION)
    assert [s.text(w.raw) for s in w.segments_of("label")] == [
        "右主人戒賓賓出迎再拜主人答再拜乃請賓禮",
        "辭許",
        "右戒賓",
    ]
    assert ("classic", "無介") in runs(w)


def test_what_no_other_witness_has_is_the_compilers(tmp_path, sources):
    """His quotation and table are scholia; the 記 he moved is classic text; a variant reading stays."""
    text = (
        "鄉射之禮主人戒賓賓出迎再拜主人答再拜乃請(主人州長也)○記大夫與則公士為賓(不敢使鄉人加尊於大夫)¶\n"
        "○小記為母之君母母卒則不服¶\n賓禮辭許主人再拜賔答再拜主人退賓送再拜¶\n"
    )
    classic = REFERENCE + "記大夫與則公士為賓"
    w = read(tmp_path, sources, text, [*COMPILATION, "classic-by-attestation"], reference(tmp_path, sources, classic))
    assert ("scholia", "小記為母之君母母卒則不服") in runs(w)
    assert ("label", "記") in runs(w) and ("classic", "大夫與則公士為賓") in runs(w)
    assert ("classic", "賓禮辭許主人再拜賔答再拜主人退賓送再拜") in runs(w), "賔 for 賓 is a reading"


def test_the_classic_text_moved_from_another_chapter_stays_classic_at_the_margin(tmp_path, sources):
    """楊復 sets the 記 of 既夕禮 beside 士喪禮's passages (○記小斂 / 辟奠不出室): what no witness of the
    chapter has but the base's 經 of another chapter holds is classic text moved here, where it
    stands at the margin; an indented line that the other chapters hold (his heading) is his, and
    so is a quotation that they hold in part."""
    text = (
        "鄉射之禮主人戒賓賓出迎再拜主人答再拜乃請(主人州長也)○記小斂¶\n辟奠不出室(未忍神逺之也)¶\n"
        "　　　　辟奠不出室¶\n○冠義曰見母母拜之見兄弟¶\n賓禮辭許主人再拜賓答再拜主人退賓送再拜¶\n"
    )
    features = [*COMPILATION, "classic-by-attestation"]
    chapter = reference(tmp_path, sources)
    elsewhere = "小斂辟奠不出室不忍神遠之也見兄弟兄弟再拜".translate(sources.normalizer().comparison)
    alone, read_in_the_work = (
        read(tmp_path, sources, text, features, references)
        for references in (chapter, replace(chapter, elsewhere=elsewhere))
    )
    assert ("scholia", "小斂辟奠不出室") in runs(alone)
    assert runs(read_in_the_work)[4:] == [
        ("classic", "小斂辟奠不出室"),
        ("commentary", "未忍神逺之也"),
        ("classic", "\u3000\u3000\u3000\u3000"),
        ("scholia", "辟奠不出室○冠義曰見母母拜之見兄弟"),
        ("classic", "賓禮辭許主人再拜賓答再拜主人退賓送再拜"),
    ]


def test_a_note_is_the_注_音義_疏_or_the_compilers_that_the_others_attest(tmp_path, sources):
    """楊復 writes 音義, 注 and 疏 into one note, a ○ between them or none."""
    zhushu = (
        "鄉射之禮主人戒賓注主人州長也鄉大夫若在焉則稱鄉大夫也音義(與音預)"
        "疏(釋曰鄉大夫是諸侯鄉大夫則此州長亦諸侯州長以士為之)賓出迎¶\n"
    )
    others = reference(
        tmp_path,
        sources,
        zhushu,
        ("mandoku", "marked-small-notes", "small-notes", "zhu-in-large-characters", "rest-is-classic"),
    )
    text = "鄉射之禮主人戒賓(與音預○主人州長也鄉大夫若在焉則稱鄉大夫也○疏曰州長亦諸侯州長以士為之○見前圖)賓出迎¶\n"
    features = [*COMPILATION, "notes-by-attestation"]
    w = read(tmp_path, sources, text, features, others)
    assert runs(w)[1:5] == [
        ("phonetic", "與音預"),
        ("commentary", "主人州長也鄉大夫若在焉則稱鄉大夫也"),
        ("subcommentary", "疏曰州長亦諸侯州長以士為之"),
        ("scholia", "見前圖"),
    ]


@pytest.mark.tier("build")  # reads a chapter of the corpus
def test_a_compilation_is_collated_in_its_classic_text_alone():
    """楊復 and the 義疏 quote the 注 by their choice, in their order, with their words between:
    their 注 is no witness of the 注 (what they leave out or add there is no reading), unless the
    editor includes it; their 經 is collated."""
    witnesses = list(family(5)[1].values())
    zhu = align_commentary(witnesses, "SBCK", 0.5)
    for siglum in ("YF", "QD"):
        assert not zhu.statuses[siglum].included and zhu.statuses[siglum].reason.startswith("a compilation")
        assert siglum not in zhu.maps
    assert zhu.statuses["WYG"].included
    assert align_commentary(witnesses, "SBCK", 0.5, include=("QD",)).statuses["QD"].included
    classic = align_witnesses(witnesses, "SBCK", 0.5)
    assert classic.statuses["YF"].included and classic.statuses["QD"].included


def aligned_as(witnesses: dict, siglum: str, compilation: bool):
    """The witness's alignment with the base, read as a compilation or not."""
    read = replace(witnesses[siglum], compilation=compilation)
    aligned = align_witnesses([*(w for s, w in witnesses.items() if s != siglum), read], "SBCK", 0.5)
    return aligned.maps[siglum].alignment


@pytest.mark.tier("build")  # reads a chapter of the corpus
def test_a_compilations_rearrangements_are_no_readings():
    """楊復 reads passages of 鄉射禮 again beside others (門外再拜, 凡適堂西皆出入于司馬之南) and moves
    others away, into another place or his notes: read as a witness of the order of the text, they
    are additions and omissions; read as a compilation, none, while what the base has nowhere and
    the other substitutions stay readings."""
    witnesses = family(5)[1]
    base = witnesses["SBCK"].classic.text
    compilation = witnesses["YF"]
    as_compiled, as_plain = aligned_as(witnesses, "YF", True), aligned_as(witnesses, "YF", False)
    text = compilation.classic.text

    def repeated(alignment):
        return {text[op.w0 : op.w1] for op in alignment.ops if op.tag == "insert" and held(text[op.w0 : op.w1], base)}

    def moved_away(alignment):
        extant = [False] * len(base)
        for b0, b1 in alignment.extant:
            extant[b0:b1] = [True] * (b1 - b0)
        return [
            op
            for op in alignment.ops
            if op.tag == "delete" and all(extant[op.b0 : op.b1]) and held(base[op.b0 : op.b1], compilation.stream.text)
        ]

    assert len(repeated(as_plain)) >= 4 and moved_away(as_plain)  # in the comparison script: 门外再拜…
    assert not repeated(as_compiled) and not moved_away(as_compiled)
    substitutions = [op for op in as_plain.ops if op.tag == "replace"]
    kept = [op for op in substitutions if not held(text[op.w0 : op.w1], base)]
    assert len(kept) > len(substitutions) / 2, "substitutions stay readings, but for a passage read elsewhere"
    assert [op for op in as_compiled.ops if op.tag == "replace"] == kept


@pytest.mark.tier("build")  # reads a chapter of the corpus
@pytest.mark.parametrize("chapter", [5, 8, 11])
def test_a_compilations_apparatus_reports_no_passage_it_reads_twice(chapter):
    """In the apparatus, no addition of 楊復's is a passage the base reads elsewhere: neither one his
    alignment adds nor a clause he reads both in place and moved (read as a witness of the order of
    the text, some are)."""
    witnesses, sources = family(chapter)[1], family(chapter)[2]
    base = witnesses["SBCK"].classic.text

    def repeated(compilation: bool) -> list[str]:
        read = [replace(w, compilation=compilation) if s == "YF" else w for s, w in witnesses.items()]
        apparatus = collate(read, "SBCK", sources.orthography())
        added = [r.norm for u in apparatus.units for r in u.readings if "YF" in r.sigla and r.subtype == "addition"]
        return [text for text in added if held(text, base)]

    assert repeated(False) and not repeated(True), repeated(True)


@pytest.mark.tier("build")  # reads a chapter of the corpus
@pytest.mark.parametrize(("chapter", "clause"), [(5, "司射"), (8, "辞")])
def test_a_clause_a_compilation_reads_in_place_and_moved_too_is_no_addition(chapter, clause):
    """楊復 reads 司射 (鄉射禮) and 辭 (聘禮) where the base does and again beside another passage: as a
    witness of the order of the text, an addition; as a compilation's, none (comparison script)."""
    witnesses, sources = family(chapter)[1], family(chapter)[2]

    def added(compilation: bool) -> list[str]:
        read = [replace(w, compilation=compilation) if s == "YF" else w for s, w in witnesses.items()]
        apparatus = collate(read, "SBCK", sources.orthography())
        return [r.norm for u in apparatus.units for r in u.readings if "YF" in r.sigla and r.subtype == "addition"]

    assert added(True).count(clause) < added(False).count(clause)


@pytest.mark.tier("build")  # reads a chapter of the corpus
def test_a_piece_a_compilation_moves_is_no_reading_however_short():
    """楊復 moves 有内羞 and 若與 of 燕禮 beside other passages, too short to be placed by runs of four
    characters, marks a moved 記 with 記, and moves 記惟公與賓有俎 with 惟 for the base's 唯 (a usage of
    it), which stays behind (a character at the edge of a clause he moved): read as a witness of the order of
    the text, each is an addition where he reads it and an omission where the base does; read
    as a compilation's, none (an addition that reads what he lacks at one place else, or a
    piece too short to place beside a passage he moved, is part of that move). Comparison
    script."""
    witnesses, sources = family(6)[1], family(6)[2]

    def differences(compilation: bool) -> list[tuple[str, str]]:
        read = [replace(w, compilation=compilation) if s == "YF" else w for s, w in witnesses.items()]
        apparatus = collate(read, "SBCK", sources.orthography())
        return [
            (r.subtype, r.norm or u.lemma.norm)
            for u in apparatus.units
            for r in u.readings
            if "YF" in r.sigla and r.subtype in ("addition", "omission")
        ]

    moved = {(subtype, piece) for subtype in ("addition", "omission") for piece in ("有内羞", "若与", "记")}
    moved |= {("addition", "惟"), ("omission", "唯")}  # 惟 for 唯, a usage (通假): where the base has it, its 唯
    assert moved <= set(differences(False))
    assert not moved & set(differences(True))


@pytest.mark.tier("build")  # reads a chapter of the corpus
def test_what_a_compilation_regroups_is_no_substitution_but_its_own_readings_stay():
    """楊復 regroups 喪服 by the grades of mourning and sets tables in it: aligned in order, his regrouped
    text stands against the base's 記 (庶孫之中殤… for the 記's heading 記), his table's cells beside
    the passages they repeat (繼母如母 九升), and his table of the cloths against the 記 of them. Read
    as a compilation's, neither is a reading; his substitutions of a character (特 for 持, 鍜 for
    鍛) are. Comparison script."""
    witnesses, sources = family(11)[1], family(11)[2]

    def readings(compilation: bool) -> list[tuple[str, str, str]]:
        read = [replace(w, compilation=compilation) if s == "YF" else w for s, w in witnesses.items()]
        apparatus = collate(read, "SBCK", sources.orthography())
        return [
            (r.subtype, u.lemma.norm, r.norm)
            for u in apparatus.units
            for r in u.readings
            if "YF" in r.sigla and r.type == "substantive"
        ]

    plain, compiled = readings(False), readings(True)

    def regrouped(readings):
        return [r for r in readings if r[0] == "substitution" and unlike(r[2], r[1])]

    assert len(regrouped(plain)) >= 8 and len(regrouped(compiled)) <= len(regrouped(plain)) / 2
    assert any(r[1] == "从下记" for r in plain) and not any(r[1] == "从下记" for r in compiled)
    assert not any("继母如母" in r[2] for r in compiled) and any("继母如母" in r[2] for r in plain)
    assert ("substitution", "持", "特") in compiled
    assert len(compiled) < len(plain) * 2 / 3, (len(compiled), len(plain))
    # his table of the cloths (冠繩纓條屬右縫…) against the 記 of them (衰三升三升有半其冠六升…): a
    # few characters in common a line apart, his arrangement, the base not extant for him there
    assert len([r for r in plain if "升" in r[1]]) >= 3 and not [r for r in compiled if "升" in r[1]]
    # nor, where only a few characters in common tie them, the 記's 巳朋友麻… and his 冠傳斬衰
    assert not [r for r in compiled if r[1].startswith("巳朋友麻") or "传斩" in r[2]]


def test_what_a_compilation_lacks_between_clauses_it_moved_and_has_elsewhere_is_no_omission():
    """楊復 reads 偏駕不入王門 and 奠圭于繅上 of 覲禮's 記 moved, and 几俟于東箱 between them where the
    base reads 設几侯于東箱 (侯 for 俟): the base's text that no op nor moved clause reads is what he
    lacks there, and what he has elsewhere, by runs of four characters or whole but for one
    character, is no omission; a single character he lacks is."""
    alignment = Alignment(
        12, 12, [Op("equal", 0, 4, 0, 4), Op("delete", 4, 5, 4, 4)], [Move(7, 12, 4, 9, 5, ())], [(0, 12)]
    )
    assert lacking(alignment.ops, alignment) == [(4, 7)]
    assert has("几侯于东箱", "偏驾不入王门几俟于东箱奠圭") and has("几侯于东箱", "几侯于东箱")
    assert not has("皆", "皆") and not has("几侯于西箱", "几俟于东箱") and not has("几侯", "几俟")


def test_two_characters_inverted_stay_a_reading_and_a_piece_moved_further_does_not():
    """The 義疏 reads 某以得為昬姻之故 for the base's 某得以為昬姻之故 (士昏禮): an addition of 以 next to
    its omission is two characters inverted, a reading; 楊復's 荁, added far from where he lacks it
    (特牲饋食禮), is a piece of the 記 he moved, and so is one dropped as a repetition."""
    base, classic = "对曰某得以为昏姻之故", "对曰某以得为昏姻之故"
    inverted = [Op("equal", 0, 3, 0, 3), Op("insert", 3, 3, 3, 4), Op("equal", 3, 4, 4, 5), Op("delete", 4, 5, 5, 5)]
    inverted.append(Op("equal", 5, 10, 5, 10))
    assert paired(inverted, base, classic, [(4, 5)]) == (inverted, [])
    base, classic = "祝筵几于室中东面主人夏葵冬荁", "荁祝筵几于室中东面主人夏葵冬"
    moved = [Op("insert", 0, 0, 0, 1), Op("equal", 0, 13, 1, 14), Op("delete", 13, 14, 14, 14)]
    assert paired(moved, base, classic, [(13, 14)]) == (moved[1:], [(13, 14)])  # its place not extant for him
    # an addition dropped as a passage another witness reads (几俟于東箱: 記几俟于東箱) reads what he
    # lacks further away (the base's 設几侯于東箱, 覲禮) all the same
    base, classic = "设几侯于东箱奠圭于缫上偏驾不入王门", "奠圭于缫上偏驾不入王门几俟于东箱"
    kept = [Op("equal", 6, 17, 0, 11)]
    assert paired(kept, base, classic, [(0, 6)], (Op("insert", 17, 17, 11, 16),)) == (kept, [(0, 6)])


def test_what_a_compilation_lacks_between_two_clauses_it_moved_or_beside_one_is_his_arrangement():
    """楊復 moves the clauses on either side of the base's 若有公有司私臣 (特牲饋食禮) and words it
    otherwise, and moves 凡行事必用昬昕 and 婿饗婦送者 of 士昏禮 away from either side of the base's
    heading 記士昬禮: what he lacks between two clauses he moved, however long, is no omission; what
    he lacks beside one clause he moved, or at an edge of his text, is none where it is short (the
    heading), and is one where it is long (a passage he leaves out)."""
    moves = [Move(0, 10, 30, 40, 0, ()), Move(17, 27, 50, 60, 17, ()), Move(40, 50, 70, 80, 40, ())]
    alignment = Alignment(62, 90, [], moves, [(0, 62)])
    lacked = [(10, 17), (27, 31), (31, 40), (50, 56), (58, 62)]  # the last at the end of his text
    assert rewritten(lacked, alignment) == [(10, 17), (27, 31), (58, 62)]


@given(st.lists(st.tuples(st.sampled_from(["equal", "replace", "insert", "delete"]), st.integers(1, 12)), max_size=30))
def test_a_stretch_of_scattered_characters_in_common_is_one_substitution_and_every_character_is_read_once(steps):
    """A compilation's stretch where his text and the base's share only scattered characters (楊復's
    table of the cloths against the 記 of them) is one substitution; every character of either
    text stays read by one op, in order, and no run of RUN characters in common is merged away."""
    ops, b, w = [], 0, 0
    for tag, n in steps:
        db, dw = (0 if tag == "insert" else n), (0 if tag == "delete" else n)
        ops.append(Op(tag, b, b + db, w, w + dw))
        b, w = b + db, w + dw
    merged, arranged = scattered(ops)
    assert [i for op in merged for i in range(op.b0, op.b1)] == list(range(b))
    assert [i for op in merged for i in range(op.w0, op.w1)] == list(range(w))
    assert all(op in merged and op.tag == "replace" for op in arranged)
    long = [op for op in ops if op.tag == "equal" and op.b1 - op.b0 >= RUN]
    assert all(op in merged for op in long)
    for op in arranged:
        inside = [o for o in ops if op.b0 <= o.b0 and o.b1 <= op.b1 and op.w0 <= o.w0 and o.w1 <= op.w1]
        same = sum(o.b1 - o.b0 for o in inside if o.tag == "equal")
        assert 0 < 2 * same < min(op.b1 - op.b0, op.w1 - op.w0)


def test_a_passage_a_compilation_repeats_is_no_addition_where_the_base_slips_or_the_aligner_splits_it():
    """楊復 quotes 昬禮曰夙興婦沐浴以俟見質明 in 士昏禮, where the base reads 夙興婦沭浴 (沭 for 沐, a
    slip of its own): another witness's classic text holds the passage, so it is his repetition, not
    an addition. And he repeats 巾奠執燭者滅燭出降自阼階由主人之北東 of the 記 in 士喪禮 before 主人揖就次,
    where the aligner reads the base's 主人 in it and leaves 之北東主人 over: with the part before it,
    it is the passage repeated, no addition either."""
    base = "降出授人于门外舅姑入于室妇盥馈特豚合升侧载无鱼腊无稷并南上"
    classic = "降出授人于门外昏礼曰夙兴妇沐浴以俟见质明舅姑入于室妇盥馈特豚合升侧载无鱼腊无稷并南上"
    chapter = base + "户外呼则闻夙兴妇沭浴纚笄宵衣以俟见质明赞见妇于舅姑"
    other = "户外呼则闻夙兴妇沐浴纚笄宵衣以俟见质明赞见妇于舅姑"
    alignment = align(chapter, classic)

    def added(others: tuple[str, ...]) -> list[str]:
        read = without_rearrangements(alignment, chapter, classic, classic, "", others)
        return [classic[op.w0 : op.w1] for op in read.ops if op.tag == "insert"]

    assert any("夙兴妇沐浴" in text for text in added(())) and added((other,)) == []

    base = "皆西面于东方阖门主人揖就次君若有赐焉则视敛"
    classic = "皆西面于东方阖门巾奠执烛者灭烛出降自阼阶由主人之北东主人揖就次君若有赐焉则视敛"
    elsewhere = "彻帷巾奠执烛者灭烛出降自阼阶由主人之北东乃"
    split = [Op("equal", 0, 8, 0, 8), Op("insert", 8, 8, 8, 21), Op("equal", 8, 10, 21, 23)]
    split += [Op("insert", 10, 10, 23, 28), Op("equal", 10, 22, 28, 40)]
    read = without_rearrangements(Alignment(22, 40, split, [], [(0, 22)]), base, classic, classic, elsewhere)
    assert [op for op in read.ops if op.tag != "equal"] == [] and read.extant == [(0, 22)]
