"""A whole edition goes in with one command: `edition add-witness FOLDER` places each of its files
in its chapter (several 卷 of one chapter are one witness of it, read in order), tells its files
of no chapter apart, composes one profile for the edition and gives a file its own where that one
reads it clearly worse, and says all this per file in plain lines."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import ROOT, WORK

from edition.cli import main
from edition.intake.guess import decode
from edition.intake.model import JoinedText
from edition.intake.witness import intake_witness
from edition.work.file_kinds import kind_of
from edition.work.placement import ChapterPlacer
from edition.work.work_sources import Work

FOLDER = ROOT / "tests" / "fixtures" / "whole-edition"  # slices of real Kanripo files, see its README.md
KANRIPO = ROOT.parent / "shared" / "kanripo"


@pytest.fixture(scope="module")
def added(tmp_path_factory) -> tuple[Path, str]:
    """The fixture edition added whole to a copy of the work: its sources, and the output."""
    root = tmp_path_factory.mktemp("work") / "sources"
    shutil.copytree(WORK, root)
    result = CliRunner().invoke(main, ["add-witness", str(FOLDER), "--siglum", "TU", "--sources", str(root)])
    assert result.exit_code == 0, result.output
    return root, result.output


def line_of(output: str, name: str) -> str:
    (line,) = [line for line in output.splitlines() if line.startswith(f"  {name}: ")]
    return line


@pytest.mark.tier("build")  # reads a chapter of the corpus
def test_each_file_is_reported_in_one_plain_line(added):
    _, output = added
    for name in sorted(p.name for p in FOLDER.glob("*.txt")):
        assert line_of(output, name)
    for name in ("juan-01.txt", "juan-02.txt", "juan-03.txt"):
        line = line_of(output, name)
        assert "mandoku" in line and "how sure: " in line and "aligns in order with the base SBCK's" in line
    assert "runs are in" not in output and "4-character" not in output


@pytest.mark.tier("build")  # reads a chapter of the corpus
def test_files_of_no_chapter_are_told_apart(added):
    root, output = added
    front = line_of(output, "juan-00.txt")
    assert front.startswith("  juan-00.txt: front matter (提要, 凡例, 目錄, 序), of no chapter (")
    assert line_of(output, "juan-04.txt").startswith("  juan-04.txt: plates (pictures and their captions), of no")
    assert line_of(output, "juan-05.txt").startswith("  juan-05.txt: a collation appendix (places of the 經 and 注")
    assert line_of(output, "juan-06.txt").startswith("  juan-06.txt: nothing the work uses, of no chapter (")
    edition = next(e for e in Work.load(root).editions if e.meta.siglum == "TU")
    assert edition.no_chapter == {
        "front": ("juan-00.txt",),
        "collation_notes": ("juan-05.txt",),
        "plates": ("juan-04.txt",),
        "unused": ("juan-06.txt",),
    }


@pytest.mark.tier("build")  # reads a chapter of the corpus
def test_the_edition_is_named_by_the_book_its_files_header_names(added):
    """The 凡例 and the apparatus name it 儀禮圖, not by its folder; its title says how to cite it."""
    root, _ = added
    edition = next(e for e in Work.load(root).editions if e.meta.siglum == "TU")
    assert (edition.meta.name, edition.meta.title) == ("儀禮圖", "儀禮圖 (KR1d0032, WYG)")


@pytest.mark.tier("build")  # reads a chapter of the corpus
def test_two_juan_of_one_chapter_are_one_witness_in_order(added):
    root, output = added
    assert "士相見禮第三, 卷 1 of 2 read as one" in line_of(output, "juan-01.txt")
    assert "士相見禮第三, 卷 2 of 2 read as one" in line_of(output, "juan-02.txt")
    work = Work.load(root)
    edition = next(e for e in work.editions if e.meta.siglum == "TU")
    assert edition.files[3] == ("juan-01.txt", "juan-02.txt") and edition.files[10] == ("juan-03.txt",)
    sources = work.sources(work.chapter(3))
    meta = next(m for m in sources.witnesses if m.siglum == "TU")
    witness = sources.intake(meta, sources.normalizer())
    first, second = (root / "TU" / name for name in edition.files[3])
    assert isinstance(witness.raw, JoinedText)
    assert witness.raw.text == first.read_text(encoding="utf-8") + second.read_text(encoding="utf-8")
    # each 卷 read alone by its profile: the joined witness is the one, then the other
    alone = [intake_witness(meta, path, profile, (), sources.normalizer()) for path, profile in sources.files(meta)]
    assert witness.classic.text == alone[0].classic.text + alone[1].classic.text
    shift = len(alone[0].raw.text)
    for i in range(0, len(alone[1].classic.starts), 97):  # every character still traces to its file and line
        start = alone[1].classic.starts[i]
        joined = witness.classic.starts[len(alone[0].classic.text) + i]
        assert joined == start + shift and witness.raw.path_of(joined) == second
        assert witness.raw.line_of(joined) == alone[1].raw.line_of(start)
    assert witness.raw.path_of(alone[0].classic.starts[-1]) == first


@pytest.mark.tier("build")  # reads a chapter of the corpus
def test_an_error_in_the_second_juan_names_that_file_and_its_line(added, tmp_path):
    root = tmp_path / "sources"
    shutil.copytree(added[0], root)
    second = root / "TU" / "juan-02.txt"
    lines = second.read_bytes().split(b"\n")
    lines[11] += b"\xff"
    second.write_bytes(b"\n".join(lines))
    result = CliRunner().invoke(main, ["check", "--sources", str(root), "--chapter", "士相見禮"])
    assert result.exit_code == 1 and f"{second}:12: not valid UTF-8" in result.output


@pytest.mark.tier("build")  # reads a chapter of the corpus
def test_a_file_the_editions_profile_reads_worse_gets_one_of_its_own(added):
    root, output = added
    assert "guessed layout profile: TU, composed of mandoku" in output and (root / "profiles" / "TU.toml").is_file()
    # juan-03 is a 注疏 book's 覲禮 (the 注 in large characters after 注), the others 楊復's 儀禮圖
    line = line_of(output, "juan-03.txt")
    assert "覲禮第十" in line and "read by a profile of its own, mandoku-zhushu, as TU reads it worse" in line
    work = Work.load(root)
    assert next(e for e in work.editions if e.meta.siglum == "TU").profiles["juan-03.txt"] == "mandoku-zhushu"
    sources = work.sources(work.chapter(10))
    meta = next(m for m in sources.witnesses if m.siglum == "TU")
    assert [profile.name for _, profile in sources.files(meta)] == ["mandoku-zhushu"]
    assert "read by a profile of its own" not in line_of(output, "juan-01.txt")


def test_a_juan_holding_part_of_a_chapter_much_like_another_is_placed_by_what_is_that_chapters_alone():
    work = Work.load(WORK)
    placer = ChapterPlacer(work, work.sources(work.chapters[0]).normalizer())
    juan = (("KR1d0037_008.txt", "鄉飲酒禮"), ("KR1d0037_009.txt", "鄉飲酒禮"), ("KR1d0037_010.txt", "鄉射禮"))
    for name, title in juan:
        placement = placer.place(KANRIPO / "KR1d0037-WYG" / name)
        assert placement.chapter.title == title, name
    assert placement.words().startswith("it holds ") and "of what is 鄉射禮's alone in the base" in placement.words()


@pytest.mark.parametrize(
    "file, kind",
    [
        ("KR1d0028-WYG/KR1d0028_000.txt", "front"),
        ("KR1d0032-WYG/KR1d0032_000.txt", "front"),
        ("KR1d0037-WYG/KR1d0037_000.txt", "front"),
        ("KR1d0032-WYG/KR1d0032_018.txt", "plates"),
        ("KR1d0037-WYG/KR1d0037_043.txt", "plates"),
        ("KR1d0037-WYG/KR1d0037_049.txt", "plates"),
        ("KR1d0029-WYG/KR1d0029_002.txt", "collation_notes"),
        ("KR1d0037-WYG/KR1d0037_001.txt", "unused"),
        ("KR1d0037-WYG/KR1d0037_002.txt", "unused"),
    ],
)
def test_what_a_file_of_no_chapter_is_is_told_by_its_text(file, kind):
    assert kind_of(decode((KANRIPO / file).read_bytes())[0])[0].name == kind


@pytest.mark.tier("build")  # reads a chapter of the corpus
def test_a_per_file_profile_must_be_a_known_one(added, tmp_path):
    root = tmp_path / "sources"
    shutil.copytree(added[0], root)
    meta = root / "witnesses.toml"
    named = meta.read_text(encoding="utf-8").replace('"juan-03.txt" = "mandoku-zhushu"', '"juan-03.txt" = "no-such"')
    meta.write_text(named, encoding="utf-8")
    result = CliRunner().invoke(main, ["check", "--sources", str(root), "--chapter", "覲禮"])
    assert result.exit_code == 1 and "witness TU: file 'juan-03.txt': unknown layout profile 'no-such'" in result.output
