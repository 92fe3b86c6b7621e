"""Hostile or careless sources (issue 13), through the installed command: paths that leave the
sources, values of the wrong type or range, TOML injected through add-witness, characters XML
cannot hold. Each bad case is one line naming the file and line, exit 1, and the last good build
unchanged."""

from __future__ import annotations

import json
import os
import re
import shutil
import tomllib
from pathlib import Path

import pytest
from click.testing import CliRunner
from probe import (
    SAMPLE,
    assert_one_line,
    edition,
    sample_sources,
    snapshot,
    write_witness,
)

from edition.cli import main

pytestmark = pytest.mark.tier("build")  # every probe copies a build of the sample and runs the installed command


@pytest.fixture(scope="module")
def good(tmp_path_factory) -> tuple[Path, Path]:
    """The sample's sources and a good build of them, made once."""
    root = tmp_path_factory.mktemp("good")
    sources = sample_sources(root / "sources")
    result = edition("build", "--quiet", "--sources", sources, "--out", root / "build")
    assert result.returncode == 0, result.stderr
    return sources, root / "build"


@pytest.fixture
def project(good, tmp_path) -> tuple[Path, Path]:
    """A fresh copy of the good sources and build for one probe."""
    sources, build = tmp_path / "sources", tmp_path / "build"
    shutil.copytree(good[0], sources, symlinks=True)
    shutil.copytree(good[1], build, symlinks=True)
    return sources, build


def refused(project, *fragments: str) -> None:
    """`check` and `build` both give the same one-line error and leave the build as it was."""
    sources, build = project
    before = snapshot(build)
    checked = assert_one_line(edition("check", "--sources", sources), *fragments)
    built = assert_one_line(edition("build", "--quiet", "--sources", sources, "--out", build), *fragments)
    assert built.startswith("edition: error: ") and checked in built
    assert snapshot(build) == before


def stanza(sources: Path, **fields) -> None:
    """Append a witness stanza written as raw TOML values, as a careless editor types them."""
    body = "".join(f"{key} = {value}\n" for key, value in fields.items())
    with (sources / "witnesses.toml").open("a", encoding="utf-8") as handle:
        handle.write(f"\n[[witness]]\n{body}")


def line_of(path: Path, text: str) -> int:
    return next(n for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if text in line)


WITNESS = {"siglum": '"X"', "file": '"x.txt"', "title": '"probe"', "script": '"simplified"', "profile": '"plain"'}


# --- Paths --------------------------------------------------------------------------------------


@pytest.mark.parametrize("file", ["../../../../../../../../etc/passwd", "/etc/passwd", "sub/x.txt", ".x.txt"])
def test_a_witness_file_that_is_a_path_is_refused(project, file):
    sources, _ = project
    stanza(sources, **(WITNESS | {"file": json.dumps(file)}))
    line = line_of(sources / "witnesses.toml", file)
    refused(project, f"witnesses.toml:{line}: witness 2, file: expected a file name in the folder itself")


def test_a_symlink_out_of_the_sources_is_refused(project):
    sources, _ = project
    (sources / "x.txt").symlink_to("/etc/passwd")
    stanza(sources, **WITNESS)
    refused(project, "witnesses.toml:", "witness X: file 'x.txt' is outside the sources folder", "/etc/passwd")


def test_a_symlinked_data_table_out_of_the_sources_is_refused(project, tmp_path):
    sources, _ = project
    outside = tmp_path / "gaiji.tsv"
    shutil.move(sources / "gaiji.tsv", outside)
    (sources / "gaiji.tsv").symlink_to(outside)
    refused(project, "gaiji.tsv", "outside the sources folder")


def test_a_profile_name_that_is_a_path_is_refused(project):
    sources, _ = project
    (sources / "x.txt").write_text(SAMPLE)
    stanza(sources, **(WITNESS | {"profile": '"../../../../tmp/evil"'}))
    refused(
        project, f"witnesses.toml:{line_of(sources / 'witnesses.toml', 'evil')}: witness 2, profile", "expected a name"
    )


