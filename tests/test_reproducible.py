"""A build is reproducible: the same sources give the same products byte for byte, whatever the
process's hash seed, with the time stamps fixed (SOURCE_DATE_EPOCH), but for the build's own
timings. `make digest` relies on it to show that a restructuring left the products as they were."""

import hashlib
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import exported_chapter

pytestmark = pytest.mark.tier("build")  # two builds compared

EDITION = Path(sys.executable).parent / "edition"
TIMINGS = {"build.json", ".edition-manifest.json"}


def products(out: Path) -> dict[str, str]:
    return {
        str(p.relative_to(out)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(out.rglob("*"))
        if p.is_file() and p.name not in TIMINGS
    }


def test_two_builds_with_different_hash_seeds_are_the_same_byte_for_byte(tmp_path):
    sources = exported_chapter(3)
    found = []
    for seed in ("1", "2"):
        out = tmp_path / f"build-{seed}"
        env = os.environ | {"PYTHONHASHSEED": seed, "SOURCE_DATE_EPOCH": "946684800", "FORCE_SOURCE_DATE": "1"}
        subprocess.run(
            [str(EDITION), "build", "--quiet", "--sources", str(sources), "--out", str(out)],
            env=env,
            check=True,
            capture_output=True,
        )
        found.append(products(out))
    assert found[0].keys() == found[1].keys() and len(found[0]) > 40
    assert [name for name in found[0] if found[0][name] != found[1][name]] == []


def test_a_font_is_cut_to_the_same_bytes_whenever_it_is_cut(monkeypatch):
    """A cut font is remembered across builds (~/.cache/edition/fonts), so it may not carry the
    time it was cut: a build with the time stamps fixed and one without share the cut."""
    from fontTools.ttLib import TTCollection

    from edition.publication.chapter_site import NOTO, cut_font

    fonts = TTCollection(str(NOTO), lazy=True).fonts
    number = next(i for i, f in enumerate(fonts) if f["name"].getDebugName(1) == "Noto Serif CJK TC")
    cuts = []
    for epoch in ("946684800", "1700000000"):
        monkeypatch.setenv("SOURCE_DATE_EPOCH", epoch)
        cuts.append(cut_font(NOTO, number, set("鄕射之禮主人戒賓")))
    assert cuts[0] == cuts[1]
