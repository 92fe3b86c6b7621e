"""What is read, what is skipped, and what is said (issue 44), through the installed command: no
symbolic link followed out of a folder added or a book of evidence; two decisions that rule one
place differently refused; books of evidence with an encoding and within bounds; UTF-16 witnesses;
every message one short line, every file skipped a line of its own."""

from __future__ import annotations

import errno
import json
import os
import shutil
from pathlib import Path

import pytest
import tomlkit
from click.testing import CliRunner
from conftest import WORK, sample_work
from probe import assert_one_line, edition, sample_sources, snapshot

from edition.cli import main
from edition.work.work_sources import Work

pytestmark = pytest.mark.tier("build")  # witnesses added and works checked through the installed command

SHORTEST = 3  # 士相見禮


@pytest.fixture
def work(tmp_path) -> Path:
    """A work of 士相見禮 (SBCK, WYG, the 單疏本 and the 識誤), not built."""
    return sample_work(tmp_path / "sources", (SHORTEST,))


def juan_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "edition"
    folder.mkdir()
    shutil.copyfile(WORK / "WYG" / "KR1d0028_003.txt", folder / "juan-003.txt")
    return folder


# --- symbolic links and what a folder add skips ------------------------------------------------------


def test_a_folder_add_follows_no_link_and_lists_every_entry_it_skips(work, tmp_path):
    folder = juan_folder(tmp_path)
    private = tmp_path / "private.txt"
    shutil.copyfile(WORK / "SBCK" / "KR1d0026_005.txt", private)
    (folder / "z010.txt").symlink_to("/etc/passwd")
    (folder / "z011.txt").symlink_to(private)
    (folder / "linked").symlink_to(tmp_path)
    (folder / "juan-004.txt").mkdir()  # a folder named like a 卷
    os.mkfifo(folder / "fifo.txt")
    (folder / "Readme.org").write_text("provenance", encoding="utf-8")
    result = edition("add-witness", folder, "--siglum", "W2", "--sources", work)
    assert result.returncode == 0, result.stdout + result.stderr
    said = result.stdout.splitlines()
    for name, why in (
        ("z010.txt", "a symbolic link (to /etc/passwd), not followed"),
        ("z011.txt", f"a symbolic link (to {private}), not followed"),
        ("linked", "a symbolic link"),
        ("juan-004.txt", "a folder: its files are not read"),
        ("fifo.txt", "not a regular file"),
        ("Readme.org", "not a witness file (.txt)"),
    ):
        assert sum(line.strip().startswith(f"{name}: skipped, {why}") for line in said) == 1, (name, said)
    assert sorted(p.name for p in (work / "W2").iterdir()) == ["juan-003.txt"]
    assert "root:" not in "".join(p.read_text(encoding="utf-8") for p in (work / "W2").iterdir())


def test_a_file_of_a_book_of_evidence_linked_out_of_the_sources_is_one_line(work):
    (work / "SHU" / "KR1d0027_zz.txt").symlink_to("/etc/passwd")
    line = assert_one_line(
        edition("check", "--sources", work), "witnesses.toml:", "evidence SHU: file 'KR1d0027_zz.txt'"
    )
    assert "outside the sources folder (it resolves to /etc/passwd)" in line
    assert_one_line(edition("build", "--quiet", "--sources", work, "--out", work.parent / "build"), "KR1d0027_zz.txt")


def test_a_folder_inside_a_book_of_evidence_is_one_line(work):
    (work / "SHU" / "more").mkdir()
    (work / "SHU" / "more" / "KR1d0027_051.txt").write_text("x", encoding="utf-8")
    assert_one_line(edition("check", "--sources", work), "SHU/more: a folder inside a book of evidence's folder")


def test_a_folder_left_without_its_stanza_is_said_by_check(work, tmp_path):
    """What a kill between the folder's rename and its stanza leaves: said, and taken up by the retry."""
    folder = juan_folder(tmp_path)
    (work / "W2").mkdir()
    shutil.copyfile(folder / "juan-003.txt", work / "W2" / "juan-003.txt")
    assert_one_line(edition("check", "--sources", work), "W2: a folder of witness files that no stanza")
    assert edition("add-witness", folder, "--siglum", "W2", "--sources", work).returncode == 0
    assert Work.load(work).editions[-1].meta.siglum == "W2"


# --- decisions that disagree --------------------------------------------------------------------------


