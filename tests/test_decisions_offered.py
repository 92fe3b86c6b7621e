"""The editor's own files meet the collation (issue 41), through the installed command: every
decision the collation report offers is valid as it stands and applies; a decision that cannot
apply is stale in `check` and the build alike; a book of evidence is checked like a witness."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from conftest import WORK
from probe import assert_one_line, edition, snapshot

from edition.work.work_sources import export_work

pytestmark = pytest.mark.tier("build")  # a work of 士相見禮 built, and the command run on copies of it

CHAPTER = "03-士相見禮"


@pytest.fixture(scope="module")
def xiangjian(tmp_path_factory) -> tuple[Path, Path]:
    """A work of 士相見禮 alone (SBCK, WYG, the 單疏本 and the 識誤), built once."""
    root = tmp_path_factory.mktemp("xiangjian")
    sources = export_work(WORK, (3,), root / "sources")
    result = edition("build", "--quiet", "--sources", sources, "--out", root / "build")
    assert result.returncode == 0, result.stderr
    return sources, root / "build"


@pytest.fixture
def project(xiangjian, tmp_path) -> tuple[Path, Path]:
    sources, build = tmp_path / "sources", tmp_path / "build"
    shutil.copytree(xiangjian[0], sources)
    shutil.copytree(xiangjian[1], build)
    return sources, build


def offered(build: Path) -> list[str]:
    """The decisions the collation report offers, as written there."""
    report = json.loads((build / "chapters" / CHAPTER / "reports" / "collation.json").read_text(encoding="utf-8"))
    return [c["decision"] for c in report["candidates"] if "decision" in c]


def pasted(sources: Path, stanzas: list[str]) -> Path:
    path = sources / "chapters" / CHAPTER / "decisions.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text('[editors]\ned = "editor"\n' + "".join(f"\n{s}" for s in stanzas), encoding="utf-8")
    return path


def applied(build: Path) -> list[dict]:
    report = build / "chapters" / CHAPTER / "reports" / "decisions.json"
    return json.loads(report.read_text(encoding="utf-8"))["decisions"]


def checked_and_built(project) -> list[dict]:
    """`check` finds nothing, the build succeeds, and every decision is applied."""
    sources, build = project
    checked = edition("check", "--sources", sources)
    assert checked.returncode == 0 and not checked.stdout.strip(), checked.stdout + checked.stderr
    built = edition("build", "--quiet", "--sources", sources, "--out", build)
    assert built.returncode == 0, built.stderr
    decisions = applied(build)
    assert [d["stale"] for d in decisions if d["stale"]] == []
    return decisions


def test_every_decision_the_report_offers_is_valid_as_written_and_applies(project):
    """The candidates of both layers, an omission's (the lemma reads nothing) and an addition's
    (empty brackets) among them, pasted as an editor accepting them all would."""
    stanzas = offered(project[1])
    assert any('reading = ""' in s for s in stanzas), "an omission is offered"
    assert any("[]" in s for s in stanzas), "an addition is offered"
    assert any('layer = "注"' in s for s in stanzas) and any("layer" not in s for s in stanzas)
    pasted(project[0], stanzas)
    decisions = checked_and_built(project)
    assert len(decisions) == len(stanzas)
    assert all(d["applied_to"] for d in decisions)


def test_every_candidate_turned_into_a_note_applies(project):
    notes = [
        "\n".join(
            line
            for line in stanza.replace('kind = "lemma"', 'kind = "note"\ntext = "按"').splitlines()
            if line.split(" = ")[0] not in ("reading", "basis", "reason")
        )
        + "\n"
        for stanza in offered(project[1])
    ]
    pasted(project[0], notes)
    assert all(d["applied_to"].startswith(("app-", "zhu-app-")) for d in checked_and_built(project))


def test_a_note_at_empty_brackets_where_no_witness_adds_is_stale_in_check_and_in_the_build(project):
    """Empty brackets name a gap: a note there needs an entry there (an addition)."""
    sources, build = project
    path = pasted(
        sources, ['[[decision]]\nkind = "note"\ncontext = "[]士相見之禮摯冬用雉"\ntext = "按"\nresp = "ed"\n']
    )
    checked = edition("check", "--sources", sources)
    assert checked.returncode == 1
    assert re.fullmatch(
        rf"{re.escape(str(path))}:\d+: decision 1 \(note\) is stale: no entry stands at the empty brackets[^\n]*\n",
        checked.stdout,
    ), checked.stdout
    built = edition("build", "--sources", sources, "--out", build)
    assert built.returncode == 0 and "stale decision 1" in built.stderr
    assert applied(build)[0]["stale"].startswith("no entry stands")


# --- books of evidence, checked like witnesses ---------------------------------------------------


def evidence_refused(project, old: str, new: str, *fragments: str) -> None:
    """The work's witnesses.toml changed so: `check` and the build give one line, the build is as it was."""
    sources, build = project
    meta = sources / "witnesses.toml"
    text = meta.read_text(encoding="utf-8")
    assert old in text
    meta.write_text(text.replace(old, new, 1), encoding="utf-8")
    before = snapshot(build)
    checked = assert_one_line(edition("check", "--sources", sources), *fragments)
    built = assert_one_line(edition("build", "--quiet", "--sources", sources, "--out", build), *fragments)
    assert checked in built
    assert snapshot(build) == before


def test_a_book_of_evidence_with_a_witness_siglum_is_one_line(project):
    evidence_refused(
        project, 'siglum = "SHU"', 'siglum = "WYG"', "witnesses.toml:", "evidence WYG: the siglum is taken by a witness"
    )


def test_two_books_of_evidence_with_one_siglum_is_one_line(project):
    evidence_refused(
        project, 'siglum = "SW"', 'siglum = "SHU"', "evidence SHU: the siglum is taken by a book of evidence"
    )


def test_an_edition_folder_given_as_evidence_is_one_line(project):
    evidence_refused(
        project, 'folder = "SHU"', 'folder = "WYG"', "evidence SHU: folder 'WYG' holds witness WYG's files"
    )


def test_a_chapter_folder_given_as_evidence_is_one_line(project):
    evidence_refused(project, 'folder = "SHIWU"', 'folder = "chapters"', "holds the witnesses' files", "no witness")


def test_a_book_of_evidence_of_another_kind_is_one_line(project):
    """The 識誤's folder described as the 單疏本's kind: its reader finds no chapter there."""
    shutil.rmtree(project[0] / "SHU")
    evidence_refused(
        project,
        'folder = "SHU"',
        'folder = "SHIWU"',
        "witnesses.toml:",
        "evidence SHU: its folder 'SHIWU' holds no chapter of the work as a book of kind 'subcommentary-quotations'",
    )


def test_a_chapter_witness_with_the_siglum_of_a_book_of_evidence_is_one_line(project):
    sources, _ = project
    folder = sources / "chapters" / CHAPTER
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copy(WORK / "SBCK" / "KR1d0026_003.txt", folder / "x.txt")
    (folder / "witnesses.toml").write_text(
        '[[witness]]\nsiglum = "SW"\nfile = "x.txt"\ntitle = "x"\nscript = "traditional"\nprofile = "mandoku-notes"\n',
        encoding="utf-8",
    )
    line = assert_one_line(edition("check", "--sources", sources), "witnesses.toml:2:", "taken by a book of evidence")
    assert CHAPTER in line
