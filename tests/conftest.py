from pathlib import Path

import pytest

from edition.build import build
from edition.build import intake_all as intake
from edition.sources import Sources

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ROOT / "sources"


@pytest.fixture(scope="session")
def sources() -> Sources:
    return Sources.load(SOURCES)


@pytest.fixture(scope="session")
def witnesses(sources):
    return {w.meta.siglum: w for w in intake(sources)}


@pytest.fixture(scope="session")
def built(tmp_path_factory) -> Path:
    """One full build of the seed sources, shared by the tests that read build output."""
    out = tmp_path_factory.mktemp("build")
    build(SOURCES, out)
    return out
