"""The per-witness TEI files and the intake report of a full build of the seed sources."""

import json

import pytest
from lxml import etree
from texts import text_of_body

from edition.publication import validate
from edition.publication.tei import TEI_NS

NS = {"t": TEI_NS}
SIGLA = ["000", "001", "002", "003", "004", "SBCK", "WYG"]
ELEMENT_OF_LAYER = {
    "commentary": "//t:body//t:note[@type='commentary']",
    "subcommentary": "//t:body//t:note[@type='subcommentary']",
    "phonetic": "//t:body//t:note[@type='phonetic']",
    "scholia": "//t:body//t:note[@type='scholia']",
    "kaozheng": "//t:body//t:note[@type='kaozheng']",
    "remark": "//t:body//t:note[@type='transcriber']",
    "translation": "//t:body//t:seg[@type='translation']",
    "other-chapter": "//t:body//t:seg[@type='other-chapter']",
    "intrusion": "//t:body//t:seg[@type='intrusion']",
    "label": "//t:body//t:label",
    "chrome": "//t:body//t:fw",
    "format": "//t:body//t:metamark",
}


@pytest.fixture(scope="module")
def report(built):
    return {w["siglum"]: w for w in json.loads((built / "reports" / "witnesses.json").read_text())["witnesses"]}


def document(built, siglum):
    return etree.parse(str(built / "witnesses" / f"{siglum}.xml"))


@pytest.mark.parametrize("siglum", SIGLA)
def test_witness_tei_is_valid_against_tei_all_and_the_project_schema(built, siglum):
    assert validate.problems(document(built, siglum)) == []


def test_project_schema_rejects_what_tei_all_allows(built):
    doc = document(built, "000")
    note = doc.find(".//t:body//t:note", NS)
    note.set("type", "gloss")
    g = doc.find(".//t:g", NS)
    g.set("ref", "#g-nowhere")
    found = validate.problems(doc)
    assert {p.schema for p in found} == {"edition.sch"}
    assert any("note/@type" in p.message for p in found) and any("g-nowhere" in p.message for p in found)


def mutations():
    """A document made invalid in ways tei_all forbids: an element TEI does not have, one TEI has
    where it may not stand, a required element removed, an attribute TEI does not define."""
    yield "unknown element", lambda d: d.find(".//t:body", NS).append(etree.Element(f"{{{TEI_NS}}}nosuch"))
    yield "misplaced element", lambda d: d.find(".//t:teiHeader", NS).append(etree.Element(f"{{{TEI_NS}}}app"))
    yield "required element removed", lambda d: d.find(".//t:fileDesc", NS).remove(d.find(".//t:titleStmt", NS))
    yield "unknown attribute", lambda d: d.find(".//t:body", NS).set("colour", "red")


def test_tei_all_held_to_a_documents_own_elements_judges_as_the_whole_of_it(built):
    """Each document is validated against tei_all with the patterns of elements it does not hold
    made notAllowed (milliseconds instead of seconds): the same judgement as the whole schema's,
    on the real documents and on each of them made invalid."""
    whole = validate.tei_all()
    for path in (built / "witnesses" / "000.xml", built / "edition.xml"):
        doc = etree.parse(str(path))
        assert validate.tei_all_for(doc).validate(doc) and whole.validate(doc)
        for name, mutate in mutations():
            changed = etree.ElementTree(etree.fromstring(etree.tostring(doc)))
            mutate(changed)
            assert not whole.validate(changed), name
            assert not validate.tei_all_for(changed).validate(changed), name


@pytest.mark.parametrize("siglum", SIGLA)
def test_the_transcription_loses_no_character(built, witnesses, siglum):
    raw = witnesses[siglum].raw
    assert text_of_body(document(built, siglum)) == raw.text.replace("\r", "").lstrip("\ufeff")


@pytest.mark.parametrize("siglum", SIGLA)
def test_layer_counts_in_the_report_match_the_tei(built, report, siglum):
    doc = document(built, siglum)
    layers = report[siglum]["layers"]
    for layer, xpath in ELEMENT_OF_LAYER.items():
        assert len(doc.xpath(xpath, namespaces=NS)) == layers[layer]["segments"], layer
        own = (
            ".//text()[not(parent::t:metamark)]" if layer != "format" else ".//text()"
        )  # a column break inside a note is format
        characters = sum(len("".join(e.xpath(own, namespaces=NS))) for e in doc.xpath(xpath, namespaces=NS))
        assert characters == layers[layer]["characters"], layer


def test_gaps_and_gaiji_in_tei_and_report(built, report):
    doc = document(built, "002")
    assert len(doc.xpath("//t:body//t:gap", namespaces=NS)) == len(report["002"]["lacunae"])
    ids = {c.get("{http://www.w3.org/XML/1998/namespace}id") for c in doc.iterfind(".//t:charDecl/t:char", NS)}
    assert {g["id"] for g in report["002"]["gaiji"]} == ids
    doc000 = document(built, "000")
    mapping = doc000.xpath("//t:char[@xml:id='g-EB8E']/t:mapping[@type='standard']/text()", namespaces=NS)
    assert mapping == ["弦"]
    assert {g["mapping"] for g in report["000"]["gaiji"]} == {"弦", "袒"}


def test_report_content(built, report):
    assert [i["text"].strip() for i in report["001"]["intrusions"]][:2] == ["摧", "蜂蜜英语"]
    assert report["001"]["extent"]["incipit"].startswith("乡射之礼")
    assert report["002"]["extent"]["explicit"].endswith("大夫射则肉袒")
    assert report["000"]["conversions"]["variant"][0] == {
        "from": "賔",
        "to": "宾",
        "count": 87,
        "folded_by": "Unihan kSemanticVariant (kMatthews); Unihan kDefinition and kRSUnicode "
        "(the same radical and definition: guest, visitor; surname; submit)",
    }
    summary = (built / "reports" / "witnesses.md").read_text()
    for siglum in SIGLA:
        assert f"## {siglum} " in summary
    assert "蜂蜜英语" in summary
