"""Each bench's smoke mode runs the bench's real code path at small sizes: an API change that
breaks a bench fails here."""

import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent.parent / "bench"


def test_collate_vs_collatex_smoke():
    result = subprocess.run([sys.executable, str(BENCH / "collate_vs_collatex"), "--smoke"], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr[-2000:]
    assert "× faster" in result.stdout and "units" in result.stdout and "RESULT:" in result.stdout