def test_a_profile_symlinked_out_of_the_profile_folder_is_refused(project, tmp_path):
    sources, _ = project
    evil = tmp_path / "evil.toml"
    evil.write_text('[[rule]]\nname = "all"\nlayer = "classic"\npattern = \'[^\\n]+\'\n')
    (sources / "profiles").mkdir()
    (sources / "profiles" / "evil.toml").symlink_to(evil)
    (sources / "x.txt").write_text(SAMPLE)
    stanza(sources, **(WITNESS | {"profile": '"evil"'}))
    refused(project, "evil.toml", "resolves outside")


# --- A declared schema ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "field,value,expected",
    [
        ("title", "5", "title: expected text, found 5"),
        ("encoding", "5", "encoding: expected text, found 5"),
        (
            "encoding",
            '"nonsense"',
            'encoding: expected a text encoding such as utf-8, gb18030 or big5, found "nonsense"',
        ),
        ("profile", '["plain"]', 'profile: expected text, found ["plain"]'),
        ("script", '"old"', "script: expected one of simplified, traditional, mixed"),
        ("siglum", '"a<b"', "siglum: expected a siglum"),
        ("siglum", '"a b"', "siglum: expected a siglum"),
        ("siglum", '"../x"', "siglum: expected a siglum"),
        ("siglum", '""', "siglum: expected a siglum"),
        ("colour", '"red"', "unknown field(s) 'colour'"),
    ],
)
def test_a_bad_witness_field_is_named_with_its_line(project, field, value, expected):
    sources, _ = project
    (sources / "x.txt").write_text(SAMPLE)
    stanza(sources, **(WITNESS | {field: value}))
    line = line_of(sources / "witnesses.toml", f"{field} = {value}")
    refused(project, f"witnesses.toml:{line}: witness 2", expected)


@pytest.mark.parametrize(
    "setting,expected",
    [
        ("min_quality = 7", "min_quality: expected a number from 0 to 1, found 7"),
        ("min_quality = -1", "min_quality: expected a number from 0 to 1, found -1"),
        ("min_quality = nan", "min_quality: expected a finite number, found nan"),
        ('min_quality = "high"', 'min_quality: expected a number, found "high"'),
        ('variant_forms = "no"', 'variant_forms: expected one of appendix, apparatus, found "no"'),
        ("title = 5", "title: expected text, found 5"),
        ('base = "a<b"', "base: expected a siglum"),
    ],
)
def test_a_bad_setting_is_named_with_its_line(project, setting, expected):
    sources, _ = project
    config = sources / "edition.toml"
    key = setting.split(" =")[0]
    kept = [line for line in config.read_text().splitlines() if not line.startswith(f"{key} =")]
    config.write_text("\n".join(kept) + f"\n{setting}\n")
    refused(project, f"edition.toml:{line_of(config, setting)}: edition, {expected}")


@pytest.mark.parametrize("witness", ["base", "nobody"])
def test_punctuation_comes_from_a_witness_other_than_the_base(project, witness):
    sources, _ = project
    config = sources / "edition.toml"
    base = re.search(r'(?m)^base = "([^"]+)"', config.read_text()).group(1)
    siglum = base if witness == "base" else witness
    config.write_text(config.read_text() + f'punctuation_from = "{siglum}"\n')
    refused(project, f"punctuation_from: {siglum!r} is not a witness other than the base")


DECISIONS = '[editors]\ned = "editor"\n\n[[decision]]\nkind = "note"\ncontext = "请射于[賔]"\ntext = "x"\nresp = "ed"\n'


