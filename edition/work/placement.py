"""Which chapter of a work a new witness file belongs to, found by its text.

Every chapter's base file and the new file are read in their comparison forms (script and variant
forms folded, as collation compares them), Han characters only. The file belongs to the chapter
that holds the largest share of its runs of RUN characters, if it holds clearly more than any other
chapter; a 卷 that holds part of a chapter much like another (鄉飲酒禮 and 鄉射禮) belongs to it if it
holds enough of that chapter's own runs (those of no other chapter), clearly more than of any other
chapter's, and nearly as much of its text as the chapter that has most (a 序官 that names the next
book's offices holds many of its own runs, but little of its text); a file too corrupt for that
(scrambled, reversed, interleaved) belongs to the chapter that leads, by less, at every run length
from 2 to RUN; a 卷 that holds the end of one chapter and the start of the next, to the one that
holds most of its text, and to the other too (each chapter's collation leaves out the other's text
at its edge, `align.BEYOND`). A file that holds too little of any chapter (plates that quote a few
phrases) belongs to none (a 卷首, another text).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from ..errors import EditionError
from ..intake.guess import decode
from ..intake.normalize import Normalizer
from ..text import NOT_HAN
from .work_sources import Chapter, Work

RUN = 4  # characters: long enough that the runs of one chapter are rarely another's
AT_LEAST = 0.03  # of the file's runs, in the chapter it belongs to
CLEARLY = 3.0  # times the share of the next chapter
LEADS = 1.2  # times the next chapter's share, at every run length, for a file too corrupt to be clear
HOLDS = 0.1  # of a chapter's own runs, in a 卷 that holds part of it
LENGTHS = range(2, RUN + 1)
SAMPLE, PIECES = 2_000_000, 200  # characters of a large file placed by its runs, in pieces spread over it


@dataclass(frozen=True)
class Placement:
    chapter: Chapter | None  # None: no chapter holds enough of it (a 卷首, another text)
    share: float
    runner_up: tuple[Chapter, float] | None
    holds: float = 0.0  # of the chapter's own runs, where that placed it
    how: str = ""  # how it was placed, where not by its text (a 卷 of the base is a chapter)
    also: Chapter | None = None  # the chapter next to it whose end or start the file holds too

    def words(self) -> str:
        if self.how:
            return self.how
        if self.chapter is None:
            return f"at most {self.share:.0%} of its text is in one chapter of the base"
        if self.holds:
            return f"it holds {self.holds:.0%} of what is {self.chapter.title}'s alone in the base"
        found = f"{self.share:.0%} of its text is in {self.chapter.title}"
        found += f", {self.runner_up[1]:.0%} in {self.runner_up[0].title}" if self.runner_up else ""
        return found + (f"; in {self.also.title} too, for its text there" if self.also else "")


def sampled(text: str) -> str:
    """The text, or for a file longer than SAMPLE characters SAMPLE of them in PIECES pieces spread
    evenly over it: its runs are its own, in a set of bounded size however large the file."""
    if len(text) <= SAMPLE:
        return text
    size, step = SAMPLE // PIECES, len(text) // PIECES
    return "".join(text[k * step : k * step + size] for k in range(PIECES))


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
                text = "".join(
                    work.edition_path(base, n).read_text(encoding="utf-8") for n in base.files[chapter.number]
                )
                self.chapters.append((chapter, {n: runs(text, normalizer, n) for n in LENGTHS}))
        seen = Counter(run for _, theirs in self.chapters for run in theirs[RUN])
        self.own = [(chapter, {r for r in theirs[RUN] if seen[r] == 1}) for chapter, theirs in self.chapters]

    def shares(self, text: str, length: int) -> list[tuple[float, Chapter]]:
        own = runs(text, self.normalizer, length)
        found = ((len(own & theirs[length]) / len(own) if own else 0.0, chapter) for chapter, theirs in self.chapters)
        return sorted(found, key=lambda s: -s[0]) + [(0.0, None)]

    def held(self, text: str) -> list[tuple[float, Chapter]]:
        """How much of each chapter's own runs (those of no other chapter) the text holds, most first."""
        mine = runs(text, self.normalizer, RUN)
        found = ((len(mine & own) / len(own) if own else 0.0, chapter) for chapter, own in self.own)
        return sorted(found, key=lambda s: -s[0]) + [(0.0, None)]

    def place(self, file: Path) -> Placement:
        text = sampled(decode(file.read_bytes())[0])
        ranked = {n: self.shares(text, n) for n in LENGTHS}
        (best, chapter), (second, other) = ranked[RUN][:2]
        runner_up = (other, second) if other else None
        if best >= AT_LEAST and best >= CLEARLY * second:
            return Placement(chapter, best, runner_up)
        (most, holder), (next_most, _) = self.held(text)[:2]
        share = next(s for s, c in ranked[RUN] if c == holder)
        if most >= HOLDS and most >= CLEARLY * next_most and share * LEADS >= best:
            return Placement(holder, share, runner_up if holder != other else (chapter, best), most)
        if all(r[0][1] == chapter and r[0][0] > 0 and r[0][0] >= LEADS * r[1][0] for r in ranked.values()):
            return Placement(chapter, best, runner_up)
        if best >= AT_LEAST and most >= HOLDS:  # a 卷 that holds the end of one chapter and the start of the next
            beside = other if other and second >= AT_LEAST and abs(other.number - chapter.number) == 1 else None
            return Placement(chapter, best, runner_up, also=beside)
        return Placement(None, best, (chapter, best) if chapter else None)
