"""Kanripo editions in the mandoku format, and the layout features profiles compose: each feature
on a small synthetic file (layers, offsets, TEI, the lossless round trip), then the real 四部叢刊
(SBCK) and 四庫全書 (WYG) 鄉射禮 in sources/."""

import dataclasses
from pathlib import Path

import pytest
import regex
from conftest import SOURCES
from lxml import etree
from texts import runs, text_of_body

from edition.collation import decision_file
from edition.collation.apparatus import collate
from edition.collation.witness_map import clause_boundaries
from edition.errors import EditionError
from edition.intake.align import align
from edition.intake.alignment_rule import Reference
from edition.intake.model import WitnessMeta
from edition.intake.profile import load_profile
from edition.intake.witness import intake_witness
from edition.publication import report, tei, validate
from edition.publication.tei import TEI_NS
from edition.tables import read_toml
from edition.work.chapter_build import edit

NS = {"t": TEI_NS}
ROOT = Path(__file__).resolve().parent.parent
MANDOKU = ["mandoku", "headings", "small-notes", "rest-is-classic"]
ZHUSHU = [
    "mandoku",
    "kaozheng",
    "headings",
    "marked-small-notes",
    "small-notes",
    "zhu-in-large-characters",
    "circle-separators",
    "rest-is-classic",
    "classic-by-alignment",
]


def read(
    tmp_path: Path, sources, text: str, features: list[str], reference: Reference | None = None, name: str = "probe"
):
    """`text` read by a profile of the edition's own composed of `features`."""
    (tmp_path / "profiles").mkdir(exist_ok=True)
    (tmp_path / "profiles" / f"{name}.toml").write_text("".join(f'[[rule]]\nfeature = "{f}"\n\n' for f in features))
    path = tmp_path / f"{name}.txt"
    path.write_text(text, encoding="utf-8")
    meta = WitnessMeta("X", path.name, "probe", "traditional", name)
    return intake_witness(meta, path, load_profile(name, tmp_path), (), sources.normalizer(), reference)


def transcription(sources, witness):
    document = tei.witness_document(sources, witness)
    assert validate.problems(document) == []
    assert text_of_body(etree.fromstring(tei.serialize(document)).getroottree()) == witness.raw.text
    return document


def han(text: str) -> int:
    return len(regex.findall(r"\p{Han}|&KR\d+;", text))


# --- the features, one at a time ------------------------------------------------------------------


def test_header_page_breaks_and_printed_line_ends(tmp_path, sources):
    text = "# -*- mode: mandoku-view -*-\n#+TITLE: 儀禮\n<pb:KR1d0026_SBCK_005-1a>¶\n鄕射之禮主人戒賔¶賔出迎¶\n"
    w = read(tmp_path, sources, text, ["mandoku", "rest-is-classic"])
    assert runs(w) == [("chrome", "# -*- mode: mandoku-view -*-#+TITLE: 儀禮"), ("classic", "鄕射之禮主人戒賔賔出迎")]
    page = next(s for s in w.segments if s.attrs.get("break") == "page")
    assert (page.start, page.end, page.line) == (text.index("<pb"), text.index(">") + 1, 3)
    doc = transcription(sources, w)
    pb = doc.find(".//t:pb", NS)
    assert (pb.get("n"), pb.get("facs")) == ("5-1a", "KR1d0026_SBCK_005-1a")  # 卷 and leaf
    assert pb.getnext().get("function") == "break" and pb.getnext().text == "<pb:KR1d0026_SBCK_005-1a>"
    marks = doc.xpath("//t:metamark[.='¶']", namespaces=NS)
    assert len(marks) == 3 and all(m.get("function") == "break" for m in marks)
    # ¶ before the file's line end is that lb; a ¶ inside a line has an lb of its own
    assert [m.getnext().get("type") for m in marks] == [None, "printed", None]
    assert [m.getnext().get("n") for m in marks] == ["4", None, "5"]


