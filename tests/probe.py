"""A harness for probing the installed command with bad sources: a one-witness sample edition,
the command run as a user runs it, and snapshots of a folder (paths and hashes) to show that a
failed command changed nothing."""

from __future__ import annotations

import hashlib
import shutil
import subprocess
import sys
from pathlib import Path

from conftest import SOURCES

ROOT = Path(__file__).resolve().parent.parent
COMMAND = Path(sys.executable).parent / "edition"
SAMPLE = (
    "礼书纲目\n\n"
    "司射适阼阶上东北面告于主人曰请射于賔賔许【今文无告】司射降自西阶阶前西面命弟子纳射器"
    "【弟子賔党之年少者也纳内也射器弓矢决拾旌中筹楅丰也】乃纳射器皆在堂西賔与大夫之弓倚于西序"
    "矢在弓下北括众弓倚于堂西矢在其上主人之弓矢在东序东司射不释弓矢遂以比三耦于堂西\n\n"
    "右请射\n"
)
STANZA = """
[[witness]]
siglum = "{siglum}"
file = "{file}"
title = "sample"
script = "traditional"
profile = "{profile}"
{extra}
"""


def sample_sources(root: Path, tradition: str = "yili") -> Path:
    """A one-witness edition: the seed tables and config, and a small 礼书纲目 sample (of the
    儀禮, whose tradition it has unless told otherwise)."""
    root.mkdir()
    for name in ("variants.tsv", "gaiji.tsv", "persons.tsv"):
        shutil.copy(SOURCES / name, root / name)
    config = '[edition]\ntitle = "t"\nbase = "A"\ncomparison_script = "simplified"\n'
    (root / "edition.toml").write_text(config + (f'tradition = "{tradition}"\n' if tradition else ""))
    write_witness(root, "A", "a.txt", SAMPLE.encode("utf-8"))
    return root


def write_witness(
    root: Path,
    siglum: str,
    file: str,
    data: bytes,
    profile: str = "lishu-gangmu",
    extra: str = "",
    append: bool = False,
):
    (root / file).write_bytes(data)
    stanza = STANZA.format(siglum=siglum, file=file, profile=profile, extra=extra)
    path = root / "witnesses.toml"
    path.write_text((path.read_text() if append and path.exists() else "") + stanza)


def edition(*args: str | Path) -> subprocess.CompletedProcess:
    """The installed command, as a user runs it."""
    return subprocess.run([str(COMMAND), *map(str, args)], capture_output=True, text=True, timeout=600)


def snapshot(folder: Path) -> dict[str, str]:
    """Every file under `folder` by relative path, with its SHA-256."""
    if not folder.exists():
        return {}
    return {
        p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def assert_one_line(result: subprocess.CompletedProcess, *fragments: str) -> str:
    """Exit 1, no traceback, exactly one line of output that holds every fragment."""
    output = (result.stdout + result.stderr).strip()
    assert result.returncode == 1, output
    assert "Traceback" not in output, output
    lines = output.splitlines()
    assert len(lines) == 1, output
    for fragment in fragments:
        assert fragment in lines[0], (fragment, lines[0])
    return lines[0]
