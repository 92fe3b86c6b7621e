"""A work of chapters: `sources/` as a whole work rather than one chapter.

`work.toml` gives the work's settings (those of `edition.toml`, for every chapter) and its
chapters in order. `witnesses.toml` describes the editions of the whole work, each a folder of
files (`files`: chapter number -> its file, or its files where several 卷 hold one chapter, read
as one text in order; `profiles`: a file's own profile where the edition's reads it worse), with
the files that belong to no chapter by what they are (`NO_CHAPTER`). Each chapter may have a
folder `chapters/NN-title/` with its own settings (`chapter.toml`), its own witnesses
(`witnesses.toml` and their files, as in a one-chapter edition) and its decisions
(`decisions.toml`). The data tables (`variants.tsv`, `gaiji.tsv`, `persons.tsv`, and optional
`usages.tsv`) and `profiles/` are shared.
"""

from __future__ import annotations

import difflib
import shutil
from dataclasses import dataclass, replace
from pathlib import Path

import regex
import tomlkit

from .. import traditions
from ..errors import EditionError
from ..intake.gaiji import GaijiTable
from ..intake.model import EvidenceMeta, WitnessMeta
from ..intake.normalize import Normalizer
from ..intake.page_images import read_page_images
from ..intake.profile import load_profile
from ..intake.variants import VariantForms
from ..intake.witness import load_witness_metadata
from ..settings import load_persons
from ..tables import read_toml
from ..traditions import Tradition
from .sources import (
    WITNESS_SUFFIXES,
    Confinement,
    EditionChapter,
    Sources,
    check_roles,
    config_of,
    load_evidence,
    own_usages,
    profiles_and_rules,
)

WORK_FILE = "work.toml"
# What of a title may stand in a file name: letters, digits, marks and the middle dot; any other
# run of characters (separators, dots, TeX's specials, spaces) becomes one '-'.
UNSAFE_IN_NAMES = regex.compile(r"[^\p{L}\p{N}\p{M}·]+")
TABLES = ("variants.tsv", "gaiji.tsv", "persons.tsv", "usages.tsv")  # usages.tsv optional
SHARED = ("work.toml", "witnesses.toml", *TABLES)  # what every chapter reads
# What an edition's files of no chapter are, as its stanza lists them.
NO_CHAPTER = ("front", "collation_notes", "plates", "unused")


def is_work(root: Path) -> bool:
    return (root / WORK_FILE).is_file()


@dataclass(frozen=True)
class Chapter:
    number: int
    title: str  # 鄉射禮
    heading: str  # 鄉射禮第五

    @property
    def folder(self) -> str:
        """Its folder's and files' name: the number and a safe form of the title (05-鄉射禮)."""
        safe = UNSAFE_IN_NAMES.sub("-", self.title).strip("-")
        return f"{self.number:02d}-{safe}" if safe else f"{self.number:02d}"


@dataclass(frozen=True)
class Edition:
    """A witness of the whole work: one stanza, one file per chapter (or several, in order)."""

    meta: WitnessMeta  # its stanza, `file` empty
    stanza: int  # its number in witnesses.toml
    folder: str
    files: dict[int, tuple[str, ...]]
    no_chapter: dict[str, tuple[str, ...]]  # its files of no chapter, by what they are (NO_CHAPTER)
    profiles: dict[str, str]  # a file's own profile, where not the edition's

    @property
    def front(self) -> tuple[str, ...]:
        return self.no_chapter.get("front", ())

    @property
    def other_files(self) -> tuple[str, ...]:
        """Its files of no chapter, of every kind."""
        return tuple(name for names in self.no_chapter.values() for name in names)

    def of(self, chapter: Chapter) -> WitnessMeta | None:
        """The witness of one chapter: its file (its files, named together) and the repairs meant for it."""
        if chapter.number not in self.files:
            return None
        rules = tuple(r for r in self.meta.rules if r.get("chapter", chapter.number) == chapter.number)
        return replace(self.meta, file=" + ".join(self.files[chapter.number]), rules=rules)


