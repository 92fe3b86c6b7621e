"""The output folder: a build replaces it whole or not at all, whatever happens to the process
(kill -9 included); one build at a time; files no build made are never deleted unasked; errors are
one line; `make` tracks content, not mtimes.

The commands are the installed `edition`, on the one-witness sample, with a snapshot of the output
folder and its staging siblings taken before and after.
"""

import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from probe import SAMPLE, sample_sources, write_witness

from edition.errors import EditionError
from edition.publication import output, pdf
from edition.work.chapter_build import collate_only

pytestmark = pytest.mark.tier("build")  # builds through the installed command, interrupted, refused, repeated

ROOT = Path(__file__).resolve().parent.parent
EDITION = Path(sys.prefix) / "bin" / "edition"
CHANGED = SAMPLE.replace("司射降自西阶", "司射降自东阶")
FOREIGN = ["pdf/thesis.tex", "site/important.txt", "witnesses/mine.xml"]


@pytest.fixture
def edition():
    """Run the installed command; with `wait=False`, start it and return the process."""

    def run(*args, wait: bool = True):
        command = [str(EDITION), *map(str, args)]
        if wait:
            return subprocess.run(command, capture_output=True, text=True)
        return subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

    return run


def build_args(out: Path, command: str = "build") -> list:
    return [command, "--quiet", "--sources", out.parent / "sources", "--out", out]