def test_small_notes_break_their_columns_and_run_on_to_the_next_line(tmp_path, sources):
    text = "拜乃請(主人州長也/戒猶警也)¶\n(請告也/告賔)賔禮辭¶\n席主人於阼階上西面(阼/)¶\n(東/階)尊¶\n"
    w = read(tmp_path, sources, text, ["pilcrow-line-ends", "small-notes", "rest-is-classic"])
    assert runs(w) == [
        ("classic", "拜乃請"),
        ("commentary", "主人州長也戒猶警也請告也告賔"),
        ("classic", "賔禮辭席主人於阼階上西面"),
        ("commentary", "阼東階"),
        ("classic", "尊"),
    ]
    breaks = [s for s in w.segments if s.attrs.get("break") == "column"]
    assert [text[s.start : s.end] for s in breaks] == ["/"] * 4
    doc = transcription(sources, w)
    notes = doc.xpath("//t:note[@type='commentary']", namespaces=NS)
    assert len(notes) == 4, "one note per (…), the column break inside it"
    assert notes[0].xpath("t:metamark[@function='break']/following-sibling::*[1][self::t:cb]", namespaces=NS)
    counts = report.layer_counts(w)["commentary"]
    assert counts == {"segments": 4, "characters": han("主人州長也戒猶警也請告也告賔阼東階")}


def test_a_missing_page_is_a_lacuna_of_unknown_extent(tmp_path, sources):
    text = (
        "主人降¶\n<pb:X_005-7a>¶\n# SB1_0015-128.png\n# page missing\n"
        "<pb:X_005-8a>¶\n禮不嚌肺¶\n# ?\n# image missing\n不啐酒¶\n"
    )
    w = read(tmp_path, sources, text, ["mandoku", "rest-is-classic"])
    assert [s.text(w.raw) for s in w.segments_of("remark")] == [
        "SB1_0015-128.png",
        "page missing",
        "?",
        "image missing",
    ]
    assert [s.text(w.raw) for s in w.lacunae] == ["page missing", "image missing"]
    assert w.lacuna_breaks == (3, 7), "after 主人降 and after 禮不嚌肺"
    doc = transcription(sources, w)
    gaps = doc.xpath("//t:gap", namespaces=NS)
    assert [(g.get("reason"), g.get("extent")) for g in gaps] == [
        ("page missing", "unknown"),
        ("image missing", "unknown"),
    ]
    assert [g.getnext().text for g in gaps] == ["page missing", "image missing"]
    assert doc.xpath("//t:note[@type='transcriber']/text()", namespaces=NS)[0] == "SB1_0015-128.png"
    assert [g["reason"] for g in report.witness_report(w, sources.variants)["lacunae"]] == [
        "page missing",
        "image missing",
    ]


def test_a_lacuna_of_unknown_extent_is_not_extant_however_short():
    base = "天地玄黃宇宙洪荒日月盈昃辰宿列張寒來暑往秋收冬藏閏餘成歲律呂調陽"
    witness = base.replace("寒來暑往秋收", "")  # a leaf lost after 列張
    assert len(align(base, witness).extant) == 1, "without the remark: an omission of six characters"
    lost = base.index("寒來")
    assert align(base, witness, breaks=(lost,)).extant == [(0, lost), (lost + 6, len(base))]


def test_line_ends_page_breaks_and_remarks_are_no_clause_boundaries(tmp_path, sources):
    text = "主人降¶\n<pb:X_005-7a>¶\n# SB1_0015-128.png\n禮不嚌肺(注/也)不啐酒¶\n"
    w = read(tmp_path, sources, text, MANDOKU)
    assert len(w.classic.tokens) == len("主人降禮不嚌肺不啐酒")
    assert clause_boundaries(w) == {7}, "only the note before 不啐酒"


def test_entities_are_stand_ins_resolved_through_kanripos_table(tmp_path, sources):
    text = "君袒朱&KR0237;以射&KR0005;&KR2687;&KR9999;¶\n"
    w = read(tmp_path, sources, text, ["mandoku", "rest-is-classic"])
    found = {t.gaiji.form: t.gaiji for t in w.stream.of_kind("gaiji")}
    assert found["&KR0237;"].mapping == "𥜗", "no form: its normalized character"
    assert found["&KR0005;"].mapping == "將", "a form that is one character"
    assert found["&KR2687;"].mapping == "" and "neither a form nor a normalized" in found["&KR2687;"].description
    assert found["&KR9999;"].mapping == "" and found["&KR9999;"].description.startswith("unlisted entity")
    doc = transcription(sources, w)
    assert doc.xpath("//t:body//t:g/@ref", namespaces=NS) == ["#g-KR0237", "#g-KR0005", "#g-KR2687", "#g-KR9999"]
    char = doc.find(".//t:charDecl/t:char[@xml:id='g-KR0237']", {**NS, "xml": "http://www.w3.org/XML/1998/namespace"})
    assert char.xpath("t:localProp[@name='code']/@value", namespaces=NS) == ["KR0237"]
    assert char.xpath("t:mapping[@type='kanripo-normalized']/text()", namespaces=NS) == ["𥜗"]
    gaiji = {g["form"]: g["mapping"] for g in report.witness_report(w, sources.variants)["gaiji"]}
    assert gaiji["&KR2687;"] is None and gaiji["&KR9999;"] is None, "kept and reported, never dropped"


