"""What a page of the edition prints (issue 22): no stand-in's code (a Kanripo entity) but the
character it stands for, its composition in 〔〕 or 〓; no English word of a diagnostic in a
Chinese edition; every word the edition writes in its script (traditional)."""

import json
import subprocess
from pathlib import Path

import opencc
import pytest
import regex
from conftest import WORK
from lxml import etree
from markupsafe import Markup

from edition.errors import EditionError
from edition.intake.gaiji import GaijiTable
from edition.intake.model import WitnessMeta
from edition.intake.variants import VariantForms, in_script, simplified_only
from edition.publication import render
from edition.publication.chapter_site import printed_stand_ins
from edition.publication.conventions import Conventions
from edition.publication.tei import TEI_NS, char_decl, el, in_edition_script, mark_stand_ins
from edition.settings import load_persons

NS = {"t": TEI_NS}
CODE = regex.compile(r"&KR\d+;|Kanripo entity")
# Latin words a Chinese page may print: names of witnesses (sigla), of tables and tools, and of the
# TEI; Kanripo's text numbers (KR1d0026) and gaiji codes (KR0029) in their names; page numbers.
NAMES = {"TEI", "Unihan", "OpenCC", "Kanripo", "Unicode", "edition", "URN"}
URN = regex.compile(r"urn:[A-Za-z0-9-]+:\S+")  # the edition's identifiers, a code the print gives
LATIN_WORD = regex.compile(r"(?<![A-Za-z0-9])[A-Za-z]{2,}")
ROMAN = regex.compile(r"[ivxlc]+")


def in_traditional(text: str) -> bool:
    """No character of simplified script alone (来, 献; 尸 and 于 are traditional characters too)."""
    return not any(map(simplified_only, text))


def english(text: str, sigla: set[str]) -> set[str]:
    """The Latin words of a page of a Chinese edition that are no name it may print."""
    words = set(LATIN_WORD.findall(URN.sub("", text)))
    return {w for w in words if w not in NAMES | sigla and not w.startswith("KR") and not ROMAN.fullmatch(w)}


def gaiji_table() -> GaijiTable:
    return GaijiTable.load(WORK / "gaiji.tsv")


# --- the mechanisms ---------------------------------------------------------------------------


def test_every_stand_in_left_as_text_becomes_a_g_and_those_already_marked_stay():
    """The base's text between the entries, a quotation and a tail are marked; a g's own text (its
    stand-in) is not marked again."""
    p = el("p", text="兩&KR0362;執爵拜")
    quote = el("quote", text="古文&KR0362;皆作餕", parent=p)
    quote.tail = "主人&KR0764;"
    el("g", {"ref": "#g-KR0362"}, "&KR0362;", parent=p).tail = "也"
    used = mark_stand_ins(p, gaiji_table())
    assert {e.form for e in used} == {"&KR0362;", "&KR0764;"}
    texts = [t for node in p.iter() if node.tag != f"{{{TEI_NS}}}g" for t in (node.text or "",)]
    texts += [node.tail or "" for node in p.iter()]
    assert not any(CODE.search(t) for t in texts), texts
    marks = p.findall(".//t:g", NS)
    assert [g.get("ref") for g in marks] == ["#g-KR0362", "#g-KR0362", "#g-KR0764", "#g-KR0362"]
    assert "".join(p.itertext()) == "兩&KR0362;執爵拜古文&KR0362;皆作餕主人&KR0764;&KR0362;也", "nothing lost"


def test_a_stand_in_prints_as_its_character_its_composition_or_the_geta_mark():
    """KR0362 by Kanripo's normalized character, KR0764 (open in Kanripo's table) by the witness
    that attests it in gaiji.tsv, 纟舀 (nothing maps it) by its composition, KR2846 (nothing
    describes it) as 〓; never by its code or an English description."""
    table = gaiji_table()
    forms = ("&KR0362;", "&KR0764;", "纟舀", "&KR2846;")
    header = el("encodingDesc")
    char_decl({table.entry(form) for form in forms}, [], header)
    printed = {
        c.findtext("t:mapping[@type='witness']", namespaces=NS): render.printed_form(c)
        for c in header.iterfind(".//t:char", NS)
    }
    assert printed == {"&KR0362;": "𧃊", "&KR0764;": "霤", "纟舀": "〔⿰纟舀〕", "&KR2846;": "〓"}


