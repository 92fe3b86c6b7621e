"""The whole work: its sources, where a new witness goes, and the build of its chapters, in
parallel and only where they changed."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import WORK
from lxml import etree

from edition.cli import main
from edition.intake.attestation import held
from edition.work.placement import ChapterPlacer
from edition.work.work_build import INPUTS, build_work
from edition.work.work_sources import Work

TEI = {"t": "http://www.tei-c.org/ns/1.0"}
XML_ID = "{http://www.w3.org/XML/1998/namespace}id"


@pytest.fixture(scope="module")
def work() -> Work:
    return Work.load(WORK)


def test_the_work_has_seventeen_chapters_with_sbck_as_base_and_wyg_throughout(work):
    assert [c.title for c in work.chapters][:5] == ["士冠禮", "士昏禮", "士相見禮", "鄉飲酒禮", "鄉射禮"]
    assert len(work.chapters) == 17 and work.chapter("喪服").number == 11 and work.chapter(11).heading == "喪服第十一"
    for chapter in work.chapters:
        sources = work.sources(chapter)
        sigla = [m.siglum for m in sources.witnesses]
        assert sources.config.base == "SBCK" and {"SBCK", "WYG"} <= set(sigla)
        assert (
            sources.path(next(m for m in sources.witnesses if m.siglum == "SBCK")).name
            == f"KR1d0026_{chapter.number:03d}.txt"
        )
        assert sources.config.title == f"儀禮·{chapter.title}"
    xiangshe = work.sources(work.chapter("鄉射禮"))
    assert [m.siglum for m in xiangshe.witnesses] == ["000", "001", "002", "003", "004", "SBCK", "WYG"]
    assert xiangshe.config.punctuation_from == "001" and work.sources(work.chapter(11)).config.punctuation_from == ""
    assert [r.name for r in xiangshe.witness_rules["WYG"]] == ["zhu-introduced-by-shu"]
    assert work.sources(work.chapter(6)).witness_rules["WYG"] == ()
    assert xiangshe.decisions == WORK / "chapters" / "05-鄉射禮" / "decisions.toml"


def test_each_file_is_placed_in_its_chapter_by_its_text(work):
    placer = ChapterPlacer(work, work.sources(work.chapters[0]).normalizer())
    for seed in sorted((WORK / "chapters" / "05-鄉射禮").glob("*.txt")):
        assert placer.place(seed).chapter.title == "鄉射禮", seed.name
    for number in (1, 4, 11, 13, 17):
        assert placer.place(WORK / "WYG" / f"KR1d0028_{number:03d}.txt").chapter.number == number
    assert placer.place(WORK / "WYG" / "KR1d0028_000.txt").chapter is None  # the 卷首


def copied_work(tmp_path: Path) -> Path:
    root = tmp_path / "sources"
    shutil.copytree(WORK, root)
    return root


@pytest.mark.tier("build")  # reads a chapter of the corpus
def test_add_witness_finds_the_chapter_of_a_file_and_the_chapters_of_a_folder(tmp_path):
    root = copied_work(tmp_path)
    witness = tmp_path / "new.txt"
    witness.write_bytes((WORK / "chapters" / "05-鄉射禮" / "003_8a6b6ef554a3cf1d.txt").read_bytes())
    result = CliRunner().invoke(main, ["add-witness", str(witness), "--siglum", "N1", "--sources", str(root)])
    assert result.exit_code == 0, result.output
    assert "in chapter 鄉射禮第五" in result.output
    assert (root / "chapters" / "05-鄉射禮" / "new.txt").is_file()
    assert "N1" in [m.siglum for m in Work.load(root).sources(Work.load(root).chapter(5)).witnesses]
    taken = CliRunner().invoke(main, ["add-witness", str(witness), "--siglum", "WYG", "--sources", str(root)])
    assert taken.exit_code == 1 and "siglum 'WYG' is taken" in taken.output
    folder = tmp_path / "edition"
    folder.mkdir()
    for name in ("KR1d0028_000.txt", "KR1d0028_003.txt", "KR1d0028_011.txt"):
        shutil.copyfile(WORK / "WYG" / name, folder / f"juan-{name[-7:]}")
    result = CliRunner().invoke(main, ["add-witness", str(folder), "--siglum", "W2", "--sources", str(root)])
    assert result.exit_code == 0, result.output
    edition = next(e for e in Work.load(root).editions if e.meta.siglum == "W2")
    assert edition.files == {3: ("juan-003.txt",), 11: ("juan-011.txt",)} and edition.front == ("juan-000.txt",)
    assert edition.meta.profile == "mandoku-zhushu" and (root / "W2" / "juan-011.txt").is_file()
    assert [m.siglum for m in Work.load(root).sources(Work.load(root).chapter(11)).witnesses] == ["SBCK", "WYG", "W2"]


@pytest.mark.tier("build")  # reads a chapter of the corpus
def test_a_file_of_no_chapter_is_refused_unless_its_chapter_is_named(tmp_path):
    root = copied_work(tmp_path)
    other = tmp_path / "other.txt"
    other.write_text("天地玄黃宇宙洪荒日月盈昃辰宿列張寒來暑往秋收冬藏閏餘成歲律呂調陽\n" * 3, encoding="utf-8")
    result = CliRunner().invoke(
        main, ["add-witness", str(other), "--siglum", "Q", "--profile", "plain", "--sources", str(root)]
    )
    assert result.exit_code == 1 and "other.txt: it belongs to no chapter of the work" in result.output
    assert "Traceback" not in result.output and not (root / "chapters" / "01-士冠禮" / "other.txt").exists()
    named = CliRunner().invoke(
        main,
        [
            "add-witness",
            str(other),
            "--siglum",
            "Q",
            "--profile",
            "plain",
            "--chapter",
            "士冠禮",
            "--sources",
            str(root),
        ],
    )
    assert named.exit_code == 0, named.output
    assert (root / "chapters" / "01-士冠禮" / "other.txt").is_file()


@pytest.fixture(scope="module")
def sample(work_sample) -> tuple[Path, Path, list[str]]:
    return work_sample


def test_a_work_builds_every_chapter_into_its_folder_and_one_tei_for_the_work(sample):
    sources, out, built = sample
    assert sorted(built) == ["03-士相見禮", "10-覲禮"]
    for folder in ("03-士相見禮", "10-覲禮"):
        chapter = out / "chapters" / folder
        assert (
            (chapter / "edition.xml").is_file()
            and (chapter / "edition.pdf").is_file()
            and (chapter / "site" / "index.html").is_file()
        )
        figures = json.loads((chapter / "reports" / "build.json").read_text(encoding="utf-8"))
        assert figures["layers"]["SBCK"]["classic"] > 500 and figures["typesetting"] > 0 and figures["collation"] > 0
    manifest = json.loads((out / "work.json").read_text(encoding="utf-8"))
    assert [c["folder"] for c in manifest["chapters"]] == ["03-士相見禮", "10-覲禮"]
    assert {w["siglum"]: w["chapters"] for w in manifest["witnesses"]} == {"SBCK": [3, 10], "WYG": [3, 10]}
    document = etree.parse(str(out / "edition.xml"))
    texts = document.findall("t:text/t:group/t:text", TEI)
    assert [(t.get("n"), t.get(XML_ID)) for t in texts] == [("3", "ch03"), ("10", "ch10")]
    assert len(document.findall("t:teiHeader", TEI)) == 1
    assert sorted(w.get(XML_ID) for w in document.findall("t:teiHeader//t:listWit/t:witness", TEI)) == [
        "aoben",
        "guwen",
        "jianben",
        "jinwen",
        "shijing",
        "wSBCK",
        "wSHU",
        "wSW",
        "wWYG",
    ], "the witnesses, the books of evidence, the two traditions and the editions the 考證s report"
    ids = [e.get(XML_ID) for e in document.iter() if isinstance(e.tag, str) and e.get(XML_ID)]
    assert len(ids) == len(set(ids))
    chapter_ids = {
        e.get(XML_ID)
        for e in etree.parse(str(out / "chapters" / "10-覲禮" / "edition.xml")).iter()
        if isinstance(e.tag, str) and e.get(XML_ID)
    }
    sections = [i for i in chapter_ids if i.startswith("c") and "." in i]
    assert sections and all(f"ch10-{i}" in ids for i in sections)
    pointers = {
        v[1:]
        for e in texts[1].iter()
        if isinstance(e.tag, str)
        for k, value in e.attrib.items()
        if k != XML_ID
        for v in value.split()
        if v.startswith("#")
    }
    assert pointers and pointers <= set(ids)


def test_a_change_to_one_chapter_rebuilds_that_chapter_only(sample, tmp_path):
    sources, out, _ = sample
    untouched = out / "chapters" / "03-士相見禮" / "edition.pdf"
    before = untouched.stat().st_ino
    assert build_work(sources, out) == []
    witness = sources / "SBCK" / "KR1d0026_010.txt"
    witness.write_text(witness.read_text(encoding="utf-8") + "# a transcriber's remark\n", encoding="utf-8")
    assert build_work(sources, out) == ["10-覲禮"]
    assert untouched.stat().st_ino == before  # carried over, not written again
    inputs = (out / "chapters" / "10-覲禮" / INPUTS).read_text(encoding="utf-8")
    assert len(inputs.strip()) == 64
    assert "覲禮" in (out / "edition.xml").read_text(encoding="utf-8")


def test_one_chapter_alone_with_progress_per_chapter(sample, capfd):
    sources, out, _ = sample
    settings = sources / "chapters" / "03-士相見禮"
    settings.mkdir(parents=True, exist_ok=True)
    (settings / "chapter.toml").write_text('[chapter]\ntitle = "儀禮·士相見禮（校本）"\n', encoding="utf-8")
    (sources / "chapters" / "10-覲禮").mkdir(parents=True, exist_ok=True)
    (sources / "chapters" / "10-覲禮" / "chapter.toml").write_text(
        '[chapter]\ntitle = "儀禮·覲禮（校本）"\n', encoding="utf-8"
    )
    assert build_work(sources, out, lambda message: print(message, file=sys.stderr), only="士相見禮") == ["03-士相見禮"]
    shown = capfd.readouterr().err
    assert "[士相見禮] intake SBCK" in shown and "[覲禮]" not in shown and "build 1 chapter(s)" in shown
    assert "chapter 士相見禮第三 built in" in shown
    manifest = json.loads((out / ".edition-manifest.json").read_text(encoding="utf-8"))
    assert manifest["inputs"] is None  # one chapter alone is no complete build: make builds again
    assert "士相見禮（校本）" in (out / "chapters" / "03-士相見禮" / "edition.xml").read_text(encoding="utf-8")
    assert "覲禮（校本）" not in (out / "chapters" / "10-覲禮" / "edition.xml").read_text(
        encoding="utf-8"
    )  # stale, left as it was


def test_a_chapter_the_work_lacks_is_one_line_from_the_command_line(sample):
    sources, out, _ = sample
    command = [
        sys.executable,
        "-c",
        "from edition.cli import main; main()",
        "build",
        "--sources",
        str(sources),
        "--out",
        str(out),
        "--chapter",
        "燕禮",
    ]
    environment = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parent.parent))
    missing = subprocess.run(command, capture_output=True, text=True, env=environment)
    assert missing.returncode == 1 and missing.stderr.strip().endswith("no chapter '燕禮' (chapters: 士相見禮, 覲禮)")
    assert len(missing.stderr.strip().splitlines()) == 1


@pytest.fixture(scope="module")
def audience(sample):
    """覲禮 as built, and where its witnesses have each entry in their raw files, as the build knows it."""
    from edition.collation import decision_file
    from edition.publication.tei import WitnessPlaces
    from edition.work.chapter_build import edit

    sources, out, _ = sample
    work = Work.load(sources)
    chapter = work.sources(work.chapter(10))
    edited = edit(chapter, chapter.intake_all(), decision_file.load(chapter.decisions))
    return out / "chapters" / "10-覲禮" / "edition.xml", WitnessPlaces(edited.apparatus, edited.commentary)


def failure(path: Path, document, witness_at) -> tuple[str, str]:
    """The one line a document that breaks a rule fails with: the place in the witness's file it
    names first, and what it says."""
    from edition.errors import EditionError
    from edition.publication import validate

    with pytest.raises(EditionError) as error:
        validate.check(document, path, witness_at=witness_at)
    message = str(error.value)
    assert "\n" not in message and "local-name()" not in message and "[1]" not in message
    assert "listWit" not in message and str(path) not in message
    place, said = message.split(": ", 1)
    assert f"; {path.name} is not valid against edition.sch and is not written" in said, said
    return place, said


def raw_line(place: str) -> str:
    """The line of a witness's raw file that a message names as `file:line`."""
    file, line = place.rsplit(":", 1)
    return Path(file).read_text(encoding="utf-8").splitlines()[int(line) - 1]