def test_notes_a_word_introduces_and_their_continuation(tmp_path, sources):
    text = "乃請注主人州長也音¶\n義(長丁大/反)疏(釋曰/自此)¶\n<pb:X-1b>¶\n(事案/大射)賓禮辭○主人退¶\n"
    w = read(tmp_path, sources, text, ZHUSHU[:-1])
    assert runs(w) == [
        ("classic", "乃請"),
        ("commentary", "主人州長也"),
        ("phonetic", "長丁大反"),
        ("subcommentary", "釋曰自此事案大射"),
        ("classic", "賓禮辭主人退"),
    ]
    markers = [
        (s.line, s.text(w.raw)) for s in w.segments if s.rule == "marked-small-notes:phonetic" and s.layer == "format"
    ]
    assert markers[:2] == [(1, "音"), (2, "義(")], "音¶ 義( split by a printed line end"
    doc = transcription(sources, w)
    assert len(doc.xpath("//t:note[@type='phonetic'][@resp='#lu-deming']", namespaces=NS)) == 1
    assert doc.xpath("//t:metamark[.='○']/@function", namespaces=NS) == ["separator"]


def reference_text(tmp_path, sources, text: str) -> str:
    return read(tmp_path, sources, text, ["rest-is-classic"], name="reference").classic.text


def test_classic_text_after_a_note_is_told_by_the_other_witnesses(tmp_path, sources):
    classic = "席主人於阼階上西面尊於賓席之東兩壺斯禁設洗于阼階東南南北以堂深"
    text = (
        "席主人於阼階上西面注阼階東階尊於賓席之東兩壺斯禁注斯禁禁切地無足者也"
        "設洗于阼階東南注洗南北以堂深也¶\n南北以堂深¶\n"
    )
    reference = Reference((reference_text(tmp_path, sources, classic + "\n"),), sources.normalizer())
    w = read(tmp_path, sources, text, ZHUSHU, reference)
    assert runs(w) == [
        ("classic", "席主人於阼階上西面"),
        ("commentary", "阼階東階"),
        ("classic", "尊於賓席之東兩壺斯禁"),
        ("commentary", "斯禁禁切地無足者也"),
        ("classic", "設洗于阼階東南"),
        ("commentary", "洗南北以堂深也"),
        ("classic", "南北以堂深"),
    ], "the notes quote the classic text, which the sure text already reads: they stay commentary"
    by_rule = {c["rule"]: c["characters"] for c in report.rule_counts(w) if c["layer"] == "classic"}
    assert by_rule["classic-by-alignment:classic-by-alignment"] == len("尊於賓席之東兩壺斯禁設洗于阼階東南南北以堂深")
    alone = read(tmp_path, sources, text, ZHUSHU, None, name="alone")
    assert runs(alone)[1][1].startswith("阼階東階尊於賓席之東兩壺斯禁"), "with no other witness, layout alone decides"


def test_a_reference_that_lacks_the_text_or_is_scrambled_decides_nothing(tmp_path, sources):
    """The reference that reads most of the sure text has lost the leaf around the first 注: the
    one that reads less decides there; a scrambled one never."""
    text = (
        "席主人於阼階上西面注阼階東階尊於賓席之東兩壺斯禁音義(斯如字)篚在其南東肆"
        "注斯禁禁切地無足者也音義(勺上灼反)設洗于阼階東南南北以堂深東西當東榮¶\n"
    )
    lost_leaf = reference_text(tmp_path, sources, "席主人於阼階上西面設洗于阼階東南南北以堂深東西當東榮\n")
    good = reference_text(tmp_path, sources, "席主任於阼階上西面尊於賓席之東兩壺斯禁篚在其南東肆設洗\n")
    scrambled = reference_text(tmp_path, sources, "東階尊於賓席之東兩壺" + "的了吗" * 40 + "\n")
    w = read(tmp_path, sources, text, ZHUSHU, Reference((scrambled, good, lost_leaf), sources.normalizer()))
    assert runs(w) == [
        ("classic", "席主人於阼階上西面"),
        ("commentary", "阼階東階"),
        ("classic", "尊於賓席之東兩壺斯禁"),
        ("phonetic", "斯如字"),
        ("classic", "篚在其南東肆"),
        ("commentary", "斯禁禁切地無足者也"),
        ("phonetic", "勺上灼反"),
        ("classic", "設洗于阼階東南南北以堂深東西當東榮"),
    ]