def test_an_ids_that_describes_nothing_is_refused(tmp_path):
    table = tmp_path / "gaiji.tsv"
    table.write_text(
        "form\tmapping\twitnesses\tkind\tdescription\tevidence\tids\n纟舀\t\t002\tsplit\ttwo code points\t002\t纟舀\n",
        encoding="utf-8",
    )
    with pytest.raises(EditionError, match=r"gaiji\.tsv:2: ids '纟舀' is no Ideographic Description Sequence"):
        GaijiTable.load(table)


def test_the_tables_of_a_fold_are_named_in_chinese_in_a_chinese_edition():
    """Each table variants.py names for a fold of the edition's characters reads without English
    in the chinese style (編者, 馬守真《漢英字典》, 通用規範漢字表繁簡對照, 漢籍リポジトリ造字表（KR0029）), and
    as it is in the latin one."""
    forms = VariantForms.load(WORK / "variants.tsv")
    sources = {s for char in "賔筭荅𠋣乗說靣玄𤣥鄕絶" for s in forms.sources(char)}
    assert len(sources) >= 6
    chinese, latin = Conventions("chinese"), Conventions("latin")
    for source in sources:
        assert not english(chinese.fold_source(source), set()), source
        assert latin.fold_source(source) == source


def test_a_witness_title_is_printed_in_the_edition_script():
    """A simplified or mixed witness's title converted character by character (仪礼注疏 is 儀禮注疏,
    not OpenCC's 儀禮註疏); a traditional one's left as it is."""
    meta = lambda script: WitnessMeta("002", "002.txt", "", script, "zhushu")
    assert in_edition_script("仪礼注疏 卷十三", meta("mixed"), "traditional") == "儀禮注疏 卷十三"
    assert in_edition_script("礼书纲目", meta("simplified"), "traditional") == "禮書綱目"
    assert in_edition_script("儀禮注疏云", meta("traditional"), "traditional") == "儀禮注疏云"


def test_the_persons_are_named_in_traditional_and_found_in_either_script(sources):
    """The names the edition prints (persons.tsv) are traditional; a simplified witness's 张氏尔岐曰
    still names 張爾岐."""
    persons = load_persons(WORK / "persons.tsv")
    assert all(in_traditional(p.name) for p in persons.values()), [p.name for p in persons.values()]
    assert sources.person_by_name("张尔岐").id == "zhang-erqi"
    assert sources.person_by_name("四库馆臣").id == "siku-guanchen"


# --- on a built chapter: the PDF of 鄉射禮 ------------------------------------------------------


def pdf_pages(path: Path) -> list[str]:
    text = subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True, check=True).stdout
    return text.split("\f")[:-1]


def sigla_of(edition_xml: Path) -> set[str]:
    doc = etree.parse(str(edition_xml))
    return set(doc.xpath("//t:sourceDesc//t:witness/@n | //t:sourceDesc//t:bibl/@n", namespaces=NS))


@pytest.mark.tier("typeset")
def test_no_page_of_the_chapter_prints_a_code_or_english(built):
    """Every page of 鄉射禮's PDF: no Kanripo entity nor its description, no English word but the
    names a page may print; its headings in the contents are traditional; its 凡例 names the
    witnesses without English."""
    pages = pdf_pages(built / "edition.pdf")
    sigla = sigla_of(built / "edition.xml")
    for number, page in enumerate(pages, 1):
        assert not CODE.search(page), (number, CODE.search(page).group())
        assert not english(page, sigla), (number, english(page, sigla))
    fanli_page = next(number for number, page in enumerate(pages) if "本書以" in page)
    lines = [line.split() for page in pages[:fanli_page] for line in page.splitlines()]
    headings = {words[0] for words in lines if words and not words[0][0].isdigit() and not ROMAN.fullmatch(words[0])}
    assert {"目錄", "凡例", "傳本目錄", "鄉射禮第五", "今古文索引", "附錄：異體字表"} <= headings, headings
    assert all(in_traditional(h) for h in headings), headings
    fanli = "".join(pages[fanli_page].split())
    assert "網絡本（儀禮鄉射禮）" in fanli


@pytest.mark.tier("build")
def test_no_printed_entry_names_a_person_in_simplified_script(built, printed):
    """The persons a 校语 is by (敖繼公, 四庫館臣) are printed in traditional, as listPerson names them."""
    doc = etree.parse(str(built / "edition.xml"))
    names = doc.xpath("//t:listPerson/t:person/t:persName/text()", namespaces=NS)
    to_simplified = opencc.OpenCC("t2s")
    assert "敖繼公云" in printed
    for name in names:
        simplified = to_simplified.convert(name)
        assert simplified == name or simplified not in printed, name


