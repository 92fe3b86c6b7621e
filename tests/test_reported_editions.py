"""The editions a 校语 cites for a reading (石經, 監本, 敖本…) as reported witnesses: in listWit with
their status, attested only in the entries where a note reports their reading (issue 21). The
places are checked by hand against the raw files:

大射 (卷七): SBCK (KR1d0026_007.txt) line 239 and WYG (KR1d0028_007.txt) line 540 read 坐授瑟乃降;
WYG's 考證 (line 1478) says 授石經作受誤: the 石經 reads 受, a reading no witness has.
SBCK line 468 reads 北面視筭, WYG line 983 北面眂算; the 考證 (line 1520) says 眂石經及敖本作視: the
石經 and 敖本 read 視 with the base.
SBCK line 543 and WYG line 1142 read 卒司馬師受虛爵; the 考證 (line 1528) says 監本脱師字: the 監本
lacks 師.
SBCK line 487 reads 司射遂&KR0221;執弓 (KR0221 a form of 袒), WYG line 1011 司射袒執弓; the 考證 (line
1524) says 袒字上石經及楊本敖本有遂字: the 石經, 楊本 and 敖本 read 遂 with the base, where WYG lacks it.

士冠禮 (卷一): SBCK (KR1d0026_001.txt) line 123 reads 啐醴建柶興, WYG (KR1d0028_001.txt) line 629
啐醴㨗柶興 (㨗 a form of 捷); the 考證 (line 1151) says 捷石經及敖本作建: the 石經 and 敖本 read 建 with
the base.
"""

from __future__ import annotations

import tomllib
from copy import deepcopy
from types import SimpleNamespace

import pytest
import regex
from conftest import edited_chapter, printed_entries
from lxml import etree
from stripped import quoting

from edition.collation.model import Reading, Unit
from edition.publication import render, tei, validate
from edition.publication.conventions import Conventions
from edition.tables import expand_macros
from edition.traditions import textual_note
from edition.traditions.yili import reported_editions
from edition.traditions.yili.reported_editions import ReportedReading

NS = {"t": tei.TEI_NS}
XML_ID = tei.XML_ID


# --- the table and the readings, on their own --------------------------------------------------------------


def test_the_names_a_note_gives_are_the_editions_of_the_table(sources):
    names = reported_editions.Names(sources.normalizer(), reported_editions.editions())
    assert names.cited("石經及朱子本楊本敖本") == ["shijing", "zhuzi", "yangben", "aoben"]
    assert names.cited("唐石經") == ["shijing"]
    assert names.cited("集説") == ["aoben"], "compared as the witnesses are: 説 is 說"
    assert names.cited("諸本") == [] and names.cited("釋文") == [] and names.cited("本") == []


def test_every_name_of_the_table_is_one_the_formulas_capture():
    doc = tomllib.loads(textual_note.DATA.read_text(encoding="utf-8"))
    source = regex.compile(expand_macros("{SOURCE}", doc["macros"]))
    for edition in reported_editions.editions().values():
        for name in edition.names:
            assert source.fullmatch(name), name


def unit(t0: int, t1: int) -> Unit:
    return Unit(0, t0, t1, Reading([], [], "", ""), [])


def test_a_reported_reading_is_known_only_in_entries_within_its_characters():
    """二耦 for base tokens 5:7, with 以 after them (a note's X下某本有以字)."""
    reported = ReportedReading("jianben", 5, 7, (("二", "二"), ("耦", "耦")), ("", ""), ("以", "以"))
    assert reported.over(unit(5, 6), set()) == ("二", "二")
    assert reported.over(unit(5, 7), set()) == ("二耦以", "二耦以"), "no entry of an addition at gap 7"
    assert reported.over(unit(5, 7), {7}) == ("二耦", "二耦")
    assert reported.over(unit(7, 7), {7}) == ("以", "以"), "the addition's entry takes what it has there"
    assert reported.over(unit(6, 6), {6}) == ("", ""), "nothing between characters it reads together"
    assert reported.over(unit(5, 5), {5}) is None, "it has nothing before them: the note does not say"
    assert reported.over(unit(4, 6), set()) is None and reported.over(unit(6, 8), set()) is None


