"""Growth: a new witness added with `edition add-witness`, editorial decisions that survive
re-collation or are reported stale, `edition check`, and the no-change rebuild."""

import json
import re
import shutil
import subprocess
from pathlib import Path

import opencc
import pytest
import regex
from click.testing import CliRunner
from conftest import SOURCES
from differences import minimal_difference
from lxml import etree

from edition.cli import main
from edition.publication import render
from edition.publication.tei import TEI_NS
from edition.work.chapter_build import collate_only

ROOT = Path(__file__).resolve().parent.parent
HEADER = "書名：儀禮\n篇名：鄉射禮第五\n版本：測試本\n\n"
# The synthetic witness is the opening of 001 in traditional script, with known changes; it
# differs from the base (SBCK) where 001 does, and at these.
CHANGES = [("乃张侯", "乃设侯"), ("左玄酒，皆加勺", "皆加勺"), ("水在洗东", "水在洗之东")]
EXPECTED = {("张", "设"), ("左玄酒", ""), ("", "之")}


@pytest.fixture
def sources(tmp_path) -> Path:
    root = tmp_path / "sources"
    shutil.copytree(SOURCES, root)
    return root


def synthetic_witness(path: Path) -> int:
    """The opening of 001 in traditional script, GB18030, CRLF, page markers, a header."""
    base = (SOURCES / "001_c77d09b7a3e08e74.txt").read_text(encoding="utf-8")
    lines = [line for line in base.split("\n")[8:60] if line.strip()]
    text = "".join(lines)
    text = text[: text.index("主人坐取爵于上篚")]
    for old, new in CHANGES:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    traditional = opencc.OpenCC("s2t").convert(text)
    pages = [traditional[i : i + 120] for i in range(0, len(traditional), 120)]
    body = "".join(f"[p.{n}]{page}\n" for n, page in enumerate(pages, 1))
    path.write_bytes((HEADER + body).replace("\n", "\r\n").encode("gb18030"))
    return len(pages)


def add(sources: Path, file: Path, siglum: str = "005"):
    return CliRunner().invoke(
        main, ["add-witness", str(file), "--siglum", siglum, "--title", "測試本", "--sources", str(sources)]
    )


def substantive_differences(apparatus_xml: Path, siglum: str, where: str | None = None) -> set[tuple[str, str]]:
    """Minimal (base characters, witness characters), in simplified script, of each substantive
    difference between the base (SBCK) and the witness, whichever of them is the lemma; only
    where witness `where` is extant, if given."""
    edition = render.read(apparatus_xml)
    base_id, wit_id = "#wSBCK", f"#w{siglum}"
    fold = opencc.OpenCC("t2s").convert
    found = set()
    for app in edition.apps:
        readings = [app.lemma, *app.readings]
        if where is not None and not any(f"#w{where}" in r.wit for r in readings):
            continue
        base = next((r for r in readings if base_id in r.wit), None)
        other = next((r for r in readings if wit_id in r.wit), None)
        if base is None or other is None or base is other:
            continue
        a, b = (regex.sub(r"[\p{P}\p{S}\s]", "", fold(r.text)) for r in (base, other))
        if a != b:
            found.add(minimal_difference(a, b)[1:])
    return found


def variant_forms(edition_xml: Path) -> list[tuple[str, str, set[str]]]:
    """(the edited text's form, a witness's form, the witnesses) of each row of the 异体字表."""
    ns = {"t": TEI_NS}
    rows = etree.parse(str(edition_xml)).xpath(
        "//t:div[@type='variant-forms']//t:row[not(@role='label')]", namespaces=ns
    )
    return [
        (c[0].text, c[1].text, {ref.text for ref in c[3].iterfind("t:ref", ns)})
        for c in (row.findall("t:cell", ns) for row in rows)
    ]