def test_a_schematron_failure_names_the_witness_its_file_and_line_and_the_place_not_ids(audience):
    path, witness_at = audience
    document = etree.parse(str(path))
    reading = next(r for r in document.iter(f"{{{TEI['t']}}}rdg") if r.get("wit") == "#wWYG")
    reading.set("wit", "#wSBCK")  # the base attested twice in one entry
    lemma = "".join(reading.getparent().find("t:lem", TEI).itertext())
    place, said = failure(path, document, witness_at)
    assert said.startswith("witness SBCK breaks a rule of the edition: witness SBCK (四部叢刊本) is attested exactly")
    assert f"SBCK 「{lemma}」" in said and "(at 1." in said and "wSBCK" not in said
    assert place.endswith("SBCK/KR1d0026_010.txt:" + place.rsplit(":", 1)[1])
    assert f"; SBCK reads 「{lemma}" in said and lemma in raw_line(place)


def test_a_witness_missing_from_an_entry_is_named_with_the_place_and_what_its_file_has_there(audience):
    path, witness_at = audience
    document = etree.parse(str(path))
    reading = document.xpath("//t:rdg[@wit = '#wWYG'][normalize-space(.)][not(ancestor::t:note)]", namespaces=TEI)[0]
    app = reading.getparent()
    sentence = app.xpath("string(preceding::t:anchor[@type='sentence'][1]/@n)", namespaces=TEI)
    app.remove(reading)  # WYG left out of an entry where it is extant
    place, said = failure(path, document, witness_at)
    assert "witness WYG (四庫本) is attested exactly once in every app of the classic text where it is extant" in said
    assert f" (at {sentence}: " in said
    read = said.split("; WYG reads 「")[1]
    assert "WYG/" in place and read.startswith("".join(reading.itertext()))
    assert "".join(reading.itertext())[0] in raw_line(place)


