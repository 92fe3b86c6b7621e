"""New witnesses of a work: a file joins the chapter it belongs to, a folder of 卷 files becomes
an edition of the whole work."""

from __future__ import annotations

import os
import shutil
import tomllib
from collections import Counter
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import NamedTuple

import regex
import tomlkit

from ..errors import EditionError, interrupts_as_errors
from ..intake.guess import BETTER, Detection, common_features, decode, features_found, fit, layout, script_of
from ..intake.profile import Profile, available_profiles, load_profile
from ..intake.raw import book_of, check_text_data, read_raw
from ..tables import read_text, violations
from .file_kinds import kind_of
from .named_persons import named_in, with_persons
from .new_work import book_title, chapters_of, read_base, with_chapters
from .placement import ChapterPlacer, Placement
from .sources import WITNESS_SUFFIXES, add_witness, check_options, guess_layout, write_together
from .work_sources import NO_CHAPTER, WORK_FILE, Chapter, Work

LONG_ADD = 10_000_000  # bytes of witness files from which a folder add shows its progress as it goes
OWN_BETTER = 0.05  # how much more of the classic text (a share) a file's own profile must read to be its
NUMBER = regex.compile(r"\d+$")  # a file's number, which names its own profile


class Added(NamedTuple):
    target: Path
    lines: list[str]  # what was found and guessed, and where it went, for the user


def taken(work: Work, key: str = "siglum") -> frozenset[str]:
    """The sigla (or names) of the work's witnesses, editions, chapters' own and books of evidence."""
    found = {getattr(e.meta, key) for e in work.editions} | {getattr(book, key) for book in work.evidence}
    for chapter in work.chapters:
        meta = work.chapter_dir(chapter) / "witnesses.toml"
        if meta.is_file():
            found |= {s.get(key, "") for s in tomllib.loads(read_text(meta)).get("witness", ())}
    return frozenset(found - {""})


def named(work: Work, file: Path, default_title: str, options: dict) -> tuple[str, str | None]:
    """The title and short name of a new witness: as given, or the book its file's header names
    (its name unless another witness has it) and how to cite the digital text."""
    book, cited = book_of(decode(file.read_bytes())[0])
    title = options.get("title") or (f"{book} ({cited})" if book and cited else book or default_title)
    name = options.get("name") or (book if book and book not in taken(work, "name") else None)
    return title, name


def chapter_of(work: Work, file: Path, chapter: str | None, encoding: str | None = None) -> tuple[Chapter, str]:
    if chapter:
        return work.chapter(chapter), "as asked"
    # an empty or binary file is said to be so, not of no chapter
    check_text_data(file, file.read_bytes(), encoding or "utf-8")
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
    found, how = chapter_of(work, file, chapter, options.get("encoding"))
    sigla = taken(work)
    if siglum in sigla:
        raise EditionError(root / "witnesses.toml", f"siglum {siglum!r} is taken")
    guessed = guess_layout(root, file, siglum, work.sources(found))
    profile = options.get("profile")
    title, name = named(work, file, file.stem, options)
    target = add_witness(
        work.chapter_dir(found),
        file,
        siglum,
        title,
        profile or guessed.profile,
        options.get("encoding") or guessed.encoding,
        options.get("script") or guessed.script,
        None if profile else guessed.composed,
        name,
        profiles_root=root,
        taken=sigla,
    )
    lines = guessed.lines(profile_given=profile is not None)
    return Added(target, [*lines, f"in chapter {found.heading} ({how})"])


