"""Sections and citation units: the steps of the rite the 疏 names (WYG's and the 單疏本's), the
passages grouped where it names none, a witness's labels in the base's script, and citation units
that follow Zheng's notes where no punctuation is carried. Checked on 士冠禮, 喪服 and 鄉射禮, and
as invariants of the grouping."""

import statistics
from types import SimpleNamespace

import pytest
import regex
from hypothesis import given
from hypothesis import strategies as st
from lxml import etree

from edition.collation.model import Step
from edition.collation.sections import (
    LONG_PASSAGE,
    LONGEST,
    LONGEST_STEP,
    SHORTEST,
    Piece,
    between_units,
    divided,
    grouped,
    joined_short,
    unit_starts,
)
from edition.intake.variants import in_traditional, simplified_only
from edition.publication.tei import TEI_NS

NS = {"t": TEI_NS}
SKIPPED = {f"{{{TEI_NS}}}{name}" for name in ("rdg", "note", "witDetail", "head", "rdgGrp")}


def unit_lengths(document) -> dict[str, int]:
    """Citation -> the Han characters of the edited 經 in its unit (no readings, notes or heads)."""
    lengths: dict[str, int] = {}
    current: list[str | None] = [None]

    def count(text: str | None) -> None:
        if current[0] is not None:
            lengths[current[0]] += len(regex.findall(r"\p{Han}", text or ""))

    def visit(node) -> None:
        if node.tag in SKIPPED:
            return
        if node.tag == f"{{{TEI_NS}}}anchor" and node.get("type") == "sentence":
            current[0] = node.get("n")
            lengths[current[0]] = 0
        count(node.text)
        for child in node:
            visit(child)
            count(child.tail)

    visit(document.getroot().find(".//t:body", NS))
    return lengths


def sections_of(document) -> list[etree._Element]:
    return document.getroot().findall(".//t:body//t:div[@type='section']", NS)


def title(section) -> str:
    return section.findtext("t:head", namespaces=NS)


def test_guanli_is_divided_by_the_steps_its_shu_names(guanli_edition):
    """士冠禮: WYG's 疏 and the 單疏本 name the same five steps (自此至宗人告事畢一節論將行冠禮先筮諏日
    之事, with 一節 before 論); the chapter's title 士冠禮 joins the first; the 經 after 賔升則東面,
    where the 疏 names no step, is grouped by passages."""
    found = guanli_edition.edited.found["steps"].steps
    first = next(s for s in found if s.title == "將行冠禮先筮諏日")
    assert (first.source, first.agreeing) == ("WYG", ("SHU",))
    divs = sections_of(guanli_edition.document)
    steps = [d for d in divs if d.find("t:head", NS).get("type") == "step"]
    # WYG writes 使来觀禮: a title is in the base's traditional script
    assert [title(d) for d in steps][:3] == ["將行冠禮先筮諏日", "主人筮日訖三日之前廣戒僚友使來觀禮", "筮賓若贊冠者"]
    assert all(d.find("t:head", NS).get("source") == "#wWYG" for d in steps)
    sections = guanli_edition.edited.sections
    assert sections[0].t0 == 0 and sections[0].title == "將行冠禮先筮諏日"
    base = guanli_edition.edited.apparatus.base
    assert base.classic.text[sections[4].t1 - 5 : sections[4].t1] == "宾升则东面"  # 賔升則東面, compared
    # grouped: at most LONGEST tokens but where a lost leaf's entry, never cut, runs on (710–1048)
    assert len(sections) >= 10 and all(s.t1 - s.t0 <= 1.5 * LONGEST for s in sections[5:])


def test_guanli_cites_passage_by_passage(guanli_edition):
    """No punctuation is carried to 士冠禮: a unit is the 經 from one of Zheng's notes to the next."""
    lengths = unit_lengths(guanli_edition.document)
    assert statistics.median(lengths.values()) <= 60 and max(lengths.values()) <= 300
    notes = guanli_edition.document.getroot().findall(".//t:body//t:note[@type='commentary']", NS)
    assert len(lengths) >= len(notes) - 5  # lost leaves hold notes inside their entry


