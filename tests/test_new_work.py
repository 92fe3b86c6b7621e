"""`edition init`: a new work from its base edition, whose 卷 give the chapters, on 卷 of the 禮記
(纂圖互註禮記, Kanripo KR1d0054, and 禮記注疏, KR1d0053) cut from the real files."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
import regex
from conftest import ROOT

from edition.collation.sections import LONGEST, divided, note_gaps, paragraph_gaps
from edition.intake.guess import common_features, decode, features_found
from edition.intake.profile import load_profile, split_layers
from edition.intake.raw import read_raw
from edition.work.new_work import chapters_of, edition_siglum, headings_in, read_base
from edition.work.work_sources import Work

FIXTURES = ROOT / "tests" / "fixtures" / "kanripo"
LIJI = FIXTURES / "KR1d0054-SBCK"
EDITION = [str(Path(sys.executable).parent / "edition")]


def edition(*args: str, cwd=None) -> subprocess.CompletedProcess:
    return subprocess.run([*EDITION, *args], capture_output=True, text=True, cwd=cwd)


def base_witness(tmp_path: Path, name: str):
    """The witness of a work that `init` started from one file of the base."""
    sources, base = tmp_path / "sources", tmp_path / "base"
    base.mkdir()
    shutil.copy(LIJI / name, base)
    assert edition("init", str(base), "--sources", str(sources)).returncode == 0
    work = Work.load(sources)
    chapter = work.sources(work.chapters[0])
    return chapter.intake(chapter.witnesses[0], chapter.normalizer())


def test_a_base_file_names_the_pian_it_holds_but_not_its_juan_or_a_reference_in_a_note():
    text = (LIJI / "KR1d0054_001.txt").read_text(encoding="utf-8")
    assert headings_in(text) == (("曲禮上", "曲禮上第一"), ("曲禮下", "曲禮下第二"))
    assert "重意" in text and "曲禮第一" not in [h for _, h in headings_in(text)]


def test_the_bases_juan_are_the_chapters_and_plates_are_none():
    files = sorted(LIJI.glob("*.txt"))
    chapters, placements = chapters_of(read_base(files))
    assert [(c.number, c.title, c.heading) for c in chapters] == [
        (1, "曲禮上、曲禮下", "曲禮上第一、曲禮下第二"),
        (2, "檀弓上", "檀弓上第三"),
        (3, "月令", "月令第六"),
        (4, "曽子問、文王丗子", "曽子問第七、文王丗子第八"),  # its lines ending in 序 are no front matter
        (5, "哀公問", "哀公問第二十七"),
        (6, "深衣", "深衣第三十九"),
        (7, "投壷", "投壷第四十"),
    ]
    assert placements[LIJI / "KR1d0054_000.txt"].chapter is None
    assert edition_siglum(LIJI) == "SBCK"


def test_init_without_a_base_writes_a_work_that_asks_for_one(tmp_path):
    sources = tmp_path / "sources"
    done = edition("init", "--sources", str(sources), "--title", "禮記")
    assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in sources.iterdir()) == [
        "gaiji.tsv",
        "persons.tsv",
        "variants.tsv",
        "witnesses.toml",
        "work.toml",
    ]
    checked = edition("check", "--sources", str(sources))
    assert checked.returncode == 1 and "no chapters yet" in checked.stdout and "add-witness" in checked.stdout
    again = edition("init", "--sources", str(sources))
    assert again.returncode == 1 and again.stderr.count("\n") == 1 and "not empty" in again.stderr
    settings = (sources / "work.toml").read_text(encoding="utf-8")
    (sources / "work.toml").write_text(
        settings.replace('# tradition = "yili"', 'tradition = "zhouli"'), encoding="utf-8"
    )
    line = 1 + settings.splitlines().index('# tradition = "yili"')
    checked = edition("check", "--sources", str(sources))
    assert checked.returncode == 1 and checked.stdout.count("\n") == 1, checked.stdout
    assert f"work.toml:{line}: no tradition 'zhouli' (the traditions are yili)" in checked.stdout


def test_init_from_a_base_then_add_witness_of_a_zhushu_whose_juan_straddles_two_chapters(tmp_path):
    """The first edition added is the base and gives the chapters; a 卷 of the 注疏 that holds the end
    of 深衣 and the start of 投壺 (about as much of each) is placed in both, and says so, not refused:
    each chapter collates its own part (the other's, at the text's edge, is no addition)."""
    sources = tmp_path / "sources"
    base = tmp_path / "base"
    base.mkdir()
    for name in ("KR1d0054_018.txt", "KR1d0054_019.txt"):
        shutil.copy(LIJI / name, base / name)
    assert edition("init", "--sources", str(sources)).returncode == 0
    added = edition("add-witness", str(base), "--siglum", "SBCK", "--sources", str(sources))
    assert added.returncode == 0, added.stderr
    work = tomllib.loads((sources / "work.toml").read_text(encoding="utf-8"))
    assert work["work"]["base"] == "SBCK" and work["work"]["title"] == "纂圖互註禮記"
    assert [c["title"] for c in work["chapter"]] == ["深衣", "投壷"]
    zhushu = edition("add-witness", str(FIXTURES / "KR1d0053-WYG"), "--siglum", "WYG", "--sources", str(sources))
    assert zhushu.returncode == 0, zhushu.stderr
    loaded = Work.load(sources)
    wyg = next(e for e in loaded.editions if e.meta.siglum == "WYG")
    assert list(wyg.files.values()) == [("KR1d0053_058.txt",), ("KR1d0053_058.txt",)]
    line = next(line for line in zhushu.stdout.splitlines() if "KR1d0053_058.txt" in line)
    assert "深衣" in line and "投壷" in line and "too" in line  # the two chapters it holds, about as much of each


def test_the_yinyi_in_the_notes_is_a_layer_of_its_own_and_circles_between_passages_are_no_text(tmp_path):
    """纂圖互註禮記 prints 陸德明's 音義 inside Zheng's notes after 〇 or ○ (or opening with 陸曰), with
    the compiler's cross-references (重意…), and a circle before a passage of the classic text."""
    sources, base = tmp_path / "sources", tmp_path / "base"
    base.mkdir()
    shutil.copy(LIJI / "KR1d0054_001.txt", base)
    added = edition("init", str(base), "--sources", str(sources))
    assert added.returncode == 0, added.stderr
    assert "phonetic-notes" in added.stdout and "compiler-remarks" not in added.stdout
    work = Work.load(sources)
    chapter = work.sources(work.chapters[0])
    witness = chapter.intake(chapter.witnesses[0], chapter.normalizer())

    def text(layer: str) -> str:
        return "".join(s.text(witness.raw) for s in witness.segments_of(layer))

    assert "礼主於敬" in text("commentary") and "毋音无" not in text("commentary")
    assert "陸曰毋音无" in text("phonetic") and "儼魚檢反" in text("phonetic").replace(")¶\n(", "")
    assert "重意哀公問君子毋不敬也" in text("scholia")
    assert "陸曰此記二礼之" in text("label") + text("phonetic")  # the book's line is no classic text
    persons = (sources / "persons.tsv").read_text(encoding="utf-8")  # whose each layer is, from the headings
    assert "\nzheng-xuan\t鄭玄\t" in persons and "\tcommentary\t" in persons.split("zheng-xuan")[1].splitlines()[0]
    assert "\nlu-deming\t陸德明\t" in persons and "persons.tsv: 鄭玄 added" in added.stdout
    assert text("classic").startswith("曲禮曰母不敬儼若思安定辭安民哉敖不可長")
    assert "〇" not in text("classic") and "○" not in text("classic")


