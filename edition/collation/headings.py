"""Headings: the divisions a heading word of the base opens (the 記 of a chapter), where the
first passage of its classic text that begins with that word stands. A heading is no text of the
collation: it is set apart from the entries (`model.HeadingApart`), and no section holds it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .analysis import Context, Placements
from .model import Division, HeadingApart

if TYPE_CHECKING:
    from ..intake.model import Witness

NAME = "headings"
PHASE = "divisions"


def divisions(base: Witness, heads: tuple[str, ...]) -> list[Division]:
    """Each heading word's division, where the first passage of the base's classic text that begins
    with it stands."""
    tokens = base.classic.tokens
    passage_starts = {s.start for s in base.compared_segments}
    out = []
    for head in heads:
        at = next(
            (
                i
                for i, t in enumerate(tokens)
                if t.start in passage_starts and "".join(u.source(base.raw) for u in tokens[i : i + len(head)]) == head
            ),
            None,
        )
        if at is not None:
            out.append(Division(head, at, at + len(head)))
    return sorted(out, key=lambda d: d.t0)


def find(apparatus, context: Context) -> list[Division]:
    return divisions(apparatus.base, context.config.divisions)


def place(apparatus, found: list[Division]) -> Placements:
    for division in found:
        yield HeadingApart(division)


def report(apparatus, found: list[Division], context: Context) -> None:
    return None
