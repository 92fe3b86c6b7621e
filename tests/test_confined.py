"""Nothing written outside the output folder, no witness silently dropped (issue 19), through the
installed command: names from the sources that become paths, links out of the sources, folders
that are no chapter's, killed builds and adds, and what a build says when it cannot tidy up."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import time
from pathlib import Path

import pytest
import tomlkit
from click.testing import CliRunner
from conftest import WORK, sample_work
from probe import COMMAND, assert_one_line, edition, snapshot

from edition.cli import main
from edition.work.work_sources import Chapter, Work

pytestmark = pytest.mark.tier("build")  # works built and witnesses added through the installed command

SHORTEST = 3  # 士相見禮


def retitled(sources: Path, number: int, title: str) -> None:
    path = sources / "work.toml"
    settings = tomlkit.parse(path.read_text(encoding="utf-8"))
    next(c for c in settings["chapter"] if c["number"] == number)["title"] = title
    path.write_text(tomlkit.dumps(settings), encoding="utf-8")


@pytest.mark.parametrize(
    "title", ["../../../../../NAME", "士相/見禮", "士相見禮\\input{/etc/passwd}\\write18{rm}", ".."]
)
def test_a_chapter_title_becomes_one_safe_name(title):
    folder = Chapter(3, title, title).folder
    assert folder.startswith("03") and "/" not in folder and "\\" not in folder and ".." not in folder
    assert not set(folder) & set("%#{}~^$&_ ")


def test_a_chapter_titled_as_a_path_is_built_inside_the_output_folder(tmp_path):
    sources = sample_work(tmp_path / "sources", (SHORTEST,))
    retitled(sources, SHORTEST, "../../../../../NAME")
    (sources / "chapters").mkdir(exist_ok=True)
    before = {p.name for p in tmp_path.parent.iterdir()}, snapshot(sources)
    result = edition("build", "--quiet", "--sources", sources, "--out", tmp_path / "build")
    assert result.returncode == 0, result.stderr
    assert ({p.name for p in tmp_path.parent.iterdir()}, snapshot(sources)) == before
    assert (tmp_path / "build" / "chapters" / "03-NAME" / "edition.xml").is_file()
    assert sorted(p.name for p in tmp_path.iterdir()) == [".build.lock", "build", "sources"]


@pytest.fixture
def work(tmp_path) -> Path:
    """A work of one chapter and 鄉射禮, with its own witnesses, not built."""
    return sample_work(tmp_path / "sources", (SHORTEST, 5))


def refused_by_check_and_build(sources: Path, out: Path, *fragments: str) -> None:
    before = snapshot(sources.parent)
    assert_one_line(edition("check", "--sources", sources), *fragments)
    assert_one_line(edition("build", "--quiet", "--sources", sources, "--out", out), *fragments)
    after = snapshot(sources.parent)
    after.pop(".build.lock", None)  # the build's own lock, beside the output folder
    assert after == before


def test_a_chapter_folder_under_a_wrong_name_is_one_line_naming_the_chapter_meant(work):
    os.rename(work / "chapters" / "05-鄉射禮", work / "chapters" / "5-鄉射禮")
    refused_by_check_and_build(
        work, work.parent / "build", "5-鄉射禮: is no chapter's folder", "did you mean 05-鄉射禮?"
    )


def test_a_folder_inside_a_chapter_folder_is_one_line(work):
    inner = work / "chapters" / "05-鄉射禮" / "more"
    inner.mkdir()
    shutil.copyfile(work / "chapters" / "05-鄉射禮" / "003_8a6b6ef554a3cf1d.txt", inner / "x.txt")
    refused_by_check_and_build(work, work.parent / "build", "more: a folder inside a chapter's folder is not read")


def test_a_witness_file_without_a_stanza_in_a_chapter_folder_is_one_line(work):
    shutil.copyfile(
        work / "chapters" / "05-鄉射禮" / "003_8a6b6ef554a3cf1d.txt", work / "chapters" / "05-鄉射禮" / "stray.txt"
    )
    refused_by_check_and_build(work, work.parent / "build", "stray.txt: witness file has no metadata stanza")


def test_a_symlinked_profile_folder_outside_the_sources_is_refused(work, tmp_path):
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (outside / "evil.toml").write_text('[[rule]]\nname = "all"\nlayer = "classic"\npattern = \'[^\\n]+\'\n')
    (work / "profiles").symlink_to(outside)
    path = work / "chapters" / "05-鄉射禮" / "witnesses.toml"
    path.write_text(
        path.read_text(encoding="utf-8").replace('profile = "wuli-tongkao"', 'profile = "evil"'), encoding="utf-8"
    )
    refused_by_check_and_build(work, work.parent / "build", "evil.toml: layout profile 'evil' resolves outside")


def test_an_output_folder_under_a_file_is_named_as_such(work, tmp_path):
    (tmp_path / "README.md").write_text("mine")
    assert_one_line(
        edition("build", "--quiet", "--sources", work, "--out", tmp_path / "README.md" / "x"),
        "README.md is a file, not a folder",
    )


@pytest.mark.parametrize(
    "data,said", [(b"", "empty witness file"), (b"\x00\x01binary" * 50, "binary file, not a text witness")]
)
def test_an_empty_or_binary_file_is_said_to_be_so(work, tmp_path, data, said):
    path = tmp_path / "new.txt"
    path.write_bytes(data)
    assert_one_line(edition("add-witness", path, "--siglum", "N", "--sources", work), f"new.txt: {said}")


def test_a_symlinked_file_added_is_said_to_be_a_link(work, tmp_path):
    real = tmp_path / "real.txt"
    shutil.copyfile(WORK / "chapters" / "05-鄉射禮" / "003_8a6b6ef554a3cf1d.txt", real)
    (tmp_path / "link.txt").symlink_to(real)
    result = edition("add-witness", tmp_path / "link.txt", "--siglum", "N", "--sources", work)
    assert result.returncode == 0, result.stderr
    assert f"link.txt: is a symbolic link: what it points to ({real}) is copied in" in result.stderr


def juan_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "edition"
    folder.mkdir()
    for name in ("KR1d0028_003.txt", "KR1d0028_005.txt"):
        shutil.copyfile(WORK / "WYG" / name, folder / f"juan-{name[-7:]}")
    return folder


def test_a_folder_add_killed_after_its_copy_is_taken_up_by_the_retry(work, tmp_path):
    folder = juan_folder(tmp_path)
    stanzas = (work / "witnesses.toml").read_bytes()
    (work / "W2").mkdir()  # what a kill between the copy and the stanza leaves
    for path in folder.iterdir():
        shutil.copyfile(path, work / "W2" / path.name)
    (work / ".W2.adding").mkdir()  # and a copy of another, earlier kill
    (work / ".W2.adding" / "juan-003.txt").write_text("half")
    result = edition("add-witness", folder, "--siglum", "W2", "--sources", work)
    assert result.returncode == 0, result.stderr
    assert not (work / ".W2.adding").exists() and (work / "witnesses.toml").read_bytes() != stanzas
    assert Work.load(work).editions[-1].files == {3: ("juan-003.txt",), 5: ("juan-005.txt",)}


def test_a_folder_of_other_files_under_the_name_is_not_taken_up(work, tmp_path):
    folder = juan_folder(tmp_path)
    (work / "W2").mkdir()
    (work / "W2" / "mine.txt").write_text("mine")
    before = snapshot(work)
    assert_one_line(
        edition("add-witness", folder, "--siglum", "W2", "--sources", work),
        "W2: a folder of that name is already in the sources",
    )
    assert snapshot(work) == before


def test_a_folder_add_interrupted_leaves_nothing(work, tmp_path, monkeypatch):
    folder = juan_folder(tmp_path)
    before = snapshot(work)
    from edition.work import additions

    def killed(files):
        raise KeyboardInterrupt

    monkeypatch.setattr(additions, "write_together", killed)
    result = CliRunner().invoke(main, ["add-witness", str(folder), "--siglum", "W2", "--sources", str(work)])
    assert result.exit_code != 0
    assert snapshot(work) == before and not (work / "W2").exists() and not (work / ".W2.adding").exists()


def test_a_work_build_killed_in_its_parallel_phase_leaves_no_worker_and_no_lock(tmp_path):
    sources = sample_work(tmp_path / "sources", (SHORTEST, 10))
    out = tmp_path / "build"
    build = subprocess.Popen(
        [str(COMMAND), "build", "--sources", str(sources), "--out", str(out)],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        for line in build.stdout:
            if "process(es)" in line:  # the workers are forked once the schemas are compiled
                break
        workers = []
        for _ in range(600):
            workers = subprocess.run(["pgrep", "-P", str(build.pid)], capture_output=True, text=True).stdout.split()
            if len(workers) == 2:
                break
            time.sleep(0.1)
        assert workers, "the build forked no workers"
        time.sleep(1)
    finally:
        build.send_signal(signal.SIGKILL)
        build.wait()
    again = edition("build", "--quiet", "--sources", sources, "--out", out)
    assert "another build" not in again.stderr and "Traceback" not in again.stderr + build.stdout.read()
    assert again.returncode == 0, again.stderr
    assert not [pid for pid in workers if Path(f"/proc/{pid}").exists()]
    assert sorted(p.name for p in tmp_path.iterdir()) == [".build.lock", "build", "sources"]
