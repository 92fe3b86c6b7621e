"""The printed edition: typeset from build/edition.xml, every apparatus entry present, line numbers,
no missing glyph, LaTeX-special characters safe, the 注 in 雙行夾注."""

import json
import re
import shutil
import subprocess
from collections import Counter
from pathlib import Path

import pytest
import regex
from lxml import etree

from edition.publication import render
from edition.publication.conventions import SERIES_A, SERIES_C
from edition.publication.model import GlossView
from edition.publication.tei import TEI_NS
from edition.tables import printable

pytestmark = pytest.mark.tier("typeset")  # the PDF's text, and LaTeX typeset

NS = {"t": TEI_NS}
XML_ID = "{http://www.w3.org/XML/1998/namespace}id"


def pdftotext(path: Path, layout: bool = False) -> str:
    """The PDF's text, in the order it is typeset (-raw: the notes at the foot of a page are set
    as paragraphs, which pdftotext's reading order takes for columns), or laid out as printed."""
    return subprocess.run(
        ["pdftotext", "-layout" if layout else "-raw", str(path), "-"], capture_output=True, text=True, check=True
    ).stdout


@pytest.fixture(scope="module")
def text(built):
    return pdftotext(built / "edition.pdf")


def text_of(node) -> str:
    return "".join(node.itertext())


def before(app) -> str:
    """The character of the edited text before an app in its paragraph or note (the place of an
    addition): the last of the text and lemmata before it."""
    parent = app.getparent()
    text = [parent.text or ""]
    for child in parent:
        if child is app:
            break
        name = etree.QName(child).localname
        if name == "app":
            text.append(text_of(child.xpath("t:lem | t:rdgGrp/t:lem", namespaces=NS)[0]))
        elif name == "pc":
            text.append(child.text or "")
        text.append(child.tail or "")
    return (regex.findall(r"\p{Han}", "".join(text)) or [""])[-1]