@pytest.mark.tier("build")
def test_a_simplified_witness_s_words_are_printed_in_the_edition_s_script(built, printed):
    """鄉射禮: 001 writes simplified, 000 and 002 mixed. Their readings and the words of their 注 and
    疏 quoted are printed in traditional, each character that only the simplified script writes
    converted (禮書綱目此下有「若有諸公則如賔禮…」), one that both write kept (于, 云); a note that
    differs from the base's in script alone is one wording with it. The TEI keeps their characters."""
    doc = etree.parse(str(built / "edition.xml"))
    other = {
        f"#{w.get('{http://www.w3.org/XML/1998/namespace}id')}"
        for w in doc.xpath("//t:listWit/t:witness[t:note[@type='script'] != 'traditional']", namespaces=NS)
    }
    assert other == {"#w000", "#w001", "#w002", "#w003"}
    nodes = doc.xpath("//t:app/t:rdg[@wit] | //t:note/t:quote[@source] | //t:witDetail/t:q", namespaces=NS)
    words = {}  # the words of a node -> whether they are those of the other script's witnesses alone
    for node in nodes:
        wit = set((node.get("wit") or node.get("source") or node.getparent().get("wit", "")).split())
        text = render.text_of(node, {})
        words[text] = words.get(text, True) and wit <= other
    own = {w for w, alone in words.items() if alone and any(map(simplified_only, w)) and "▯" not in w and len(w) >= 4}
    assert len(own) > 20, "the TEI keeps their own characters"
    printed_words = regex.sub(r"\s", "", printed)
    assert not [w for w in own if w in printed_words]
    assert sum(in_script(w, "traditional", "traditional") in printed_words for w in own) > 20
    assert "揖，今文作升。鄭注：「今文揖爲升」（四部叢刊本、禮書綱目、四庫本）" in printed


# --- on a built work: the volume of 士相見禮 and 覲禮 ----------------------------------------------


@pytest.mark.tier("typeset")
def test_no_page_of_the_volume_prints_a_code_or_english(work_sample):
    """The volume's pages and its chapters' (their 經 and 注 hold Kanripo entities, now g): no
    code, no English word but the names a page may print and the work's English title."""
    build = work_sample[1]
    chapters = sorted((build / "chapters").iterdir())
    entities = "//t:body//t:g[starts-with(@ref, '#g-KR')]"
    marked = sum(len(etree.parse(str(c / "edition.xml")).xpath(entities, namespaces=NS)) for c in chapters)
    assert marked > 10, "the chapters print entities"
    sigla = set().union(*(sigla_of(c / "edition.xml") for c in chapters))
    title = set(LATIN_WORD.findall(json.loads((build / "work.json").read_text(encoding="utf-8"))["title_en"]))
    for number, page in enumerate(pdf_pages(build / "edition.pdf"), 1):
        assert not CODE.search(page), (number, CODE.search(page).group())
        assert not english(page, sigla | title), (number, english(page, sigla | title))


def test_a_report_page_prints_an_entity_as_the_edition_does():
    """The reports keep a witness's own text (挩 → &KR0003;); their pages print it as the edition
    does, escaped or not, and 〓 where the edition declares no such stand-in."""
    stand_ins = {"g-KR0003": "稅"}
    assert printed_stand_ins(stand_ins, "挩 → &KR0003;") == "挩 → 稅"
    marked = printed_stand_ins(stand_ins, Markup("<b>&amp;KR0003;</b>&amp;KR9999;"))
    assert isinstance(marked, Markup) and marked == "<b>稅</b>〓"
    assert printed_stand_ins(stand_ins, 3) == 3


@pytest.mark.tier("build")
def test_no_page_of_the_sites_shows_a_code(built, work_sample):
    """Every page of 鄉射禮's site and of a work's (its reports' pages too: 今古文, collation, intake),
    in both languages: no entity; on a Chinese page no Kanripo diagnostic either (the English page
    of the report shows the description of a stand-in)."""
    _, out, _ = work_sample
    pages = [*(built / "site").rglob("*.html"), *(out / "site").rglob("*.html")]
    assert len(pages) > 40
    for page in pages:
        text = page.read_text(encoding="utf-8").replace("&amp;", "&")
        assert not regex.search(r"&KR\d+;", text), page
        if "en" not in page.relative_to(page.parents[2]).parts:
            assert "Kanripo" not in text, page


def test_a_stand_in_for_no_known_character_is_no_character():
    """纟舀 (002's stand-in where SBCK and WYG read 縚) prints as its composition: a reading of its
    own (造字), not the character it would stand for."""
    assert render.is_character("縚") and render.is_character("𧃊")
    assert not render.is_character("〔⿰纟舀〕") and not render.is_character(render.UNDESCRIBED)