@pytest.mark.parametrize(
    "old,new,expected",
    [
        ('text = "x"', "text = 7", "decision 1, text: expected text, found 7"),
        ('context = "请射于[賔]"', "context = 5", "decision 1, context: expected text, found 5"),
        (
            'context = "请射于[賔]"',
            'context = "请射于賔"',
            "context: expected text with the characters concerned in one pair of [brackets]",
        ),
        ('text = "x"', 'text = "x"\ncolour = 1', "decision 1: unknown field(s) 'colour'"),
        ('text = "x"\n', "", "decision 1 lacks field 'text'"),
        ('resp = "ed"', 'resp = "nobody"', "decision 1: resp 'nobody' is not in [editors]"),
    ],
)
def test_a_bad_decision_is_named_with_its_line(project, old, new, expected):
    sources, _ = project
    assert edition("check", "--sources", sources).returncode == 0
    (sources / "decisions.toml").write_text(DECISIONS.replace(old, new))
    refused(project, "decisions.toml:", expected)


@pytest.mark.parametrize(
    "rule,expected",
    [
        ('name = "r"\nlayer = "classic"\npattern = \'(unclosed\'', "rule 'r': bad pattern"),
        ('name = "r"\nlayer = "nowhere"\npattern = "x"', "rule 1, layer: expected one of classic"),
        (
            'name = "r"\nlayer = "classic"\npattern = "x"\nmarker = "y"',
            "rule 1, marker: not a field of a rule of kind 'pattern'",
        ),
        ('name = "r"\nlayer = "classic"', "rule 1 lacks field 'pattern'"),
        ('name = "r"\nkind = "magic"\nlayer = "classic"', "rule 1, kind: expected one of pattern, intrusion, register"),
    ],
)
def test_a_bad_profile_rule_is_named_with_its_line(project, rule, expected):
    sources, _ = project
    (sources / "profiles").mkdir()
    profile = sources / "profiles" / "mine.toml"
    profile.write_text(f'description = "probe"\n\n[[rule]]\n{rule}\n')
    (sources / "x.txt").write_text(SAMPLE)
    stanza(sources, **(WITNESS | {"profile": '"mine"'}))
    refused(project, "mine.toml:", expected)


@pytest.mark.parametrize("name", ["witnesses.toml", "edition.toml", "decisions.toml"])
def test_a_byte_that_is_not_utf8_in_a_toml_source_is_named_with_its_line(project, name):
    sources, _ = project
    path = sources / name
    if not path.exists():
        path.write_text(DECISIONS)
    lines = path.read_bytes().split(b"\n")
    lines[1] += b" # \xff"
    path.write_bytes(b"\n".join(lines))
    refused(project, f"{name}:2: not valid UTF-8 (byte 0xff)")


def test_check_lists_every_problem_of_a_file(project):
    sources, _ = project
    (sources / "x.txt").write_text(SAMPLE)
    stanza(sources, **(WITNESS | {"title": "5", "script": '"old"', "colour": '"red"'}))
    result = edition("check", "--sources", sources)
    lines = result.stdout.strip().splitlines()
    assert result.returncode == 1 and len(lines) == 3, result.stdout
    assert all("witnesses.toml:" in line for line in lines)
    built = assert_one_line(
        edition("build", "--quiet", "--sources", sources, "--out", project[1]),
        "(and 2 more problem(s): run `edition check`)",
    )
    assert built.startswith("edition: error: ")


# --- add-witness --------------------------------------------------------------------------------


def add(sources: Path, file: Path, *options: str):
    return edition("add-witness", file, "--siglum", "N", "--profile", "plain", "--sources", sources, *options)


@pytest.fixture
def new_file(tmp_path) -> Path:
    path = tmp_path / "new.txt"
    path.write_text(SAMPLE, encoding="utf-8")
    return path