def test_editions_reading_alike_read_the_lemma_or_a_reading_of_their_own():
    """既夕禮's 外内監本作内外 (WYG 考證, KR1d0028_013.txt): the lemma's characters inverted in place, a
    substitution (a transposition is a clause moved elsewhere, with its counterpart there)."""
    entry = unit(3, 5)
    entry.lemma = Reading(["SBCK", "WYG"], [], "外内", "外内")
    inverted = (("内", "内"), ("外", "外"))
    entry.annotations = [
        ReportedReading("jianben", 3, 5, inverted, ("", ""), ("", "")),
        ReportedReading("shijing", 3, 5, (("外", "外"), ("内", "内")), ("", ""), ("", "")),
        ReportedReading("aoben", 3, 5, (("外", "外"), ("内", "内")), ("", ""), ("", "")),
    ]
    theirs, with_lemma = reported_editions.attestations(SimpleNamespace(relations=None), entry, set())
    assert (theirs.editions, theirs.display, theirs.reading) == (["jianben"], "内外", None)
    assert (theirs.new.type, theirs.new.subtype) == ("substantive", "substitution")
    assert (with_lemma.editions, with_lemma.reading, with_lemma.new) == (["shijing", "aoben"], entry.lemma, None)


# --- real chapters, edited in process ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def dashe() -> SimpleNamespace:
    return edited_chapter("大射")


def note_quoting(document, words: str):
    """The one 校语 that quotes `words`, and the app it stands in."""
    found = quoting(document, words)
    assert len(found) == 1, words
    return found[0], found[0].getparent()


def reported_of(document, note) -> list:
    """The witDetails that point at the note, wherever they stand."""
    return document.xpath(f"//t:witDetail[@type='reported'][@source='#{note.get(XML_ID)}']", namespaces=NS)


def target(document, detail):
    return document.xpath(f"//*[@xml:id='{detail.get('target')[1:]}']", namespaces=NS)[0]


def wits(node) -> list[str]:
    return node.get("wit", "").split()


def text(node) -> str:
    return "".join(node.itertext())


@pytest.mark.tier("build")
def test_the_stone_classics_read_shou_for_shou_a_reading_of_their_own(dashe):
    note, app = note_quoting(dashe.document, "授石經作受誤")
    assert note.get("resp") == "#siku-guanchen"
    lem = app.find("t:lem", NS)
    assert text(lem) == "授" and wits(lem) == ["#wSBCK", "#wWYG"]
    [detail] = reported_of(dashe.document, note)
    assert detail.getparent() is app and detail.get("wit") == "#shijing" and detail.get("resp") == "#siku-guanchen"
    rdg = target(dashe.document, detail)
    assert rdg.tag == f"{{{tei.TEI_NS}}}rdg" and rdg.getparent() is app
    assert (wits(rdg), text(rdg), rdg.get("type"), rdg.get("subtype")) == (
        ["#shijing"],
        "受",
        "substantive",
        "substitution",
    ), "what the 考證 calls an error of the 石經 is still its reading"


@pytest.mark.tier("build")
def test_the_stone_classics_and_ao_read_shi_with_the_base_where_wyg_reads_chi(dashe):
    note, app = note_quoting(dashe.document, "眂石經及敖本作視")
    lem = app.find("t:lem", NS)
    assert text(lem) == "視" and wits(lem) == ["#wSBCK", "#shijing", "#aoben"]
    assert [(wits(r), text(r)) for r in app.iterfind("t:rdg", NS)] == [(["#wWYG"], "眂")]
    details = reported_of(dashe.document, note)
    assert sorted(d.get("wit") for d in details) == ["#aoben", "#shijing"]
    assert all(target(dashe.document, d) is lem for d in details)


@pytest.mark.tier("build")
def test_the_directorate_edition_lacks_shi(dashe):
    note, app = note_quoting(dashe.document, "監本脱師字")
    assert text(app.find("t:lem", NS)) == "師"
    [detail] = reported_of(dashe.document, note)
    rdg = target(dashe.document, detail)
    assert (wits(rdg), text(rdg), rdg.get("type"), rdg.get("subtype")) == (
        ["#jianben"],
        "",
        "substantive",
        "omission",
    )