def test_a_witness_of_the_commentary_that_reads_nothing_there_is_named_with_the_text_next_to_the_place(audience):
    path, witness_at = audience
    document = etree.parse(str(path))
    omission = document.xpath(
        "//t:note[@type = 'commentary']//t:rdg[@wit = '#wWYG'][@subtype = 'omission']", namespaces=TEI
    )[0]
    lemma = "".join(omission.getparent().find("t:lem", TEI).itertext())
    omission.getparent().remove(omission)
    place, said = failure(path, document, witness_at)
    assert "witness WYG (四庫本) is attested exactly once in every app of the 注 where it is extant" in said
    assert f"SBCK 「{lemma}」" in said and "zhu-app" not in said
    nearby = said.split("; WYG reads nothing there, next to 「")[1]
    assert any(character in raw_line(place) for character in nearby.split("」")[0]), (
        said
    )  # the text next to it may begin on the line before


def test_a_witness_attested_in_an_entry_nested_in_a_reading_of_others_is_caught(audience):
    """The rule is complete: an entry nested in a reading of other witnesses is theirs alone (the
    base's entry moved into WYG's reading of another)."""
    path, witness_at = audience
    document = etree.parse(str(path))
    outer, inner = document.xpath("//t:p/t:app[t:lem[@wit = '#wSBCK']][t:rdg[@wit = '#wWYG']]", namespaces=TEI)[:2]
    outer.find("t:rdg", TEI).append(inner)
    place, said = failure(path, document, witness_at)
    assert said.startswith(
        "witness SBCK breaks a rule of the edition: witness SBCK (四部叢刊本) is attested at most once in any app of "
        "the classic text, however nested, and in none nested in a reading of other witnesses"
    ), said
    assert "SBCK/KR1d0026_010.txt:" in place