@dataclass
class Work:
    root: Path
    settings: dict
    chapters: list[Chapter]
    editions: list[Edition]
    evidence: tuple[EvidenceMeta, ...] = ()  # books that quote or judge the text (the 單疏本, the 識誤)

    @property
    def title(self) -> str:
        return self.settings["title"]

    @property
    def tradition(self) -> Tradition:
        return traditions.load(self.settings.get("tradition", ""), self.root / WORK_FILE)

    def chapter(self, name: str | int) -> Chapter:
        """A chapter by its number, title, heading or folder."""
        for chapter in self.chapters:
            if str(name) in (str(chapter.number), chapter.title, chapter.heading, chapter.folder):
                return chapter
        raise EditionError(
            self.root / WORK_FILE, f"no chapter {name!r} (chapters: {', '.join(c.title for c in self.chapters)})"
        )

    def started(self) -> Work:
        """The work, if it has chapters (a new one has none until its base is added)."""
        if not self.chapters:
            raise EditionError(
                self.root / WORK_FILE,
                "the work has no chapters yet: add its base edition (add-witness FOLDER --siglum X)",
            )
        return self

    def normalizer(self) -> Normalizer:
        """The comparison forms of the work's settings and tables (a chapter's may differ)."""
        inside = Confinement(self.root)
        return Normalizer(
            self.settings["comparison_script"],
            VariantForms.load(inside.file(self.root / "variants.tsv", "table")),
            GaijiTable.load(inside.file(self.root / "gaiji.tsv", "table")),
        )

    def chapter_dir(self, chapter: Chapter) -> Path:
        return self.root / "chapters" / chapter.folder

    def edition_path(self, edition: Edition, name: str) -> Path:
        return self.root / edition.folder / name

    def inputs(self, chapter: Chapter) -> list[Path]:
        """Every file the chapter's build reads from the sources."""
        own = self.chapter_dir(chapter)
        found = [self.root / name for name in SHARED if (self.root / name).is_file()]
        found += sorted(
            p for folder in (self.root / "profiles", own) if folder.is_dir() for p in folder.rglob("*") if p.is_file()
        )
        found += [self.edition_path(e, name) for e in self.editions for name in e.files.get(chapter.number, ())]
        for table in (self.root / e.meta.images for e in self.editions if e.meta.images):
            found += [table, *(i.file for i in read_page_images(table).values() if i.file is not None)]
        return found

    def sources(self, chapter: Chapter) -> Sources:
        """The chapter as a one-chapter edition: the editions' files of it and its own witnesses."""
        inside = Confinement(self.root)
        own = self.chapter_dir(chapter)
        settings = dict(self.settings, title=f"{self.title}·{chapter.title}", chapter=chapter.heading)
        settings_file = own / "chapter.toml"
        if settings_file.is_file():
            settings |= read_toml(inside.file(settings_file, "chapter settings"), "chapter.toml")[0]["chapter"]
        config = config_of(settings)
        work_meta = self.root / "witnesses.toml"
        witnesses = [m for m in (e.of(chapter) for e in self.editions) if m]
        _, lines = read_toml(work_meta)
        profiles, rules = profiles_and_rules(
            self.root, witnesses, work_meta, lines, [e.stanza for e in self.editions if chapter.number in e.files]
        )
        paths = {
            e.meta.siglum: tuple(
                inside.file(self.edition_path(e, name), f"witness {e.meta.siglum}: file {name!r}", work_meta)
                for name in e.files[chapter.number]
            )
            for e in self.editions
            if chapter.number in e.files
        }
        file_profiles = {}
        for edition in (e for e in self.editions if chapter.number in e.files):
            for name in (n for n in edition.files[chapter.number] if n in edition.profiles):
                file_profiles[paths[edition.meta.siglum][edition.files[chapter.number].index(name)]] = own_profile = (
                    edition.profiles[name]
                )
                if own_profile not in profiles:
                    try:
                        profiles[own_profile] = load_profile(own_profile, self.root)
                    except EditionError as exc:
                        raise EditionError(
                            work_meta,
                            f"witness {edition.meta.siglum}: file {name!r}: {exc.message}",
                            lines.line(("witness", edition.stanza, "profiles")),
                        ) from None
        own_meta = own / "witnesses.toml"
        if own_meta.is_file():
            chapter_witnesses, own_lines = load_witness_metadata(inside.file(own_meta, "witness metadata file"))
            books = {book.siglum for book in self.evidence}
            for number, meta in enumerate(chapter_witnesses):
                if meta.siglum in paths or meta.siglum in books:
                    taken = "an edition of the whole work" if meta.siglum in paths else "a book of evidence"
                    raise EditionError(
                        own_meta,
                        f"siglum {meta.siglum!r} is taken by {taken}",
                        own_lines.line(("witness", number, "siglum")),
                    )
            more_profiles, more_rules = profiles_and_rules(self.root, chapter_witnesses, own_meta, own_lines)
            profiles |= more_profiles
            rules |= more_rules
            for number, meta in enumerate(chapter_witnesses):
                paths[meta.siglum] = (
                    inside.file(
                        own / meta.file,
                        f"witness {meta.siglum}: file {meta.file!r}",
                        own_meta,
                        own_lines.line(("witness", number, "file")),
                    ),
                )
            witnesses = chapter_witnesses + witnesses
        if own.is_dir():
            for path in sorted(own.iterdir()):
                if path.suffix in WITNESS_SUFFIXES and path.resolve() not in {p for ps in paths.values() for p in ps}:
                    raise EditionError(path, f"witness file has no metadata stanza in {own_meta}")
        check_roles(config, witnesses, settings_file if settings_file.is_file() else self.root / WORK_FILE)
        return Sources(
            root=self.root,
            config=config,
            witnesses=witnesses,
            profiles=profiles,
            witness_rules=rules,
            variants=VariantForms.load(inside.file(self.root / "variants.tsv", "table")),
            gaiji=GaijiTable.load(inside.file(self.root / "gaiji.tsv", "table")),
            persons=load_persons(inside.file(self.root / "persons.tsv", "table")),
            own_usages=own_usages(self.root),
            paths=paths,
            file_profiles=file_profiles,
            decisions_file=own / "decisions.toml",
            evidence=self.evidence,
            chapter=EditionChapter(chapter.number, chapter.title, chapter.heading or chapter.title),
            work_files=tuple(
                (self.edition_path(e, name), e.profiles.get(name, e.meta.profile))
                for e in self.editions
                if e.meta.siglum == config.base
                for number, names in sorted(e.files.items())
                if number != chapter.number
                for name in names
            ),
        )

    @classmethod
    def load(cls, root: Path, taking_up: str = "") -> Work:
        """The work at `root`; `taking_up`, a folder no stanza describes yet (see
        check_undescribed_folders)."""
        inside = Confinement(root)
        document, lines = read_toml(inside.file(root / WORK_FILE, "work settings"), "work.toml")
        chapters = [Chapter(c["number"], c["title"], c.get("heading", c["title"])) for c in document.get("chapter", ())]
        numbers = [c.number for c in chapters]
        if len(set(numbers)) != len(numbers):
            raise EditionError(root / WORK_FILE, "two chapters have the same number")
        meta_path = inside.file(root / "witnesses.toml", "witness metadata file")
        stanzas, _ = read_toml(meta_path, "witnesses.toml")
        editions = []
        for number, stanza in enumerate(stanzas.get("witness", ())):
            if "files" not in stanza:
                raise EditionError(
                    meta_path,
                    f"witness {stanza['siglum']}: a witness of one chapter is described in its chapter's folder "
                    "(chapters/NN-title/witnesses.toml)",
                    lines.line(("witness", number)),
                )
            fields = {
                k: v
                for k, v in stanza.items()
                if k not in ("rule", "abridged", "folder", "files", "profiles", *NO_CHAPTER)
            }
            meta = WitnessMeta(
                file="", **fields, abridged=tuple(stanza.get("abridged", ())), rules=tuple(stanza.get("rule", ()))
            )
            files = {int(k): (v,) if isinstance(v, str) else tuple(v) for k, v in stanza["files"].items()}
            unknown = sorted(set(files) - set(numbers))
            if unknown:
                raise EditionError(
                    meta_path, f"witness {meta.siglum}: files for chapters the work does not have: {unknown}"
                )
            no_chapter = {kind: tuple(stanza[kind]) for kind in NO_CHAPTER if kind in stanza}
            editions.append(
                Edition(meta, number, stanza["folder"], files, no_chapter, dict(stanza.get("profiles", {})))
            )
        tradition = traditions.load(document["work"].get("tradition", ""), root / WORK_FILE)
        evidence = load_evidence(root, meta_path, inside, tradition)
        work = cls(root, dict(document["work"]), chapters, editions, evidence)
        work.check_chapter_folders()
        work.check_undescribed_folders(taking_up)
        for edition in editions:
            listed = {
                inside.file(
                    work.edition_path(edition, name), f"witness {edition.meta.siglum}: file {name!r}", meta_path
                )
                for name in (*(n for names in edition.files.values() for n in names), *edition.other_files)
            }
            for path in sorted((root / edition.folder).iterdir()):
                if path.suffix in WITNESS_SUFFIXES and path.resolve() not in listed:
                    raise EditionError(
                        path,
                        f"file of witness {edition.meta.siglum} is in neither its `files` "
                        f"nor its files of no chapter ({', '.join(NO_CHAPTER)}) in {meta_path}",
                    )
        return work

    def check_undescribed_folders(self, taking_up: str = "") -> None:
        """A folder of witness files beside the editions that no stanza describes (an add-witness
        killed before it wrote the stanza) is said, never left out in silence; but the folder
        `taking_up`, which an add-witness retried is to take up."""
        described = {
            (self.root / name).resolve() for name in ("chapters", "profiles", *(e.folder for e in self.editions))
        }
        described |= {book.folder.resolve() for book in self.evidence}
        for path in sorted(self.root.iterdir()):
            undescribed = (
                path.is_dir() and path.name[:1] != "." and path.name != taking_up and path.resolve() not in described
            )
            if undescribed and any(path.glob("*.txt")):
                raise EditionError(
                    path,
                    "a folder of witness files that no stanza of witnesses.toml describes: "
                    "run add-witness on its files again to take it up, or remove it",
                )

    def check_evidence(self) -> None:
        """Each book of evidence is of its kind: its reader finds some chapter of the work in it."""
        normalizer = self.sources(self.chapters[0]).normalizer() if self.evidence else None
        for book in self.evidence:
            if not self.tradition.readers[book.kind].chapters_found(book, normalizer, self.chapters):
                path, line = book.stanza or (self.root / "witnesses.toml", None)
                raise EditionError(
                    path,
                    f"evidence {book.siglum}: its folder {book.folder.name!r} holds no chapter of the work as a book "
                    f"of kind {book.kind!r} reads it: is it a book of another kind?",
                    line,
                )

    def check_chapter_folders(self) -> None:
        """Every entry of `chapters/` is the folder of a chapter, and holds no folder of its own:
        a witness there would otherwise be left out without a word."""
        folders = {c.folder for c in self.chapters}
        parent = self.root / "chapters"
        for path in sorted(parent.iterdir()) if parent.is_dir() else ():
            if path.name not in folders:
                close = (
                    difflib.get_close_matches(path.name, folders, n=1, cutoff=0.5)
                    or [c.folder for c in self.chapters if c.title in path.name][:1]
                )
                hint = (
                    f": did you mean {close[0]}?"
                    if close
                    else f" (chapter folders are named NN-title, as {self.chapters[0].folder})"
                )
                raise EditionError(path, f"is no chapter's folder, so nothing in it would be read{hint}")
            for inner in sorted(path.iterdir()) if path.is_dir() else ():
                if inner.is_dir():
                    raise EditionError(
                        inner,
                        "a folder inside a chapter's folder is not read: "
                        "put its witness files in the chapter's folder itself",
                    )


