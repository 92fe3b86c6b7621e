"""Inputs that stopped the build where they should not (issue 43), through the installed command:
a chapter heading with `--`, line and paragraph separators and format characters in the
sources' text, a scrambled witness the editor forces in. Each builds, or its decision is stale."""

from __future__ import annotations

import shutil

import pytest
import tomlkit
from conftest import WORK
from lxml import etree
from probe import SAMPLE, edition, sample_sources

from edition.work.work_sources import export_work

pytestmark = pytest.mark.tier("typeset")  # each case is built whole, its PDF typeset


def test_a_chapter_heading_with_two_hyphens_builds_the_work_and_is_in_no_comment(tmp_path):
    """The heading was written into an XML comment of the work's TEI, which cannot hold `--`."""
    sources = export_work(WORK, (3,), tmp_path / "sources")
    settings = sources / "work.toml"
    document = tomlkit.parse(settings.read_text(encoding="utf-8"))
    document["chapter"][0]["heading"] = '士相見禮第三 --><injected xmlns="x"/><!-- '
    settings.write_text(tomlkit.dumps(document), encoding="utf-8")
    checked = edition("check", "--sources", sources)
    assert checked.returncode == 0, checked.stdout
    built = edition("build", "--quiet", "--sources", sources, "--out", tmp_path / "build")
    assert built.returncode == 0, built.stderr
    tei = etree.parse(str(tmp_path / "build" / "edition.xml"))
    assert not tei.xpath("//comment()"), "no text of the sources in a comment"
    assert not tei.xpath("//*[local-name() = 'injected']")


def test_separators_and_format_characters_in_a_title_and_a_note_are_printed_as_what_they_stand_for(tmp_path):
    """U+2028 and U+2029 copied from a web page into a witness's title and an editor's note, a
    zero-width space and a direction mark into the note: whitespace, and nothing."""
    sources = sample_sources(tmp_path / "sources")
    meta = sources / "witnesses.toml"
    meta.write_text(meta.read_text(encoding="utf-8").replace('title = "sample"', 'title = "禮書\u2028綱目"'))
    (sources / "decisions.toml").write_text(
        '[editors]\ned = "editor"\n\n[[decision]]\nkind = "note"\ncontext = "请射于[賔]"\n'
        'text = "按\u2029賔字\u200b不誤\u200e"\nresp = "ed"\n',
        encoding="utf-8",
    )
    assert edition("check", "--sources", sources).returncode == 0
    built = edition("build", "--quiet", "--sources", sources, "--out", tmp_path / "build")
    assert built.returncode == 0, built.stderr
    tei = (tmp_path / "build" / "edition.xml").read_text(encoding="utf-8")
    assert "禮書 綱目" in tei and "按 賔字不誤" in tei
    for char in "\u2028\u2029\u200b\u200e":
        assert char not in tei
        for page in (tmp_path / "build" / "site").rglob("*.html"):
            assert char not in page.read_text(encoding="utf-8"), page


def test_a_scrambled_witness_forced_in_builds_with_its_decision_stale(tmp_path):
    """The sample's text reversed character by character, forced in: it aligns nowhere, so the
    decision cannot apply; `check` says so in one line, and the build goes on without it."""
    sources = sample_sources(tmp_path / "sources")
    body = SAMPLE.split("\n", 1)[1]
    (sources / "x.txt").write_text("礼书纲目\n" + body[::-1], encoding="utf-8")
    with (sources / "witnesses.toml").open("a", encoding="utf-8") as meta:
        meta.write(
            '\n[[witness]]\nsiglum = "PX"\nfile = "x.txt"\ntitle = "x"\nscript = "traditional"\nprofile = "plain"\n'
        )
    decisions = sources / "decisions.toml"
    decisions.write_text(
        '[editors]\ned = "editor"\n\n[[decision]]\nkind = "witness"\nwitness = "PX"\ninclude = true\n'
        'reason = "forced"\nresp = "ed"\n',
        encoding="utf-8",
    )
    checked = edition("check", "--sources", sources)
    assert checked.returncode == 1
    assert checked.stdout == (
        f"{decisions}:4: decision 1 (witness) is stale: witness PX: none of its text aligns with the base's: "
        "forcing it in would collate nothing\n"
    )
    built = edition("build", "--sources", sources, "--out", tmp_path / "build")
    assert built.returncode == 0, built.stderr
    assert "stale decision 1" in built.stderr
    shutil.rmtree(tmp_path / "build")