@pytest.mark.tier("typeset")  # a chapter built, with its PDF
def test_a_new_classic_is_built_with_nothing_of_the_yili_on_its_pages(tmp_path):
    """A work started with init and add-witness alone, with no tradition: its 凡例 names no book of
    the 儀禮 and no 今文/古文, and neither its site nor its PDF has a 今古文 index."""
    sources, base, out = tmp_path / "sources", tmp_path / "base", tmp_path / "build"
    base.mkdir()
    for name in ("KR1d0054_018.txt", "KR1d0054_019.txt"):
        shutil.copy(LIJI / name, base / name)
    assert edition("init", str(base), "--sources", str(sources)).returncode == 0
    added = edition("add-witness", str(FIXTURES / "KR1d0053-WYG"), "--siglum", "WYG", "--sources", str(sources))
    assert added.returncode == 0, added.stderr
    built = edition("build", "--quiet", "--sources", str(sources), "--out", str(out), "--chapter", "深衣")
    assert built.returncode == 0, built.stderr
    chapter = next((out / "chapters").iterdir())
    tei = (chapter / "edition.xml").read_text(encoding="utf-8")
    front = tei[tei.index("<front") : tei.index("</front>")]
    assert "凡例" in front and "底本不誤不改" in front
    for word in ("今文", "古文", "單疏本", "識誤", "儀禮"):
        assert word not in front, word
    assert "他書各算一種" in front
    # Zheng Xuan's note on a reading, X或爲Y, stands on X, his
    note = regex.search(
        r'<app xml:id="[^"]+"><lem[^>]*>要</lem><note [^>]*resp="#zheng-xuan"[^>]*>'
        r"<quote[^>]*>(?:[^<]|<pc[^>]*>[^<]*</pc>)*"
        r"要(?:<pc[^>]*>[^<]*</pc>)?或爲優",
        tei,
    )
    assert note, "the note 要或爲優 is not on 要"
    site = chapter / "site"
    assert not (site / "jinguwen.html").exists()
    page = (site / "index.html").read_text(encoding="utf-8")
    assert 'href="jinguwen.html"' not in page and 'value="jinwen"' not in page
    pdf = subprocess.run(["pdftotext", str(chapter / "edition.pdf"), "-"], capture_output=True, text=True).stdout
    assert "今古文索引" not in pdf and "異體字表" in pdf


