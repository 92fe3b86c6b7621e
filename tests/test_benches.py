"""Each bench's smoke mode runs the bench's real code path at small sizes: an API change that
breaks a bench fails here."""

import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.tier("build")  # each bench's smoke mode, a process that builds or collates

BENCH = Path(__file__).resolve().parent.parent / "bench"


def test_collate_vs_collatex_smoke():
    result = subprocess.run(
        [sys.executable, str(BENCH / "collate_vs_collatex"), "--smoke"], capture_output=True, text=True, timeout=300
    )  # about a minute alone; a tier runs its files two at a time on two cores
    assert result.returncode == 0, result.stderr[-2000:]
    assert "× faster" in result.stdout and "units" in result.stdout and "RESULT:" in result.stdout


def smoke(name: str, timeout: int, *options: str) -> str:
    result = subprocess.run(
        [sys.executable, str(BENCH / name), "--smoke", *options], capture_output=True, text=True, timeout=timeout
    )
    assert result.returncode == 0, (result.stdout + result.stderr)[-2000:]
    return result.stdout


def test_kanripo_variants_smoke_derives_forms_without_writing_the_table():
    from edition.intake.variants import KANRIPO_NORMALIZED, KANRIPO_STANDARD_TEXT

    before = KANRIPO_NORMALIZED.read_bytes()
    standard_before = KANRIPO_STANDARD_TEXT.read_bytes()
    # 卷三 of the 儀禮's SBCK and WYG, cuts of the 禮記's SBCK and 正文, from tests/fixtures/kanripo
    output = smoke("kanripo_variants", 60)
    for line, table in zip(output.splitlines(), (before, standard_before)):
        assert "variant forms, e.g. " in line
        variant, standard = line.split("e.g. ")[1].split("\t")[:2]
        assert f"\n{variant}\t{standard}\t" in table.decode("utf-8"), "a form the whole table has too"
    assert KANRIPO_NORMALIZED.read_bytes() == before
    assert KANRIPO_STANDARD_TEXT.read_bytes() == standard_before


def test_large_witness_smoke_checks_each_variant():
    output = smoke("large_witness", 300)
    assert output.count("edition check  0.2 MB") == 4 and "RESULT: all targets met" in output


def test_whole_work_smoke_builds_rebuilds_and_finds_nothing_to_do():
    output = smoke("whole_work", 600)
    assert "run 1: cold" in output and "no change" in output and "peak memory" in output and "extrapolated" in output


def test_whole_work_scale_smoke_builds_a_work_of_perturbed_copies():
    output = smoke("whole_work", 300, "--scale", "2")
    assert "scale 2: 2 chapters" in output and "cold s" in output and "peak memory" in output


def test_budget_smoke_stops_a_runaway_pattern():
    assert "idle: stopped after" in smoke("budget", 60)


def test_whole_work_intake_smoke_reads_the_juanshou_and_the_first_juan():
    assert "intake of 3 files:" in smoke("whole_work_intake", 120)


def test_whole_work_scale_collates_the_perturbed_yanli_that_broke_the_rules():
    """The seventh copy of 燕禮 in the scale bench (chapter 108, from the bench's seed), collated
    and its TEI validated: it broke the rule that every witness is attested once (issue 42)."""
    result = subprocess.run(
        [sys.executable, str(BENCH / "whole_work"), "--scale", "7", "--collate", "--only", "108"],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, (result.stdout + result.stderr)[-2000:]
    assert "collation and TEI of 1 chapter(s)" in result.stdout and "RESULT: every chapter valid" in result.stdout


def test_punctuation_smoke_scores_the_held_out_chapter():
    output = smoke("punctuation", 300)
    assert "trained without 鄉射禮" in output and "鄉射禮 經 vs 001" in output and "鄉射禮 注 vs 002" in output
    assert "禮記 held-out 篇 (shipped)" in output and "all P" in output
