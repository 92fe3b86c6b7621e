"""The collated 注 in the edition: in the TEI each note of SBCK's 注 after the 經 passage it
comments on, with its own apparatus; in the HTML under its passage with its entries; in the PDF in
small type with its notes in series D. Readings found by hand in the raw files (see
test_commentary)."""

import copy
import json
import re
import subprocess
import unicodedata

import pytest
import regex
from conftest import SOURCES
from lxml import etree
from stripped import COMMENTARY, without

from edition.collation import decision_file
from edition.publication import tei, validate
from edition.publication.conventions import Conventions
from edition.publication.render import read
from edition.work.chapter_build import edit
from edition.work.sources import decisions_path

NS = {"t": tei.TEI_NS}
XML_ID = "{http://www.w3.org/XML/1998/namespace}id"
IN_TEXT = "not(ancestor::t:note or ancestor::t:rdg or ancestor::t:head)"


@pytest.fixture(scope="module")
def doc(built):
    return etree.parse(str(built / "edition.xml"))


def note_with(doc, words: str):
    """The note of the 注 whose edited text holds `words` (SBCK's characters)."""
    edited = lambda note: regex.sub(r"\p{P}", "", "".join(note.xpath(".//text()[not(ancestor::t:rdg)]", namespaces=NS)))
    notes = [n for n in doc.xpath("//t:body//t:note[@type='commentary']", namespaces=NS) if words in edited(n)]
    assert len(notes) == 1, words
    return notes[0]


def passage(doc, note) -> str:
    """The edited 經 between the anchor the note points at and the note, without the 注 and the readings."""
    texts = doc.xpath(
        f"//t:body//text()[{IN_TEXT}][preceding::t:anchor[@xml:id=$start]][following::t:note[@xml:id=$note]]",
        namespaces=NS,
        start=note.get("target")[1:],
        note=note.get(XML_ID),
    )
    return "".join(texts)


def app_in(note, lemma: str):
    return next(a for a in note.iterfind(".//t:app", NS) if "".join(a.find(".//t:lem", NS).itertext()) == lemma)


def test_each_note_of_the_commentary_stands_after_its_passage(doc):
    notes = doc.xpath("//t:body//t:note[@type='commentary']", namespaces=NS)
    assert len(notes) > 300 and all(n.get("resp") == "#zheng-xuan" for n in notes)
    # KR1d0026 line 347: 肅愼氏貢楛矢 in the note after 上握焉; KR1d0028 line 813 reads 枯
    note = note_with(doc, "肅愼氏貢")
    assert re.sub(r"\W", "", passage(doc, note)).endswith("大夫之矢則兼束之以茅上握焉")
    app = app_in(note, "楛")
    reading = app.find("t:rdg[@wit='#wWYG']", NS)
    assert reading.text == "枯" and reading.get("subtype") == "substitution"
    # line 356: 起由中東就左獲 after 興自前適左東面; KR1d0028 line 835 起由中西
    note = note_with(doc, "起由中")
    assert re.sub(r"\W", "", passage(doc, note)) == "興自前適左東面"
    assert app_in(note, "東").find("t:rdg[@wit='#wWYG']", NS).text == "西"
    # SBCK line 634 唯比二事, 002 line 542 唯此二事, WYG line 1495 惟此二事
    note = note_with(doc, "比二事")
    assert re.sub(r"\W", "", passage(doc, note)).endswith("與獻釋獲者釋弓矢")
    app = app_in(note, "唯比")
    assert {r.get("wit"): r.text for r in app.iterfind(".//t:rdg", NS)} == {"#w002": "唯此", "#wWYG": "惟此"}


def test_the_commentary_apparatus_has_the_witnesses_extents(doc):
    """WYG carries the whole 注, 002 from 徹俎 on; 000 and 003 quote it in part, and where they
    do not quote it they are not extant; 001 carries none."""
    zhu = "//t:body//t:note[@type='commentary']"
    for siglum in ("WYG", "002", "000", "003"):
        assert doc.xpath(f"{zhu}//t:rdg[contains(@wit, '#w{siglum}')]", namespaces=NS), siglum
    assert not doc.xpath(f"{zhu}//*[contains(@wit, '#w001')]", namespaces=NS)
    assert doc.xpath(f"{zhu}//t:witStart[@wit='#w002']", namespaces=NS) and not doc.xpath(
        f"{zhu}//t:witStart[@wit='#wWYG']", namespaces=NS
    )
    assert len(doc.xpath(f"{zhu}//t:lacunaStart[@wit='#w003']", namespaces=NS)) > 10
    witnesses = {w.get("n"): w for w in doc.iterfind(".//t:listWit/t:witness", NS)}
    abridged = {
        n for n, w in witnesses.items() if w.find("t:note[@type='abridged'][@subtype='commentary']", NS) is not None
    }
    assert abridged == {"000", "003"}
    extents = {
        n for n, w in witnesses.items() if w.find("t:note[@type='extent'][@subtype='commentary']", NS) is not None
    }
    assert extents == {"SBCK", "WYG", "000", "002", "003"}
    decl = doc.find(".//t:editorialDecl", NS)
    said = "".join(decl.xpath("t:interpretation[@xml:id='decl-commentary_abridged']/t:p/text()", namespaces=NS))
    assert "禮書綱目" in said and "五禮通考" in said and "注疏網絡本" not in said