@pytest.mark.tier("build")
def test_a_traditional_gb18030_witness_is_added_and_collated(sources, tmp_path):
    new = tmp_path / "測試本.txt"
    pages = synthetic_witness(new)
    result = add(sources, new)
    assert result.exit_code == 0, result.output
    for guessed in (
        "encoding: gb18030",
        "CRLF",
        "script: traditional",
        f'found page-markers: page markers such as [p.12] or <pb n="12"/> ({pages}×)',
        "found bibliographic-header",
        "layout profile: plain",
        "base SBCK's: sure",
    ):
        assert guessed in result.output, guessed
    assert (sources / new.name).read_bytes() == new.read_bytes(), "copied untouched"
    stanza = (sources / "witnesses.toml").read_text(encoding="utf-8")
    assert 'siglum = "005"' in stanza and 'encoding = "gb18030"' in stanza and 'profile = "plain"' in stanza
    out = tmp_path / "build"
    collate_only(sources, out)
    expected = EXPECTED | substantive_differences(out / "edition.xml", "001", where="005")
    assert substantive_differences(out / "edition.xml", "005") == expected
    apps = render.read(out / "edition.xml").apps
    own = [
        app
        for app in apps
        if any("#w005" in r.wit and r.type not in ("fragment", "usage") for r in app.readings)
        or app.emended
        and "#w005" in app.lemma.wit
    ]
    assert len(own) == len(expected), "differences of script make no entries"
    usages = {(app.lemma.text, r.text) for app in apps for r in app.readings if "#w005" in r.wit and r.type == "usage"}
    assert usages <= {("于", "於"), ("於", "于")}, "a traditional witness's 于/於 is a usage (OpenCC's 於 for 001's 于)"
    forms = variant_forms(out / "edition.xml")
    own_forms = {(a, b) for a, b, sigla in forms if "005" in sigla}
    seed = opencc.OpenCC("s2t").convert
    seed_forms = {(a, form) for a, b, sigla in forms for form in (b, seed(b)) if {"001", "WYG"} & sigla}
    assert own_forms and own_forms <= seed_forms, "its variant forms are 001's in traditional script, or WYG's"
    report = json.loads((out / "reports" / "collation.json").read_text())
    w005 = next(w for w in report["witnesses"] if w["siglum"] == "005")
    assert w005["included"] and w005["extant"][0]["incipit"].startswith("鄕射之禮")


@pytest.mark.tier("build")
def test_the_same_witness_added_by_hand_works_the_same(sources, tmp_path):
    new = sources / "by-hand.txt"
    synthetic_witness(new)
    with (sources / "witnesses.toml").open("a", encoding="utf-8") as handle:
        handle.write(
            '\n[[witness]]\nsiglum = "006"\nfile = "by-hand.txt"\ntitle = "by hand"\n'
            'script = "traditional"\nprofile = "plain"\nencoding = "gb18030"\n'
        )
    out = tmp_path / "build"
    collate_only(sources, out)
    assert substantive_differences(out / "edition.xml", "006") == EXPECTED | substantive_differences(
        out / "edition.xml", "001", where="006"
    )


def decisions_report(out: Path) -> list[dict]:
    return json.loads((out / "reports" / "decisions.json").read_text())["decisions"]


@pytest.mark.tier("build")
def test_decisions_survive_the_addition_of_a_witness(sources, tmp_path):
    collate_only(sources, tmp_path / "before")
    before = decisions_report(tmp_path / "before")
    assert all(d["applied_to"] and not d["stale"] for d in before)
    new = tmp_path / "new.txt"
    synthetic_witness(new)
    assert add(sources, new).exit_code == 0
    collate_only(sources, tmp_path / "after")
    after = decisions_report(tmp_path / "after")
    assert all(d["applied_to"] and not d["stale"] for d in after)
    doc = (tmp_path / "after" / "edition.xml").read_text(encoding="utf-8")
    assert re.search(r'<lem[^>]*>決</lem><rdg[^>]*wit="#w000"[^>]*cause="error"[^>]*>次</rdg>', doc)


@pytest.mark.tier("build")
def test_a_decision_whose_context_was_edited_away_is_stale(sources, tmp_path):
    base = sources / "KR1d0026_005.txt"
    text = base.read_text(encoding="utf-8")
    assert text.count("皆釋弓說決拾襲") == 1
    base.write_text(text.replace("皆釋弓說決拾襲", "皆釋弓說拾襲"), encoding="utf-8")
    out = tmp_path / "build"
    collate_only(sources, out)
    stale = [d for d in decisions_report(out) if d["stale"]]
    assert len(stale) == 1 and all("no longer in the base text" in d["stale"] and not d["applied_to"] for d in stale)
    assert 'cause="error"' not in (out / "edition.xml").read_text(encoding="utf-8")
    result = CliRunner().invoke(main, ["check", "--sources", str(sources)])
    assert result.exit_code == 1
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and all(
        re.match(r".*decisions\.toml:\d+: decision \d \(.*\) is stale: context", line) for line in lines
    )


