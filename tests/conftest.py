from pathlib import Path

import pytest

from edition.work.build import build
from edition.collation import decisions
from edition.collation.apparatus import collate
from edition.work.sources import Sources, decisions_path

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ROOT / "sources"


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


@pytest.fixture(scope="session")
def apparatus(witnesses, sources):
    """The seed sources collated as the build collates them, the editors' witness decisions applied."""
    choices = decisions.load(decisions_path(SOURCES))
    return collate(list(witnesses.values()), sources.config.base, sources.orthography(), sources.config.min_quality, choices.witnesses(True), choices.witnesses(False))
