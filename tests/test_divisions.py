"""The text's structure in the edition: the 記 as a division of its own with its heading, and
paragraphs that follow the ritual's steps as 賈公彥's 疏 divides them."""

import re

import pytest
from lxml import etree

from edition.collation.headings import divisions
from edition.publication import render
from edition.publication.model import Paragraph
from edition.publication.tei import TEI_NS

NS = {"t": TEI_NS}
XML_ID = "{http://www.w3.org/XML/1998/namespace}id"


@pytest.fixture(scope="module")
def tei(built):
    return etree.parse(str(built / "edition.xml"))


def plain(node) -> str:
    """The edited text under `node`: no readings, notes or quotations, no punctuation."""
    copy = etree.fromstring(etree.tostring(node))
    etree.strip_elements(
        copy, *(f"{{{TEI_NS}}}{name}" for name in ("rdg", "note", "witDetail", "head")), with_tail=False
    )
    return re.sub(r"[^\w]", "", "".join(copy.itertext()))


def test_the_ji_is_a_division_with_its_heading(tei, witnesses):
    (division,) = tei.xpath("//t:body/t:div[@type='division']", namespaces=NS)
    assert division.findtext("t:head[@type='division']", namespaces=NS) == "記"
    sections = division.findall("t:div[@type='section']", NS)
    assert plain(sections[0]).startswith("大夫與則公士爲賔"), "the 記 begins at 記大夫與 in SBCK"
    before = tei.xpath("//t:body/t:div[@type='section']", namespaces=NS)
    assert before and plain(before[-1]).endswith("鄕樂唯欲"), "the 經 ends before it"
    assert len(before) + len(sections) == len(tei.xpath("//t:div[@type='section']", namespaces=NS))
    (found,) = divisions(witnesses["SBCK"], ("記",))
    assert witnesses["SBCK"].classic.tokens[found.t0].source(witnesses["SBCK"].raw) == "記"
    assert not tei.xpath("//t:app[t:lem = '記']", namespaces=NS), (
        "the heading is not collated: 001 and 002 give it as a heading of their own"
    )


def test_a_heading_word_opens_a_division_only_where_a_passage_begins_with_it(witnesses):
    sbck = witnesses["SBCK"]
    text = "".join(t.source(sbck.raw) for t in sbck.classic.tokens)
    assert "主人戒賔" in text and divisions(sbck, ("主人戒賔",)) == [], "inside the first passage, after 鄕射之禮"
    assert [d.t0 for d in divisions(sbck, ("鄕射之禮",))] == [0]


def test_paragraphs_follow_the_steps_of_the_rite(tei, built):
    """A step the 疏 names inside a section of 禮書綱目's begins a paragraph named by it; one where
    no label names the text is a section of its own, titled by it."""
    paragraphs = tei.xpath("//t:div[@type='section']/t:p[@n]", namespaces=NS)
    names = {p.get("n"): p for p in paragraphs}
    steps = tei.xpath("//t:div[@type='section'][t:head/@type='step']", namespaces=NS)
    names |= {div.findtext("t:head", namespaces=NS): div for div in steps}
    assert len(names) >= 25 and all(p.get("corresp") == "#wWYG" for p in paragraphs)
    assert all(div.find("t:head", NS).get("source") == "#wWYG" for div in steps)
    assert names["作樂"].getparent().findtext("t:head", namespaces=NS) == "樂賔"
    assert plain(names["主人獻賓"]).startswith("主人坐取爵于上篚以降")
    assert plain(names["旅酬"]).startswith("揖讓升賔厭衆賔升")
    assert plain(names["州長將射先戒賓"]).startswith("鄕射之禮主人戒賔")
    sections = tei.xpath("//t:div[@type='section']", namespaces=NS)
    assert sum(len(s.findall("t:p", NS)) for s in sections) > len(sections), "more paragraphs than sections"
    html = (built / "site" / "index.html").read_text(encoding="utf-8")
    assert 'class="step-name"' in html and html.count('<p class="text"') == sum(
        len(s.findall("t:p", NS)) for s in sections
    )
    rendered = render.read(built / "edition.xml")
    opened = [i for s in rendered.sections for i in s.items if isinstance(i, Paragraph) and not i.first]
    assert len(opened) == sum(len(s.findall("t:p", NS)) - 1 for s in sections), (
        "a paragraph of the PDF for each (pdf.paragraph opens one at each but the section's first)"
    )