def test_the_schema_checks_each_apparatus_with_its_own_extents(doc):
    assert validate.problems(doc) == []
    broken = copy.deepcopy(doc)
    reading = broken.xpath("//t:note[@type='commentary']//t:rdg[@wit='#wWYG']", namespaces=NS)[0]
    reading.getparent().remove(reading)
    assert [
        p.message
        for p in validate.problems(broken)
        if "witness WYG (" in p.message and "注" in p.message and "wWYG" not in p.message and " (at " in p.message
    ]
    outside = copy.deepcopy(doc)
    app = outside.xpath("//t:note[@type='commentary']//t:app[not(.//@wit[contains(., '#w003')])]", namespaces=NS)[0]
    lem = app.find(".//t:lem", NS)
    lem.set("wit", lem.get("wit") + " #w003")  # where 003 does not quote
    assert [
        p.message
        for p in validate.problems(outside)
        if "witness 003 (" in p.message and "注" in p.message and " (at " in p.message
    ]


def test_the_classic_text_and_its_apparatus_are_unchanged_by_the_commentary(sources, witnesses, doc):
    """The edition written with the 注 is, without its notes and the anchors they point at, the
    edition written without it: the same 經, apps, ids and sentence citations (the leaves aside: a
    break inside a note stands in the 經 where there is none)."""
    choices = decision_file.load(decisions_path(SOURCES))
    edited = edit(sources, list(witnesses.values()), choices)
    apparatus, found, commentary = edited.apparatus, edited.sections, edited.commentary
    alone = tei.edition_document(sources, apparatus, found, choices.editors, edited.paragraphs)
    stripped = without(doc, f"{COMMENTARY} | //t:body//t:anchor[not(@type)] | //t:body//t:pb[@ed]")
    alone = without(alone, "//t:body//t:pb[@ed]")
    assert etree.tostring(stripped.find(".//t:body", NS)) == etree.tostring(alone.find(".//t:body", NS))
    classic_apps = doc.xpath("//t:body//t:app[not(ancestor::t:note[@type='commentary'])]", namespaces=NS)
    assert len(classic_apps) == len(apparatus.all_units())
    assert len(doc.xpath("//t:note[@type='commentary']//t:app", namespaces=NS)) == len(commentary.apparatus.all_units())


def test_the_reading_view_shows_the_commentary_under_its_passage(built):
    edition = read(built / "edition.xml")
    html = (built / "site" / "index.html").read_text(encoding="utf-8")
    gloss = next(g for g in edition.glosses if "肅愼氏貢" in g.text)
    start = html.index(f'<span class="zhu" id="{gloss.id}">')
    assert re.sub(r"<[^>]+>", "", html[:start]).endswith("上握焉。"), "the 注 right after its passage"
    shown = html[start : html.index('<a class="cite"', start)]
    app = next(a for a in gloss.apps if a.lemma.text == "楛")
    assert f'data-app="{app.id}"' in shown and ">楛</button>" in shown
    entry = re.search(rf'<li id="{app.id}".*?</li>', html).group(0)
    assert "注：" in entry and "楛" in entry and "四庫本" in entry and "枯" in entry
    section = html[start : html.index("</section>", start)]
    assert section.index('class="commentary-apparatus"') < section.index(f'<li id="{app.id}"'), (
        "in the 注's apparatus of its section"
    )
    assert "五禮通考</span>自此闕" not in html, "no entry where 003 leaves off quoting"
    script = (built / "site" / "search-data.js").read_text(encoding="utf-8")  # (window.EDITION_SEARCH = …).push({…});
    data = json.loads(script[script.index(".push(") + len(".push(") : script.rindex(");")])
    hits = [e for e in data["entries"] if e["k"] == "note" and "肅愼氏貢楛矢" in unmarked(e["t"])]
    assert hits and hits[0]["h"] == f"index.html?commentary=on#{gloss.id}"


def unmarked(text: str) -> str:
    """A text without its punctuation (the model's marks fall where it finds them)."""
    return "".join(c for c in text if not unicodedata.category(c).startswith("P"))


@pytest.mark.tier("typeset")
def test_the_pdf_prints_the_commentary_after_its_passage_with_its_apparatus(built):
    text = subprocess.run(
        ["pdftotext", "-raw", str(built / "edition.pdf"), "-"], capture_output=True, text=True, check=True
    ).stdout
    flat = re.sub(r"\s+", "", text)
    unpunctuated = re.sub(r"[，。、；：？！]", "", flat)  # the 注's punctuation is the model's here
    assert "上握焉兼束大夫矢優之" in unpunctuated, "the 注 right after its passage"
    assert "注：楛，四庫本作枯。" in flat and "注：東¹，四庫本作西。" in flat
    assert "注：唯比，注疏網絡本作唯此；唯比，四庫本作惟此。" in flat
    assert "五禮通考自此闕" not in flat
    numbers = re.findall(r"〔注(\d+)〕", flat)
    assert len(numbers) == len(set(numbers)) > 140  # 000's regrouped clauses are counted, not noted
    edition = read(built / "edition.xml")
    entries = Conventions(edition.style).entries(edition)
    assert edition.glosses, "the 注's notes, which the PDF sets in small type"
    on_the_commentary = [c for app in edition.commentary_apps for c in entries[app.id].clauses]
    assert on_the_commentary and {c.series for c in on_the_commentary} == {"D"}, "their entries in series D"