def test_two_decisions_that_rule_one_place_differently_are_one_line_naming_both(tmp_path):
    sources = sample_sources(tmp_path / "sources")
    decisions = sources / "decisions.toml"
    decisions.write_text(
        '[editors]\ned = "editor"\n'
        '\n[[decision]]\nkind = "lemma"\ncontext = "告于主人曰请射于[賔]賔许"\nreading = "但"\nreason = "a"\n'
        'resp = "ed"\n'
        '\n[[decision]]\nkind = "lemma"\ncontext = "请射于[賔]賔许"\nreading = "旦"\nbasis = "理校"\nreason = "b"\n'
        'resp = "ed"\n',
        encoding="utf-8",
    )
    line = assert_one_line(edition("check", "--sources", sources), f"{decisions}:11: decision 2 (lemma")
    assert f"decision 1 (lemma, {decisions}:4) rule the same place differently" in line
    assert_one_line(edition("build", "--quiet", "--sources", sources, "--out", tmp_path / "build"), "decision 2")


# --- encodings ---------------------------------------------------------------------------------------


def test_a_book_of_evidence_in_gb18030_is_read_with_its_encoding(work):
    for path in (work / "SHIWU").glob("*.txt"):
        path.write_bytes(path.read_text(encoding="utf-8").encode("gb18030"))
    assert_one_line(edition("check", "--sources", work), "not valid UTF-8", 'set encoding = "gb18030"')
    meta = work / "witnesses.toml"
    document = tomlkit.parse(meta.read_text(encoding="utf-8"))
    next(book for book in document["evidence"] if book["siglum"] == "SW")["encoding"] = "gb18030"
    meta.write_text(tomlkit.dumps(document), encoding="utf-8")
    checked = edition("check", "--sources", work)
    assert checked.returncode == 0, checked.stdout


@pytest.mark.parametrize("encoding,option", [("utf-16", ()), ("utf-16-le", ("--encoding", "utf-16-le"))])
def test_a_utf16_witness_is_added_and_built(tmp_path, encoding, option):
    """With its byte order mark, or its encoding given."""
    sources = sample_sources(tmp_path / "sources")
    file = tmp_path / "u16.txt"
    file.write_bytes((sources / "a.txt").read_text(encoding="utf-8").encode(encoding))
    added = edition("add-witness", file, "--siglum", "U", "--sources", sources, *option)
    assert added.returncode == 0, added.stdout + added.stderr
    built = edition("collate", "--quiet", "--sources", sources, "--out", tmp_path / "build")
    assert built.returncode == 0, built.stderr
    report = json.loads((tmp_path / "build" / "reports" / "collation.json").read_text(encoding="utf-8"))
    assert next(w for w in report["witnesses"] if w["siglum"] == "U")["quality"] == 1.0, "it reads as the base"


# --- messages: one short line ------------------------------------------------------------------------


def test_a_file_name_with_a_line_end_is_one_line(tmp_path):
    sources = sample_sources(tmp_path / "sources")
    odd = tmp_path / "bad\nname.txt"
    odd.write_text("", encoding="utf-8")
    line = assert_one_line(edition("add-witness", odd, "--siglum", "Z", "--sources", sources), "empty witness file")
    assert "bad\\nname.txt" in line


def test_a_chapter_number_that_the_work_cannot_have_is_said_so(work):
    meta = work / "witnesses.toml"
    meta.write_text(meta.read_text(encoding="utf-8").replace("[witness.files]\n", '[witness.files]\n0 = "x.txt"\n', 1))
    assert_one_line(
        edition("check", "--sources", work), "files: unknown field(s) '0' (expected a chapter number from 1)"
    )


@pytest.mark.parametrize(
    "error,said",
    [
        (
            OSError(errno.ENOSPC, "No space left on device", "/full/disk/file"),
            "/full/disk/file: no space left on the device",
        ),
        (
            shutil.Error([(f"/from/{n}", f"/to/{n}", "[Errno 28] No space left on device") for n in range(500)]),
            "/to/0: [Errno 28] No space left on device (and 499 more file(s))",
        ),
    ],
)
def test_a_full_disk_is_one_short_line(tmp_path, monkeypatch, error, said):
    sources = sample_sources(tmp_path / "sources")
    before = snapshot(sources)
    from edition.work import chapter_build

    def full(*args, **kwargs):
        raise error

    monkeypatch.setattr(chapter_build, "CHAPTER_STAGES", (chapter_build.stage_witnesses, full))
    result = CliRunner().invoke(main, ["build", "--quiet", "--sources", str(sources), "--out", str(tmp_path / "b")])
    assert result.exit_code == 1
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and said in lines[0] and len(lines[0]) < 300, lines
    assert snapshot(sources) == before
