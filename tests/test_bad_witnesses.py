"""One bad witness must not knock a good one out (issue 44): a file that the collation rightly leaves
out decides nothing of another witness's layers, so WYG reads as it did, through the installed
command, beside each of several kinds of bad file added to 士相見禮."""

from __future__ import annotations

import json
import random
import re
import shutil
from pathlib import Path

import pytest
from conftest import WORK
from probe import edition

from edition.work.work_sources import Work, export_chapter

pytestmark = pytest.mark.tier("build")  # each case collates a real chapter through the command

SBCK = (WORK / "SBCK" / "KR1d0026_003.txt").read_text(encoding="utf-8")
WYG = (WORK / "WYG" / "KR1d0028_003.txt").read_text(encoding="utf-8")
HEADER_LINES = 4


def body_of(text: str) -> tuple[str, str]:
    lines = text.splitlines(keepends=True)
    return "".join(lines[:HEADER_LINES]), "".join(lines[HEADER_LINES:])


def unbalanced(text: str) -> str:
    """Every other closing parenthesis of its notes left out."""
    pieces = text.split(")")
    return "".join(piece + (")" if i % 2 else "") for i, piece in enumerate(pieces[:-1])) + pieces[-1]


def random_han(seed: int = 7) -> str:
    rng = random.Random(seed)
    alphabet = sorted(set(re.findall(r"[\u4e00-\u9fff]", SBCK)))
    return "".join("".join(rng.choice(alphabet) for _ in range(18)) + "\n" for _ in range(400))


BAD = {
    "SBCK without the parentheses of its notes": SBCK.replace("(", "").replace(")", ""),
    "WYG without its notes": re.sub(r"\([^()]*\)", "", WYG),
    "notes left unbalanced": unbalanced(SBCK),
    "random characters": random_han(),
    "characters reversed": (lambda head, body: head + body[::-1])(*body_of(SBCK)),
    "another chapter": (WORK / "SBCK" / "KR1d0026_005.txt").read_text(encoding="utf-8"),
}


@pytest.fixture(scope="module")
def chapter(tmp_path_factory) -> tuple[Path, dict]:
    """士相見禮 as a one-chapter edition, collated once: its sources and WYG's figures."""
    root = tmp_path_factory.mktemp("xiangjian")
    work = Work.load(WORK)
    sources = export_chapter(work, work.chapter(3), root / "sources")
    return sources, figures(sources, root / "out")


def figures(sources: Path, out: Path) -> dict:
    """WYG's status and readings, and the entries, as the collation report gives them."""
    collated = edition("collate", "--quiet", "--sources", sources, "--out", out)
    assert collated.returncode == 0, collated.stderr
    report = json.loads((out / "reports" / "collation.json").read_text(encoding="utf-8"))
    statuses = {w["siglum"]: w for w in report["witnesses"]}
    wyg = statuses["WYG"]
    return {
        "quality": wyg["quality"],
        "included": wyg["included"],
        "readings": wyg["readings"],
        "units": report["units"],
        "X": statuses.get("X", {}).get("included"),
    }


@pytest.mark.parametrize("kind", BAD)
def test_a_bad_witness_beside_wyg_leaves_wyg_as_it_was(chapter, tmp_path, kind):
    """WYG's quality and inclusion as they were; where the bad file is left out, its readings and
    the entries too (notes left unbalanced are read well enough to be kept)."""
    sources, before = chapter
    copy = tmp_path / "sources"
    shutil.copytree(sources, copy)
    bad = tmp_path / "bad.txt"
    bad.write_text(BAD[kind], encoding="utf-8")
    added = edition("add-witness", bad, "--siglum", "X", "--sources", copy)
    assert added.returncode == 0, added.stdout + added.stderr
    after = figures(copy, tmp_path / "out")
    assert (after["quality"], after["included"]) == (before["quality"], before["included"]), kind
    if not after["X"]:  # left out, it changes nothing of the apparatus
        assert (after["readings"], after["units"]) == (before["readings"], before["units"]), kind