def test_a_mark_only_some_juan_have_is_the_editions_and_its_words_are_no_classic_text(tmp_path):
    """纂圖互註's cross-references, 互註(…), stand in some 卷 only (卷二 and 卷十五 here, of seven): the edition's
    profile composes them, so that the word is a label and the note the compiler's, not Zheng's."""
    found = [features_found(decode(p.read_bytes())[0]) for p in sorted(LIJI.glob("*.txt"))]
    assert sum(any(d.feature == "cross-references" for d in f) for f in found) == 2
    assert "cross-references" in [d.feature for d in common_features(found)]
    witness = base_witness(tmp_path, "KR1d0054_002.txt")
    layer = lambda name: "".join(s.text(witness.raw) for s in witness.segments_of(name))
    assert "互註" in layer("label") and "互註" not in layer("classic")
    assert "左僖四年晉献公" in layer("scholia") and "左僖四年" not in layer("commentary")


def test_the_zhushus_pian_title_alone_after_its_commentators_is_a_heading(tmp_path):
    """禮記注疏 卷七 opens 　　漢鄭氏注　唐陸德明音義　孔穎達疏, then the 篇's title alone, 　檀弓上: a
    label, not text of the classic that the other witnesses lack."""
    raw = read_raw(FIXTURES / "KR1d0053-WYG" / "KR1d0053_007.txt", "utf-8")
    segments = split_layers(raw, load_profile("mandoku-zhushu", ROOT / "sources"), ())
    text = lambda name: "".join(s.text(raw) for s in segments if s.layer == name)
    assert "檀弓上" in text("label") and text("classic").startswith("大公封於營丘")