def add_edition(
    root: Path, folder: Path, siglum: str, options: dict, progress: Callable[[str], None] = lambda message: None
) -> Added:
    """A folder of 卷 files as an edition of the whole work: each file placed in its chapter by its
    text (consecutive 卷 of one chapter its one witness there, in order; those of no chapter told
    apart by what they are), read by one profile composed of the features found across its files
    (a file it reads clearly worse by a profile of its own), copied into `sources/<siglum>/` and
    described by one stanza in the work's witnesses.toml."""
    work = Work.load(root, taking_up=siglum)
    files, skipped = witness_files(folder) if folder.is_dir() else ([folder], [])
    if not files:
        raise EditionError(folder, "no witness files (.txt) in the folder")
    if siglum in taken(work):
        raise EditionError(root / "witnesses.toml", f"siglum {siglum!r} is taken")
    written: dict[Path, bytes] = {}
    if work.chapters:
        placements, by_chapter = placed_in_chapters(work, files, options, progress)
    else:
        work, placements, by_chapter, written = begun(root, work, files, siglum, options)
    if not by_chapter:
        raise EditionError(folder, "none of its files belongs to a chapter of the work")
    if sum(path.stat().st_size for path in files) >= LONG_ADD:
        progress(f"read the layout of {sum(map(len, by_chapter.values()))} file(s) of {len(by_chapter)} chapter(s)")
    read = EditionLayout(root, work, siglum, by_chapter, options.get("profile"))
    title, name = named(work, files[0], folder.name, options)
    stanza = {
        "siglum": siglum,
        "title": title,
        "script": options.get("script") or read.script,
        "profile": read.profile.name,
        "encoding": options.get("encoding") or read.encoding,
    }
    if name:
        stanza["name"] = name
    for path in files:
        check_options(root, path, dict(stanza, file=path.name, profile=None if read.composed else stanza["profile"]))
    stanza["folder"] = siglum
    stanza["files"] = {
        str(n): names[0].name if len(names) == 1 else [p.name for p in names] for n, names in by_chapter.items()
    }
    if read.own:
        stanza["profiles"] = read.own
    kinds = {path: kind_of(decode(path.read_bytes())[0]) for path in files if placements[path].chapter is None}
    for kind in NO_CHAPTER:
        if any(k.name == kind for k, _ in kinds.values()):
            stanza[kind] = [p.name for p, (k, _) in kinds.items() if k.name == kind]
    meta_path = root / "witnesses.toml"
    document = tomlkit.parse(read_text(meta_path))
    document.setdefault("witness", tomlkit.aot()).append(tomlkit.item(stanza))
    text = tomlkit.dumps(document)
    if violations(meta_path, text, tomllib.loads(text), "witnesses.toml"):
        raise EditionError(meta_path, "the new stanza would not be valid; nothing was added")
    written[meta_path] = text.encode("utf-8")
    for name, composed in read.composed.items():
        profile_path = root / "profiles" / f"{name}.toml"
        if profile_path.exists() and profile_path.read_text(encoding="utf-8") != composed:
            raise EditionError(profile_path, "a profile of that name is already in the sources")
        written[profile_path] = composed.encode("utf-8")
    persons, persons_added = with_persons(root / "persons.tsv", named_in(files, work.normalizer(), siglum))
    if persons_added:
        written[root / "persons.tsv"] = persons.encode("utf-8")
    if read.composed:
        (root / "profiles").mkdir(exist_ok=True)
    place_folder(root / siglum, files, written, folder)
    report = placement_lines(files, placements, by_chapter, kinds, read.said)
    return Added(root / siglum, [*read.lines(options.get("profile") is not None), *report, *persons_added, *skipped])


def begun(
    root: Path, work: Work, files: list[Path], siglum: str, options: dict
) -> tuple[Work, dict[Path, Placement], dict[int, list[Path]], dict[Path, bytes]]:
    """The work's first edition is its base: its 卷 are the chapters, written into work.toml with
    the base's siglum (and its title, if the work has none)."""
    for path in files:
        check_text_data(path, path.read_bytes(), options.get("encoding") or "utf-8")
    chapters, placements = chapters_of(read_base(files))
    title = work.settings.get("title") or book_title(files)
    work_toml = with_chapters(read_text(root / WORK_FILE), chapters, siglum, title)
    work = replace(work, chapters=chapters, settings=dict(work.settings, base=siglum, title=title))
    by_chapter = {p.chapter.number: [path] for path, p in placements.items() if p.chapter}
    return work, placements, by_chapter, {root / WORK_FILE: work_toml.encode("utf-8")}