@pytest.mark.tier("build")
def test_sui_before_tan_is_read_by_the_editions_the_note_names_where_wyg_lacks_it(dashe):
    note, app = note_quoting(dashe.document, "袒字上石經及楊本敖本有遂字")
    on_sui = [d for d in reported_of(dashe.document, note) if text(target(dashe.document, d)) == "遂"]
    assert sorted(d.get("wit") for d in on_sui) == ["#aoben", "#shijing", "#yangben"]
    sui = on_sui[0].getparent()
    assert sui is not app, "the entry of 遂 is the one before the note's, on 袒"
    assert wits(sui.find("t:lem", NS)) == ["#wSBCK", "#shijing", "#aoben", "#yangben"]
    assert [(wits(r), r.get("subtype")) for r in sui.iterfind("t:rdg", NS)] == [(["#wWYG"], "omission")]


@pytest.mark.tier("build")
def test_in_guanli_the_stone_classics_and_ao_read_jian_with_the_base():
    guanli = edited_chapter("士冠禮")
    note, app = note_quoting(guanli.document, "捷石經及敖本作建")
    lem = app.find("t:lem", NS)
    assert text(lem) == "建" and wits(lem) == ["#wSBCK", "#shijing", "#aoben"]
    assert [wits(r) for r in app.iterfind("t:rdg", NS)] == [["#wWYG"]]
    assert sorted(d.get("wit") for d in reported_of(guanli.document, note)) == ["#aoben", "#shijing"]
    assert validate.problems(guanli.document) == []


@pytest.mark.tier("build")
def test_an_emendation_that_an_edition_the_notes_report_contradicts_is_held_back_for_the_editor():
    """士昏禮 記 (SBCK 卷二: 對曰某得以爲昬姻之故; WYG 卷二 l.1137: 某以得為昏姻之故, its 考證: 以得二字石經作得以):
    WYG and the base's own words elsewhere (某以得爲外昬姻) read 以得, the 石經 reads the base's 得以.
    The note is placed on the two characters (X二字石經作Y), the base stands, and the entry is a
    candidate for the editor, one reading (二字互乙), not an omission and an addition."""
    chapter = edited_chapter("士昏禮")
    note, app = note_quoting(chapter.document, "以得二字石經作得以")
    lem = app.find("t:lem", NS)
    assert text(lem) == "得以" and wits(lem) == ["#wSBCK", "#shijing"] and lem.get("resp") is None
    assert [(wits(r), text(r)) for r in app.iterfind("t:rdg", NS)] == [(["#wWYG"], "以得")]
    assert [d.get("wit") for d in reported_of(chapter.document, note)] == ["#shijing"]
    unit = next(u for u in chapter.edited.apparatus.units if u.lemma.norm == "得以")
    assert unit.candidate and not unit.emended


def reported_witnesses(document) -> dict[str, etree._Element]:
    return {
        w.get(XML_ID): w
        for w in document.iterfind(".//t:listWit/t:witness", NS)
        if w.findtext("t:note[@type='status']", namespaces=NS).startswith("reported")
    }


@pytest.mark.tier("build")
def test_the_reported_witnesses_are_in_listwit_and_attested_only_where_a_note_reports_them(dashe):
    document, table = dashe.document, reported_editions.editions()
    listed = reported_witnesses(document)
    assert {"shijing", "jianben", "aoben"} <= set(listed) <= set(table)
    for ident, witness in listed.items():
        status = witness.findtext("t:note[@type='status']", namespaces=NS)
        assert "四庫館臣" in status and "(WYG)" in status and "attested only" in status, status
        assert witness.get("n") == table[ident].names[0]
    attested = set()
    for app in document.iter(f"{{{tei.TEI_NS}}}app"):
        readings = app.xpath("t:lem | t:rdgGrp/t:lem | t:rdg | t:rdgGrp/t:rdg", namespaces=NS)
        for ident in listed:
            reading = [r for r in readings if f"#{ident}" in wits(r)]
            details = app.xpath(f"t:witDetail[@type='reported'][@wit='#{ident}']", namespaces=NS)
            assert len(reading) <= 1 and bool(reading) == bool(details), (app.get(XML_ID), ident)
            for detail in details:
                assert target(document, detail) is reading[0]
                [note] = document.xpath(f"//t:note[@xml:id='{detail.get('source')[1:]}']", namespaces=NS)
                assert note.get("type") == "textual" and note.get("resp") == detail.get("resp")
                assert any(name in text(note) for name in table[ident].names), "the note names the edition"
                attested.add(ident)
    assert attested == set(listed), "listWit holds the editions attested, and only those"
    [item] = document.xpath("//t:div[@type='fanli']/t:p[@n='reported']", namespaces=NS)
    named = regex.match(r"一、校語所稱(.+?)之讀", item.text).group(1).split("、")
    assert named == [witness.get("n") for witness in listed.values()], "the 凡例 names the editions listWit holds"
    assert "不據以改字" in item.text
    assert document.xpath("//t:editorialDecl/t:interpretation[@xml:id='decl-reported']", namespaces=NS)
    for name in ("witStart", "witEnd", "lacunaStart", "lacunaEnd"):
        assert not [m for m in document.iter(f"{{{tei.TEI_NS}}}{name}") if m.get("wit", "")[1:] in listed]
    assert validate.problems(document) == []