def test_the_commentator_after_a_titles_note_and_a_cross_reference_over_a_line_end_are_no_classic_text(tmp_path):
    """纂圖互註禮記 ends a 篇's title line with its commentator after the note on the title (卷十五:
    哀公問第二十七(陸曰…)鄭氏註; 卷十八: (純則曰/長衣也)鄭氏註; 卷十九: …賔禮也)禮記　鄭氏註), and prints 互註
    at a line's end with its note on the next line, a note that may go on over a line (卷十五)."""
    sources, base = tmp_path / "sources", tmp_path / "base"
    base.mkdir()
    for name in ("KR1d0054_015.txt", "KR1d0054_018.txt", "KR1d0054_019.txt"):
        shutil.copy(LIJI / name, base)
    assert edition("init", str(base), "--sources", str(sources)).returncode == 0
    work = Work.load(sources)
    layers = []
    for chapter in work.chapters:
        sources_of = work.sources(chapter)
        witness = sources_of.intake(sources_of.witnesses[0], sources_of.normalizer())
        layers.append(lambda name, w=witness: "".join(s.text(w.raw) for s in w.segments_of(name)))
    ai_gong, shen_yi, tou_hu = layers
    for layer in layers:
        assert "鄭氏" in layer("label") and "鄭氏" not in layer("classic")
    assert "禮記　鄭氏註" in tou_hu("label")
    assert "無體之禮也" in ai_gong("classic") and "互註" not in ai_gong("classic")
    assert "凡民有䘮" in ai_gong("classic") and "詩𨚍栢舟" in ai_gong("scholia")
    assert "詩昊" in ai_gong("scholia") and "(云)" not in ai_gong("commentary").replace("¶", "")


def test_a_pian_title_alone_after_the_last_note_of_the_pian_before_is_a_heading(tmp_path):
    """禮記注疏 卷五十六 goes on from 奔喪 to 問喪 inside the 卷: the last 疏 note of 奔喪, then the new 篇's
    title alone, indented (lines 331–333, byte for byte); the title is a label, not classic text
    that the base lacks."""
    lines = (FIXTURES / "KR1d0053-WYG" / "KR1d0053_007.txt").read_text(encoding="utf-8").splitlines(keepends=True)
    cut = "".join(lines[:5]) + "(同故云/或曰)¶\n　問喪¶\n親始死雞斯徒跣扱上衽交手哭惻怛之心痛疾之意¶\n"
    # and 卷六十一 (lines 256–259): a page break between the last note and the title, 鄉飲酒義
    page = "(信若不信不可/定以為騐也)¶\n<pb:KR1d0053_WYG_061-15a>¶\n　鄉飲酒義¶\n"
    page += "鄉飲酒之義主人拜迎賓于庠門之外入三揖而后至¶\n"
    for name, text, title, first in (
        (56, cut, "問喪", "親始死"),
        (61, "".join(lines[:5]) + page, "鄉飲酒義", "鄉飲酒之義"),
    ):
        (tmp_path / f"KR1d0053_0{name}.txt").write_text(text, encoding="utf-8")
        raw = read_raw(tmp_path / f"KR1d0053_0{name}.txt", "utf-8")
        segments = split_layers(raw, load_profile("mandoku-zhushu", ROOT / "sources"), ())
        layer = lambda name: "".join(s.text(raw) for s in segments if s.layer == name)
        assert title in layer("label") and layer("classic").startswith(first)