@pytest.fixture(scope="module")
def first_build(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("first")
    sample_sources(root / "sources")
    result = subprocess.run([str(EDITION), *map(str, build_args(root / "build"))], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    return root


@pytest.fixture
def old_build(tmp_path, first_build) -> Path:
    """A build of the sample in `build/`, its sources beside it in `sources/`."""
    for name in ("sources", "build"):
        shutil.copytree(first_build / name, tmp_path / name)
    return tmp_path / "build"


def change_witness(out: Path) -> None:
    write_witness(out.parent / "sources", "A", "a.txt", CHANGED.encode("utf-8"))


def snapshot(out: Path) -> dict[str, str]:
    """sha256 of every file under `out` and under its staging siblings, by path. The lock file is
    left out: it stays once a build has taken it, holding that build's pid."""
    found = {}
    for top in sorted(out.parent.iterdir()):
        if top == out or top.name.startswith(f".{out.name}.") and top.name != f".{out.name}.lock":
            files = [top] if top.is_file() else [p for p in top.rglob("*") if not p.is_dir()]
            found |= {p.relative_to(out.parent).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest() for p in files}
    return found


def stagings(out: Path) -> list[Path]:
    return [p for p in out.parent.iterdir() if p.name.startswith(f".{out.name}.staging-")]


def assert_complete(out: Path) -> dict:
    """A whole build: exactly the files its manifest lists, with their hashes, and nothing beside."""
    manifest = json.loads((out / output.MANIFEST).read_text())
    files = {
        p.relative_to(out).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest() for p in out.rglob("*") if p.is_file()
    }
    del files[output.MANIFEST]
    assert files == manifest["files"]
    assert {p.split("/")[0] for p in files} == {"edition.pdf", "edition.xml", "pdf", "reports", "site", "witnesses"}
    assert not stagings(out)
    return manifest


def assert_one_line_error(result, *fragments) -> str:
    assert result.returncode == 1, result.stderr
    assert result.stdout == "" and "Traceback" not in result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("edition: error: "), result.stderr
    for fragment in fragments:
        assert fragment in lines[0], (fragment, lines[0])
    return lines[0]


def working_in(folder: Path) -> list[int]:
    """Live processes whose current folder is under `folder`: the typesetting, in a staging folder."""
    found = []
    for proc in Path("/proc").iterdir():
        try:
            cwd = os.readlink(proc / "cwd")
            state = (proc / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except (OSError, IndexError):
            continue
        if cwd.startswith(f"{folder}/") and state not in "ZX":
            found.append(int(proc.name))
    return found


def wait_until(condition, seconds: float = 300):
    """Poll `condition` until it holds (this is a wait for a moment of the build, not a timing)."""
    deadline = time.monotonic() + seconds
    while not (held := condition()) and time.monotonic() < deadline:
        time.sleep(0.02)
    return held


def reached(moment: str, out: Path) -> bool:
    if moment == "intake":
        return bool(stagings(out))
    if moment == "typesetting":
        return bool(working_in(out.parent))
    return any((staging / "site").is_dir() for staging in stagings(out))


@pytest.mark.parametrize("moment", ["intake", "typesetting", "site"])
def test_kill_9_leaves_the_previous_build_and_the_next_build_sweeps(old_build, edition, moment):
    out = old_build
    before = snapshot(out)
    change_witness(out)
    process = edition(*build_args(out), wait=False)
    wait_until(lambda: reached(moment, out) or process.poll() is not None)
    assert process.poll() is None, f"the build ended before {moment}: {process.communicate()}"
    process.kill()
    process.communicate()
    assert wait_until(lambda: not working_in(out.parent)), "xelatex outlived the build"
    left = snapshot(out)
    assert {p: h for p, h in left.items() if p.startswith("build/")} == before
    assert stagings(out), "a killed build leaves its staging folder"
    result = edition(*build_args(out))
    assert result.returncode == 0, result.stderr
    assert_complete(out)
    assert "东阶" in (out / "edition.xml").read_text()


@pytest.mark.tier("typeset")
def test_a_typesetting_program_dies_with_the_build_even_by_kill_9(tmp_path):
    """Killed with the build's Python, a silent child dies too (a chatty one would die anyway, of
    SIGPIPE on its next write)."""
    script = (
        "import pathlib, sys; from edition.publication.pdf import run_child; "
        "run_child(['sleep', '600'], pathlib.Path(sys.argv[1]))"
    )
    (tmp_path / "pdf").mkdir()
    process = subprocess.Popen([sys.executable, "-c", script, str(tmp_path / "pdf")])
    assert wait_until(lambda: working_in(tmp_path) or process.poll() is not None) and process.poll() is None
    process.kill()
    process.wait()
    assert wait_until(lambda: not working_in(tmp_path))


@pytest.mark.tier("typeset")
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_while_typesetting_stops_everything_and_leaves_the_previous_build(old_build, edition, signum):
    out = old_build
    change_witness(out)
    before = snapshot(out)
    process = edition(*build_args(out), wait=False)
    wait_until(lambda: working_in(out.parent) or process.poll() is not None)
    assert process.poll() is None, process.communicate()
    process.send_signal(signum)
    stdout, stderr = process.communicate()
    result = subprocess.CompletedProcess(process.args, process.returncode, stdout, stderr)
    assert_one_line_error(result, f"interrupted by {signal.Signals(signum).name}", "left as it was")
    assert not working_in(out.parent)
    assert snapshot(out) == before


def test_a_second_build_into_the_same_folder_stops_at_once(old_build, edition):
    out = old_build
    change_witness(out)
    first = edition(*build_args(out), wait=False)
    wait_until(lambda: stagings(out) or first.poll() is not None)
    assert first.poll() is None, first.communicate()
    os.kill(first.pid, signal.SIGSTOP)  # the first build holds the lock for as long as the second runs
    try:
        before = snapshot(out)
        second = edition(*build_args(out))
        assert_one_line_error(second, f"{out}: another build into it is running (pid {first.pid})")
        assert snapshot(out) == before
    finally:
        os.kill(first.pid, signal.SIGCONT)
    assert first.wait() == 0
    assert_complete(out)


def test_a_folder_with_files_no_build_made_is_refused_unless_forced(tmp_path, edition):
    sample_sources(tmp_path / "sources")
    out = tmp_path / "mine"
    for relative in FOREIGN:
        (out / relative).parent.mkdir(parents=True, exist_ok=True)
        (out / relative).write_text("mine")
    before = snapshot(out)
    assert_one_line_error(edition(*build_args(out)), "holds files no build made", *FOREIGN, "--force")
    assert snapshot(out) == before
    result = edition(*build_args(out), "--force")
    assert result.returncode == 0, result.stderr
    assert_complete(out)
    assert not [relative for relative in FOREIGN if (out / relative).exists()]


@pytest.mark.parametrize("command", ["build", "collate"])
def test_a_file_added_to_a_build_is_not_deleted(old_build, edition, command):
    out = old_build
    (out / "site" / "important.txt").write_text("mine")
    before = snapshot(out)
    assert_one_line_error(edition(*build_args(out, command)), "holds files no build made (site/important.txt)")
    assert snapshot(out) == before


def test_an_output_that_is_a_file_is_refused(tmp_path, edition):
    sample_sources(tmp_path / "sources")
    out = tmp_path / "README.md"
    shutil.copy(ROOT / "README.md", out)
    before = snapshot(out)
    assert_one_line_error(edition(*build_args(out)), f"{out}: is a file, not a folder")
    assert snapshot(out) == before


@pytest.mark.parametrize("pinned", [".", "site"])
def test_an_immutable_output_is_refused_before_anything_changes(old_build, edition, pinned):
    out = old_build
    folder = (out / pinned).resolve()
    if shutil.which("chattr") is None or subprocess.run(["chattr", "+i", folder], capture_output=True).returncode != 0:
        pytest.skip("chattr +i is not available here (it needs root and a filesystem such as ext4)")
    try:
        change_witness(out)
        before = snapshot(out)
        assert_one_line_error(edition(*build_args(out)), f"{folder}: cannot be written")
        assert snapshot(out) == before
    finally:
        subprocess.run(["chattr", "-i", folder], check=True)


def pinned(path: Path) -> None:
    if shutil.which("chattr") is None or subprocess.run(["chattr", "+i", path], capture_output=True).returncode != 0:
        pytest.skip("chattr +i is not available here (it needs root and a filesystem such as ext4)")


def test_a_stale_staging_folder_that_cannot_be_removed_does_not_block_the_build(old_build, edition):
    out = old_build
    stuck = out.with_name(".build.staging-1-0000") / "edition.xml"
    stuck.parent.mkdir()
    stuck.write_text("left by a killed build")
    pinned(stuck)
    try:
        change_witness(out)
        result = edition(*build_args(out))
        assert result.returncode == 0, result.stderr
        assert result.stderr.startswith("edition: warning: ") and f"{stuck}: Operation not permitted" in result.stderr
        assert "Traceback" not in result.stderr and stuck.read_text() == "left by a killed build"
    finally:
        subprocess.run(["chattr", "-i", stuck], check=True)


def test_a_previous_build_that_cannot_be_removed_is_a_warning_and_the_next_build_clears_it(old_build, edition):
    out = old_build
    stuck = out / "edition.xml"
    pinned(stuck)
    try:
        change_witness(out)
        result = edition(*build_args(out))
        assert result.returncode == 0, result.stderr
        assert (
            "warning" in result.stderr
            and "the new build is in place, but the previous one could not be removed" in result.stderr
        )
        assert "Traceback" not in result.stderr and (out / "edition.xml").read_bytes() != b""
        leftovers = [p for p in out.parent.iterdir() if ".staging-" in p.name]
        assert len(leftovers) == 1
    finally:
        subprocess.run(["chattr", "-i", leftovers[0] / "edition.xml" if leftovers else stuck], check=True)
    again = edition(*build_args(out))
    assert again.returncode == 0 and again.stderr == "", again.stderr
    assert not [p for p in out.parent.iterdir() if ".staging-" in p.name]


@pytest.fixture
def small_disk(tmp_path):
    disk = tmp_path / "disk"
    disk.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", disk], capture_output=True).returncode != 0:
        pytest.skip("cannot mount a small tmpfs here (it needs root)")
    yield disk
    subprocess.run(["umount", disk], check=True)


def test_a_full_disk_is_one_line_and_leaves_the_previous_build(old_build, edition, small_disk):
    out = small_disk / "build"
    shutil.copytree(old_build, out)
    (small_disk / ".build.lock").write_text("0\n")
    change_witness(old_build)
    with (small_disk / "filler").open("wb", buffering=0) as filler:
        with pytest.raises(OSError, match="No space left"):
            while True:
                filler.write(b"\0" * 4096)
    before = snapshot(out)
    result = edition("build", "--quiet", "--sources", old_build.parent / "sources", "--out", out)
    assert_one_line_error(result, "no space left on the device", "left as it was")
    assert snapshot(out) == before


@pytest.mark.tier("typeset")
def test_a_typesetting_failure_names_a_log_that_is_kept(old_build, edition):
    out = old_build
    config = out.parent / "sources" / "edition.toml"
    config.write_text(config.read_text().replace('title = "t"', 'title = "缺\U000f0001字"'))
    before = snapshot(out)
    line = assert_one_line_error(edition(*build_args(out)), "missing from the fonts", "U+F0001")
    log = Path(line.removeprefix("edition: error: ").split(": ")[0])
    try:
        assert log.name == "edition.log" and "Missing character" in log.read_text()
        assert (log.parent / "edition.tex").is_file() and not log.is_relative_to(out.parent)
    finally:
        shutil.rmtree(log.parent)
    assert snapshot(out) == before


@pytest.mark.tier("typeset")
def test_a_latex_error_is_its_first_line_and_the_kept_log(tmp_path):
    with pytest.raises(EditionError) as raised:
        pdf.compile_pdf(
            "\\documentclass{article}\n\\begin{document}\n\\undefinedmacro\n\\end{document}\n", tmp_path / "pdf"
        )
    log = Path(raised.value.path)
    try:
        assert "XeLaTeX failed: ./edition.tex:3: Undefined control sequence" in raised.value.message
        assert log.read_text().count("Undefined control sequence")
    finally:
        shutil.rmtree(log.parent)


@pytest.mark.tier("typeset")
def test_a_rebuild_with_unchanged_latex_keeps_the_pdf(old_build, edition):
    out = old_build

    def typeset():
        return {p: h for p, h in snapshot(out).items() if p == "build/edition.pdf" or p.startswith("build/pdf/")}

    before = typeset()
    result = edition("build", "--sources", out.parent / "sources", "--out", out)
    assert result.returncode == 0, result.stderr
    assert "edition.pdf: unchanged" in result.stderr
    assert typeset() == before
    assert_complete(out)


def test_collate_replaces_the_edition_and_keeps_the_other_products(old_build, edition):
    out = old_build
    change_witness(out)
    before = snapshot(out)
    result = edition(*build_args(out, "collate"))
    assert result.returncode == 0, result.stderr
    after = snapshot(out)
    changed = {p for p in before.keys() | after.keys() if before.get(p) != after.get(p)}
    assert {"build/edition.xml", "build/.edition-manifest.json"} <= changed
    assert all(
        p in ("build/edition.xml", "build/.edition-manifest.json") or p.startswith("build/reports/") for p in changed
    )
    assert assert_complete(out)["inputs"] is None, "its products are of two builds: make builds again"


def test_without_rename_exchange_the_output_is_switched_by_renames(old_build, monkeypatch):
    out = old_build
    change_witness(out)
    monkeypatch.setattr(output, "exchange", lambda a, b: False)
    collate_only(out.parent / "sources", out)
    assert_complete(out)
    assert "东阶" in (out / "edition.xml").read_text()
    assert sorted(p.name for p in out.parent.iterdir()) == [".build.lock", "build", "sources"]


def test_a_previous_build_parked_by_a_killed_switch_is_put_back(old_build, edition):
    out = old_build
    before = snapshot(out)
    out.rename(out.with_name(".build.previous-1-0000"))
    (out.with_name(".build.staging-1-0000") / "reports").mkdir(parents=True)
    write_witness(out.parent / "sources", "A", "a.txt", b"")
    assert_one_line_error(edition(*build_args(out)), "a.txt", "empty witness file")
    assert snapshot(out) == before


def test_make_builds_again_when_a_witness_changes_with_an_older_mtime(old_build, tmp_path):
    out = old_build
    sources = out.parent / "sources"
    make = ["make", "edition", f"SOURCES={sources}", f"OUT={out}"]
    assert "is up to date" in subprocess.run(make, cwd=ROOT, capture_output=True, text=True, check=True).stdout
    replacement = tmp_path / "a.txt"
    replacement.write_text(CHANGED)
    os.utime(replacement, (1_000_000_000, 1_000_000_000))
    subprocess.run(["cp", "-p", replacement, sources / "a.txt"], check=True)
    assert (sources / "a.txt").stat().st_mtime < (out / output.MANIFEST).stat().st_mtime
    result = subprocess.run(make, cwd=ROOT, capture_output=True, text=True, check=True)
    assert "edition build" in result.stdout
    assert "东阶" in (out / "edition.xml").read_text()
    assert "is up to date" in subprocess.run(make, cwd=ROOT, capture_output=True, text=True, check=True).stdout