def export_chapter(work: Work, chapter: Chapter, folder: Path) -> Path:
    """Write the chapter as a one-chapter edition into `folder`: `edition.toml` with the settings in
    force, `witnesses.toml` with one stanza per witness, their files, the tables and the decisions."""
    sources = work.sources(chapter)
    folder.mkdir(parents=True, exist_ok=True)
    settings = {k: v for k, v in vars(sources.config).items() if v not in ("", ())}
    settings = {k: list(v) if isinstance(v, tuple) else v for k, v in settings.items()}
    (folder / "edition.toml").write_text(tomlkit.dumps({"edition": settings}), encoding="utf-8")
    stanzas = tomlkit.aot()
    for meta in sources.witnesses:
        if len(sources.files(meta)) > 1:
            raise EditionError(sources.path(meta), f"witness {meta.siglum} is read from several files, not one")
        stanza = {k: v for k, v in vars(meta).items() if v not in ("", ()) and k not in ("rules", "abridged")}
        if meta.abridged:
            stanza["abridged"] = list(meta.abridged)
        if meta.rules:
            stanza["rule"] = [{k: v for k, v in rule.items() if k != "chapter"} for rule in meta.rules]
        stanzas.append(tomlkit.item(stanza))
        shutil.copyfile(sources.path(meta), folder / meta.file)
    document = tomlkit.document()
    document["witness"] = stanzas
    if work.evidence:
        document["evidence"] = evidence_stanzas(work, folder)
    (folder / "witnesses.toml").write_text(tomlkit.dumps(document), encoding="utf-8")
    for name in TABLES:
        if (work.root / name).is_file():
            shutil.copyfile(work.root / name, folder / name)
    if sources.decisions.is_file():
        shutil.copyfile(sources.decisions, folder / "decisions.toml")
    if (work.root / "profiles").is_dir():
        shutil.copytree(work.root / "profiles", folder / "profiles", dirs_exist_ok=True)
    return folder


