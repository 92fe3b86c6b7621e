"""Traditions: what belongs to one classic and its books, apart from the engine, which knows no
work. A tradition is a package here (`edition.traditions.<name>`, named by the work's `tradition`
setting) whose `TRADITION` gives:

- the analyses of its apparatus (modules of the shape `collation.analysis` describes), run among
  the engine's own in the order their phases and `AFTER` give (`analysis.ordered`);
- the readers of its books of evidence, by the `kind` their stanzas name
  (`collation.external_evidence.EvidenceReader`).

Besides, every work's notes are read by the analyses of `COMMON` (modules here, with their data in
`data/`). A work with no tradition is built by the engine's analyses and those, with no book of
evidence.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType

import regex

from ..collation.external_evidence import EvidenceReader
from ..errors import EditionError
from . import jinguwen, textual_note


@dataclass(frozen=True)
class Tradition:
    name: str
    analyses: tuple[ModuleType, ...] = ()
    readers: Mapping[str, EvidenceReader] = field(default_factory=dict)  # by kind of book of evidence


# What every work's notes are read for, whatever its tradition: Zheng Xuan's notes on readings
# (`jinguwen`, the traditions the notes name) and the 校语 of the witnesses (`textual_note`); a
# work whose commentary has none has none of their entries.
COMMON = (jinguwen, textual_note)
NONE = Tradition("", analyses=COMMON)


def load(name: str, named_in: Path | None = None) -> Tradition:
    """The tradition of that name (none for ""), or an error naming the setting's file."""
    if not name:
        return NONE
    line = setting_line(named_in)
    if not regex.fullmatch(r"[a-z][a-z0-9_]*", name):
        raise EditionError(named_in, f"tradition {name!r}: a tradition is named in lower-case letters (yili)", line)
    try:
        module = importlib.import_module(f"{__name__}.{name}")
    except ModuleNotFoundError:
        raise EditionError(named_in, f"no tradition {name!r} (the traditions are {', '.join(known())})", line) from None
    return module.TRADITION


def setting_line(path: Path | None) -> int | None:
    """The line of the settings file that names the tradition."""
    if path is None or not path.is_file():
        return None
    lines = path.read_text(encoding="utf-8").splitlines()
    return next((number for number, text in enumerate(lines, 1) if regex.match(r"\s*tradition\s*=", text)), None)


def known() -> list[str]:
    folder = Path(__file__).parent
    return sorted(p.name for p in folder.iterdir() if (p / "__init__.py").is_file())
