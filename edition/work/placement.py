"""Which chapter of a work a new witness file belongs to, found by its text.

Every chapter's base file and the new file are read in their comparison forms (script and variant
forms folded, as collation compares them), Han characters only. The file belongs to the chapter
that holds the largest share of its runs of RUN characters, if it holds clearly more than any other
chapter; a file too corrupt for that (scrambled, reversed, interleaved) belongs to the chapter that
leads, by less, at every run length from 2 to RUN. Two chapters close at the top ask the user to
name it (`--chapter`); a file that no chapter leads belongs to none (a 卷首, another text).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import regex

from ..errors import EditionError
from ..intake.guess import decode
from ..intake.normalize import Normalizer
from .work_sources import Chapter, Work

RUN = 4  # characters: long enough that the runs of one chapter are rarely another's
AT_LEAST = 0.03  # of the file's runs, in the chapter it belongs to
CLEARLY = 3.0  # times the share of the next chapter
LEADS = 1.2  # times the next chapter's share, at every run length, for a file too corrupt to be clear
LENGTHS = range(2, RUN + 1)
NOT_HAN = regex.compile(r"\P{Han}+")


@dataclass(frozen=True)
class Placement:
    chapter: Chapter | None  # None: no chapter holds enough of it (a 卷首, another text)
    share: float
    runner_up: tuple[Chapter, float] | None

    def words(self) -> str:
        title = self.chapter.title if self.chapter else "no chapter"
        found = f"{self.share:.0%} of its {RUN}-character runs are in {title}'s base text"
        return found + (f"; next {self.runner_up[0].title}, {self.runner_up[1]:.0%}" if self.runner_up else "")


def runs(text: str, normalizer: Normalizer, length: int) -> set[str]:
    folded = NOT_HAN.sub("", text).translate(normalizer.comparison)
    return {folded[i : i + length] for i in range(len(folded) - length + 1)}


class ChapterPlacer:
    """The base's chapters, ready to place files among them."""

    def __init__(self, work: Work, normalizer: Normalizer):
        self.normalizer = normalizer
        base = next((e for e in work.editions if e.meta.siglum == work.settings["base"]), None)
        if base is None:
            raise EditionError(
                work.root / "witnesses.toml",
                f"the base {work.settings['base']!r} is no edition of the whole work: name the chapter (--chapter)",
            )
        self.chapters = []
        for chapter in work.chapters:
            if chapter.number in base.files:
                text = work.edition_path(base, base.files[chapter.number]).read_text(encoding="utf-8")
                self.chapters.append((chapter, {n: runs(text, normalizer, n) for n in LENGTHS}))

    def shares(self, text: str, length: int) -> list[tuple[float, Chapter]]:
        own = runs(text, self.normalizer, length)
        found = ((len(own & theirs[length]) / len(own) if own else 0.0, chapter) for chapter, theirs in self.chapters)
        return sorted(found, key=lambda s: -s[0]) + [(0.0, None)]

    def place(self, file: Path) -> Placement:
        text = decode(file.read_bytes())[0]
        ranked = {n: self.shares(text, n) for n in LENGTHS}
        (best, chapter), (second, other) = ranked[RUN][:2]
        runner_up = (other, second) if other else None
        if best >= AT_LEAST and best >= CLEARLY * second:
            return Placement(chapter, best, runner_up)
        if all(r[0][1] == chapter and r[0][0] > 0 and r[0][0] >= LEADS * r[1][0] for r in ranked.values()):
            return Placement(chapter, best, runner_up)
        if best >= AT_LEAST and all(r[0][1] == chapter for r in ranked.values()):
            raise EditionError(
                file,
                f"it could belong to {chapter.title} ({best:.0%} of its runs) or {other.title} ({second:.0%}): "
                "name the chapter (--chapter)",
            )
        return Placement(None, best, (chapter, best) if chapter else None)