@pytest.mark.tier("build")  # reads a chapter of the corpus
def test_check_passes_on_the_seed_sources_and_names_each_problem(sources):
    assert CliRunner().invoke(main, ["check", "--sources", str(sources)]).exit_code == 0
    (sources / "002_8a7b21bfc0ea2b9e.txt").write_bytes(
        "乡射礼".encode("big5", errors="ignore") + "鄉射禮之禮".encode("big5")
    )
    (sources / "003_8a6b6ef554a3cf1d.txt").write_bytes(b"")
    result = CliRunner().invoke(main, ["check", "--sources", str(sources)])
    lines = result.output.strip().splitlines()
    assert result.exit_code == 1 and len(lines) == 2
    assert "002_8a7b21bfc0ea2b9e.txt" in lines[0] and "003_8a6b6ef554a3cf1d.txt: empty" in lines[1]


def test_a_bad_decision_is_named_with_its_line(sources):
    (sources / "decisions.toml").write_text('[editors]\ned = "x"\n\n[[decision]]\nkind = "guess"\nresp = "ed"\n')
    result = CliRunner().invoke(main, ["check", "--sources", str(sources)])
    assert result.exit_code == 1 and re.search(
        r"decisions\.toml:5: decision 1, kind: expected one of lemma, .*found \"guess\"", result.output
    )


def test_a_rebuild_with_nothing_changed_builds_nothing(work_sample):
    """How long it takes (< 1 s): bench/whole_work, `no change`."""
    sources, out, _ = work_sample  # a work of two chapters, built
    make = ["make", "edition", f"SOURCES={sources}", f"OUT={out}"]
    subprocess.run(make, cwd=ROOT, check=True, capture_output=True)
    result = subprocess.run(make, cwd=ROOT, check=True, capture_output=True, text=True)
    assert "edition build" not in result.stdout and "is up to date" in result.stdout


@pytest.mark.tier("build")
def test_every_kind_of_decision_is_applied(sources, tmp_path):
    with (sources / "decisions.toml").open("a", encoding="utf-8") as handle:
        handle.write(
            """
[[decision]]
kind = "lemma"
context = "揖及階揖升[堂]揖豫則鉤楹內"
reading = "常"
reason = "001's reading, to show the choice"
resp = "ed"

[[decision]]
kind = "note"
context = "揖如升射上射降三等[下]射少右"
text = "compare 大射"
resp = "ed"

[[decision]]
kind = "anchor"
witness = "000"
words = "今文俟为立"
context = "获者适侯执旌负侯而[俟]"
reason = "checked"
resp = "ed"
"""
        )
    out = tmp_path / "build"
    collate_only(sources, out)
    report = decisions_report(out)
    assert all(d["applied_to"] and not d["stale"] for d in report), [d["stale"] for d in report if d["stale"]]
    doc = (out / "edition.xml").read_text(encoding="utf-8")
    assert re.search(r'<lem[^>]*resp="#ed-ed"[^>]*>常</lem><rdg[^>]*wit="#wSBCK[^"]*"[^>]*>堂</rdg>', doc)
    assert '<note type="editorial" resp="#ed-ed">compare 大射</note>' in doc
    assert re.search(r'<rdg[^>]*wit="#jinwen"[^>]*><witStart wit="#jinwen"/>立<witEnd wit="#jinwen"/></rdg>', doc)


@pytest.mark.tier("build")
def test_a_decision_forces_a_witness_out(sources, tmp_path):
    with (sources / "decisions.toml").open("a", encoding="utf-8") as handle:
        handle.write(
            '\n[[decision]]\nkind = "witness"\nwitness = "003"\ninclude = false\nreason = "checking"\nresp = "ed"\n'
        )
    out = tmp_path / "build"
    collate_only(sources, out)
    report = json.loads((out / "reports" / "collation.json").read_text())
    w003 = next(w for w in report["witnesses"] if w["siglum"] == "003")
    assert not w003["included"] and "excluded by" in w003["reason"]
    assert "#w003" not in (out / "edition.xml").read_text(encoding="utf-8").split("</teiHeader>")[1]
