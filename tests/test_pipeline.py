"""The pipeline of analyses is ordered by their phases and what each reads, and printed in the
architecture page as the code orders it."""

from pathlib import Path
from types import SimpleNamespace

import pytest

from edition.collation import analysis
from edition.traditions import COMMON, NONE, load
from edition.work.chapter_build import ANALYSES

ROOT = Path(__file__).resolve().parent.parent


def names(analyses) -> list[str]:
    return [a.NAME for a in analyses]


def test_the_architecture_page_prints_the_yilis_pipeline_as_the_code_orders_it():
    ordered = ", ".join(names(analysis.ordered((*ANALYSES, *load("yili").analyses))))
    page = " ".join((ROOT / "docs" / "architecture.md").read_text(encoding="utf-8").split())
    assert f"for the 儀禮 it runs {ordered} (a test" in page


def test_a_work_without_a_tradition_runs_the_engines_analyses_and_the_notes_every_work_has():
    assert NONE.analyses == COMMON and names(analysis.ordered((*ANALYSES, *COMMON))) == [
        "punctuation",
        "jinguwen",
        "textual_notes",
        "headings",
        "sections",
        "decisions",
        "same_error",
    ]
    assert set(COMMON) < set(load("yili").analyses)


def test_an_analysis_runs_after_those_it_reads_whatever_the_order_given():
    first = SimpleNamespace(NAME="first", PHASE="entries")
    second = SimpleNamespace(NAME="second", PHASE="entries", AFTER=("first",))
    divides = SimpleNamespace(NAME="divides", PHASE="divisions", AFTER=("absent",))
    assert names(analysis.ordered((divides, second, first))) == ["first", "second", "divides"]


def test_analyses_that_wait_for_one_another_are_refused():
    a = SimpleNamespace(NAME="a", PHASE="entries", AFTER=("b",))
    b = SimpleNamespace(NAME="b", PHASE="entries", AFTER=("a",))
    with pytest.raises(ValueError, match="wait for one another"):
        analysis.ordered((a, b))


def test_an_unknown_tradition_is_one_line_naming_the_setting():
    from edition.errors import EditionError

    with pytest.raises(EditionError, match="no tradition 'liji'.*yili") as raised:
        load("liji", Path("work.toml"))
    assert "work.toml" in str(raised.value)


EVIDENCE = '\n[[evidence]]\nsiglum = "SHU"\nkind = "subcommentary-quotations"\nfolder = "shu"\ntitle = "儀禮疏"\n'


def test_a_book_of_evidence_is_read_only_by_a_tradition_with_a_reader_of_its_kind(tmp_path):
    """Without a tradition, a book of evidence is one line naming its stanza's kind; with the
    儀禮's, it is read, and what it is to the edition is in its reader's words."""
    from probe import sample_sources

    from edition.errors import EditionError
    from edition.work.sources import Sources

    root = sample_sources(tmp_path / "sources", tradition="")
    (root / "shu").mkdir()
    (root / "shu" / "KR1d0027_001.txt").write_text("儀禮疏卷第一\n", encoding="utf-8")
    (root / "witnesses.toml").write_text((root / "witnesses.toml").read_text() + EVIDENCE, encoding="utf-8")
    with pytest.raises(EditionError, match="no book of kind 'subcommentary-quotations'.*without a tradition") as e:
        Sources.load(root)
    assert str(e.value).startswith(f"{root / 'witnesses.toml'}:")
    config = root / "edition.toml"
    config.write_text(config.read_text() + 'tradition = "yili"\n')
    (book,) = Sources.load(root).evidence
    assert book.status.startswith("evidence: the 疏 printed without the 經 and 注")
    meta = root / "witnesses.toml"
    meta.write_text(meta.read_text().replace("subcommentary-quotations", "marginalia"), encoding="utf-8")
    with pytest.raises(EditionError, match="no book of kind 'marginalia'.*'yili' reads 'subcommentary-quotations'"):
        Sources.load(root)


@pytest.mark.tier("build")
def test_a_work_without_a_tradition_builds_with_the_engines_analyses_and_the_common_ones(tmp_path):
    """The sample (儀禮 text, with Zheng's 今文无告) built without a tradition: a valid edition whose
    notes on readings are read as every work's are (今文无告 is a reading), with no person named."""
    from probe import SAMPLE, edition, sample_sources, write_witness

    root = sample_sources(tmp_path / "sources", tradition="")
    write_witness(root, "B", "b.txt", SAMPLE.replace("西阶", "东阶").encode("utf-8"), append=True)
    result = edition("build", "--quiet", "--sources", root, "--out", tmp_path / "build")
    assert result.returncode == 0, result.stderr
    tei = (tmp_path / "build" / "edition.xml").read_text(encoding="utf-8")
    assert 'type="jinguwen"' in tei and ">东</rdg>" in tei