def test_a_punctuated_zhengwen_goes_in_as_a_punctuated_witness_not_as_web_spam(tmp_path):
    """Kanripo's 禮記 正文 (KR1d0052, tls: 曲禮上, cut): mandoku with an org outline, its headline
    (** 1 曲禮上) and paragraph numbers (1.1) labels, its punctuation in its classic text for the
    edition to carry; not the web page's profile, whose intrusions would be its numbers and ¶."""
    sources, base = tmp_path / "sources", tmp_path / "base"
    base.mkdir()
    shutil.copy(LIJI / "KR1d0054_001.txt", base)
    assert edition("init", str(base), "--sources", str(sources)).returncode == 0
    added = edition("add-witness", str(FIXTURES / "KR1d0052-tls"), "--siglum", "TLS", "--sources", str(sources))
    assert added.returncode == 0, added.stderr
    stanza = (sources / "witnesses.toml").read_text(encoding="utf-8").split('siglum = "TLS"')[1]
    assert 'profile = "scrambled-web"' not in stanza
    work = Work.load(sources)
    chapter = work.sources(work.chapters[0])
    witness = chapter.intake(next(m for m in chapter.witnesses if m.siglum == "TLS"), chapter.normalizer())
    layer = lambda name: "".join(s.text(witness.raw) for s in witness.segments_of(name))
    assert "** 1 曲禮上" in layer("label") and "1.1" in layer("label")
    assert layer("classic").startswith("《曲禮》曰：毋不敬，儼若思，安定辭。") and "¶" not in layer("classic")
    assert not layer("intrusion")


def test_a_cross_reference_inside_a_note_is_the_compilers(tmp_path):
    """纂圖互註禮記 卷十四 (祭義, lines 189–190, byte for byte) prints 互註 inside Zheng's note, with no
    brackets of its own: (親長父兄也睦和厚也互註書伊訓立/愛惟親…). From 互註 the note is scholia."""
    sources, base = tmp_path / "sources", tmp_path / "base"
    base.mkdir()
    shutil.copy(LIJI / "KR1d0054_001.txt", base)  # the edition's profile: its notes hold the 音義
    assert edition("init", str(base), "--sources", str(sources)).returncode == 0
    lines = (LIJI / "KR1d0054_015.txt").read_text(encoding="utf-8").splitlines(keepends=True)
    cut = "".join(lines[:7]) + (
        "(古衡反下及/下更相同)子曰立愛自親始教民睦也立敬自長始教¶\n"
        "民順也(親長父兄也睦和厚也互註書伊訓立/愛惟親立敬惟長始于家&KR0022;終于四海)教以慈睦而¶\n"
    )
    (tmp_path / "KR1d0054_014.txt").write_text(cut, encoding="utf-8")
    raw = read_raw(tmp_path / "KR1d0054_014.txt", "utf-8")
    segments = split_layers(raw, load_profile("SBCK", sources), ())
    text = lambda name: "".join(s.text(raw) for s in segments if s.layer == name)
    assert "親長父兄也睦和厚也" in text("commentary") and "伊訓" not in text("commentary")
    assert text("scholia").startswith("互註書伊訓立") and "教以慈睦而" in text("classic")


