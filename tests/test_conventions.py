"""Editorial conventions: the apparatus phrased in the style the config chooses (Chinese 校勘记
sentences or Latin signs), witnesses by their short names, a 凡例 from the config and the data,
fragment boundaries and the 今文/古文 traditions that viewers read right, and one citation
(section.sentence) in the TEI, the HTML and the PDF."""

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import SOURCES, printed_entries
from lxml import etree

from edition.errors import EditionError
from edition.publication.tei import TEI_NS, in_edition_script
from edition.text import chinese_number
from edition.work.chapter_build import build
from edition.work.sources import Sources

NS = {"t": TEI_NS}
XML_ID = "{http://www.w3.org/XML/1998/namespace}id"
ROOT = Path(__file__).resolve().parent.parent
CITED = re.compile(r"(\S+)\s{3,}(\d+\.\d+)\s*$")  # a line of the PDF's text and the citation in its margin, set apart


def pdftotext(path: Path, layout: bool = False) -> str:
    """As typeset (-raw), or laid out as printed: see test_pdf."""
    return subprocess.run(
        ["pdftotext", "-layout" if layout else "-raw", str(path), "-"], capture_output=True, text=True, check=True
    ).stdout


def flat(text: str) -> str:
    return re.sub(r"\s+", "", text)


