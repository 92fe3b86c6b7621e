"""A new work: the files `edition init` writes, and the chapters its base gives.

A work begins with no chapters. The first edition added to it (by `init` or by `add-witness`) is
its base, and the base's 卷 files are its chapters, in order: each titled by the headings of the
篇 it holds (曲禮上第一, or 曲禮上第一、曲禮下第二 where a 卷 holds two), a file that holds none
where others do, or that is of a kind of no chapter (front matter, plates, collation notes), none.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import regex
import tomlkit

from ..errors import EditionError
from ..intake.gaiji import kanripo_table
from ..intake.guess import decode
from ..intake.raw import book_of
from ..text import NUMERAL
from .file_kinds import kind_of
from .placement import Placement
from .sources import write_together
from .work_sources import WORK_FILE, Chapter

SKELETON = resources.files("edition.work") / "data" / "new-work"
# A 篇's heading at a line's head: its title (a Kanripo entity among its characters) and 第 with its
# number, then a space, a note (音義 or 疏 before it), the line's end or the end of the printed line (¶).
HEADING = regex.compile(
    rf"(?m)^[\u3000 ]*(?P<title>(?:\p{{Han}}|&KR\d+;){{1,12}}?)第(?P<number>[{NUMERAL}]+)"
    r"(?=[\u3000 (（¶]|(?:音義|疏)\(|$)"
)
PAGE_ID = regex.compile(r"<pb:[^_>]+_(?P<edition>[A-Za-z][\w-]*?)_\d+")  # Kanripo's page ids name the edition
ENTITY = regex.compile(r"&KR\d+;")
BANNER = "卷"  # 纂圖互註禮記卷第一: the 卷's own heading, no 篇's
JOINER = "、"


@dataclass(frozen=True)
class BaseFile:
    path: Path
    headings: tuple[tuple[str, str], ...]  # (title, heading) of each 篇 it holds
    kind: str  # the kind of a file of no chapter (NO_CHAPTER), "" for a chapter's
    why: str  # what shows the kind


def resolved(title: str) -> str:
    """A title with its Kanripo entities resolved (〓 where the table knows no character)."""
    entities = kanripo_table()
    return ENTITY.sub(lambda m: (entities[m.group()].mapping if m.group() in entities else "") or "〓", title)


def headings_in(text: str) -> tuple[tuple[str, str], ...]:
    found = []
    for m in HEADING.finditer(text):
        title = resolved(m["title"])
        if not title.endswith(BANNER) and (title, f"{title}第{m['number']}") not in found:
            found.append((title, f"{title}第{m['number']}"))
    return tuple(found)


def read_base(files: list[Path]) -> list[BaseFile]:
    """Each of the base's files with the 篇 it holds, or what it is if of no chapter."""
    read = []
    for path in files:
        text = decode(path.read_bytes())[0]
        kind, why = kind_of(text)
        read.append(BaseFile(path, headings_in(text), "" if kind.name == "unused" else kind.name, why))
    named = Counter(h for f in read for h in f.headings)
    out = []
    for f in read:
        if f.kind and any(named[h] == 1 for h in f.headings):  # a 篇 of its own: its text, not a table of contents
            f = BaseFile(f.path, f.headings, "", "")
        elif not f.headings and not f.kind and named:  # where the 篇 are named, one that names none is no chapter's
            f = BaseFile(f.path, (), "unused", "it names no 篇")
        out.append(f)
    return out


def chapters_of(read: list[BaseFile]) -> tuple[list[Chapter], dict[Path, Placement]]:
    """The chapters the base's files give, numbered in order, and each file's placement."""
    chapters, placements = [], {}
    for base_file in read:
        if base_file.kind:
            placements[base_file.path] = Placement(None, 0.0, None, how=base_file.why or "of no chapter")
            continue
        number = len(chapters) + 1
        titles = [t for t, _ in base_file.headings] or [f"卷{number}"]
        headings = [h for _, h in base_file.headings] or titles
        chapter = Chapter(number, JOINER.join(titles), JOINER.join(headings))
        chapters.append(chapter)
        placements[base_file.path] = Placement(chapter, 1.0, None, how="a 卷 of the base")
    if not chapters:
        raise EditionError(
            read[0].path.parent, "none of its files holds the text of a chapter: is it the base edition?"
        )
    return chapters, placements


def with_chapters(work_toml: str, chapters: list[Chapter], base: str, title: str) -> str:
    """work.toml with the base, the chapters and (if it has none) the work's title set."""
    document = tomlkit.parse(work_toml)
    document["work"]["base"] = base
    if not document["work"].get("title"):
        document["work"]["title"] = title
    listed = tomlkit.aot()
    for chapter in chapters:
        listed.append(tomlkit.item({"number": chapter.number, "title": chapter.title, "heading": chapter.heading}))
    document["chapter"] = listed
    return tomlkit.dumps(document)


def book_title(files: list[Path]) -> str:
    """The title a base edition's files give in their header (#+TITLE), else its folder's name."""
    book, _ = book_of(decode(files[0].read_bytes())[0])
    return book or files[0].parent.name


def init(root: Path, title: str | None) -> list[Path]:
    """The files of a work with no chapters yet, written into `root` (new, or empty); a title
    given here is kept, else the base's is taken when it is added."""
    if root.exists() and (not root.is_dir() or any(root.iterdir())):
        raise EditionError(root, "not empty: a new work is started in a new folder (--sources)")
    files = {}
    for template in sorted(SKELETON.iterdir(), key=lambda t: t.name):
        text = template.read_text(encoding="utf-8")
        if template.name == WORK_FILE:
            document = tomlkit.parse(text)
            if title:
                document["work"]["title"] = title
            else:
                del document["work"]["title"]
            text = tomlkit.dumps(document)
        files[root / template.name] = text.encode("utf-8")
    root.mkdir(parents=True, exist_ok=True)
    write_together(files)
    return sorted(files)


def edition_siglum(base: Path) -> str:
    """A siglum for a base edition: the edition its page ids name (<pb:KR1d0054_SBCK_001-1a>), else
    its folder's or file's name."""
    first = base if base.is_file() else next(iter(sorted(base.glob("*.txt"))), base)
    if first.is_file() and (page := PAGE_ID.search(decode(first.read_bytes())[0])):
        return page["edition"]
    return regex.sub(r"[^\w-]+", "-", base.stem).strip("-") or "BASE"