def test_a_leaf_the_transcription_lacks_is_a_lacuna_and_a_cross_reference_word_in_large_characters_no_text(tmp_path):
    """纂圖互註禮記 卷十八 (問喪, lines 134–137, byte for byte): 6a has no line and 7a follows, so the
    leaf's text is lost (WYG reads 或問曰冠者不肉袒何也… there), as where a second side is given twice;
    卷十二 (雜記下, line 266) prints 重言 in large characters before its small note, a cross-reference
    of the compiler's, as 互註."""
    sources, base = tmp_path / "sources", tmp_path / "base"
    base.mkdir()
    for name in ("KR1d0054_001.txt", "KR1d0054_015.txt"):  # 卷十五 has the compiler's 互註(…)
        shutil.copy(LIJI / name, base)
    assert edition("init", str(base), "--sources", str(sources)).returncode == 0
    lines = (LIJI / "KR1d0054_015.txt").read_text(encoding="utf-8").splitlines(keepends=True)
    cut = "".join(lines[:7]) + (
        "泣無時服勤三年思慕之心孝子之志也人情之實也¶\n"
        "<pb:KR1d0054_SBCK_018-6a>¶\n"
        "<pb:KR1d0054_SBCK_018-7a>¶\n"
        "唯哀爲主矣女子哭泣悲哀擊胷傷心男子哭泣悲哀¶\n"
        "子不奪人之䘮(重䘮/禮也)亦不可奪䘮也(不可以輕/之於巳也)重言(君子/不奪)¶\n"
    )
    (tmp_path / "KR1d0054_018.txt").write_text(cut, encoding="utf-8")
    raw = read_raw(tmp_path / "KR1d0054_018.txt", "utf-8")
    segments = split_layers(raw, load_profile("SBCK", sources), ())
    (lost,) = [s for s in segments if "gap" in s.attrs]
    assert (lost.layer, lost.text(raw)) == ("remark", "<pb:KR1d0054_SBCK_018-6a>")
    pages = [s.text(raw) for s in segments if s.attrs.get("break") == "page"]
    assert pages[-1] == "<pb:KR1d0054_SBCK_018-7a>" and lost.text(raw) not in pages
    text = lambda name: "".join(s.text(raw) for s in segments if s.layer == name)
    assert text("classic").endswith("亦不可奪䘮也") and "重言" in text("label")
    assert "君子" in text("scholia") and "君子" not in text("commentary")
    # 卷十四 (祭義, lines 356–359): 14b given twice, no line between; WYG reads 此由大學來者也… there
    twice = "".join(lines[:7]) + (
        "弟也是故郷里有齒而老窮不遺強不犯弱衆不暴寡¶\n<pb:KR1d0054_SBCK_014-14b>¶\n<pb:KR1d0054_SBCK_014-14b>¶\n"
        "人有善本諸父母存諸長老禄爵慶賞成諸宗廟所以¶\n"
    )
    (tmp_path / "KR1d0054_014.txt").write_text(twice, encoding="utf-8")
    raw = read_raw(tmp_path / "KR1d0054_014.txt", "utf-8")
    lost = [s.text(raw) for s in split_layers(raw, load_profile("SBCK", sources), ()) if "gap" in s.attrs]
    assert lost == ["<pb:KR1d0054_SBCK_014-14b>"]


def test_the_bases_paragraphs_divide_a_chapter_no_step_names(tmp_path):
    """Where no formula of a 疏 names the steps, the base's own paragraphs (〇 before a passage of
    the 經, 纂圖互註禮記) are the sections: each begins a paragraph; a 〇 inside a note, before the
    音義, opens none."""
    witness = base_witness(tmp_path, "KR1d0054_001.txt")
    classic = [t.source(witness.raw) for t in witness.classic.tokens]
    gaps = paragraph_gaps(witness)
    opening = ["".join(classic[g : g + 4]) for g in gaps]
    assert opening[:4] == ["敖不可長", "賢者狎而", "若夫坐如", "夫禮者所"]
    assert "儼若思安" not in opening and "狠母求勝" not in opening  # the 音義's 〇 inside a note
    notes = note_gaps(witness)
    pieces = divided(0, len(classic), [], notes, set(), gaps)
    starts = [p.t0 for p in pieces]
    assert set(gaps) <= set(starts)  # every paragraph begins a section
    assert set(starts) - {0, *gaps} <= set(notes)  # a long one is cut where a note ends a passage
    assert len(starts) > len(gaps) and all(p.t1 - p.t0 <= LONGEST for p in pieces)


def test_a_new_line_after_a_short_one_opens_a_paragraph_where_no_circle_does(tmp_path):
    """A print may open a paragraph by a new line alone, with no 〇 (月令's months, the 周禮's
    offices): a printed line well short of the print's usual width, the 經 at the head of the next.
    A note in two small columns is as wide as its longer column: a line of a note alone may be
    short (…(音亡丁反爾雅/云食苗心螟) before 季春之月) or full. 纂圖互註禮記 卷五, cut from the real file."""
    witness = base_witness(tmp_path, "KR1d0054_005.txt")
    classic = "".join(t.source(witness.raw) for t in witness.classic.tokens)
    opening = {classic[g : g + 4] for g in paragraph_gaps(witness)}
    assert {"仲春之月", "季春之月"} <= opening
    assert "帝大皡其" not in opening  # the line before, of a note and the 經, is full
    assert not {"則民大疫", "水不時肥", "不熟民多"} & opening  # lines of the 經 that run on
    notes = note_gaps(witness)
    starts = {classic[p.t0 : p.t0 + 4] for p in divided(0, len(classic), [], notes, set(), paragraph_gaps(witness))}
    assert {"仲春之月", "季春之月"} <= starts


