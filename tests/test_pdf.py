"""The printed edition: typeset from build/edition.xml, every apparatus entry present, line numbers,
no missing glyph, LaTeX-special characters safe."""

import re
import shutil
import subprocess
from collections import Counter
from pathlib import Path

import pytest
from lxml import etree

from edition.publication.conventions import SERIES_A, SERIES_C
from edition.publication.tei import TEI_NS

NS = {"t": TEI_NS}


def pdftotext(path: Path, layout: bool = False) -> str:
    return subprocess.run(["pdftotext", *(["-layout"] if layout else []), str(path), "-"], capture_output=True, text=True, check=True).stdout


@pytest.fixture(scope="module")
def text(built):
    return pdftotext(built / "edition.pdf")


def expected_notes(edition_xml: Path) -> Counter:
    """app number -> notes it must have in the PDF, counted from the TEI with XPath alone."""
    doc = etree.parse(str(edition_xml))
    expected = Counter()
    for app in doc.iterfind(".//t:app", NS):
        number = int(app.get("{http://www.w3.org/XML/1998/namespace}id").split("-")[1])
        types = {r.get("type") for r in app.iterfind(".//t:rdg", NS)}
        expected[number] += bool(types & set(SERIES_A) or app.find(".//t:lem[@resp]", NS) is not None or app.find("t:note[@type='editorial']", NS) is not None)
        expected[number] += "jinguwen" in types
        expected[number] += bool(types & set(SERIES_C))
    return +expected


def test_every_apparatus_entry_is_a_note_in_the_pdf(built, text):
    found = Counter(int(n) for n in re.findall(r"〔(\d+)〕", text))
    assert found == expected_notes(built / "edition.xml")
    assert sum(found.values()) > 120


def test_the_edited_text_and_readings_are_in_the_pdf(text):
    flat = re.sub(r"\s+", "", text)
    assert "乡射之礼。主人戒宾，宾出迎，再拜。" in flat
    assert "升堂，揖" in flat, "the emended lemma"
    assert "常001" in flat and "emend." in flat
    assert "今文升（今文揖为升000）" in flat
    assert "摧001interp." in flat
    for title in ("传本Conspectussiglorum", "今古文索引", "附录", "献大夫", "记侯"):
        assert title in flat


def test_line_numbers_every_five_lines(built):
    layout = pdftotext(built / "edition.pdf", layout=True)
    margins = {int(n) for n in re.findall(r"(?m)^\s*(\d+)\s+\S|\S\s+(\d+)\s*$", layout) for n in n if n}
    assert {5, 10, 15, 20, 25, 30, 35, 40} <= margins


def test_no_missing_glyph_in_the_typesetting_log(built):
    log = (built / "pdf" / "edition.log").read_text(errors="replace")
    assert "Missing character" not in log
    assert "HanaMin" in log or "Noto Serif CJK" in log


def test_a_page_renders_to_png(built):
    screenshots = built / "screenshots"
    screenshots.mkdir(exist_ok=True)
    subprocess.run(["pdftoppm", "-r", "80", "-f", "7", "-l", "7", "-png", str(built / "edition.pdf"), str(screenshots / "pdf-page")], check=True)
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
    (sources / "edition.toml").write_text('[edition]\ntitle = "100% #{test}\\\\"\nbase = "A"\ncomparison_script = "simplified"\n')
    (sources / "a.txt").write_text("礼书纲目\n\n主人揖让%以宾升#宾{升}\\拜至$宾答拜&主人坐取爵_于上篚^~以降【注今文揖为升】\n")
    (sources / "b.txt").write_text("礼书纲目\n\n主人揖让以宾升宾升拜至宾答拜主人坐取觯于上篚以降\n")
    (sources / "witnesses.toml").write_text(
        "".join(f'[[witness]]\nsiglum = "{s}"\nfile = "{s.lower()}.txt"\ntitle = "t{s}"\nscript = "simplified"\nprofile = "lishu-gangmu"\n\n' for s in "AB")
    )
    out = tmp_path / "build"
    result = CliRunner().invoke(main, ["build", "--quiet", "--sources", str(sources), "--out", str(out)])
    assert result.exit_code == 0, result.output
    flat = re.sub(r"\s+", "", pdftotext(out / "edition.pdf"))
    for special in ("%", "#", "{升}", "\\", "$", "&", "_"):
        assert special in flat, special
    assert "100%#{test}\\" in flat


def test_a_missing_glyph_fails_the_build_naming_the_character(tmp_path):
    from edition.errors import EditionError
    from edition.publication import pdf
    from edition.publication.render import Edition, Section

    edition = Edition("缺字", "edition", {}, [Section("s-1", "缺字", "incipit", "s-1-p1", ["字\U000f0001字"])], [], {})
    with pytest.raises(EditionError, match="U\\+F0001") as raised:
        pdf.compile_pdf(pdf.latex(edition), tmp_path / "pdf")
    shutil.rmtree(Path(raised.value.path).parent)  # the log and source kept for the editor