def expected_notes(edition_xml: Path) -> Counter:
    """app -> notes it must have in the PDF, by the number the PDF gives it (12; 注12 for an entry
    of the 注: its place among the entries that have a note, in order), counted from the TEI with
    XPath alone: one per series that has a reading, an
    emendation, a fragment's start or end, a 校语 or an editor's note, where a reading that recurs
    in its section (same lemma, or place of an addition, reading and witnesses, each writing it as
    it does) is said only the first time (下同). A stand-in that stands for a known character is
    compared by it: no note (variant forms are not recorded at each place). A 校语 that reports
    no reading at its place (no witDetail of type reported names it) is a series of its own (E). An app's
    own readings count, not those of apps nested in it; an app nested in a reading (a moved
    clause's difference) is said in that reading's note. An entry of the 注 has one note (series
    D), and none for where a witness that quotes the 注 in part leaves off or takes up quoting, nor
    for where the base's 注 stops at a lost leaf (the leaf's own entry says so). A graphic family's
    member emended on the sense (lem/@resp #edition-graphic) is an emendation. The editions a 校语
    reports are said in the note's words alone: neither their sigla nor their readings count. A
    witness's lacuna or intrusion is no note: the conspectus counts them (but the base's), as it
    counts the clauses of a witness that regroups the text (listWit note of subtype regrouped)."""
    doc = etree.parse(str(edition_xml))
    expected = Counter()
    seen = set()
    recurring = set()
    base = "#" + doc.xpath("//t:listWit/t:witness[t:note[@type='role'] = 'base']/@xml:id", namespaces=NS)[0]
    abridged = {
        "#" + i
        for i in doc.xpath(
            "//t:listWit/t:witness[t:note[@type='abridged'][@subtype='commentary']]/@xml:id", namespaces=NS
        )
    }
    reported = {
        "#" + i
        for i in doc.xpath(
            "//t:listWit/t:witness[starts-with(t:note[@type='status'][not(@subtype)], 'reported')]/@xml:id",
            namespaces=NS,
        )
    }
    regrouping = {
        "#" + i
        for i in doc.xpath(
            "//t:listWit/t:witness[t:note[@type='unrecorded'][@subtype='regrouped']]/@xml:id", namespaces=NS
        )
    }
    wit = lambda node: " ".join(w for w in node.get("wit", "").split() if w not in reported)
    unmapped = {
        "#" + c.get(XML_ID)
        for c in doc.iterfind(".//t:charDecl/t:char", NS)
        if not c.findtext("t:mapping[@type='standard']", namespaces=NS)
        and c.find("t:localProp[@name='kind'][@value='not-text']", NS) is None
    }
    for app in doc.xpath("//t:app[not(parent::t:rdg)]", namespaces=NS):
        commentary = bool(app.xpath("ancestor::t:note[@type='commentary']", namespaces=NS))
        label = ("注" if commentary else "") + app.get(XML_ID).rsplit("-", 1)[1]
        section = app.xpath("ancestor::t:div[@type='section']/@n", namespaces=NS)[0]
        lem = app.xpath("t:lem | t:rdgGrp/t:lem", namespaces=NS)[0]
        lemma = text_of(lem)
        readings = [r for r in app.xpath("t:rdg | t:rdgGrp/t:rdg", namespaces=NS) if wit(r) or not r.get("wit")]
        fresh = set()
        for rdg in readings:
            if (
                commentary
                and rdg.get("type") == "fragment"
                and rdg.get("subtype") in ("lacunaStart", "lacunaEnd")
                and rdg.get("wit") in abridged
                or rdg.get("type") == "fragment"
                and rdg.get("wit") == base
            ):
                continue
            if rdg.get("type") == "gaiji" and not {g.get("ref") for g in (*lem.iter(), *rdg.iter())} & unmapped:
                continue  # a stand-in for a known character: compared by it
            if rdg.get("type") in ("lacuna", "intrusion") and base not in rdg.get("wit", "").split():
                continue  # a witness's characters not read, a web page's insertion: counted in the conspectus
            if rdg.get("type") == "transposition" and set(rdg.get("wit", "").split()) <= regrouping:
                # a compiler's order, counted in the conspectus; where his text starts or stops, that is said
                # its own wording inside the clause is said where the clause is moved to
                typed = "@type='substantive' or @type='graphic' or @type='usage' or @type='taboo'"
                own = f"contains(concat(' ', @wit, ' '), ' {rdg.get('wit')} ')"
                if rdg.xpath(f"t:app/t:rdg[{typed}][{own}]", namespaces=NS):
                    fresh.add("substantive")
                quoting = commentary and rdg.get("wit") in abridged  # where it leaves off quoting: not said
                if rdg.xpath(
                    "t:witStart | t:witEnd" + ("" if quoting else " | t:lacunaStart | t:lacunaEnd"), namespaces=NS
                ):
                    fresh.add("fragment")
                continue
            forms = tuple(
                (d.get("wit"), text_of(d))
                for d in app.iterfind(f"t:witDetail[@type='form'][@target='#{rdg.get(XML_ID)}']", NS)
            )
            place = lemma or "下" + before(app)
            key = (commentary, section, place, text_of(rdg), wit(rdg), forms, rdg.get("type"))
            if key not in seen or rdg.get("type") in ("fragment", "jinguwen"):
                fresh.add(rdg.get("type"))
            else:
                recurring.add(label)  # said before (下同): no note, but the site lists it (同上)
            seen.add(key)
        emended = lem.get("resp") is not None and any(base in r.get("wit", "").split() for r in readings)
        said = any(
            app.xpath(f"t:{path}", namespaces=NS)
            for path in (
                "note[@type='editorial']",
                "note[@type='textual'][concat('#', @xml:id) = ../t:witDetail[@type='reported']/@source]",
                "witDetail[@type='evidence']",
            )
        )  # an editor's note, a 校语 that reports a reading, a quotation
        remarks = bool(
            app.xpath(
                "t:note[@type='textual'][not(concat('#', @xml:id) = ../t:witDetail[@type='reported']/@source)]",
                namespaces=NS,
            )
        )
        series = [
            bool(fresh & set(SERIES_A) or emended or said),
            "jinguwen" in fresh,
            bool(fresh & set(SERIES_C)),
            remarks,
        ]
        expected[label] += any(series[:3]) + series[3] if commentary else sum(series)
    # the views number the entries they list in order, the 經's and the 注's apart: those with a note,
    # and those that recur (no note in the print, 同上 on the site)
    shown = {
        kind: [label for label, n in expected.items() if (n or label in recurring) and label.startswith("注") == kind]
        for kind in (0, 1)
    }
    return Counter(
        {
            ("注" if kind else "") + str(i): expected[label]
            for kind, labels in shown.items()
            for i, label in enumerate(labels, 1)
        }
    )


