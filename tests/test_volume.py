"""The work as one volume: the chapters' own PDFs behind the volume's front matter and a title page
for each chapter, every page numbered by the volume, and an index of the 今文/古文 notes of the whole
work whose page and line are those of the chapters' apparatus."""

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from lxml import etree

from edition.errors import EditionError
from edition.publication import volume as volume_module
from edition.publication.conventions import Conventions
from edition.publication.tei import TEI_NS
from edition.publication.volume import (
    WorkWitness,
    build_volume,
    fanli,
    read_part,
    read_work,
)

pytestmark = pytest.mark.tier("typeset")  # the work's volume typeset

ROW = re.compile(r"^(\S+) (\d+) (\d+) (\d+\.\d+) (\S+)")  # a row of the index: chapter, page, line, citation, lemma


@pytest.fixture(scope="session")
def work(work_sample) -> Path:
    """The build of a work of two chapters (conftest's work_sample)."""
    return work_sample[1]


@pytest.fixture(scope="module")
def volume(work) -> Path:
    return work / "edition.pdf"


def pages(pdf: Path) -> list[str]:
    """Each page's text, in the order it is typeset."""
    text = subprocess.run(["pdftotext", "-raw", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    return text.split("\f")[:-1]


def flat(text: str) -> str:
    return re.sub(r"\s+", "", text)


def skipped(work: Path, folder: str) -> int:
    """The chapter's title page and contents, which the volume leaves out."""
    return json.loads((work / "chapters" / folder / "pdf" / "lines.json").read_text(encoding="utf-8"))["pages_before"][
        "fanli"
    ]


def test_the_volume_is_its_own_pages_and_the_chapters_pdfs(work, volume):
    """After the front matter, each chapter is its title page and then its PDF's pages but its
    title page and contents, as they are, numbered by the volume."""
    chapters = read_work(work).chapters
    volume_pages = pages(volume)
    page_one = first_part(volume_pages, chapters)
    assert page_one >= 4, "title page, contents, 凡例, conspectus"
    at = page_one
    for chapter in chapters:
        assert flat(volume_pages[at]) == f"{chapter.heading}{at - page_one + 1}", "the part's title page"
        own = pages(work / "chapters" / chapter.folder / "edition.pdf")[skipped(work, chapter.folder) :]
        for offset, text in enumerate(own, 1):
            number = at + offset - page_one + 1
            # the chapter's own number is cut off from view, not from the text; where pdftotext
            # breaks a line of a page set into another (the volume's) may differ by a rounding
            assert flat(volume_pages[at + offset]) == f"{flat(text)}{number}", (chapter.heading, offset)
            assert volume_pages[at + offset].rstrip().endswith(f"\n{number}")
        at += 1 + len(own)
    index_pages = len(volume_pages) - at
    assert flat(volume_pages[at]).startswith("今古文索引")
    assert index_pages >= 1
    counted = (
        page_one
        + sum(1 + len(pages(work / "chapters" / c.folder / "edition.pdf")) - skipped(work, c.folder) for c in chapters)
        + index_pages
    )
    assert len(volume_pages) == counted


def test_title_page_contents_fanli_and_conspectus(work, volume):
    """The title page names the work, its chapters, its editors, the place and the date, in Chinese;
    the contents give each chapter's title page and, under it, the chapters of its PDF (its 凡例,
    text, index and appendices), each with the page of the volume it starts on."""
    volume_pages = pages(volume)
    page_one = first_part(volume_pages, read_work(work).chapters)
    assert "儀禮" in volume_pages[0] and "凡二篇" in flat(volume_pages[0])
    assert "儀禮校勘整理組點校" in flat(volume_pages[0]) and "網絡版" in volume_pages[0], "the editors, the place"
    assert not re.search(r"[A-Za-z]", volume_pages[0]), "no English title, no tool's name in the Chinese volume"
    fanli = next(i for i, text in enumerate(volume_pages) if flat(text).startswith("凡例一、本書"))
    contents = flat("".join(volume_pages[1:fanli]))
    assert contents.startswith("目錄") and "士相見禮第三1" in contents
    for heading in ("士相見禮第三", "覲禮第十"):  # the part's title page, and its text headed by the title, not 第一章
        pages_of = [int(page) for page in re.findall(rf"{heading}\.*(\d+)", contents)]
        assert len(pages_of) == 2, heading
        for page in pages_of:
            assert flat(volume_pages[page_one + page - 1]).startswith(heading), heading
    assert len(re.findall(r"今古文索引\.*\d+", contents)) == 3, "each chapter's and the volume's"
    text = flat("".join(volume_pages[fanli:page_one]))
    assert "本書以四部叢刊本（SBCK）為底本，凡二篇：士相見禮第三、覲禮第十" in text
    assert "四庫本通校全書" in text
    assert "鄭玄注所稱今文、古文異讀" in text, "an item of the chapters' 凡例"
    assert "傳本目錄" in text and "《四部叢刊》影印" in text and "WYG" in text


def test_the_index_gives_each_reading_where_the_chapter_apparatus_has_it(work, volume):
    """Every 今文/古文 reading of the chapters' TEI is a row of the index under its chapter, and the
    line and citation the row gives are those the chapter's PDF prints before the entry's note, on
    the volume's page the row gives."""
    chapters = read_work(work).chapters
    volume_pages = pages(volume)
    page_one = first_part(volume_pages, chapters)
    start = next(i for i, text in enumerate(volume_pages) if flat(text).startswith("今古文索引"))
    rows, chapter = {c.heading: [] for c in chapters}, None
    for line in "".join(volume_pages[start:]).splitlines():
        if line.strip() in rows:
            chapter = line.strip()
        elif ROW.match(line):
            rows[chapter].append(ROW.match(line).groups())
    for c in chapters:
        doc = etree.parse(str(work / "chapters" / c.folder / "edition.xml"))
        readings = doc.xpath(
            "//t:body//t:rdg[@type='jinguwen'][not(ancestor::t:note[@type='commentary'])]", namespaces={"t": TEI_NS}
        )
        assert len(rows[c.heading]) == len(readings) > 0, c.heading
        chapter_text = flat("".join(pages(work / "chapters" / c.folder / "edition.pdf")))
        for number, page, line, citation, lemma in rows[c.heading]:
            assert c.heading.endswith(f"第{number}")
            note = re.compile(rf"B{line}(?:–\d+)?{re.escape(citation)}[^〔]*?{re.escape(lemma)}")  # lines 7–8
            assert note.search(chapter_text), (c.heading, line, citation, lemma)
            assert note.search(flat(volume_pages[page_one + int(page) - 1])), (c.heading, page)


def first_part(volume_pages: list[str], chapters) -> int:
    """Where the first chapter's title page is, the volume's page 1."""
    return next(i for i, text in enumerate(volume_pages) if flat(text) == chapters[0].heading + "1")


def test_the_fanli_says_which_witnesses_are_collated_where(work):
    """A witness of some chapters is collated there only; one the chapters leave out is named as such."""
    sample = read_work(work)
    sample.witnesses = [sample.witnesses[0], WorkWitness("WYG", "四庫本", [10]), WorkWitness("X", "某本", [3])]
    parts = [read_part(work, c) for c in sample.chapters]
    items = fanli(sample, parts, Conventions("chinese"), indexed=True)
    assert "一、四庫本僅見於覲禮第十，只於此出校。" in items
    assert "一、某本見於士相見禮第三，不據以出校，說見該篇凡例。" in items
    assert not any("通校全書" in item for item in items)
    (punctuation,) = [item for item in items if "句讀模型所擬" in item]  # how the whole work is punctuated
    assert "F1" in punctuation and "各篇凡例列其數" in punctuation
    assert any("今古文索引" in item for item in items)
    unindexed = fanli(sample, parts, Conventions("chinese"), indexed=False)  # a work whose notes report none
    assert not any("今古文" in item for item in unindexed) and len(unindexed) == len(items)


def test_a_chapter_not_built_fails_in_one_line_and_leaves_the_volume(work, tmp_path):
    root = tmp_path / "work"
    shutil.copytree(work / "chapters" / "03-士相見禮", root / "chapters" / "03-士相見禮")
    data = json.loads((work / "work.json").read_text(encoding="utf-8"))
    (root / "work.json").write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    (root / "edition.pdf").write_bytes(b"the previous volume")
    with pytest.raises(EditionError, match="覲禮第十 is not built"):
        build_volume(root, root / "edition.pdf")
    assert (root / "edition.pdf").read_bytes() == b"the previous volume"
    assert sorted(p.name for p in root.iterdir()) == ["chapters", "edition.pdf", "work.json"]


def test_a_volume_whose_latex_is_unchanged_is_only_assembled_again(work, tmp_path, monkeypatch):
    """The work build keeps the volume's LaTeX and XeLaTeX's output (pdf/volume.tex, .xdv); with
    the same LaTeX, xdvipdfmx alone puts the chapters' PDFs in again."""
    kept = work / "pdf"
    assert (kept / "volume.tex").is_file() and (kept / "volume.xdv").is_file()

    def typeset_again(tex, workdir):
        raise AssertionError("typeset again")

    monkeypatch.setattr(volume_module, "compile_pdf", typeset_again)
    build_volume(work, tmp_path / "again.pdf", tmp_path / "kept", kept)
    assert pages(tmp_path / "again.pdf") == pages(work / "edition.pdf")
    assert (tmp_path / "kept" / "volume.tex").read_text(encoding="utf-8") == (kept / "volume.tex").read_text(
        encoding="utf-8"
    )


def test_a_chapter_whose_folder_has_a_character_outside_the_bmp_is_in_the_volume(work, tmp_path):
    """XeTeX finds no file by such a path (the 禮記's 14-𥙊法-𥙊義-𥙊統): the volume links it."""
    root = tmp_path / "work"
    data = json.loads((work / "work.json").read_text(encoding="utf-8"))
    for chapter in data["chapters"]:
        chapter["folder"] = chapter["folder"] + "-𥙊"
        shutil.copytree(
            work / "chapters" / chapter["folder"].removesuffix("-𥙊"), root / "chapters" / chapter["folder"]
        )
    (root / "work.json").write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    build_volume(root, root / "edition.pdf")
    assert pages(root / "edition.pdf") == pages(work / "edition.pdf")
