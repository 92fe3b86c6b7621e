"""The analyses of the apparatus, run as a pipeline the build declares.

An analysis is a module with one interface:

- `find(apparatus, context)`: its findings, read from the apparatus and the context, changing
  neither;
- `place(apparatus, found)`: a generator of what the apparatus is to receive (the placements of
  `model`). The apparatus receives each one (`Apparatus.receive`) before the next is asked for,
  and answers it with the entry that took it, so that a placement may build on the entries made
  before it. An analysis never writes into the apparatus itself;
- `report(apparatus, found, context)`: what it reports, once every analysis has run (the entries
  are numbered as they will be printed; `reports`).

Each analysis's findings are kept in the context under its `NAME` as soon as it has run: those of
an earlier analysis are what a later one may read (the sections a decision names, the headings the
sections stand between).

An analysis runs in its `PHASE` (`PHASES`: the text's punctuation, then the entries the analyses
make, the divisions of the text, and the editors' rulings on entries made and divided), after the
analyses its `AFTER` names that run at all (those of a tradition the work may not have), and
otherwise in the order given (`ordered`).
"""

from __future__ import annotations

from collections.abc import Generator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

from ..intake.normalize import Normalizer
from ..settings import EditionConfig, Person

if TYPE_CHECKING:
    from .external_evidence import ExternalEvidence
    from .model import Apparatus, Decisions, Placement, Unit

Placements = Generator["Placement", "Unit | None", None]
PHASES = ("text", "entries", "divisions", "rulings")


@dataclass
class Context:
    """What the analyses read besides the apparatus: the edition's settings and tables, the
    editors' decisions, and the findings of the analyses run so far."""

    config: EditionConfig
    config_path: Path  # edition.toml, named in a problem of the settings
    normalizer: Normalizer
    persons: dict[str, Person]
    decisions: Decisions
    found: dict[str, Any] = field(default_factory=dict)
    external: ExternalEvidence | None = None  # the books of evidence placed on the base


@dataclass(frozen=True)
class Report:
    """An analysis's report: `reports/<name>.json` and `.md` where it writes files, and the lines
    the build prints of it."""

    name: str
    summary: dict | None = None
    markdown: str = ""
    lines: tuple[str, ...] = ()


def ordered(analyses: Sequence[ModuleType]) -> tuple[ModuleType, ...]:
    """The analyses in the order they run: by phase, each after those its `AFTER` names among them,
    else in the order given. Analyses that wait for one another, or of no phase, are an error of
    the code."""
    names = {a.NAME for a in analyses}
    unknown = [a.NAME for a in analyses if a.PHASE not in PHASES]
    if unknown:
        raise ValueError(f"analyses {unknown} have no phase of {PHASES}")
    out: list[ModuleType] = []
    for phase in PHASES:
        waiting = [a for a in analyses if a.PHASE == phase]
        while waiting:
            done = {a.NAME for a in out}
            ready = next(
                (a for a in waiting if all(n in done or n not in names for n in getattr(a, "AFTER", ()))), None
            )
            if ready is None:
                raise ValueError(f"analyses {[a.NAME for a in waiting]} wait for one another in phase {phase}")
            out.append(ready)
            waiting.remove(ready)
    return tuple(out)


def run(apparatus: Apparatus, analyses: Sequence[ModuleType], context: Context) -> None:
    """Run the analyses in their order, each finding, then placing into the apparatus."""
    for analysis in analyses:
        found = analysis.find(apparatus, context)
        placing = analysis.place(apparatus, found)
        received = None
        try:
            while True:
                received = apparatus.receive(placing.send(received))
        except StopIteration:
            pass
        context.found[analysis.NAME] = found


def reports(apparatus: Apparatus, analyses: Sequence[ModuleType], context: Context) -> list[Report]:
    """The reports of the analyses run, in their order."""
    return [r for a in analyses if (r := a.report(apparatus, context.found[a.NAME], context)) is not None]