def test_the_yinyi_run_on_inside_a_note_with_no_circle_is_told_by_its_fanqie_not_zheng_xuans_fan(tmp_path):
    """陸德明's 音義 may run on inside Zheng's note with no ○ before it (卷十八 問喪: …之差也/差
    &KR0004;佳反又&KR0004;宜反下同): from a 反切 with another item of the 音義 right after it, it is
    the 音義; Zheng's own 反 "return" (服問: 男子反其故葛帶, 婦人反其故葛絰) stays his. Lines 84 and
    261 of KR1d0054_018.txt, read by the layout init found for the base."""
    base_witness(tmp_path, "KR1d0054_001.txt")
    cut = tmp_path / "cut.txt"
    cut.write_text(
        "# -*- mode: mandoku-view -*-\n#+TITLE: 纂圖互註禮記\n<pb:KR1d0054_SBCK_018-4a>¶\n"
        "位而哭(奔䘮哭親䟽逺近之差也/差&KR0004;佳反又&KR0004;宜反下同)哭父之黨於廟母妻之¶\n"
        "(男子与婦人也凢下服虞卒哭男子反其故葛帶婦/人反其故葛絰其上服除則固自受以下服之受矣)¶\n",
        encoding="utf-8",
    )
    raw = read_raw(cut, "utf-8")
    segments = split_layers(raw, load_profile("SBCK", tmp_path / "sources"))
    layer = lambda name: "".join(raw.text[s.start : s.end] for s in segments if s.layer == name)
    assert layer("phonetic") == "差&KR0004;佳反又&KR0004;宜反下同"
    assert "男子反其故葛帶" in layer("commentary") and "人反其故葛絰" in layer("commentary")


def test_the_word_zhu_of_the_classic_is_no_marker_of_a_note(tmp_path):
    """The 注疏 marks Zheng's note with the word 注 in large characters; where the classic text has the
    word itself (周禮 山虞: 令禽注于虞中), the witnesses' classic text holds it there, and the word
    with what follows is told classic text, not a marker and a note. 投壺's first passage, cut from
    the real files, with 注于虞中 put in both: the base (纂圖互註禮記) and the 注疏 (卷五十八)."""
    sources, base = tmp_path / "sources", tmp_path / "base"
    zhushu = tmp_path / "zhushu"
    base.mkdir(), zhushu.mkdir()
    words = {
        base / "KR1d0054_019.txt": (LIJI / "KR1d0054_019.txt", "使人執壷(矢所以", "使人執壷注于虞中(矢所以"),
        zhushu / "KR1d0053_058.txt": (FIXTURES / "KR1d0053-WYG" / "KR1d0053_058.txt", "執壺注矢", "執壺注于虞中注矢"),
    }
    for cut, (real, before, after) in words.items():
        text = real.read_text(encoding="utf-8")
        assert text.count(before) == 1
        cut.write_text(text.replace(before, after), encoding="utf-8")
    assert edition("init", str(base), "--sources", str(sources)).returncode == 0
    added = edition("add-witness", str(zhushu), "--siglum", "WYG", "--sources", str(sources))
    assert added.returncode == 0, added.stderr
    work = Work.load(sources)
    base_witness, witness = work.sources(work.chapters[-1]).intake_all()  # the 注疏 against the base
    text = lambda w, name: "".join(s.text(w.raw) for s in w.segments_of(name))
    assert "使人執壷注于虞中" in text(base_witness, "classic")
    assert "使人執壺注于虞中" in text(witness, "classic")
    assert "于虞中" not in text(witness, "commentary") and "矢所以投者也" in text(witness, "commentary")
    # the word that marks Zheng's notes elsewhere is no classic text: the 疏's quotation of it is no reading
    assert text(witness, "classic").count("注") == 1