def page_text(path: Path) -> str:
    """An HTML page's text, without its tags."""
    return re.sub(r"<[^>]+>", "", path.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def tei(built):
    return etree.parse(str(built / "edition.xml"))


@pytest.fixture(scope="module")
def latin(tmp_path_factory) -> Path:
    """The seed edition built with apparatus_style = "latin"."""
    sources = tmp_path_factory.mktemp("latin") / "sources"
    shutil.copytree(SOURCES, sources)
    config = sources / "edition.toml"
    config.write_text(
        config.read_text(encoding="utf-8").replace('apparatus_style = "chinese"', 'apparatus_style = "latin"'),
        encoding="utf-8",
    )
    out = sources.parent / "build"
    build(sources, out)
    return out


@pytest.mark.tier("typeset")
def test_the_config_switches_between_chinese_and_latin_apparatus(built, latin):
    chinese_html, latin_html = page_text(built / "site" / "index.html"), page_text(latin / "site" / "index.html")
    chinese_pdf, latin_pdf = flat(pdftotext(built / "edition.pdf")), flat(pdftotext(latin / "edition.pdf"))
    chinese_printed, latin_printed = printed_entries(built / "edition.xml"), printed_entries(latin / "edition.xml")
    for chinese in (chinese_html, chinese_pdf, chinese_printed):
        assert re.search("原作.，據[^改。]*禮書綱目[^改。]*改", chinese) and "禮書綱目無" in chinese
        assert "emend." not in chinese and "om. " not in chinese
    for western in (latin_html, latin_pdf, latin_printed):
        assert "emend." in western and "om." in western
        assert "原作" not in western and "下同" not in western
    assert flat("Editorial principles") in latin_pdf and "凡例" in chinese_pdf


def test_apparatus_style_is_checked_with_file_and_line(tmp_path):
    sources = tmp_path / "sources"
    shutil.copytree(SOURCES, sources)
    config = sources / "edition.toml"
    text = config.read_text(encoding="utf-8").replace('apparatus_style = "chinese"', 'apparatus_style = "klingon"')
    config.write_text(text, encoding="utf-8")
    with pytest.raises(EditionError) as raised:
        Sources.load(sources)
    line = next(n for n, row in enumerate(text.splitlines(), 1) if row.startswith("apparatus_style"))
    message = str(raised.value)
    assert "edition.toml" in message and f":{line}" in message and "apparatus_style" in message and "\n" not in message


def test_witnesses_carry_their_names_and_editions(tei, sources):
    named = {m.xml_id: m for m in sources.witnesses if m.name}
    assert len(named) >= 4
    for xml_id, meta in named.items():
        witness = tei.xpath(f"//t:sourceDesc//*[@xml:id='{xml_id}']", namespaces=NS)[0]
        assert witness.findtext("t:abbr[@type='name']", namespaces=NS) == meta.name
        assert witness.findtext("t:bibl/t:title", namespaces=NS) == in_edition_script(meta.title, meta, "traditional")
        assert witness.findtext("t:bibl/t:edition", namespaces=NS) == meta.edition
    unnamed = tei.xpath("//t:sourceDesc//*[@xml:id='w004']", namespaces=NS)[0]
    assert unnamed.find("t:abbr[@type='name']", NS) is None, "no name: the siglum stands for it"
    titles = tei.xpath("//t:sourceDesc//t:bibl/t:title/text()", namespaces=NS)
    assert "禮書綱目" in titles and "儀禮注疏 卷十三" in titles, "in the edition's script, 注疏 not OpenCC's 註疏"


@pytest.mark.tier("typeset")
def test_the_conspectus_maps_names_to_sigla(built, sources):
    html = (built / "site" / "witnesses.html").read_text(encoding="utf-8")
    pdf = pdftotext(built / "edition.pdf", layout=True)
    for meta in sources.witnesses:
        if meta.name:
            assert re.search(rf"{meta.name}\s+{meta.siglum}", pdf), meta.name
            assert re.search(rf'class="sig">{meta.name}</span>.*?{meta.siglum}', html, re.S), meta.name


@pytest.mark.tier("typeset")
def test_the_fanli_names_base_and_collated_witnesses_from_the_data(built, tei, sources):
    base = next(m for m in sources.witnesses if m.siglum == sources.config.base)
    collated = [m.name for m in sources.witnesses if m.siglum not in (base.siglum, "004")]
    fanli = tei.find(".//t:front/t:div[@type='fanli']", NS)
    assert fanli is not None and fanli.get("subtype") == "chinese"
    items = {p.get("n"): "".join(p.itertext()) for p in fanli.iterfind("t:p", NS)}
    assert base.name in items["base"] and "底本" in items["base"]
    assert (
        all(name in items["witnesses"] for name in collated)
        and f"{chinese_number(len(collated))}種" in items["witnesses"]
    )
    assert "繁簡字不出校" in items["script"] and "異體字表" in items["variant_forms"]
    assert "004" in items["excluded"]
    decl = tei.find(".//t:encodingDesc/t:editorialDecl", NS)
    assert decl.xpath("t:correction[@xml:id='decl-emendation']/t:p/text()", namespaces=NS) == [items["emendation"]]
    assert decl.xpath("t:normalization[@xml:id='decl-variant_forms']/@method", namespaces=NS) == ["silent"]
    assert decl.xpath("t:normalization[@xml:id='decl-usages']/@method", namespaces=NS) == ["markup"]
    assert "己、已、巳" in items["graphic"] and "古今字" in items["usages"] and "避諱" in items["taboo"]
    html = page_text(built / "site" / "fanli.html")  # a page of its own, which the text links to
    assert 'href="fanli.html"' in (built / "site" / "index.html").read_text(encoding="utf-8")
    pdf = re.sub(r"[ivx]+(凡例){2}", "", flat(pdftotext(built / "edition.pdf")))  # an item over a page break
    for text in items.values():
        assert text in html and flat(text) in pdf


def test_no_app_is_a_lemma_without_readings(tei):
    assert tei.xpath("//t:app[not(.//t:rdg)][not(t:note[@type='textual'] or t:witDetail)]", namespaces=NS) == [], (
        "an entry without readings says an earlier editor's note"
    )
    starts = tei.xpath("//t:rdg[@type='fragment']/t:witStart/@wit", namespaces=NS)
    assert {"#w000", "#w002", "#w003"} <= set(starts), "a fragment that begins where it agrees has a reading of its own"


def test_traditions_and_the_excluded_witness_are_not_extant_throughout(tei):
    reports = tei.xpath("//t:rdg[@wit='#jinwen' or @wit='#guwen']", namespaces=NS)
    assert len(reports) > 30
    for rdg in reports:
        names = [etree.QName(c).localname for c in rdg]
        assert names[0] == "witStart" and names[-1] == "witEnd" and rdg[0].get("wit") == rdg.get("wit")
    assert not tei.xpath("//t:listWit//t:witness[@xml:id='w004']", namespaces=NS)
    assert tei.xpath("//t:listBibl[@type='excluded']/t:bibl[@xml:id='w004']", namespaces=NS)


def test_a_recurring_lemma_in_one_sentence_has_its_occurrence(built, printed):
    html = (built / "site" / "index.html").read_text(encoding="utf-8")
    assert re.search(r'class="lem" lang="lzh">堂¹<', html)
    assert "堂¹，網絡本作常" in printed, "001's 常 for the first 堂 of 升堂揖……當階"


def sentence_text(tei, n: str, length: int = 6) -> str:
    """The first characters of sentence `n` in the TEI, lemmata read as the edited text, a
    character Unicode lacks as its standard mapping."""
    mapping = {
        c.get(XML_ID): c.findtext("t:mapping[@type='standard']", default="", namespaces=NS)
        for c in tei.iterfind(".//t:charDecl/t:char", NS)
    }
    anchor = tei.xpath(f"//t:anchor[@xml:id='c{n}']", namespaces=NS)[0]
    pieces = anchor.xpath(
        "following::text()[not(ancestor::t:rdg or ancestor::t:note or ancestor::t:witDetail)][position() < 20]",
        namespaces=NS,
    )
    text = "".join(
        mapping.get(p.getparent().get("ref", "").lstrip("#"), p)
        if p.is_text and etree.QName(p.getparent()).localname == "g"
        else p
        for p in pieces
    )
    return bare(text)[:length]


def bare(text: str) -> str:
    """Text without spaces and punctuation."""
    return re.sub(r"[，。、；：？！「」『』《》;:\s]", "", text)


@pytest.mark.tier("typeset")
def test_one_citation_in_tei_html_and_pdf(built, tei):
    (number,) = tei.xpath("//t:div[t:head = '大夫酢']/@n", namespaces=NS)  # 禮書綱目's section
    cited = f"{number}.2"
    anchor = tei.xpath(f"//t:div[@n='{number}']//t:anchor[@n='{cited}']", namespaces=NS)
    assert anchor and anchor[0].get(XML_ID) == f"c{cited}"
    html = (built / "site" / "index.html").read_text(encoding="utf-8")
    section = html[html.index('id="s-大夫酢"') : html.index('id="s-樂賔"')]
    assert f'id="c{cited}"' in section and f">{cited}</a>{sentence_text(tei, cited, 2)}" in section
    lines = pdftotext(built / "edition.pdf", layout=True).splitlines()
    lines = lines[: next(i for i, line in enumerate(lines) if line.strip() == "今古文索引")]  # not the index
    cited, block = 0, ""  # block: the text since the last cited line (pdftotext splits some lines)
    for number, line in enumerate(lines):
        match = CITED.search(line)
        if not match or not re.search(r"[\u4e00-\u9fff]", match.group(1)):
            block += bare(line)
            continue
        cited += 1
        n = match.group(2)
        assert tei.xpath(f"//t:anchor[@xml:id='c{n}']", namespaces=NS), n
        assert f'id="c{n}"' in html
        current = bare(line[: match.start(2)])
        # the next line without its line number, but for a copy of this one (pdftotext gives some
        # first lines of a page twice)
        rest = (re.sub(r"^\d+", "", bare(t)) for t in lines[number + 1 :] if t.strip())
        following = next((t for t in rest if not current.startswith(t)), "")
        start, here = sentence_text(tei, n, 2), block + current
        overleaf = re.match(r"[A-E]\d", following) and here.endswith(
            start[0]
        )  # the last line of a page, the notes below it
        assert start in here + following[:1] or overleaf, (n, line)
        block = ""
    assert cited > 100, "the margin cites sentences"


@pytest.mark.tier("typeset")
def test_no_citation_on_a_heading(built, tei):
    heads = {"".join(h.itertext()) for h in tei.iterfind(".//t:body//t:head", NS)}
    for line in pdftotext(built / "edition.pdf", layout=True).splitlines():
        match = CITED.search(line)
        if match:
            assert flat(line[: match.start(2)]).lstrip("0123456789") not in heads, line