def test_the_kaozheng_ends_the_juan(tmp_path, sources):
    text = (
        "君在大夫射則肉袒注不袒纁襦厭於君也¶\n　儀禮注疏卷五¶\n<pb:X_005-92a>¶\n　儀禮注疏卷五考證¶\n"
        "主人戒賓○敖繼公云¶\n　請下似脱一賓字(臣紱/)按&KR0056;¶\n　¶\n　儀禮注疏卷五考證¶\n"
    )
    w = read(tmp_path, sources, text, ZHUSHU[:-1])
    assert runs(w) == [
        ("classic", "君在大夫射則肉袒"),
        ("commentary", "不袒纁襦厭於君也"),
        ("label", "　儀禮注疏卷五　儀禮注疏卷五考證"),
        ("kaozheng", "主人戒賓○敖繼公云請下似脱一賓字臣紱按&KR0056;"),
        ("label", "　儀禮注疏卷五考證"),
    ]
    doc = transcription(sources, w)
    assert len(doc.xpath("//t:note[@type='kaozheng']//t:g", namespaces=NS)) == 1
    assert doc.xpath("//t:note[@type='kaozheng'][t:cb]/text()", namespaces=NS) == ["臣紱"]


def test_headings_of_the_juan_and_chapter(tmp_path, sources):
    text = (
        "欽定四庫全書¶\n　儀禮注疏巻十一¶\n　　漢鄭氏注　唐陸德明音義　賈公彦疏¶\n　喪服第十一¶\n"
        "儀禮卷第五¶\n鄕射禮第五　儀禮　鄭氏注¶\n鄕射之禮¶\n儀禮卷第五¶\n(經三千六百四十五字/注六千九百一十五字)¶\n"
    )
    w = read(tmp_path, sources, text, MANDOKU)
    assert [s.rule for s in w.segments if s.layer in ("label", "chrome")] == [
        "headings:siku-banner",
        "headings:juan-title",
        "headings:commentators",
        "headings:chapter-title",
        "headings:juan-title",
        "headings:chapter-title",
        "headings:juan-title",
        "headings:character-count",
    ]
    assert runs(w)[-2:] == [("classic", "鄕射之禮"), ("label", "儀禮卷第五(經三千六百四十五字/注六千九百一十五字)")]


def test_a_chapter_title_that_its_yinyi_follows_is_a_heading(tmp_path, sources):
    """The 周禮注疏 sets the 音義 on the 篇 right after its title (天官冢宰第一音義(…)): the title is
    a heading, the word 音義 and its note no classic text."""
    text = "　周禮注疏卷一¶\n天官冢宰第一音義(此天官也鄭云象天/所立之官冢大也)¶\n惟王建國辨方正位¶\n"
    w = read(tmp_path, sources, text, ["mandoku", "headings", "marked-small-notes", "small-notes", "rest-is-classic"])
    assert [s.rule for s in w.segments if s.layer in ("label", "chrome")][:2] == [
        "headings:juan-title",
        "headings:chapter-title",
    ]
    assert "".join(s.text(w.raw) for s in w.segments if s.layer == "classic") == "惟王建國辨方正位"


def test_commentary_lines_indented_with_u3000(tmp_path, sources):
    text = "欽定四庫全書\n　儀禮集説卷五\n鄉射之禮主人戒賓\n　主人州長也\n　戒猶警也\n賓出迎\n"
    w = read(tmp_path, sources, text, ["headings", "indented-commentary", "rest-is-classic"])
    assert runs(w)[2:] == [("classic", "鄉射之禮主人戒賓"), ("commentary", "主人州長也戒猶警也"), ("classic", "賓出迎")]
    assert [
        w.raw.text[s.start : s.end]
        for s in w.segments
        if s.rule == "indented-commentary:indented-line" and s.layer == "format"
    ] == ["　", "　"]


