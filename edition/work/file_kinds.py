"""What a file of an edition is that belongs to no chapter of the work: a collation appendix,
plates, front matter, or nothing the work uses, told by general features of its text (the density
of judged readings and quoted places, the share of pages left for pictures, headings of its own),
as `intake/data/files-of-no-chapter.toml` describes them."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import regex

from ..intake.profile import built_in
from ..tables import read_toml
from ..text import HAN


@dataclass(frozen=True)
class FileKind:
    name: str  # the field of the edition's stanza that lists such files
    words: str
    test: dict  # the kind's table

    def measure(self, text: str) -> tuple[bool, str]:
        """Whether the text is of this kind, and the figure that says so, in words."""
        if "per_thousand" in self.test:
            han = max(len(HAN.findall(text)), 1)
            densities = [1000 * len(regex.findall(p, text)) / han for p in self.test["patterns"]]
            least = min(densities)
            return least >= self.test["per_thousand"], (
                f"judged readings and quoted places {' and '.join(f'{d:.0f}' for d in densities)} per 1000 characters"
            )
        if "picture" in self.test:
            pages = regex.split(self.test["page"], text)
            pages = [p for p in pages[1:] if p.strip()] if len(pages) > 1 else pages
            pictured = sum(1 for p in pages if not HAN.search(p) or regex.search(self.test["picture"], p))
            share = pictured / max(len(pages), 1)
            return share >= self.test["share"], f"{share:.0%} of its pages empty for pictures or holding one"
        if "headings" in self.test:
            found = [len(regex.findall(p, text)) for p in self.test["patterns"]]
            shown = any(n >= least for n, least in zip(found, self.test["headings"]))
            return shown, f"{sum(found)} heading(s) of front matter"
        return False, ""


@cache
def file_kinds() -> tuple[FileKind, ...]:
    document, _ = read_toml(built_in("data") / "files-of-no-chapter.toml")
    return tuple(FileKind(k["name"], k["words"], k) for k in document["kind"])


def kind_of(text: str) -> tuple[FileKind, str]:
    """The first kind the text is of, and why, in words; the last kind takes what no other does."""
    *kinds, rest = file_kinds()
    for kind in kinds:
        shown, why = kind.measure(text)
        if shown:
            return kind, why
    return rest, ""