def evidence_stanzas(work: Work, folder: Path):
    """The work's [[evidence]] stanzas, their folders copied into `folder`."""
    stanzas = tomlkit.aot()
    for meta in work.evidence:
        name = meta.folder.relative_to(work.root.resolve()).as_posix()
        shutil.copytree(meta.folder, folder / name, dirs_exist_ok=True)
        fields = {k: v for k, v in vars(meta).items() if v not in ("", (), None) and k not in ("stanza", "status")}
        stanzas.append(tomlkit.item({**fields, "folder": name}))
    return stanzas


def export_work(root: Path, numbers: tuple[int, ...], folder: Path) -> Path:
    """The work at `root` cut down to some chapters, written into `folder`: its work.toml and
    witnesses.toml with those chapters only, their files, the tables and the chapters' folders."""
    folder.mkdir(parents=True, exist_ok=True)
    settings = tomlkit.parse((root / WORK_FILE).read_text(encoding="utf-8"))
    settings["chapter"] = [c for c in settings["chapter"] if c["number"] in numbers]
    (folder / WORK_FILE).write_text(tomlkit.dumps(settings), encoding="utf-8")
    witnesses = tomlkit.parse((root / "witnesses.toml").read_text(encoding="utf-8"))
    for stanza in witnesses["witness"]:
        kept = {k: v for k, v in stanza["files"].items() if int(k) in numbers}
        stanza["files"] = kept
        names = [name for v in kept.values() for name in ([v] if isinstance(v, str) else v)]
        for kind in NO_CHAPTER:
            stanza.pop(kind, None)
        if "profiles" in stanza:
            stanza["profiles"] = {k: v for k, v in stanza["profiles"].items() if k in names}
            if not stanza["profiles"]:
                del stanza["profiles"]
        if "rule" in stanza:
            stanza["rule"] = [r for r in stanza["rule"] if r.get("chapter") in numbers]
            if not stanza["rule"]:
                del stanza["rule"]
        (folder / stanza["folder"]).mkdir(exist_ok=True)
        for name in names:
            shutil.copyfile(root / stanza["folder"] / name, folder / stanza["folder"] / name)
    (folder / "witnesses.toml").write_text(tomlkit.dumps(witnesses), encoding="utf-8")
    for stanza in witnesses.get("evidence", ()):
        shutil.copytree(root / stanza["folder"], folder / stanza["folder"])
    for name in TABLES:
        if (root / name).is_file():
            shutil.copyfile(root / name, folder / name)
    for chapter in (root / "chapters").iterdir():
        if int(chapter.name.split("-")[0]) in numbers:
            shutil.copytree(chapter, folder / "chapters" / chapter.name)
    return folder