def test_every_apparatus_entry_is_a_note_in_the_pdf(built, text):
    found = Counter(re.findall(r"〔(注?\d+)〕", re.sub(r"\s+", "", text)))
    assert found == expected_notes(built / "edition.xml")
    assert sum(n for label, n in found.items() if not label.startswith("注")) > 120
    assert sum(n for label, n in found.items() if label.startswith("注")) > 140, "the notes on the 注"


def test_the_edited_text_and_readings_are_in_the_pdf(text, printed):
    """The text as typeset, and the entries as the conventions phrase them for print (the PDF's
    two columns of notes interleave in its extracted text)."""
    flat = re.sub(r"\s+", "", text)
    assert "鄕射之禮。主人戒賔，賔出迎，再拜。" in flat, "SBCK's text with 001's punctuation"
    assert "升堂，揖" in flat and "堂¹，網絡本作常" in printed, "001's 常, with the occurrence of its lemma"
    assert re.search(r"注：雅，原作稚，據[^。；]*四庫本改；[^。]*單疏本引作「爾雅曰笙小」", printed), (
        "an emendation on independent evidence as a 校勘记 sentence: 注疏本 editions and the 單疏本"
    )
    assert "袒，原作袓，據網絡本、四庫本改；四部叢刊本他處作「皆袒決遂」" in printed, (
        "the base's evident error emended where one family reads otherwise and the base writes it elsewhere (本校)"
    )
    assert "揖，今文作升。鄭注：「今文揖爲升」（四部叢刊本、禮書綱目、四庫本）" in printed, (
        "one reading, each wording quoted"
    )
    assert "羼入" not in printed, "001's spam 摧 is counted in the conspectus, no entry"
    assert "禮書綱目始於此" in printed and "禮書綱目止於此" in printed, "the fragment's extent"
    assert "，下同" in printed
    assert "emend." not in printed and "om." not in printed
    for title in ("凡例", "傳本目錄", "今古文索引", "附錄", "獻大夫", "記侯"):
        assert title in flat


def test_no_missing_glyph_in_the_typesetting_log(built):
    log = (built / "pdf" / "edition.log").read_text(errors="replace")
    assert "Missing character" not in log
    assert "HanaMin" in log or "Noto Serif CJK" in log


def test_a_page_renders_to_png(built):
    screenshots = built / "screenshots"
    screenshots.mkdir(exist_ok=True)
    subprocess.run(
        [
            "pdftoppm",
            "-r",
            "80",
            "-f",
            "7",
            "-l",
            "7",
            "-png",
            str(built / "edition.pdf"),
            str(screenshots / "pdf-page"),
        ],
        check=True,
    )
    page = next(screenshots.glob("pdf-page*.png"))
    assert page.stat().st_size > 20_000


def test_latex_special_characters_do_not_break_the_build(tmp_path):
    from click.testing import CliRunner

    from edition.cli import main

    root = Path(__file__).resolve().parent.parent / "sources"
    sources = tmp_path / "sources"
    sources.mkdir()
    for name in ("variants.tsv", "gaiji.tsv", "persons.tsv"):
        shutil.copy(root / name, sources / name)
    (sources / "edition.toml").write_text(
        '[edition]\ntitle = "100% #{test}\\\\"\nbase = "A"\ncomparison_script = "simplified"\n'
    )
    (sources / "a.txt").write_text(
        # }升{ and not {升}, which is a stand-in's shape (a component description), printed as one
        "礼书纲目\n\n主人揖让%以宾升#宾}升{\\拜至$宾答拜&主人坐取爵_于上篚^~以降【注今文揖为升】\n"
    )
    (sources / "b.txt").write_text("礼书纲目\n\n主人揖让以宾升宾升拜至宾答拜主人坐取觯于上篚以降\n")
    (sources / "witnesses.toml").write_text(
        "".join(
            f'[[witness]]\nsiglum = "{s}"\nfile = "{s.lower()}.txt"\ntitle = "t{s}"\n'
            'script = "simplified"\nprofile = "lishu-gangmu"\n\n'
            for s in "AB"
        )
    )
    out = tmp_path / "build"
    result = CliRunner().invoke(main, ["build", "--quiet", "--sources", str(sources), "--out", str(out)])
    assert result.exit_code == 0, result.output
    flat = re.sub(r"\s+", "", pdftotext(out / "edition.pdf"))
    flat = re.sub(r"[，。、；：？！]", "", flat)  # the marks the model of 句讀 puts between them
    for special in ("%", "#", "}升{", "\\", "$", "&", "_"):
        assert special in flat, special
    assert "100%#{test}\\" in flat


