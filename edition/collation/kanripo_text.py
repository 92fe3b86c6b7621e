"""A Kanripo (mandoku) file read as running text: the characters of its lines without the line
ends, page markers and transcribers' lines, each with its raw offsets, a character Unicode lacks
(&KR0002;) as one; its words as the file writes them and in their comparison forms.

What is markup is data of the evidence that reads the file (the `layout` table of its TOML file:
`remark`, `page`, `line_end`, `gaiji`); which whole lines are left out (titles, the compilers'
line) the reader says by `skip`.
"""

from __future__ import annotations

from array import array
from bisect import bisect_left
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

import regex

from ..intake.model import RawText
from ..intake.normalize import UNMAPPED, Normalizer
from ..intake.raw import read_raw

PLACEHOLDER = "〇"  # a gaiji in the running text: one character (Script=Han) for the patterns


@dataclass(frozen=True)
class Layout:
    remark: regex.Pattern
    page: regex.Pattern
    line_end: str
    gaiji: regex.Pattern

    @cached_property
    def marked(self) -> regex.Pattern:
        """A page marker (tried first) or a gaiji, wherever one stands."""
        return regex.compile(f"(?P<page>{self.page.pattern})|(?P<gaiji>{self.gaiji.pattern})")

    @classmethod
    def of(cls, table: dict) -> Layout:
        return cls(
            regex.compile(table["remark"]),
            regex.compile(table["page"]),
            table["line_end"],
            regex.compile(table["gaiji"]),
        )


@dataclass
class RunningText:
    """A file's running text: text[i] is a character (PLACEHOLDER for a gaiji) of raw offsets
    starts[i]:ends[i]; `line_starts` the indexes where a line of the file begins; `skipped` the
    lines left out by the reader, as (line number, text)."""

    raw: RawText
    text: str
    starts: array  # of signed 64-bit offsets: a 30 MB book's offsets in 0.5 GB, not 2
    ends: array
    line_starts: set[int]
    skipped: list[tuple[int, str]] = field(default_factory=list)

    @classmethod
    def read(
        cls, path: Path, layout: Layout, skip: Callable[[str], bool] = lambda line: False, encoding: str = "utf-8"
    ) -> RunningText:
        raw = read_raw(path, encoding)
        chars: list[str] = []  # pieces of the running text
        starts, ends = array("q"), array("q")
        line_starts: set[int] = set()
        skipped: list[tuple[int, str]] = []
        offset = 0
        for number, line in enumerate(raw.text.splitlines(keepends=True), 1):
            body = line.rstrip("\r\n")
            shown = body.removesuffix(layout.line_end)
            if layout.remark.match(body) or skip(layout.page.sub("", shown)):
                if body.strip() and not layout.remark.match(body):
                    skipped.append((number, shown))
                offset += len(line)
                continue
            line_starts.add(len(starts))
            k = 0
            for match in layout.marked.finditer(shown):  # page markers left out, a gaiji one character
                chars.append(shown[k : match.start()])
                starts.extend(range(offset + k, offset + match.start()))
                ends.extend(range(offset + k + 1, offset + match.start() + 1))
                if match.lastgroup == "gaiji":
                    chars.append(PLACEHOLDER)
                    starts.append(offset + match.start())
                    ends.append(offset + match.end())
                k = match.end()
            chars.append(shown[k:])
            starts.extend(range(offset + k, offset + len(shown)))
            ends.extend(range(offset + k + 1, offset + len(shown) + 1))
            offset += len(line)
        return cls(raw, "".join(chars), starts, ends, line_starts, skipped)

    @cached_property
    def ordered_starts(self) -> list[int]:
        return sorted(self.line_starts)

    def lines_between(self, a: int, b: int) -> list[int]:
        """The running characters a line begins at, from a to before b, in order."""
        starts = self.ordered_starts
        return starts[bisect_left(starts, a) : bisect_left(starts, b)]

    def own(self, a: int, b: int) -> str:
        """The file's own characters of running characters a:b."""
        return "".join(self.raw.text[s:e] for s, e in zip(self.starts[a:b], self.ends[a:b]))

    def norm(self, a: int, b: int, normalizer: Normalizer) -> str:
        """The comparison form of running characters a:b, as the normalizer compares witnesses."""
        out = []
        for s, e in zip(self.starts[a:b], self.ends[a:b]):
            own = self.raw.text[s:e]
            if e - s > 1:
                entry = normalizer.gaiji.entry(own)
                out.append(normalizer.fold(entry.mapping)[0] if entry.mapping else UNMAPPED)
            else:
                out.append(own.translate(normalizer.comparison))
        return "".join(out)

    def line_of(self, a: int) -> int:
        return self.raw.line_of(self.starts[a])

    def span(self, a: int, b: int) -> tuple[int, int]:
        """The raw offsets of running characters a:b."""
        return self.starts[a], self.ends[b - 1]