def test_a_compilers_remarks_after_the_note_and_labels_on_lines_of_their_own(tmp_path, sources):
    text = "乡射之礼【主人州长也○案此说是】主人戒宾\n右戒宾\n拜乃请(主人州長也○案/此説)¶\n(又案之)賔¶\n右請射¶\n"
    w = read(
        tmp_path,
        sources,
        text,
        ["mandoku", "lenticular-notes", "small-notes", "compiler-remarks", "section-labels", "rest-is-classic"],
    )
    assert [s.text(w.raw) for s in w.segments_of("scholia")] == ["案此说是", "案", "此説", "又案之"]
    labels = w.segments_of("label")
    assert [s.text(w.raw) for s in labels] == ["右戒宾", "右請射"] and all(
        s.attrs["section"] == "closes" for s in labels
    )
    assert ("commentary", "主人州長也") in runs(w)
    transcription(sources, w)


def test_profiles_compose_features_and_say_so(tmp_path, sources):
    w = read(tmp_path, sources, "拜(主人/州長)¶\n", MANDOKU)
    assert {s.rule for s in w.segments} >= {
        "small-notes:note",
        "small-notes:column-break",
        "pilcrow-line-ends:printed-line-end",
        "rest-is-classic:classic",
    }
    profiles = tmp_path / "profiles"
    (profiles / "unknown.toml").write_text('[[rule]]\nfeature = "no-such-feature"\n')
    with pytest.raises(EditionError, match="unknown feature 'no-such-feature'"):
        load_profile("unknown", tmp_path)
    (profiles / "mixed.toml").write_text('[[rule]]\nfeature = "small-notes"\nlayer = "classic"\n')
    with pytest.raises(EditionError, match="unknown field"):
        load_profile("mixed", tmp_path)
    for path in (ROOT / "edition" / "intake" / "features").glob("*.toml"):
        read_toml(path, "feature")  # every feature is valid against the schema


# --- the real 鄉射禮 of Kanripo: 四部叢刊 (SBCK) and 四庫全書 (WYG) ---------------------------------


def body_reading(raw: str) -> tuple[int, int]:
    """SBCK's classic and commentary characters read off the file directly: the body without the
    header, remarks, page breaks and ¶; the 注 is what stands in (…), but for the count of
    characters; the classic is the rest but for the headings."""
    lines = [line for line in raw.split("\n") if not line.startswith("#")]
    body = regex.sub(r"<pb:[^>]*>|¶", "", "\n".join(lines))
    body = regex.sub(r"\(經[^\n]*字\)", "", body)
    notes = "".join(regex.findall(r"\(([^()]*)\)", body))
    rest = regex.sub(r"\([^()]*\)", "", body)
    rest = regex.sub(r"^(?:儀禮卷第五|鄕射禮第五　儀禮　鄭氏注)$", "", rest, flags=regex.M)
    return han(rest), han(notes)


def layer_characters(witness) -> dict[str, int]:
    out: dict[str, int] = {}
    for segment in witness.segments:
        if segment.layer != "format" and han(segment.text(witness.raw)):
            out[segment.layer] = out.get(segment.layer, 0) + han(segment.text(witness.raw))
    return out


def test_sbck_layers(witnesses):
    """Checked by reading: the counts are those of the file read directly (`body_reading`), and
    SBCK's classic text is 001's but for the three lost leaves (it differs from 001 in no run of
    three characters elsewhere); 6,677 characters of 注 are the 6,915 of its colophon less what
    the three leaves held."""
    w = witnesses["SBCK"]
    counts = layer_characters(w)
    assert counts == {"chrome": 2, "label": 38, "classic": 6558, "commentary": 6677}
    assert body_reading(w.raw.text) == (counts["classic"], counts["commentary"])
    base = witnesses["001"]
    alignment = align(base.classic.text, w.classic.text, breaks=w.lacuna_breaks)
    assert len(alignment.extant) == 4
    assert all(
        max(op.b1 - op.b0, op.w1 - op.w0) < 3
        for op in alignment.ops
        if op.tag != "equal" and (op.b0, op.b1) not in lost(alignment)
    )


def lost(alignment) -> set[tuple[int, int]]:
    return {(a1, b0) for (_, a1), (b0, _) in zip(alignment.extant, alignment.extant[1:])}