def test_a_missing_glyph_fails_the_build_naming_the_character(tmp_path):
    from edition.errors import EditionError
    from edition.publication import pdf
    from edition.publication.model import EditionView, SectionView

    edition = EditionView(
        "缺字", "edition", {}, [SectionView("s-1", "缺字", "incipit", "s-1-p1", ["字\U000f0001字"])], [], {}
    )
    with pytest.raises(EditionError, match="U\\+F0001") as raised:
        pdf.compile_pdf(pdf.latex(edition), tmp_path / "pdf")
    shutil.rmtree(Path(raised.value.path).parent)  # the log and source kept for the editor


def test_an_error_in_a_package_fails_in_one_line_naming_its_file(tmp_path):
    from edition.errors import EditionError
    from edition.publication import pdf

    (tmp_path / "broken.sty").write_text("\\ProvidesPackage{broken}\n\\undefinedmacro\n")
    with pytest.raises(EditionError, match=r"XeLaTeX failed: \./broken\.sty:2: Undefined control sequence") as raised:
        pdf.compile_pdf("\\documentclass{article}\\usepackage{broken}\\begin{document}x\\end{document}", tmp_path)
    assert "\n" not in str(raised.value)
    shutil.rmtree(Path(raised.value.path).parent)


def test_the_title_page_names_the_editors_the_place_and_the_date(built):
    """The title page (page 1) holds the title, the editors of work.toml, where and when the edition
    is published (the build's day, 二〇二六年十二月), in Chinese: no tool's name, no English."""
    from datetime import date

    from edition.text import DIGITS, chinese_number

    page = subprocess.run(
        ["pdftotext", "-f", "1", "-l", "1", "-raw", str(built / "edition.pdf"), "-"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    today = date.today()
    month = "".join(DIGITS[int(d)] for d in str(today.year)) + "年" + chinese_number(today.month) + "月"
    flat = re.sub(r"\s+", "", page)
    assert "儀禮" in flat and "儀禮校勘整理組點校" in flat and "網絡版" + month in flat, page
    assert not re.search(r"[A-Za-z]", page), "no tool's name, no English on the Chinese title page"
    document = etree.parse(str(built / "edition.xml"))
    assert document.xpath("//t:titleStmt/t:editor/text()", namespaces=NS) == ["儀禮校勘整理組"]
    assert document.xpath("//t:publicationStmt/t:pubPlace/text()", namespaces=NS) == ["網絡版"]


def test_the_chapters_urn_is_printed_under_its_title_and_extends_to_the_margins_citations(built, text):
    """Under the chapter's title the print gives its URN, the TEI's; a sentence's URN is it, the
    section's delimiter and the citation the margin prints (3.2), as the 凡例 says."""
    document = etree.parse(str(built / "edition.xml"))
    (urn,) = document.xpath("//t:publicationStmt/t:idno[@type='URN']/text()", namespaces=NS)
    (delim,) = document.xpath("//t:refsDecl/t:citeStructure[@unit='section']/@delim", namespaces=NS)
    flat = re.sub(r"\s+", "", text)
    assert urn == "urn:cts:chineseLit:yili:5" and flat.count(urn) >= 2  # under the title, and in the 凡例
    assert f"{urn}{delim}3.2" in flat and document.xpath("//t:anchor[@xml:id='c3.2']", namespaces=NS)
    assert re.search(rf"鄉射禮第五\s*{re.escape(urn)}\s", text), "the URN right under the chapter's title"


XHTML = "{http://www.w3.org/1999/xhtml}"
ROWS = 7.5  # the 注's two rows, baseline to baseline (jiazhu.tex.j2), in pt
TEXT_TYPE = (9.5, 11.5)  # the heights pdftotext gives the text's 10.5 pt type, the 注's 6.6 pt
NOTE_TYPE = (6.54, 6.62)  # not the 6.5 pt of the margins, the 傳 marker, the entry numbers
APPARATUS_TYPE = (7.3, 7.7)


def words_of_pages(pdf: Path, first: int) -> list[list[tuple]]:
    """Each page's words from `first` on, as pdftotext places them: (x0, y0, x1, y1, text)."""
    xml = subprocess.run(["pdftotext", "-f", str(first), "-bbox", str(pdf), "-"], capture_output=True, check=True)
    corners = ("xMin", "yMin", "xMax", "yMax")
    return [
        [(*(float(w.get(k)) for k in corners), w.text or "") for w in page.iter(f"{XHTML}word")]
        for page in etree.fromstring(xml.stdout).iter(f"{XHTML}page")
    ]


def sized(words, low_high) -> list[tuple]:
    return [w for w in words if low_high[0] < w[3] - w[1] < low_high[1]]


def read_double_rows(pdf: Path, first: int) -> tuple[str, list[tuple[str, str, float]], float]:
    """The small type of the text's pages read as 雙行夾注 is read, from the words' places alone:
    rows 7.5 pt apart are a pair (a row alone stands between the two); the text's characters on
    the pair's line part it; each part is its top row, then its bottom row; the parts of a line
    left to right, lines down the page. Returns the text read, the parts (top, bottom, width) and
    the width of the text block."""
    pages = words_of_pages(pdf, first)
    text = [w for words in pages for w in sized(words, TEXT_TYPE)]
    left, right = min(w[0] for w in text), max(w[2] for w in text)
    read, parts = [], []
    for words in pages:
        apparatus = min((w[1] for w in sized(words, APPARATUS_TYPE)), default=float("inf"))
        small = [w for w in sized(words, NOTE_TYPE) if left - 1 <= w[0] and w[2] <= right + 1 and w[3] < apparatus]
        rows = []
        for w in sorted(small, key=lambda w: w[1]):
            if rows and abs(rows[-1][0] - w[1]) < 1:
                rows[-1][1].append(w)
            else:
                rows.append((w[1], [w]))
        placed, paired = [], set()
        for i, (y, top) in enumerate(rows):
            if i in paired:
                continue
            below = next((j for j in range(i + 1, len(rows)) if abs(rows[j][0] - y - ROWS) < 0.7), None)
            bottom = rows[below][1] if below is not None else []
            paired.add(below)
            middle = y + ROWS / 2 if bottom else y
            # the text's words on this line part the pair (an opening bracket hangs a little before)
            between = sorted(w[2] for w in sized(words, TEXT_TYPE) if abs((w[1] + w[3]) / 2 - middle - 3.1) < 4)
            for part in sorted({sum(x <= w[0] + 4 for x in between) for w in top + bottom}):
                row = lambda words: sorted(w for w in words if sum(x <= w[0] + 4 for x in between) == part)  # noqa: E731
                a, b = row(top), row(bottom)
                x0, x1 = min(w[0] for w in a + b), max(w[2] for w in a + b)
                placed.append((middle, x0, "".join(w[4] for w in a), "".join(w[4] for w in b), x1 - x0))
        lines = []
        for part in sorted(placed):
            if lines and part[0] - lines[-1][0][0] < 4:
                lines[-1].append(part)
            else:
                lines.append([part])
        for line in lines:
            for _, _, top, bottom, width in sorted(line, key=lambda part: part[1]):
                read.append(top + bottom)
                parts.append((top, bottom, width))
    return "".join(read), parts, right - left


def glosses(items):
    for item in items:
        if isinstance(item, GlossView):
            yield item
        yield from glosses(getattr(item, "parts", []))


def test_the_zhu_is_set_in_double_rows_within_the_line(built):
    """雙行夾注: every note of the 注, in order, reads from the PDF's small type as two rows within
    the lines of the text, top row then bottom row; a note too long for its line fills whole
    lines in pairs of rows; only a note of one character and its punctuation is one row."""
    first = json.loads((built / "pdf" / "lines.json").read_text(encoding="utf-8"))["pages_before"]["text"] + 1
    read, parts, block = read_double_rows(built / "edition.pdf", first)
    edition = render.read(built / "edition.xml")
    notes = [printable(g.text) for section in edition.sections for g in glosses(section.items)]
    assert len(notes) > 300
    at = 0
    for note in notes:
        found = read.find(note, at)
        assert found >= 0, f"the note 「{note}」 does not read in 雙行夾注 after 「{read[max(0, at - 20) : at]}」"
        at = found + len(note)
    one_row = [top + bottom for top, bottom, _ in parts if not (top and bottom)]
    assert len(one_row) < 0.05 * len(parts)
    assert all(len(regex.findall(r"\p{Han}", row)) <= 1 for row in one_row), one_row
    assert any(width > 0.95 * block for *_, width in parts), "no note fills a whole line"