@pytest.mark.parametrize(
    "options,expected",
    [
        (
            ["--encoding", 'utf-8"\n\n[[witness]]\nsiglum = "X"\nfile = "/etc/passwd"'],
            "--encoding: expected a text encoding",
        ),
        (["--encoding", 'utf-8"x'], "--encoding: expected a text encoding"),
        (
            ["--encoding", "nonsense"],
            '--encoding: expected a text encoding such as utf-8, gb18030 or big5, found "nonsense"',
        ),
        (["--title", "a\x7fb"], "--title: expected one line of text without control characters"),
        (["--title", 'x"\n[[witness]]'], "--title: expected one line of text"),
        (["--siglum", "a<b"], "--siglum: expected a siglum"),
        (["--profile", "../evil"], "--profile: expected a name"),
        (["--encoding", "big5"], "new.txt:1: not valid big5"),
    ],
)
def test_add_witness_checks_every_option_before_it_writes(project, new_file, options, expected):
    sources, _ = project
    before = snapshot(sources)
    assert_one_line(add(sources, new_file, *options), expected)
    assert snapshot(sources) == before
    assert edition("check", "--sources", sources).returncode == 0


def test_add_witness_writes_toml_through_a_toml_library(project, new_file):
    sources, _ = project
    title = 'a "quoted" title \\ with = and [[witness]]'
    result = add(sources, new_file, "--title", title)
    assert result.returncode == 0, result.stderr
    stanzas = tomllib.loads((sources / "witnesses.toml").read_text(encoding="utf-8"))["witness"]
    assert [s["siglum"] for s in stanzas] == ["A", "N"] and stanzas[1]["title"] == title
    assert (sources / "new.txt").read_bytes() == new_file.read_bytes()
    assert edition("check", "--sources", sources).returncode == 0
    assert_one_line(add(sources, new_file), "siglum 'N' is taken")


def test_an_interrupted_add_witness_leaves_neither_file_nor_stanza(project, new_file, monkeypatch):
    sources, _ = project
    before = snapshot(sources)
    real_replace = os.replace

    def replace(source, target):
        if Path(target).name == "witnesses.toml":
            raise KeyboardInterrupt
        real_replace(source, target)

    monkeypatch.setattr(os, "replace", replace)
    result = CliRunner().invoke(
        main, ["add-witness", str(new_file), "--siglum", "N", "--profile", "plain", "--sources", str(sources)]
    )
    assert result.exit_code == 130 and "interrupted" in result.output
    assert snapshot(sources) == before and not list(sources.glob(".*adding"))


def test_a_retry_takes_up_a_copy_left_without_its_stanza(project, new_file):
    sources, _ = project
    shutil.copyfile(new_file, sources / new_file.name)
    assert_one_line(edition("check", "--sources", sources), "new.txt", "no metadata stanza")
    result = add(sources, new_file)
    assert result.returncode == 0, result.stderr
    assert edition("check", "--sources", sources).returncode == 0
    other = new_file.parent / "other" / new_file.name
    other.parent.mkdir()
    other.write_text(SAMPLE + "右\n", encoding="utf-8")
    result = edition("add-witness", other, "--siglum", "M", "--profile", "plain", "--sources", sources)
    assert_one_line(result, "new.txt: a file of that name is already in the sources")


# --- Characters that are no text ----------------------------------------------------------------