def placed_in_chapters(
    work: Work, files: list[Path], options: dict, progress: Callable[[str], None]
) -> tuple[dict[Path, Placement], dict[int, list[Path]]]:
    """Each file placed in its chapter by its text, and each chapter's files in order; the
    consecutive 卷 of one chapter are its one witness, a chapter's files apart from each other refused."""
    placer = ChapterPlacer(work, work.sources(work.chapters[0]).normalizer())
    by_chapter: dict[int, list[Path]] = {}
    placements: dict[Path, Placement] = {}
    long_add = sum(path.stat().st_size for path in files) >= LONG_ADD  # a short one says all at the end
    for number, path in enumerate(files, 1):
        if long_add:
            progress(f"place {path.name} ({number}/{len(files)}, {path.stat().st_size / 1e6:.1f} MB)")
        check_text_data(path, path.read_bytes(), options.get("encoding") or "utf-8")
        placements[path] = placement = placer.place(path)
        if placement.chapter is None:
            continue
        for chapter in sorted(filter(None, (placement.chapter, placement.also)), key=lambda c: c.number):
            if chapter.number in by_chapter and list(by_chapter)[-1] != chapter.number:  # another placed last
                raise EditionError(
                    path,
                    f"it belongs to {chapter.title}, as {by_chapter[chapter.number][-1].name} does, with files of "
                    "other chapters between them: add them one by one (--chapter)",
                )
            by_chapter.setdefault(chapter.number, []).append(path)
    return placements, by_chapter


def placement_lines(
    files: list[Path], placements: dict[Path, Placement], by_chapter: dict[int, list[Path]], kinds: dict, said: dict
) -> list[str]:
    """A line for each file added: the chapter it was placed in and how it was read, or what it is."""
    report = []
    for path in files:
        placement = placements[path]
        if placement.chapter is None:
            kind, why = kinds[path]
            report.append(f"{path.name}: {kind.words}, of no chapter ({why + '; ' if why else ''}{placement.words()})")
            continue
        part = by_chapter[placement.chapter.number]
        of = f", 卷 {part.index(path) + 1} of {len(part)} read as one" if len(part) > 1 else ""
        report.append(f"{path.name}: {placement.chapter.heading}{of} ({placement.words()}); {said[path]}")
    return report


def witness_files(folder: Path) -> tuple[list[Path], list[str]]:
    """The folder's witness files, in name order, and a line for each entry left out: a symbolic
    link (never followed out of the folder), a folder, what is no regular file or no .txt file."""
    files, skipped = [], []
    for path in sorted(folder.iterdir()):
        if path.is_symlink():
            why = f"a symbolic link (to {os.readlink(path)}), not followed: copy the file itself into the folder"
        elif path.is_dir():
            why = "a folder: its files are not read"
        elif not path.is_file():
            why = "not a regular file"
        elif path.suffix not in WITNESS_SUFFIXES:
            why = "not a witness file (.txt)"
        else:
            files.append(path)
            continue
        skipped.append(f"{path.name}: skipped, {why}")
    return files, skipped


