"""The edited text punctuated (句讀): carried from a punctuated witness where one is extant, proposed
by the model of 句讀 elsewhere, every mark saying which, the 凡例 counting them, and the sentence
the citation unit."""

import json
import shutil

import pytest
import regex
from conftest import SOURCES
from lxml import etree, html

from edition.collation.punctuation_model import PROPOSED_RESP
from edition.publication.tei import TEI_NS
from edition.work.chapter_build import collate_only

NS = {"t": TEI_NS}

pytestmark = pytest.mark.tier("build")

XML = "{http://www.w3.org/XML/1998/namespace}"
APPARATUS_ONLY = ("rdg", "witDetail", "note")  # what is not the edited text


def edited_text(node, inside_notes: bool) -> str:
    """The edited text under `node`: the lemmata and the base's text, without the witnesses'
    readings and the notes (but the 注's own text where `inside_notes`)."""
    out = [node.text or ""]
    for child in node:
        name = etree.QName(child).localname
        is_commentary = name == "note" and child.get("type") == "commentary"
        if name not in APPARATUS_ONLY or (inside_notes and is_commentary):
            out.append(edited_text(child, inside_notes))
        out.append(child.tail or "")
    return "".join(out)


def density(document) -> tuple[float, float, list, list]:
    """Marks to a hundred characters in the 經 and in the 注, and the marks of each."""
    body = document.find(".//t:body", NS)
    notes = body.findall(".//t:note[@type='commentary']", NS)
    edited = "[not(ancestor::t:rdg)][not(ancestor::t:witDetail)]"
    classic_marks = body.xpath(f".//t:pc[not(ancestor::t:note)]{edited}", namespaces=NS)
    note_marks = body.xpath(f".//t:note[@type='commentary']//t:pc{edited}", namespaces=NS)
    classic_chars = len(regex.findall(r"\p{Han}", edited_text(body, False)))
    note_chars = sum(len(regex.findall(r"\p{Han}", edited_text(note, True))) for note in notes)
    return 100 * len(classic_marks) / classic_chars, 100 * len(note_marks) / note_chars, classic_marks, note_marks


def test_a_chapter_without_a_punctuated_witness_has_its_jing_and_zhu_punctuated_by_the_model(guanli_edition):
    document = guanli_edition.document
    classic, commentary, classic_marks, note_marks = density(document)
    assert classic >= 8 and commentary >= 5, (classic, commentary)
    assert {pc.get("resp") for pc in classic_marks + note_marks} == {f"#{PROPOSED_RESP}"}
    assert not any(pc.get("source") for pc in classic_marks + note_marks)
    declared = document.find(f".//t:respStmt[@{XML}id='{PROPOSED_RESP}']/t:resp", NS).text
    assert "KR1d0052" in declared and "F1" in declared
    fanli = "".join(document.find(".//t:editorialDecl/t:punctuation", NS).itertext())
    assert "句讀模型所擬" in fanli and "從其句讀" not in fanli  # no witness is carried from
    assert "處，皆為句讀模型所擬" in fanli and "其餘" not in fanli  # every mark is the model's


def test_the_sentence_is_the_citation_unit_where_the_model_punctuates(guanli_edition):
    body = guanli_edition.document.find(".//t:body", NS)
    sections = body.findall(".//t:div[@type='section']", NS)
    for section in sections:
        anchors = section.findall(".//t:anchor[@type='sentence']", NS)
        sentence_ends = lambda node: len(regex.findall(r"[。？！][」』]*(?=\P{P}|$)", edited_text(node, False)))
        ends = sentence_ends(section)
        # a unit begins after each sentence's end (a paragraph's first begins one too), but after
        # one inside an entry's lemma, which the entry holds whole (a lost leaf supplied)
        lemmata = section.xpath(".//t:app[not(ancestor::t:app)]/t:lem", namespaces=NS)
        outside = ends - sum(max(sentence_ends(lem) - 1, 0) for lem in lemmata)
        assert 0.8 * outside <= len(anchors) <= ends + len(section.findall("t:p", NS)) + 1, (
            section.get(f"{XML}id"),
            ends,
        )


