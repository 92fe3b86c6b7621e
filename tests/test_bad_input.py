"""Bad input: one line naming the file, a non-zero exit, no traceback, no half-written output."""

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from probe import SAMPLE, sample_sources, write_witness

from edition.cli import main


@pytest.fixture
def sources(tmp_path) -> Path:
    return sample_sources(tmp_path / "sources")


def run(sources: Path, out: Path):
    result = CliRunner().invoke(main, ["build", "--sources", str(sources), "--out", str(out), "--quiet"])
    return result


def assert_one_line_error(result, *fragments):
    assert result.exit_code == 1, result.output
    assert isinstance(result.exception, SystemExit), "no traceback"
    lines = result.output.strip().splitlines()
    assert len(lines) == 1, result.output
    for fragment in fragments:
        assert fragment in lines[0], (fragment, lines[0])


def assert_no_output(out: Path):
    assert not out.exists() or not any(p for p in out.rglob("*") if p.is_file())


@pytest.mark.tier("build")
def test_the_sample_builds(sources, tmp_path):
    out = tmp_path / "build"
    result = run(sources, out)
    assert result.exit_code == 0, result.output
    assert (out / "witnesses" / "A.xml").is_file()
    assert sorted(p.name for p in out.iterdir()) == [
        ".edition-manifest.json",
        "edition.pdf",
        "edition.xml",
        "pdf",
        "reports",
        "site",
        "witnesses",
    ]


def test_gb18030_without_encoding_is_named(sources, tmp_path):
    write_witness(sources, "A", "a.txt", SAMPLE.encode("gb18030"))
    out = tmp_path / "build"
    assert_one_line_error(run(sources, out), "a.txt:1", "not valid UTF-8", "GB18030")
    assert_no_output(out)


TRADITIONAL = (
    "禮書綱目\n\n鄉射之禮。主人戒賓，賓出迎，再拜。主人答再拜，乃請。賓禮辭，許。主人再拜，賓答再拜。"
    "主人退；賓送，再拜。無介。乃席賓，南面，東上。眾賓之席，繼而西。席主人於阼階上，西面。\n"
)


def test_big5_without_encoding_is_named(sources, tmp_path):
    write_witness(sources, "A", "a.txt", TRADITIONAL.encode("big5"))
    assert_one_line_error(run(sources, tmp_path / "build"), "a.txt:1", "not valid UTF-8", "Big5", 'encoding = "big5"')


@pytest.mark.tier("build")
def test_big5_named_in_the_metadata_is_read(sources, tmp_path):
    write_witness(sources, "A", "a.txt", TRADITIONAL.encode("big5"), extra='encoding = "big5"')
    out = tmp_path / "build"
    assert run(sources, out).exit_code == 0
    assert "鄉射之禮" in (out / "witnesses" / "A.xml").read_text()


@pytest.mark.tier("build")
def test_an_encoding_named_in_the_metadata_is_read(sources, tmp_path):
    write_witness(sources, "A", "a.txt", SAMPLE.encode("gb18030"), extra='encoding = "gb18030"')
    out = tmp_path / "build"
    assert run(sources, out).exit_code == 0
    report = json.loads((out / "reports" / "witnesses.json").read_text())["witnesses"][0]
    assert report["encoding"] == "gb18030" and report["layers"]["commentary"]["segments"] == 2


@pytest.mark.tier("build")
def test_bom_and_crlf_are_accepted_and_kept(sources, tmp_path):
    data = ("\ufeff" + SAMPLE.replace("\n", "\r\n")).encode("utf-8")
    write_witness(sources, "A", "a.txt", data)
    out = tmp_path / "build"
    result = run(sources, out)
    assert result.exit_code == 0, result.output
    report = json.loads((out / "reports" / "witnesses.json").read_text())["witnesses"][0]
    assert report["bom"] is True and report["newline"] == "CRLF"
    assert report["layers"]["label"]["segments"] == 2
    assert "\r" not in "".join(s for s in (out / "witnesses" / "A.xml").read_text().split("<lb"))


def test_a_crlf_file_round_trips(sources):
    from edition.intake.profile import load_profile, split_layers
    from edition.intake.raw import read_raw

    data = ("\ufeff" + SAMPLE.replace("\n", "\r\n")).encode("utf-8")
    (sources / "a.txt").write_bytes(data)
    raw = read_raw(sources / "a.txt")
    segments = split_layers(raw, load_profile("lishu-gangmu"))
    assert "".join(s.text(raw) for s in segments).encode("utf-8") == data
    assert [s.text(raw) for s in segments if s.layer == "label"] == ["礼书纲目", "右请射"]


@pytest.mark.parametrize(
    "data,message",
    [
        (b"", "empty witness file"),
        (b"\n\n \n", "empty witness file"),
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "binary file"),
    ],
)
def test_empty_and_binary_files(sources, tmp_path, data, message):
    write_witness(sources, "A", "a.txt", data)
    assert_one_line_error(run(sources, tmp_path / "build"), "a.txt", message)


def test_a_witness_without_metadata(sources, tmp_path):
    (sources / "stray.txt").write_text(SAMPLE)
    assert_one_line_error(run(sources, tmp_path / "build"), "stray.txt", "no metadata stanza")


def test_a_duplicate_siglum(sources, tmp_path):
    write_witness(sources, "A", "b.txt", SAMPLE.encode(), append=True)
    assert_one_line_error(run(sources, tmp_path / "build"), "witnesses.toml:", "duplicate siglum 'A'")


def test_an_unknown_profile(sources, tmp_path):
    write_witness(sources, "A", "a.txt", SAMPLE.encode(), profile="no-such-layout")
    assert_one_line_error(run(sources, tmp_path / "build"), "witnesses.toml", "unknown layout profile 'no-such-layout'")


def test_a_profile_that_leaves_characters_unassigned(sources, tmp_path):
    (sources / "profiles").mkdir()
    (sources / "profiles" / "headings-only.toml").write_text(
        '[[rule]]\nname = "title"\nlayer = "label"\npattern = \'\\A[^\\n]+\'\n'
    )
    write_witness(sources, "A", "a.txt", SAMPLE.encode(), profile="headings-only")
    assert_one_line_error(run(sources, tmp_path / "build"), "a.txt:3", "leaves", "unassigned", "headings-only")


@pytest.mark.tier("build")
def test_a_failed_build_leaves_the_previous_output_alone(sources, tmp_path):
    out = tmp_path / "build"
    assert run(sources, out).exit_code == 0
    before = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    write_witness(sources, "A", "a.txt", b"")
    assert run(sources, out).exit_code == 1
    assert {p: p.read_bytes() for p in out.rglob("*") if p.is_file()} == before
    assert not [p for p in out.parent.iterdir() if ".staging-" in p.name]


@pytest.mark.tier("build")
def test_the_installed_command_prints_one_line_and_no_traceback(sources, tmp_path):
    write_witness(sources, "A", "a.txt", SAMPLE.encode("gb18030"))
    command = Path(sys.executable).parent / "edition"
    result = subprocess.run(
        [str(command), "build", "--quiet", "--sources", str(sources), "--out", str(tmp_path / "b")],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    assert result.stderr.startswith("edition: error: ") and result.stderr.count("\n") == 1
