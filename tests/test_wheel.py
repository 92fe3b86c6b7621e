"""The package is complete as a wheel: built from the repository, installed in a fresh venv (its
dependencies taken from the test venv's), it builds a chapter with nothing of the repository
but the sources. The schemas, profiles, features, tables and templates all ship inside it."""

import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest
from conftest import ROOT, exported_chapter

from edition.publication.validate import tei_all_path

pytestmark = pytest.mark.tier("build")  # a wheel installed in a fresh venv builds a chapter


def run(*command, **options) -> str:
    result = subprocess.run([str(c) for c in command], capture_output=True, text=True, **options)
    assert result.returncode == 0, (result.stdout + result.stderr)[-2000:]
    return result.stdout


def checkout(folder: Path) -> Path:
    """The repository's files as a clone has them (tracked or new, not ignored): no build
    leftovers, and setuptools' own build folder kept out of the repository's build/."""
    listed = run("git", "ls-files", "-z", "--cached", "--others", "--exclude-standard", cwd=ROOT).split("\0")
    for name in filter(None, listed):
        source, target = ROOT / name, folder / name
        if source.is_symlink() or source.is_file():
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target, follow_symlinks=False)
    return folder


def test_a_wheel_installs_in_a_fresh_venv_and_builds_a_chapter(tmp_path):
    tree = checkout(tmp_path / "repository")
    run(
        sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation", "-w", tmp_path / "wheels", tree
    )
    (wheel,) = (tmp_path / "wheels").glob("edition-*.whl")
    venv = tmp_path / "venv"
    run(sys.executable, "-m", "venv", venv)
    python = venv / "bin" / "python"
    site = Path(run(python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])").strip())
    (site / "dependencies.pth").write_text(
        sysconfig.get_paths()["purelib"] + "\n"
    )  # a path line: its own .pth files are not run
    run(python, "-m", "pip", "install", "-q", "--no-deps", wheel)
    assert run(python, "-c", "import edition; print(edition.__file__)", cwd=tmp_path).startswith(str(site))
    sources, out = exported_chapter(3), tmp_path / "build"
    env = os.environ | {"EDITION_TEI_ALL": str(tei_all_path())}
    run(venv / "bin" / "edition", "build", "--quiet", "--sources", sources, "--out", out, cwd=tmp_path, env=env)
    assert (
        (out / "edition.xml").is_file()
        and (out / "site" / "index.html").is_file()
        and (out / "edition.pdf").stat().st_size > 10_000
    )
    # a new work from the installed package's files: its skeleton and the persons its base names
    base = ROOT / "tests" / "fixtures" / "kanripo" / "KR1d0054-SBCK"
    run(venv / "bin" / "edition", "init", base, "--sources", tmp_path / "new", cwd=tmp_path)
    assert "zheng-xuan" in (tmp_path / "new" / "persons.tsv").read_text(encoding="utf-8")