def test_sangfu_is_divided_by_its_zhang_and_grouped_by_passages(sangfu):
    """Each 章 of 喪服 opens with its grade's garment, a passage of the 經 ending in 者; the 疏 names
    five of them (釋曰此齊衰三年章…), whose names are their titles, the passage the others': a
    section begins with each of the eleven 章; the rest is grouped into sections of passages,
    none of thousands of characters, none opening with a 傳 cut off from its 經, cited passage by
    passage."""
    sections = sangfu.edited.sections
    assert len(sections) >= 11 and max(s.t1 - s.t0 for s in sections) < 1000
    zhang = [s.title for s in sections if s.kind == "step" and (s.title.endswith("章") or s.title.endswith("者"))]
    assert zhang == [
        "齊衰三年章",
        "䟽衰裳齊牡麻絰冠布纓削杖布帶䟽屨期者",  # 杖期
        "不杖麻屨者",
        "齊衰三月章",
        "大功布衰裳牡麻絰無受者",  # 殤大功
        "成人大功章",
        "繐衰裳牡麻絰旣葬除之者",
        "殤小功章",
        "小功成人章",
        "緦麻三月者",
    ]
    base = sangfu.edited.apparatus.base
    openings = [
        base.classic.tokens[s.t0].source(base.raw) + base.classic.tokens[s.t0 + 1].source(base.raw) for s in sections
    ]
    assert "傳曰" not in openings
    lengths = unit_lengths(sangfu.document)
    assert statistics.median(lengths.values()) <= 60 and max(lengths.values()) <= 300


@pytest.mark.tier("build")
def test_xiangshe_labels_are_in_the_base_script_and_steps_name_the_rest(built):
    """鄉射禮: 禮書綱目 (000) writes 献大夫, 五禮通考 (003) 彻俎 (both of mixed script); the edition
    prints their labels in the base's traditional script, as theirs; the stretches no label names
    are the 疏's steps."""
    document = etree.parse(str(built / "edition.xml"))
    heads = document.getroot().findall(".//t:body//t:div[@type='section']/t:head", NS)
    labels = [h for h in heads if h.get("type") == "label"]
    assert {"獻大夫", "徹俎", "記射位"} <= {h.text for h in labels}
    assert {h.get("source") for h in labels} == {"#w000", "#w003"}
    assert not [h.text for h in heads if any(map(simplified_only, h.text))]
    assert "州長將射先戒賓" in [h.text for h in heads if h.get("type") == "step"]


@given(st.lists(st.integers(1, 2999), max_size=60), st.integers(1, 3000))
def test_grouping_covers_the_stretch_and_cuts_where_it_may(boundaries, length):
    """Grouped pieces follow one another over the stretch, cut only at boundaries; a piece longer
    than LONGEST had no boundary to cut it at."""
    inside = sorted(set(b for b in boundaries if b < length))
    pieces = grouped(0, length, inside, set(inside[::2]))
    assert pieces[0].t0 == 0 and pieces[-1].t1 == length
    assert all(a.t1 == b.t0 for a, b in zip(pieces, pieces[1:]))
    assert all(p.t1 in inside or p.t1 == length for p in pieces)
    for p in pieces:
        if p.t1 - p.t0 > LONGEST:
            assert not [b for b in inside if p.t0 + SHORTEST <= b <= p.t0 + LONGEST]


@given(st.sets(st.integers(0, 200)), st.lists(st.integers(0, 200), unique=True, max_size=16))
def test_no_passage_boundary_stands_inside_an_entry(boundaries, edges):
    """A passage boundary inside an entry is dropped, unless the entry ends where a passage does
    (where `snapped` moves it): 問喪 of the 禮記, a note of the leaf the base has lost, supplied
    from the 注疏, made a section begin where the base resumes, inside the sentence
    故曰喪禮唯哀爲主矣. Every boundary outside the entries is kept."""
    edges = sorted(edges)
    units = [SimpleNamespace(t0=t0, t1=t1) for t0, t1 in zip(edges[::2], edges[1::2])]  # entries do not overlap
    kept = between_units(boundaries, units)
    ends = {u.t1 for u in units if u.t1 in boundaries}
    assert not [b for b in kept for u in units if u.t0 < b < u.t1 and u.t1 not in ends]
    assert {b for b in boundaries if not any(u.t0 < b < u.t1 for u in units)} <= set(kept)