@pytest.mark.tier("build")
def test_every_note_that_cites_an_edition_is_attested_or_reported_with_the_reason(dashe):
    found = dashe.edited.found[reported_editions.NAME]
    names = reported_editions.Names(dashe.sources.normalizer(), reported_editions.editions())
    cited = {
        (id(note), edition)
        for passage in dashe.edited.found[textual_note.NAME].passages
        for note in passage.notes
        if note.confidence != "none" and note.author
        for formula in note.found
        for edition in names.cited(formula.source)
    }
    attested = {(id(r.note), r.edition) for r, _ in found.attested}
    left = {(id(note), edition) for note, _, edition, why in found.left}
    assert all(why for *_, why in found.left)
    assert cited == attested | left and not attested & left
    report = next(r for r in dashe.edited.reports if r.name == reported_editions.NAME)
    assert len(report.summary["left"]) == len(found.left)


@pytest.mark.tier("build")
def test_the_schematron_refuses_a_reported_witness_where_no_note_reports_it(dashe):
    document = deepcopy(dashe.document)
    lem = document.xpath("//t:app[not(t:witDetail[@type='reported'])]/t:lem[@wit]", namespaces=NS)[0]
    lem.set("wit", lem.get("wit") + " #shijing")
    messages = [p.message for p in validate.problems(document)]
    assert any(
        m.startswith("reported witness 石經") and "attested once in every app where a note" in m for m in messages
    )


def without_reported(document) -> etree._ElementTree:
    """The edition as it would be without the editions a 校语 reports."""
    document = deepcopy(document)
    listed = {f"#{ident}" for ident in reported_witnesses(document)}
    for witness in document.xpath("//t:listWit/t:witness", namespaces=NS):
        if f"#{witness.get(XML_ID)}" in listed:
            witness.getparent().remove(witness)
    for detail in document.xpath("//t:witDetail[@type='reported']", namespaces=NS):
        detail.getparent().remove(detail)
    for reading in document.xpath("//t:lem[@wit] | //t:rdg[@wit]", namespaces=NS):
        own = [w for w in wits(reading) if w not in listed]
        if own:
            reading.set("wit", " ".join(own))
        elif reading.tag == f"{{{tei.TEI_NS}}}rdg":
            reading.getparent().remove(reading)
        else:
            del reading.attrib["wit"]
    return document


def clauses(edition_xml) -> dict[tuple[str, str], str]:
    """Each statement of each entry as the conventions phrase it, with the series it is said in."""
    edition = render.read(edition_xml)
    entries = Conventions(edition.style).entries(edition)
    return {(app.id, c.text): c.series for app in edition.all_apps for c in entries[app.id].clauses}


@pytest.mark.tier("build")
def test_the_print_says_the_reported_readings_in_the_notes_words_alone(dashe, tmp_path):
    """The same words with the reported editions as without them; the note that reports an
    edition's reading is said with the readings (series A), one that reports none in series E."""
    with_them, without_them = tmp_path / "with.xml", tmp_path / "without.xml"
    dashe.document.write(str(with_them), encoding="utf-8")
    without_reported(dashe.document).write(str(without_them), encoding="utf-8")
    assert "石經作受" in printed_entries(with_them), "the 考證's words, quoted"
    said, unreported = clauses(with_them), clauses(without_them)
    assert said.keys() == unreported.keys()
    moved = {key for key in said if said[key] != unreported[key]}
    assert moved and {said[key] for key in moved} == {"A"} and {unreported[key] for key in moved} == {"E"}
    assert all("云：「" in text for _, text in moved), "the 校语, each by its author"