class EditionLayout:
    """How an edition's files are laid out: one profile for the edition, composed of the features
    found in enough of its chapter files (or the profile named, `given`), weighed like a single
    file's against the other profiles on its largest file; and each file's own where the
    edition's reads it clearly worse than a profile of the file's own features."""

    def __init__(self, root: Path, work: Work, siglum: str, by_chapter: dict[int, list[Path]], given: str | None):
        self.given = given
        paths = [p for n in sorted(by_chapter) for p in by_chapter[n]]
        decoded = {p: decode(p.read_bytes()) for p in paths}
        self.encoding = Counter(d[1] for d in decoded.values()).most_common(1)[0][0]
        self.bom, self.script = any(d[2] for d in decoded.values()), script_of("".join(d[0] for d in decoded.values()))
        self.newline = read_raw(paths[0], self.encoding).newline
        found = {p: features_found(decoded[p][0]) for p in paths}
        self.found, self.files = common_features(list(found.values())), len(paths)
        self.composed: dict[str, str] = {}  # profile name -> its TOML, to write
        self.own: dict[str, str] = {}  # file name -> its own profile
        self.better = False  # another profile reads the largest file better than the features found
        self.said: dict[Path, str] = {}
        bases = {n: base_of(work, work.chapter(n)) for n in by_chapter}
        largest = max(paths, key=lambda p: p.stat().st_size)
        number = next(n for n in by_chapter if largest in by_chapter[n])
        if given:
            self.profile = load_profile(given, root)
        else:
            self.profile, composed = layout(self.found, None, siglum, largest.parent)
            if composed:
                self.composed[siglum] = composed
            self.profile, self.better = self.weighed(root, largest, bases[number])
            if self.better:
                self.composed.pop(siglum, None)
        for n, chapter_paths in by_chapter.items():
            for path in chapter_paths:
                self.said[path] = self.read(path, found[path], decoded[path][0], siglum, bases[n])

    def weighed(self, root: Path, largest: Path, base: tuple) -> tuple[Profile, bool]:
        """The edition's profile, or another that reads its largest file better."""
        raw = read_raw(largest, self.encoding)
        best, (score, _) = self.profile, fit(raw, self.profile, *base)
        for name in available_profiles(root):
            try:
                other = load_profile(name, root)
            except EditionError:
                continue
            if other.aligns_text or name == self.profile.name:
                continue
            other_score, _ = fit(raw, other, *base)
            if other_score > score * (1 + BETTER):
                best, score = other, other_score
        return best, best is not self.profile

    def read(self, path: Path, found: list[Detection], text: str, siglum: str, base: tuple) -> str:
        """How the file is read, in words: its features, its profile where it has one, how sure."""
        raw = read_raw(path, self.encoding)
        score, words = fit(raw, self.profile, *base)
        features = ", ".join(f.feature for f in found)
        if self.given or [f.feature for f in found] == [f.feature for f in self.found]:
            return f"{features}; how sure: {words}"
        name = f"{siglum}-{NUMBER.search(path.stem).group() if NUMBER.search(path.stem) else path.stem}"
        own, composed = layout(found, text, name, path, f"file {path.name} of witness {siglum}")
        own_score, own_words = fit(raw, own, *base)
        if own_score <= score * (1 + OWN_BETTER):
            return f"{features}; how sure: {words}"
        self.own[path.name] = own.name
        if composed:
            self.composed[own.name] = composed
        written = f", written to sources/profiles/{own.name}.toml for review" if composed else ""
        return (
            f"{features}; read by a profile of its own, {own.name}{written}, as {self.profile.name} reads it "
            f"worse ({words}); how sure: {own_words}"
        )

    def lines(self, profile_given: bool) -> list[str]:
        """What was guessed of the whole edition, for the user."""
        found = [
            f"found {f.feature}: {f.words} (in at least half of its {self.files} chapter files)" for f in self.found
        ]
        written = (
            f", composed of {', '.join(f.feature for f in self.found)}; "
            f"written to sources/profiles/{self.profile.name}.toml for review"
            if self.profile.name in self.composed
            else " (it reads the largest file better than the features found)"
            if self.better
            else ""
        )
        head = [
            f"guessed encoding: {self.encoding}{' with BOM' if self.bom else ''}, {self.newline} line ends",
            f"guessed script: {self.script}",
        ]
        return head if profile_given else [*head, *found, f"guessed layout profile: {self.profile.name}{written}"]


def base_of(work: Work, chapter: Chapter) -> tuple:
    """The base's witness of a chapter and the normalizer, to weigh a profile by (`guess.fit`);
    no witness while the base itself is being added."""
    if not any(e.meta.siglum == work.settings["base"] for e in work.editions):
        return None, work.normalizer()
    sources = work.sources(chapter)
    normalizer = sources.normalizer()
    return sources.intake(next(m for m in sources.witnesses if m.siglum == sources.config.base), normalizer), normalizer


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