@given(st.lists(st.integers(1, 40), min_size=1, max_size=30))
def test_short_pieces_join_a_neighbour(lengths):
    """A piece shorter than SHORTEST joins a neighbour that is no label; a label's piece keeps its
    ends (where its witness begins); nothing is lost."""
    edges = [0]
    for n in lengths:
        edges.append(edges[-1] + n)
    kinds = ["label" if n % 7 == 0 else "incipit" for n in lengths]
    given = [Piece(a, b, kind=kind) for a, b, kind in zip(edges, edges[1:], kinds)]
    pieces = joined_short(list(given))
    assert pieces[0].t0 == 0 and pieces[-1].t1 == edges[-1]
    assert all(a.t1 == b.t0 for a, b in zip(pieces, pieces[1:]))
    assert [(p.t0, p.t1) for p in pieces if p.kind == "label"] == [(p.t0, p.t1) for p in given if p.kind == "label"]
    for k, p in enumerate(pieces):  # a short piece stands only between labels (or alone)
        if p.kind != "label" and p.t1 - p.t0 < SHORTEST:
            neighbours = pieces[max(k - 1, 0) : k] + pieces[k + 1 : k + 2]
            assert all(n.kind == "label" for n in neighbours), pieces


@given(st.lists(st.integers(1, 999), max_size=40), st.lists(st.integers(1, 999), max_size=40))
def test_units_begin_after_notes_and_at_lemmata_of_long_passages(notes, lemmata):
    piece = Piece(0, 1000)
    notes, lemmata = sorted(set(notes)), sorted(set(lemmata))
    starts = unit_starts(piece, notes, lemmata)
    assert set(notes) <= set(starts) <= set(notes) | set(lemmata)
    edges = [0, *starts, 1000]
    for a, b in zip(edges, edges[1:]):
        assert b - a <= LONG_PASSAGE or not [g for g in lemmata if a < g < b]


def test_steps_inside_a_step_are_sections_and_a_step_to_the_end_is_grouped():
    """聘禮's 疏 names 賔齎聘君之幣問主國卿 and, inside it, 賓行私面於卿 and more: each is a section, the
    outer step's own beginning titled by it, its rest after the inner ones by its first words. A
    step to the chapter's end (自此盡篇末) is grouped by passages, its first group titled by it."""
    outer, inner = Step("問卿", 0, 200, "WYG", 1), Step("私面", 60, 120, "WYG", 2)
    last = Step("篇末", 200, 200 + 3 * LONGEST_STEP, "SHU", 3)
    boundaries = list(range(10, 200 + 3 * LONGEST_STEP, 40))
    pieces = divided(0, 200 + 3 * LONGEST_STEP, [inner, last, outer], boundaries, set(), [])
    assert [(p.t0, p.t1, p.title, p.kind) for p in pieces[:3]] == [
        (0, 60, "問卿", "step"),
        (60, 120, "私面", "step"),
        (120, 200, "", "incipit"),
    ]
    assert (pieces[3].title, pieces[3].source) == ("篇末", "SHU") and len(pieces) > 5
    assert all(p.t1 - p.t0 <= LONGEST for p in pieces[3:])


def test_titles_take_the_traditional_script_without_changing_its_characters():
    """A title from a traditional source changes only what traditional script does not write (来,
    将, 别); 尸, 于, 云 and 并 are its own characters too. From a simplified or mixed one, all of it."""
    assert in_traditional("迎尸入九飯") == "迎尸入九飯" and in_traditional("主人還贄于賓") == "主人還贄于賓"
    assert in_traditional("賓與上介将行告禰") == "賓與上介將行告禰"
    assert in_traditional("布襲衣裳并飯含") == "布襲衣裳并飯含"
    assert in_traditional("坐燕射后饮酒礼竟", mixed=True) == "坐燕射後飲酒禮竟"
    assert in_traditional("献大夫") == "獻大夫"


def test_a_step_whose_last_words_leave_out_a_word_ends_where_the_text_reads_them(guanli_edition):
    """WYG's 疏 (卷一 line 484): 自此以下至外門外論賓主兄弟等著服及位處也, where the 經 reads 立于外門之外:
    the step ends there, and the next begins with 擯者告."""
    sections = guanli_edition.edited.sections
    [step] = [s for s in sections if s.title == "賓主兄弟等著服及位處"]
    base = guanli_edition.edited.apparatus.base
    words = lambda t0, t1: "".join(t.source(base.raw) for t in base.classic.tokens[t0:t1])
    assert words(step.t1 - 4, step.t1) == "外門之外" and words(step.t1, step.t1 + 3) == "擯者告"


def test_the_fanli_says_how_the_chapter_is_divided_and_cited(guanli_edition):
    """士冠禮's 凡例: its sections are the steps its 疏 names in WYG and passages grouped elsewhere; its
    units are sentences, the model of 句讀 punctuating the unpunctuated base."""
    (item,) = guanli_edition.document.getroot().xpath("//t:div[@type='fanli']/t:p[@n='citation']", namespaces=NS)
    assert len(sections_of(guanli_edition.document)) == 14
    assert item.text.startswith("一、本篇分為十四節；四庫本疏「自此至某論某之事」所標之節，據以分節，節題取疏語")
    assert "疏未標節次處" in item.text and "「士冠禮第一 3.2」即第三節第二句" in item.text
    assert "以鄭注所隔經文一段為一句" not in item.text  # no unit is a passage


