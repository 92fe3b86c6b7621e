import atexit
import shutil
import tempfile
from pathlib import Path

import pytest

from edition.work.build import build
from edition.collation import decisions
from edition.collation.apparatus import collate
from edition.work.sources import Sources, decisions_path
from edition.work.work import Work, export_chapter, export_work

ROOT = Path(__file__).resolve().parent.parent
WORK = ROOT / "sources"  # the whole 儀禮


def exported_chapter(number: int) -> Path:
    """A chapter of the work exported as a one-chapter edition, in a folder removed at exit."""
    work = Work.load(WORK)
    folder = Path(tempfile.mkdtemp(prefix=f"chapter{number}-")) / "sources"
    atexit.register(shutil.rmtree, folder.parent, True)
    return export_chapter(work, work.chapter(number), folder)


SOURCES = exported_chapter(5)  # 鄉射禮, with the seed witnesses, SBCK and WYG


@pytest.fixture(scope="session")
def sources() -> Sources:
    return Sources.load(SOURCES)


@pytest.fixture(scope="session")
def witnesses(sources):
    return {w.meta.siglum: w for w in sources.intake_all()}


@pytest.fixture(scope="session")
def built(tmp_path_factory) -> Path:
    """One full build of the seed sources, shared by the tests that read build output."""
    out = tmp_path_factory.mktemp("build")
    build(SOURCES, out)
    return out


SAMPLE_CHAPTERS = (3, 10)  # 士相見禮 and 覲禮, the two shortest chapters


@pytest.fixture(scope="session")
def work_sample(tmp_path_factory) -> tuple[Path, Path, list[str]]:
    """A work of two chapters of the 儀禮 built once as `make edition` builds a work: its
    sources, its build, and the chapters built."""
    from edition.work.work_build import build_work

    root = tmp_path_factory.mktemp("work")
    sources = sample_work(root / "sources", SAMPLE_CHAPTERS)
    out = root / "build"
    return sources, out, build_work(sources, out, jobs=2)


@pytest.fixture(scope="session")
def apparatus(witnesses, sources):
    """The seed sources collated as the build collates them, the editors' witness decisions applied."""
    choices = decisions.load(decisions_path(SOURCES))
    return collate(
        list(witnesses.values()),
        sources.config.base,
        sources.orthography(),
        sources.config.min_quality,
        choices.witnesses(True),
        choices.witnesses(False),
    )


def sample_work(folder: Path, numbers: tuple[int, ...]) -> Path:
    """A work of some chapters of the 儀禮, as `sources/` describes them."""
    return export_work(WORK, numbers, folder)