def test_wyg_layers(witnesses):
    """WYG's classic text, 注 included where the classic takes up again after it unmarked, reads as
    001 does but for single characters (纁襦 for 001's 薰襦) and the 以耦 that WYG lacks (its 考證
    says so), and as SBCK but for SBCK's three lost leaves, that 以耦 and variant forms."""
    w = witnesses["WYG"]
    counts = layer_characters(w)
    assert counts == {
        "chrome": 10,
        "label": 47,
        "classic": 6795,
        "commentary": 6989,
        "phonetic": 1026,
        "subcommentary": 29889,
        "kaozheng": 1517,
    }
    base = witnesses["001"].classic.text
    against_001 = align(base, w.classic.text)
    assert [
        base[op.b0 : op.b1] for op in against_001.ops if op.tag != "equal" and max(op.b1 - op.b0, op.w1 - op.w0) >= 2
    ] == ["以耦"]
    assert ("薰", "𫄸") in [(base[op.b0 : op.b1], w.classic.text[op.w0 : op.w1]) for op in against_001.ops], (
        "纁, in the comparison script"
    )
    by_rule = {c["rule"]: c for c in report.rule_counts(w)}
    assert by_rule["classic-by-alignment:classic-by-alignment"]["characters"] > 600
    assert by_rule["zhu-introduced-by-shu"]["layer"] == "commentary", "the witness's own repair"


WYG_1617_1647 = [
    ("classic", "郊則閭中以旌獲"),
    (
        "commentary",
        "於郊謂大射也大射於大學王制曰小學在公宮之左大學在郊閭獸名如驢一角或曰如驢岐蹄周書曰北唐以閭析羽爲旌",
    ),
    ("phonetic", "大音泰岐巨支反一音支析悉歴反"),
    (
        "subcommentary",
        "注釋曰知於郊謂大射也者案大射云公入鷔從外來入此既言於郊故知大射在郊也云大射於大學者據諸矦而言也天子大射在虞庠小學以其天子大學在國中小學在郊諸矦不得立大學在國立大學在郊故鄭引王制小學在公宮之左大學在郊是殷法諸矦用焉故引爲證必知諸矦立大學在郊者見詩魯頌有泮宮禮記云故魯人將有事於上帝必先有事於頖官鄭云頖宮郊之學也則詩泮宮此郊學是也云閭獸名如驢一角或曰如驢岐蹄周書曰北唐以閭者岐蹄巳上山海經文周書見於國語也",
    ),
    ("classic", "於竟則虎中龍旜"),
    ("commentary", "於竟謂與鄰國君射也畫龍於旜尚文章也通帛爲旜"),
    ("phonetic", "竟音景注同旜之然反"),
    (
        "subcommentary",
        "注釋曰與鄰國君射則賓射也以其君有送賓之事因送則射云尚文章也者亦若翿旌也云通帛爲旜司常文鄭注云凡九旗之帛皆用絳則通帛者正幅爲絳長尋曰旐繫旐曰斾通體皆用絳帛爲之名旜",
    ),
    ("classic", "大夫兕中各以其物獲"),
    ("commentary", "兕獸名似牛一角"),
    ("phonetic", "兕徐履反"),
    (
        "subcommentary",
        "釋曰下有士則此專據大夫爲文而云各以其物者公矦伯大夫再命子男之大夫一命爲卿大夫其數雖同旐依命數不同故云各又下云士翿旌以獲唯小國之州長不命者則公矦之州長一命有旌亦入物中則各内兼之矣故云各注釋曰兕似牛一角案爾雅及山海經知之",
    ),
    ("classic", "士鹿中翿旌以獲"),
    ("commentary", "謂小國之州長也用翿爲旌以獲無物也古文無以獲"),
    ("classic", "唯君有射于國中其餘否"),
    ("commentary", "臣不習武事於君側也古文有作又今文無其餘否"),
    (
        "subcommentary",
        "釋曰天子諸矦皆燕射在國又天子賓射在朝亦在國大夫士燕射賓射不在國大夫又得行大射雖無郊學亦不得在國是以孔子爲鄉射射於矍相之固是其一證若然此鄉射亦不在國中亦宜在國外故記於此見之也",
    ),
    ("classic", "君在大夫射則肉袒"),
    ("commentary", "不袒纁襦厭於君也今文無射"),
    ("phonetic", "厭於涉反"),
    ("subcommentary", "注釋曰上云大夫與士射袒纁襦今與君射爲厭與士同故肉袒也"),
    ("label", "　儀禮注疏卷五　儀禮注疏卷五考證"),
    ("kaozheng", "主人戒賓賓出迎再拜主人答再拜乃請○敖繼公云請下似脱一賓字臣紱按鄉飲酒禮云乃請賓敖氏葢以彼例此"),
]


