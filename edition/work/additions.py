"""New witnesses of a work: a file joins the chapter it belongs to, a folder of 卷 files becomes
an edition of the whole work."""

from __future__ import annotations

import os
import shutil
import tomllib
from pathlib import Path
from typing import NamedTuple

import tomlkit

from ..errors import EditionError, interrupts_as_errors
from ..intake.guess import Guess
from ..intake.raw import check_text_data
from ..tables import read_text, violations
from .placement import ChapterPlacer, Placement
from .sources import WITNESS_SUFFIXES, add_witness, check_options, guess_layout, write_together
from .work_sources import Chapter, Work


class Added(NamedTuple):
    target: Path
    guessed: Guess
    where: str  # the chapter, or the files by chapter, in words


def taken_sigla(work: Work) -> frozenset[str]:
    found = {e.meta.siglum for e in work.editions}
    for chapter in work.chapters:
        meta = work.chapter_dir(chapter) / "witnesses.toml"
        if meta.is_file():
            found |= {s["siglum"] for s in tomllib.loads(read_text(meta)).get("witness", ())}
    return frozenset(found)


def chapter_of(work: Work, file: Path, chapter: str | None) -> tuple[Chapter, str]:
    if chapter:
        return work.chapter(chapter), "as asked"
    check_text_data(file, file.read_bytes())  # an empty or binary file is said to be so, not of no chapter
    placement = ChapterPlacer(work, work.sources(work.chapters[0]).normalizer()).place(file)
    if placement.chapter is None:
        raise EditionError(
            file, f"it belongs to no chapter of the work ({placement.words()}): name the chapter (--chapter)"
        )
    return placement.chapter, placement.words()


def add_to_chapter(root: Path, file: Path, siglum: str, chapter: str | None, options: dict) -> Added:
    """The file copied into the folder of its chapter (found by its text unless named) and described
    in that folder's witnesses.toml; `options`: title, name, profile, encoding, script (None: guessed)."""
    if not file.is_file():
        raise EditionError(file, "no such witness file")
    work = Work.load(root)
    found, how = chapter_of(work, file, chapter)
    taken = taken_sigla(work)
    if siglum in taken:
        raise EditionError(root / "witnesses.toml", f"siglum {siglum!r} is taken")
    guessed = guess_layout(root, file, siglum, work.sources(found))
    profile = options.get("profile")
    target = add_witness(
        work.chapter_dir(found),
        file,
        siglum,
        options.get("title") or file.stem,
        profile or guessed.profile,
        options.get("encoding") or guessed.encoding,
        options.get("script") or guessed.script,
        None if profile else guessed.composed,
        options.get("name"),
        profiles_root=root,
        taken=taken,
    )
    return Added(target, guessed, f"chapter {found.heading} ({how})")


def add_edition(root: Path, folder: Path, siglum: str, options: dict) -> Added:
    """A folder of 卷 files as an edition of the whole work: each file placed in its chapter by its
    text (those of no chapter are its `front`), copied into `sources/<siglum>/` and described by one
    stanza in the work's witnesses.toml."""
    work = Work.load(root)
    files = sorted(p for p in folder.iterdir() if p.suffix in WITNESS_SUFFIXES and p.is_file())
    if not files:
        raise EditionError(folder, "no witness files (.txt) in the folder")
    if siglum in taken_sigla(work):
        raise EditionError(root / "witnesses.toml", f"siglum {siglum!r} is taken")
    placer = ChapterPlacer(work, work.sources(work.chapters[0]).normalizer())
    by_chapter: dict[int, Path] = {}
    front: list[Path] = []
    for path in files:
        check_text_data(path, path.read_bytes())
        placement: Placement = placer.place(path)
        if placement.chapter is None:
            front.append(path)
        elif placement.chapter.number in by_chapter:
            raise EditionError(
                path,
                f"it belongs to {placement.chapter.title}, as {by_chapter[placement.chapter.number].name} does: "
                "add them one by one (--chapter)",
            )
        else:
            by_chapter[placement.chapter.number] = path
    if not by_chapter:
        raise EditionError(folder, "none of its files belongs to a chapter of the work")
    largest = max(by_chapter, key=lambda n: by_chapter[n].stat().st_size)
    guessed = guess_layout(root, by_chapter[largest], siglum, work.sources(work.chapter(largest)))
    profile = options.get("profile")
    if profile is None and guessed.composed is not None:
        raise EditionError(
            by_chapter[largest],
            f"no layout profile reads it ({guessed.profile} would have to be composed): name one (--profile)",
        )
    stanza = {
        "siglum": siglum,
        "title": options.get("title") or folder.name,
        "script": options.get("script") or guessed.script,
        "profile": profile or guessed.profile,
        "encoding": options.get("encoding") or guessed.encoding,
    }
    if options.get("name"):
        stanza["name"] = options["name"]
    for path in files:
        check_options(root, path, dict(stanza, file=path.name))
    stanza["folder"] = siglum
    if front:
        stanza["front"] = [p.name for p in front]
    stanza["files"] = {str(n): by_chapter[n].name for n in sorted(by_chapter)}
    meta_path = root / "witnesses.toml"
    document = tomlkit.parse(read_text(meta_path))
    document["witness"].append(tomlkit.item(stanza))
    text = tomlkit.dumps(document)
    if violations(meta_path, text, tomllib.loads(text), "witnesses.toml"):
        raise EditionError(meta_path, "the new stanza would not be valid; nothing was added")
    place_folder(root / siglum, files, {meta_path: text.encode("utf-8")}, folder)
    placed = ", ".join(f"{work.chapter(n).title} {p.name}" for n, p in sorted(by_chapter.items()))
    return Added(
        root / siglum,
        guessed,
        f"{len(by_chapter)} chapter(s): {placed}" + (f"; front: {', '.join(p.name for p in front)}" if front else ""),
    )


def place_folder(target: Path, files: list[Path], stanza: dict[Path, bytes], origin: Path) -> None:
    """The files copied into the new folder `target` and the stanza written, together or not at
    all: the copy is made in a hidden folder beside it and renamed into place before the stanza.
    A retry after a kill takes up a folder that holds exactly these files and no stanza names,
    and clears a copy left half made."""
    staged = target.with_name(f".{target.name}.adding")
    if staged.exists():
        shutil.rmtree(staged)
    resumed = (
        target.is_dir()
        and sorted(p.name for p in target.iterdir()) == sorted(p.name for p in files)
        and all((target / p.name).read_bytes() == p.read_bytes() for p in files)
    )
    if target.exists() and not resumed:
        raise EditionError(target, "a folder of that name is already in the sources")
    with interrupts_as_errors(origin, "nothing was added"):
        try:
            if not resumed:
                staged.mkdir()
                write_together({staged / p.name: p.read_bytes() for p in files})
                os.rename(staged, target)
            write_together(stanza)
        except BaseException:
            shutil.rmtree(staged, ignore_errors=True)
            shutil.rmtree(target, ignore_errors=True)
            raise