def test_a_punctuated_witness_is_carried_where_extant_and_the_model_proposes_the_rest(built):
    document = etree.parse(str(built / "edition.xml"))
    classic, commentary, classic_marks, note_marks = density(document)
    assert classic >= 8 and commentary >= 5
    assert {pc.get("source") for pc in classic_marks} == {"#w001"}  # 001 has the whole 經
    by = {(pc.get("resp"), pc.get("source")) for pc in note_marks}
    assert by == {("#edition-auto", "#w002"), (f"#{PROPOSED_RESP}", None)}  # 002 has part of the 注
    fanli = "".join(document.find(".//t:editorialDecl/t:punctuation", NS).itertext())
    assert "從其句讀" in fanli and "句讀模型所擬" in fanli
    assert "；其餘" in fanli and "皆為句讀模型所擬" not in fanli  # the model's are the rest


DECIDED = """
[[decision]]
kind = "punctuation"
context = "鄉射之禮主人戒賓賓出[]迎再拜"
mark = "，"
resp = "ed"

[[decision]]
kind = "punctuation"
context = "主人荅再拜乃請[]賓禮辭許主人再拜"
mark = ""
reason = "乃請賓 is one clause"
resp = "ed"

[[decision]]
kind = "punctuation"
context = "賓荅再拜主人退[]賓送再拜無介"
mark = "。"
resp = "ed"
"""


def opening(out) -> str:
    body = etree.parse(str(out / "edition.xml")).find(".//t:body", NS)
    return edited_text(body, False)[:80]


def test_an_editors_punctuation_adds_removes_and_changes_marks_through_recollation(tmp_path):
    """001's 「…賓出迎，再拜。主人荅再拜，乃請。賓禮辭，許。主人再拜，賓荅再拜。主人退；賓送，再拜。」: the
    editor adds a mark after 賓出, takes away the one after 乃請 and makes the one after 主人退 a full
    stop, in a build and again after the collation changes (a witness forced out)."""
    sources = tmp_path / "sources"
    shutil.copytree(SOURCES, sources)
    collate_only(sources, tmp_path / "carried")
    assert "賔出迎，再拜。主人荅再拜，乃請。賔禮辭" in opening(tmp_path / "carried")  # the base writes 賔
    with (sources / "decisions.toml").open("a", encoding="utf-8") as handle:
        handle.write(DECIDED)
    collate_only(sources, tmp_path / "decided")
    with (sources / "decisions.toml").open("a", encoding="utf-8") as handle:
        handle.write('\n[[decision]]\nkind = "witness"\nwitness = "003"\ninclude = false\nreason = "t"\nresp = "ed"\n')
    collate_only(sources, tmp_path / "recollated")
    for out in ("decided", "recollated"):
        text = opening(tmp_path / out)
        assert "賔出，迎，再拜。" in text and "乃請賔禮辭" in text and "主人退。賔送" in text, text
        document = etree.parse(str(tmp_path / out / "edition.xml"))
        assert [pc.text for pc in document.iterfind(".//t:body//t:pc[@resp='#ed-ed']", NS)] == ["，", "。"]
        report = json.loads((tmp_path / out / "reports" / "decisions.json").read_text())["decisions"]
        assert all(d["applied_to"] and not d["stale"] for d in report if d["kind"] == "punctuation")


def test_the_site_sets_the_proposed_marks_apart_and_the_reader_can_switch_it(built):
    """In 鄉射禮 the 經's marks are 001's, the 注's 002's or the model's: only the model's are set apart."""
    page = html.parse(str(built / "site" / "index.html"))
    proposed = page.xpath("//span[@class='pc-proposed']")
    assert proposed and all(p.xpath("ancestor::span[@class='zhu']") for p in proposed)
    assert {p.text for p in proposed} <= set("，。、；：？！")
    (switch,) = page.xpath("//input[@id='proposed']")
    assert switch.get("checked") is not None  # set apart unless the reader says otherwise (?proposed=off)