def test_wyg_hand_checked_passage(witnesses):
    """Lines 1617–1647, read by hand: the 記's last passages, 於郊則閭中 to 君在大夫射則肉袒, the
    end of the 卷 and the beginning of its 考證. 唯君有射于國中其餘否 takes up after Zheng's 注
    unmarked (the 注 then quotes 其餘否)."""
    assert runs(witnesses["WYG"], range(1617, 1648)) == WYG_1617_1647
    assert sum(len(t) for _, t in WYG_1617_1647) >= 300


def test_every_entity_of_both_resolves_but_one_nothing_attests(witnesses, sources):
    """Kanripo's table resolves all but two: KR0238 (normalized ?), which sources/gaiji.tsv
    resolves by 礼书纲目's reading of the same 注, and KR2687 (nothing in the table), in a 疏
    quoting the 禮記, which no witness attests: it is kept and reported."""
    for siglum in ("SBCK", "WYG"):
        entities = [t.gaiji for t in witnesses[siglum].stream.of_kind("gaiji") if t.gaiji.kind == "entity"]
        assert entities
        unresolved = {e.form for e in entities if not e.mapping}
        assert unresolved == (set() if siglum == "SBCK" else {"&KR2687;"}), siglum
    summary = report.summary_markdown(report.witnesses_report([witnesses["WYG"]], sources.variants))
    assert "Unresolved stand-ins" in summary and "&KR2687;" in summary


def test_sbck_lost_leaves_in_its_transcription(built):
    doc = etree.parse(str(built / "witnesses" / "SBCK.xml"))
    gaps = doc.xpath("//t:body//t:gap", namespaces=NS)
    assert [g.get("reason") for g in gaps] == ["page missing"] * 3
    assert [g.getprevious().getprevious().get("n") for g in gaps] == ["115", "397", "643"]


def test_sbck_as_a_witness_is_not_extant_at_its_lost_leaves(witnesses, sources):
    """SBCK collated against another base (001): its three lost leaves are lacunae, not omissions."""
    against_001 = dataclasses.replace(
        sources, config=dataclasses.replace(sources.config, base="001", punctuation_from="")
    )
    choices = decision_file.load(SOURCES / "decisions.toml")
    edited = edit(against_001, list(witnesses.values()), choices)
    apparatus, found = edited.apparatus, edited.sections
    status = apparatus.statuses["SBCK"]
    assert status.included and len(status.extant) == 4
    readings = [r for u in apparatus.units for r in u.readings if "SBCK" in r.sigla]
    assert not any(regex.search(r"png|missing|SB1_", r.display) for r in readings), "no remark is read as text"
    assert (
        max(
            (
                len(u.lemma.tokens)
                for u in apparatus.units
                for r in u.readings
                if "SBCK" in r.sigla and r.subtype == "omission"
            ),
            default=0,
        )
        < 10
    )
    document = tei.edition_document(against_001, apparatus, found, choices.editors)
    assert len(document.xpath("//t:lacunaStart[@wit='#wSBCK']", namespaces=NS)) == 3
    assert len(document.xpath("//t:lacunaEnd[@wit='#wSBCK']", namespaces=NS)) == 3


def test_a_layout_problem_is_told_from_a_scrambled_witness(witnesses, sources):
    """SBCK read as plain text (its 注 taken for classic text) aligns in long runs with long
    stretches between them; the scrambled web page 004 in short runs."""
    meta = WitnessMeta("SBCKplain", "KR1d0026_005.txt", "SBCK read as plain text", "traditional", "plain")
    plain = intake_witness(meta, SOURCES / meta.file, load_profile("plain"), (), sources.normalizer())
    apparatus = collate(
        [witnesses["001"], plain, witnesses["004"]], "001", sources.orthography(), sources.config.min_quality
    )
    misread = apparatus.statuses["SBCKplain"]
    assert (
        not misread.included and "layout problem" in misread.reason and "scrambled or unrelated" not in misread.reason
    )
    assert regex.search(r"at lines \d+(–\d+)?, \d+", misread.reason)
    assert "scrambled or unrelated" in apparatus.statuses["004"].reason