def test_control_characters_and_noncharacters_are_kept_as_declared_g(project):
    sources, build = project
    odd = "\f\x01\x0b\uffff"
    write_witness(sources, "A", "a.txt", SAMPLE.replace("东北面", "东" + odd + "北面").encode("utf-8"))
    assert edition("check", "--sources", sources).returncode == 0
    result = edition("build", "--quiet", "--sources", sources, "--out", build)
    assert result.returncode == 0, result.stderr
    from lxml import etree

    ns = {"t": "http://www.tei-c.org/ns/1.0"}
    doc = etree.parse(str(build / "witnesses" / "A.xml"))
    refs = [g.get("ref") for g in doc.iterfind(".//t:body//t:g", ns) if g.get("ref").startswith("#cp-")]
    assert refs == ["#cp-000C", "#cp-0001", "#cp-000B", "#cp-FFFF"]
    declared = {
        c.get("{http://www.w3.org/XML/1998/namespace}id"): c.findtext("t:mapping[@type='codepoint']", namespaces=ns)
        for c in doc.iterfind(".//t:charDecl/t:char", ns)
    }
    assert {ref[1:]: declared[ref[1:]] for ref in refs} == {
        "cp-000C": "U+000C",
        "cp-0001": "U+0001",
        "cp-000B": "U+000B",
        "cp-FFFF": "U+FFFF",
    }

    def text(node) -> str:  # the byte round trip: each lb a line end, each g of a code point that character
        if etree.QName(node).localname == "g" and node.get("ref").startswith("#cp-"):
            inner = chr(int(declared[node.get("ref")[1:]][2:], 16))
        else:
            inner = (node.text or "") + "".join(text(child) for child in node)
        return (
            ("\n" if etree.QName(node).localname == "lb" and node.get("n") != "1" else "") + inner + (node.tail or "")
        )

    ab = doc.find(".//t:body/t:ab", ns)
    assert text(ab) == (sources / "a.txt").read_text(encoding="utf-8")
    report = json.loads((build / "reports" / "witnesses.json").read_text())["witnesses"][0]["not_text"]
    assert [(c["codepoint"], c["count"], c["lines"]) for c in report] == [
        ("U+0001", 1, [3]),
        ("U+000B", 1, [3]),
        ("U+000C", 1, [3]),
        ("U+FFFF", 1, [3]),
    ]
    assert "东北面" in "".join(p.read_text(encoding="utf-8") for p in (build / "site").rglob("*.html"))


# --- The last-resort handler ------------------------------------------------------------------


def test_an_unexpected_error_is_one_line_naming_the_step_and_debug_shows_the_traceback(project, monkeypatch):
    sources, build = project
    from edition.work import chapter_build as build_module

    def broken(*args):
        raise ValueError("something no one foresaw")

    monkeypatch.setattr(build_module.report, "witnesses_report", broken)
    result = CliRunner().invoke(main, ["build", "--quiet", "--sources", str(sources), "--out", str(build)])
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit)
    lines = result.output.strip().splitlines()
    assert lines == [
        "edition: error: unexpected ValueError during validate witnesses/A.xml: something no one foresaw "
        "(run `edition --debug …` for the traceback)"
    ]
    debug = CliRunner().invoke(main, ["--debug", "build", "--quiet", "--sources", str(sources), "--out", str(build)])
    assert isinstance(debug.exception, ValueError)


def test_a_runaway_title_pattern_is_one_line(project):
    sources, _ = project
    (sources / "profiles").mkdir()
    (sources / "profiles" / "titled.toml").write_text(
        '[[rule]]\nname = "closing"\nlayer = "label"\npattern = \'^右[^\\n]*\'\nflags = "m"\n'
        "attrs = { section = \"closes\", title = '右((a|a)+)$' }\n\n"
        '[[rule]]\nname = "rest"\nlayer = "classic"\npattern = \'[^\\n]+\'\n'
    )
    write_witness(sources, "A", "a.txt", (SAMPLE + "右" + "a" * 40 + "b\n").encode("utf-8"), profile="titled")
    refused(project, "a.txt:", "rule 'closing': its title pattern exceeded its time limit")


def test_two_decisions_whose_places_overlap_are_refused(project):
    sources, _ = project
    notes = "".join(
        f'\n[[decision]]\nkind = "note"\ncontext = "{context}"\ntext = "x"\nresp = "ed"\n'
        for context in ("告于主[人曰]请射", "于主人[曰请]射于")
    )
    (sources / "decisions.toml").write_text('[editors]\ned = "editor"\n' + notes)
    path = sources / "decisions.toml"
    first, second = line_of(path, "人曰") - 2, line_of(path, "曰请") - 2
    refused(project, f"decisions.toml:{second}: decision 2", f"decisions.toml:{first})", "cannot both apply")