def test_each_chapter_of_a_work_is_citable_by_step_and_passage(work_sample):
    """士相見禮 and 覲禮 built as a work: five sections at least, the 疏's steps among them, every
    title in traditional script, and units a reader can find (median 60 characters at most, none
    over 300)."""
    _, out, built = work_sample
    for folder in built:
        document = etree.parse(str(out / "chapters" / folder / "edition.xml"))
        heads = [title(div) for div in sections_of(document)]
        kinds = {div.find("t:head", NS).get("type") for div in sections_of(document)}
        assert len(heads) >= 5 and "step" in kinds, folder
        assert not [h for h in heads if any(map(simplified_only, h))], folder
        lengths = unit_lengths(document)
        assert statistics.median(lengths.values()) <= 60 and max(lengths.values()) <= 300, folder


def test_every_sentence_resolves_through_the_citation_scheme_the_tei_declares(guanli_edition):
    """The TEI declares how it is cited (refsDecl/citeStructure): section by @n, sentence by what
    follows the section's number in its @n. Followed as declared, each citation of 士冠禮 (1.3)
    leads to exactly its sentence."""
    doc = guanli_edition.document
    (section,) = doc.xpath("//t:refsDecl/t:citeStructure[@unit='section']", namespaces=NS)
    (sentence,) = section.xpath("t:citeStructure[@unit='sentence']", namespaces=NS)
    in_tei = lambda path: regex.sub(r"(?<=/)(\w+)", r"t:\1", path)  # its paths name TEI's elements unprefixed
    anchors = doc.xpath("//t:body//t:anchor[@type='sentence']", namespaces=NS)
    assert len(anchors) > 50
    for anchor in anchors:
        number, _, within = anchor.get("n").partition(sentence.get("delim"))
        found = [
            d
            for d in doc.xpath(in_tei(section.get("match")), namespaces=NS)
            if d.xpath(f"string({section.get('use')})") == number
        ]
        assert len(found) == 1, anchor.get("n")
        cited = [
            a
            for a in found[0].xpath(in_tei(sentence.get("match")), namespaces=NS)
            if a.xpath(f"string({sentence.get('use')})") == within
        ]
        assert cited == [anchor], anchor.get("n")


def test_every_sentence_and_section_urn_resolves_through_the_tei(guanli_edition):
    """Each sentence's URN, the edition's (publicationStmt/idno) with the section's delimiter and
    the citation (urn:cts:chineseLit:yili:1.1.3), leads through the TEI's listPrefixDef to exactly
    that sentence, and a section's to its div."""
    doc = guanli_edition.document
    (urn,) = doc.xpath("//t:publicationStmt/t:idno[@type='URN']/text()", namespaces=NS)
    assert urn == "urn:cts:chineseLit:yili:1"
    (delim,) = doc.xpath("//t:refsDecl/t:citeStructure[@unit='section']/@delim", namespaces=NS)
    prefixes = doc.xpath("//t:listPrefixDef/t:prefixDef[@ident='urn']", namespaces=NS)

    def resolved(cited: str) -> list:
        scheme, _, rest = cited.partition(":")
        for p in prefixes:
            if scheme == p.get("ident") and (m := regex.fullmatch(p.get("matchPattern"), rest)):
                pointer = m.expand(p.get("replacementPattern").replace("$", "\\"))
                path = regex.fullmatch(r"#xpath\((.*)\)", pointer)
                if path:
                    return doc.xpath(regex.sub(r"(?<=/)(\w+)", r"t:\1", path[1]), namespaces=NS)
                return doc.xpath("//*[@xml:id=$id]", namespaces=NS, id=pointer[1:])
        return []

    anchors = doc.xpath("//t:body//t:anchor[@type='sentence']", namespaces=NS)
    for anchor in anchors:
        assert resolved(f"{urn}{delim}{anchor.get('n')}") == [anchor], anchor.get("n")
    for div in doc.xpath("//t:body//t:div[@type='section']", namespaces=NS):
        assert resolved(f"{urn}{delim}{div.get('n')}") == [div], div.get("n")
    assert resolved(f"{urn}{delim}999.1") == [] and resolved("urn:cts:chineseLit:liji:1.1.1") == []