def test_an_invalid_edition_stops_the_command_with_one_line_naming_the_chapter_the_witness_its_file_and_line(
    sample, tmp_path, monkeypatch
):
    """Collation keeps its invariants by construction; were it to break one (here WYG is left out of
    an entry of the 經 where it is extant), the build stops with one line that names the witness's
    file and line, the witness, the rule and the chapter, and leaves the last good build as it was."""
    from probe import snapshot

    from edition.work import chapter_build

    sources, out = tmp_path / "sources", tmp_path / "build"
    shutil.copytree(sample[0], sources)
    shutil.copytree(sample[1], out)
    (sources / "chapters" / "10-覲禮").mkdir(parents=True, exist_ok=True)
    (sources / "chapters" / "10-覲禮" / "chapter.toml").write_text('[chapter]\ntitle = "儀禮·覲禮"\n', encoding="utf-8")
    collated = chapter_build.apparatus_of

    def leaving_wyg_out(*args, **kwargs):
        apparatus = collated(*args, **kwargs)
        unit = next(u for u in apparatus.units if any("WYG" in r.sigla for r in u.readings))
        unit.readings = [r for r in unit.readings if "WYG" not in r.sigla]
        return apparatus

    monkeypatch.setattr(chapter_build, "apparatus_of", leaving_wyg_out)
    before = snapshot(out)
    arguments = ["build", "--quiet", "--sources", str(sources), "--out", str(out), "--chapter", "覲禮", "--jobs", "1"]
    result = CliRunner().invoke(main, arguments)
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit), result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1, result.output
    line = lines[0]
    assert line.startswith(f"edition: error: {sources / 'WYG' / 'KR1d0028_010.txt'}:"), line
    assert ": witness WYG breaks a rule of the edition: witness WYG (四庫本) is attested exactly once" in line
    assert "edition.xml is not valid against edition.sch and is not written" in line
    assert line.endswith("(chapter 10, 覲禮第十)") and "listWit" not in line and "wWYG" not in line
    place = line.removeprefix("edition: error: ").split(": ", 1)[0]
    read = line.split("; WYG reads 「")[1].split("」")[0]
    assert read[:1] in raw_line(place), (place, read)
    assert snapshot(out) == before, "the last good build is untouched"
    assert not [p for p in tmp_path.iterdir() if ".staging-" in p.name]


@pytest.mark.tier("build")  # reads a chapter of the corpus
def test_a_chapters_sources_know_the_bases_text_of_the_other_chapters(work):
    """士喪禮's 記 stands in 既夕禮 in the base: a compilation that reads it beside 士喪禮's passages
    repeats the base's text of another chapter (collation/rearrangement.py), which the chapter's
    sources give, in the comparison script: its 經, not its 注 (是時柩北首, 既夕禮), and not the
    chapter's own text."""
    sources = work.sources(work.chapter("士喪禮"))
    elsewhere, fold = sources.elsewhere, sources.normalizer().comparison
    record, own, note = ("設棜于東堂下", "乃赴于君主人西階東", "是時柩北首")
    assert len(sources.work_files) == 16 and record.translate(fold) in elsewhere
    assert own.translate(fold) not in elsewhere and note.translate(fold) not in elsewhere
    base = sources.intake(next(m for m in sources.witnesses if m.siglum == "SBCK"), sources.normalizer())
    text = base.classic.text
    record, own = record.translate(fold), own.translate(fold)
    assert own in text and not held(record, text) and held(record, text, elsewhere)
