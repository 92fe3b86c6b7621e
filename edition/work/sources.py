"""Sources: everything an edition is built from, read and checked together.

`sources/` holds the raw witness files (kept byte for byte), `witnesses.toml` (one stanza each),
`edition.toml` (title, base witness, comparison script) and the data tables `variants.tsv`,
`gaiji.tsv`, `persons.tsv`. Optional `profiles/` adds layout profiles of the edition's own, and
optional `usages.tsv` classical usages of its own. The editors' `decisions.toml` is read by
`decisions.py`, after collation.
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import NamedTuple

import tomlkit

from .. import traditions
from ..collation.reading import Orthography
from ..collation.relations import Row, read_usages
from ..errors import EditionError, interrupts_as_errors
from ..intake.alignment_rule import Reference
from ..intake.gaiji import GaijiTable
from ..intake.guess import Guess, guess
from ..intake.model import EvidenceMeta, Witness, WitnessMeta
from ..intake.normalize import Normalizer
from ..intake.page_images import PageImage, read_page_images
from ..intake.profile import Profile, available_profiles, load_profile
from ..intake.raw import read_raw
from ..intake.rule import Rule
from ..intake.variants import VariantForms
from ..intake.witness import ToRead, intake_witness, intake_witnesses, load_witness_metadata
from ..settings import EditionConfig, Person, interface_language, load_persons
from ..tables import (
    expected,
    read_text,
    read_toml,
    shown,
    validator,
    violations,
)
from ..text import ORDINAL, numeral
from ..traditions import Tradition

WITNESS_SUFFIXES = (".txt",)


class EditionChapter(NamedTuple):
    """The chapter of the work an edition is of, as the books of evidence name it."""

    number: int
    title: str  # 鄉射禮
    heading: str  # 鄉射禮第五

    @classmethod
    def of(cls, config: EditionConfig) -> EditionChapter | None:
        """A one-chapter edition's chapter, from its settings' heading (鄉射禮第五: the fifth)."""
        heading = config.chapter
        ordinal = ORDINAL.search(heading)
        if ordinal is None:
            return None
        return cls(numeral(ordinal.group()[1:]), heading[: ordinal.start()], heading)


@dataclass
class Sources:
    root: Path
    config: EditionConfig
    witnesses: list[WitnessMeta]
    profiles: dict[str, Profile]
    witness_rules: dict[str, tuple[Rule, ...]]
    variants: VariantForms
    gaiji: GaijiTable
    persons: dict[str, Person]
    own_usages: tuple[Row, ...] = ()  # its usages (usages.tsv), besides the package's
    # siglum -> its raw files, in order, where not in `root` (a work's chapter, its 卷 of it)
    paths: dict[str, tuple[Path, ...]] = field(default_factory=dict)
    file_profiles: dict[Path, str] = field(default_factory=dict)  # a file's own profile, where not its witness's
    decisions_file: Path | None = None  # where not `root/decisions.toml`
    evidence: tuple[EvidenceMeta, ...] = ()  # books that quote or judge the text (the 單疏本, the 識誤)
    chapter: EditionChapter | None = None  # the chapter of the work it is of
    # the base's files of the work's other chapters, each with its profile's name (a compilation's repetitions)
    work_files: tuple[tuple[Path, str], ...] = ()

    def path(self, meta: WitnessMeta) -> Path:
        """Its (first) raw file."""
        return self.files(meta)[0][0]

    def files(self, meta: WitnessMeta) -> tuple[tuple[Path, Profile], ...]:
        """Its raw files in reading order, each with the profile that reads it."""
        paths = self.paths.get(meta.siglum) or (self.root / meta.file,)
        return tuple((path, self.profiles[self.file_profiles.get(path, meta.profile)]) for path in paths)

    @cached_property
    def page_images(self) -> dict[str, dict[str, PageImage]]:
        """Each witness's photographs of its pages by page id, where its stanza names their table."""
        inside = Confinement(self.root)
        return {
            meta.siglum: read_page_images(inside.file(self.root / meta.images, f"witness {meta.siglum}: images table"))
            for meta in self.witnesses
            if meta.images
        }

    @property
    def decisions(self) -> Path:
        return self.decisions_file or decisions_path(self.root)

    def normalizer(self) -> Normalizer:
        return Normalizer(self.config.comparison_script, self.variants, self.gaiji)

    def orthography(self) -> Orthography:
        return Orthography(
            self.normalizer(), self.config.variant_forms == "apparatus", self.config.script, self.own_usages
        )

    def intake(self, meta: WitnessMeta, normalizer: Normalizer, reference: Reference | None = None) -> Witness:
        """A witness read by its profile and its own repairs."""
        (path, profile), *more = self.files(meta)
        return intake_witness(meta, path, profile, self.witness_rules[meta.siglum], normalizer, reference, tuple(more))

    @cached_property
    def elsewhere(self) -> str:
        """The base's text collated (the 經 and the 傳) of the work's other chapters, in the
        comparison script, a chapter a line: each read by its profile, with the base's repairs."""
        base = next(meta for meta in self.witnesses if meta.siglum == self.config.base)
        normalizer = self.normalizer()
        return "\n".join(
            intake_witness(
                base,
                path,
                self.profiles.get(profile) or load_profile(profile, self.root),
                self.witness_rules[base.siglum],
                normalizer,
            ).classic.text
            for path, profile in self.work_files
        )

    def to_read(self, meta: WitnessMeta) -> ToRead:
        (path, profile), *more = self.files(meta)
        return ToRead(meta, path, profile, self.witness_rules[meta.siglum], tuple(more))

    def intake_all(self, progress=lambda message: None, errors: list[str] | None = None) -> list[Witness]:
        """Every witness, in the order of witnesses.toml; those whose layers are decided in part by
        alignment are read last, against the others (see intake_witnesses). With `errors`, a
        witness that cannot be read adds its error there instead of stopping."""
        to_read = [self.to_read(m) for m in self.witnesses]
        return intake_witnesses(
            to_read,
            self.normalizer(),
            progress,
            errors,
            lambda: self.elsewhere,
            self.config.base,
            self.config.min_quality,
        )

    def person_by_name(self, name: str) -> Person | None:
        """The person a witness names, in either script, by their name or an alias."""
        return self.named.get(self.compared(name))

    @cached_property
    def named(self) -> dict[str, Person]:
        return {self.compared(name): p for p in self.persons.values() for name in (p.name, *p.aliases)}

    def compared(self, text: str) -> str:
        return "".join(self.folding.fold(char)[0] for char in text)

    @cached_property
    def folding(self) -> Normalizer:
        return self.normalizer()

    @cached_property
    def tradition(self) -> Tradition:
        return traditions.load(self.config.tradition, self.root / "edition.toml")

    @property
    def language(self) -> str:
        """The language of the site's interface: the config's, or Chinese in the edition's script."""
        return interface_language(self.config)

    @classmethod
    def load(cls, root: Path) -> Sources:
        if not root.is_dir():
            raise EditionError(root, "sources folder not found")
        inside = Confinement(root)
        config = load_config(inside.file(root / "edition.toml", "edition config"))
        meta_path = inside.file(root / "witnesses.toml", "witness metadata file")
        witnesses, lines = load_witness_metadata(meta_path)
        evidence = load_evidence(root, meta_path, inside, traditions.load(config.tradition, root / "edition.toml"))
        described = set()
        for number, meta in enumerate(witnesses):
            line = lines.line(("witness", number, "file"))
            described.add(inside.file(root / meta.file, f"witness {meta.siglum}: file {meta.file!r}", meta_path, line))
        for path in sorted(root.iterdir()):
            if path.suffix in WITNESS_SUFFIXES and path.resolve() not in described:
                raise EditionError(path, f"witness file has no metadata stanza in {meta_path}")
        profiles, witness_rules = profiles_and_rules(root, witnesses, meta_path, lines)
        check_roles(config, witnesses, root / "edition.toml")
        persons = load_persons(inside.file(root / "persons.tsv", "table"))
        return cls(
            root=root,
            config=config,
            witnesses=witnesses,
            profiles=profiles,
            witness_rules=witness_rules,
            variants=VariantForms.load(inside.file(root / "variants.tsv", "table")),
            gaiji=GaijiTable.load(inside.file(root / "gaiji.tsv", "table")),
            persons=persons,
            own_usages=own_usages(root),
            evidence=evidence,
            chapter=EditionChapter.of(config),
        )


def own_usages(root: Path) -> tuple[Row, ...]:
    """The usages of the sources' own `usages.tsv`, which may be absent, confined like every other
    source."""
    path = root / "usages.tsv"
    if not path.exists() and not path.is_symlink():
        return ()
    return read_usages(Confinement(root).file(path, "table"))


def load_evidence(root: Path, meta_path: Path, inside: Confinement, tradition: Tradition) -> tuple[EvidenceMeta, ...]:
    """The [[evidence]] stanzas of a witnesses.toml: books that quote or judge the text, each with
    the folder of its files (inside the sources, apart from every witness's files), a siglum no
    witness or other book of the file has, and a kind the work's tradition has a reader of (whose
    words on what the book is to the edition it takes)."""
    document, lines = read_toml(meta_path, "witnesses.toml")
    taken = {stanza["siglum"]: "witness" for stanza in document.get("witness", ())}
    witness_places = [
        ((root / (stanza.get("folder") or stanza["file"])).resolve(), stanza["siglum"])
        for stanza in document.get("witness", ())
        if stanza.get("folder") or stanza.get("file")
    ]
    out = []
    for number, stanza in enumerate(document.get("evidence", ())):
        folder, line = (root / stanza["folder"]).resolve(), lines.line(("evidence", number, "folder"))
        siglum = stanza["siglum"]
        what = f"evidence {siglum}: folder {stanza['folder']!r}"
        if siglum in taken:
            raise EditionError(
                meta_path,
                f"evidence {siglum}: the siglum is taken by a {taken[siglum]} (a siglum names one source)",
                lines.line(("evidence", number, "siglum")),
            )
        taken[siglum] = "book of evidence"
        reader = tradition.readers.get(stanza["kind"])
        if reader is None:
            whose = f"the tradition {tradition.name!r} reads" if tradition.name else "a work without a tradition reads"
            raise EditionError(
                meta_path,
                f"evidence {siglum}: no book of kind {stanza['kind']!r} is read by the work's tradition "
                f"({whose} {', '.join(map(repr, tradition.readers)) or 'none'})",
                lines.line(("evidence", number, "kind")),
            )
        if not folder.is_relative_to(inside.root):
            raise EditionError(meta_path, f"{what} is outside the sources folder (it resolves to {folder})", line)
        shared = next(
            (s for place, s in witness_places if place == folder or folder in place.parents or place in folder.parents),
            None,
        )
        if shared is not None or folder == inside.root or (inside.root / "chapters") in (folder, *folder.parents):
            whose = f"witness {shared}'s" if shared else "the witnesses'"
            raise EditionError(meta_path, f"{what} holds {whose} files: a book of evidence is no witness", line)
        if not folder.is_dir() or not any(folder.glob("*.txt")):
            raise EditionError(meta_path, f"{what} holds no .txt files", line)
        for path in sorted(folder.iterdir()):
            if path.is_dir():
                raise EditionError(
                    path, "a folder inside a book of evidence's folder is not read: put its files in the folder itself"
                )
            if path.suffix in WITNESS_SUFFIXES:
                inside.file(path, f"evidence {siglum}: file {path.name!r}", meta_path, line)
        stanza_line = (meta_path, lines.line(("evidence", number)))
        out.append(EvidenceMeta(**{**stanza, "folder": folder}, stanza=stanza_line, status=reader.STATUS))
    return tuple(out)


def profiles_and_rules(
    root: Path, witnesses: list[WitnessMeta], meta_path: Path, lines, stanza_numbers: list[int] | None = None
) -> tuple[dict[str, Profile], dict[str, tuple[Rule, ...]]]:
    """Each witness's layout profile (from `root/profiles/` or the package's) and its own repairs;
    an error names the stanza of `meta_path` (`stanza_numbers`: each witness's stanza there)."""
    profiles: dict[str, Profile] = {}
    witness_rules: dict[str, tuple[Rule, ...]] = {}
    for index, meta in enumerate(witnesses):
        number = stanza_numbers[index] if stanza_numbers else index
        if meta.profile not in profiles:
            try:
                profiles[meta.profile] = load_profile(meta.profile, root)
            except EditionError as exc:
                if exc.path is None:
                    raise EditionError(
                        meta_path, f"witness {meta.siglum}: {exc.message}", lines.line(("witness", number, "profile"))
                    ) from None
                raise
        witness_rules[meta.siglum] = tuple(
            Rule.from_table(
                {k: v for k, v in t.items() if k != "chapter"},
                str(meta_path),
                lines.line(("witness", number, "rule", i)),
            )
            for i, t in enumerate(meta.rules)
        )
    return profiles, witness_rules


def check_roles(config: EditionConfig, witnesses: list[WitnessMeta], settings: Path) -> None:
    """The base and the punctuation's witness are among the witnesses."""
    if config.base not in {w.siglum for w in witnesses}:
        raise EditionError(settings, f"base witness {config.base!r} has no metadata stanza")
    if config.punctuation_from and config.punctuation_from not in {w.siglum for w in witnesses} - {config.base}:
        raise EditionError(
            settings, f"punctuation_from: {config.punctuation_from!r} is not a witness other than the base"
        )


class Confinement:
    """Every file the sources name must resolve, after symlinks, to a file inside the sources."""

    def __init__(self, root: Path):
        self.root = root.resolve()

    def file(self, path: Path, what: str, named_in: Path | None = None, line: int | None = None) -> Path:
        """The resolved path, or an error naming where the path was given."""
        origin, at = (named_in, line) if named_in is not None else (path, None)
        resolved = path.resolve()
        if not resolved.is_relative_to(self.root):
            raise EditionError(origin, f"{what} is outside the sources folder (it resolves to {resolved})", at)
        if not resolved.is_file():
            raise EditionError(origin, f"{what} not found in {self.root}", at)
        return resolved


def decisions_path(root: Path) -> Path:
    """The editors' decisions file, which may be absent, confined like every other source."""
    path = root / "decisions.toml"
    return Confinement(root).file(path, "decisions file") if path.exists() or path.is_symlink() else path


def load_config(path: Path) -> EditionConfig:
    doc, _ = read_toml(path, "edition.toml")
    return config_of(dict(doc["edition"]))


def config_of(settings: dict) -> EditionConfig:
    settings = dict(settings)
    settings["editors"] = tuple(settings.get("editors", ()))
    settings["divisions"] = tuple(settings.get("divisions", ()))
    return EditionConfig(**settings)


def guess_layout(root: Path, file: Path, siglum: str, sources: Sources | None = None) -> Guess:
    """How a new witness file is laid out, checked against the base's classic text and weighed
    against every profile the sources know, where the sources can be read (`sources`: those of
    the chapter it joins, in a work rooted at `root`)."""
    if not file.is_file():
        raise EditionError(file, "no such witness file")
    if sources is None:
        try:
            sources = Sources.load(root)
        except EditionError as error:
            return guess(file, siglum, {}, unchecked=f"the sources cannot be read to check it ({error})")
    normalizer = sources.normalizer()
    base = sources.intake(next(m for m in sources.witnesses if m.siglum == sources.config.base), normalizer)
    profiles = {}
    for name in available_profiles(root):
        try:
            profiles[name] = load_profile(name, root)
        except EditionError:
            continue
    return guess(file, siglum, profiles, base, normalizer)


def add_witness(
    root: Path,
    file: Path,
    siglum: str,
    title: str,
    profile: str,
    encoding: str,
    script: str,
    composed: str | None = None,
    name: str | None = None,
    profiles_root: Path | None = None,
    taken: frozenset[str] = frozenset(),
) -> Path:
    """Copy a raw witness file into the sources untouched and add its stanza to witnesses.toml;
    `composed`: the TOML of the witness's own profile, written to `profiles/<profile>.toml` of
    `profiles_root` (the sources, or the work that `root`, a chapter's folder, belongs to);
    `taken`: sigla used elsewhere in the work.

    Every option is checked before anything is written, and the writes are all or nothing.
    A retry after an interruption that left the copy without its stanza takes the copy up."""
    stanza = {
        "siglum": siglum,
        "file": file.name,
        "title": title,
        "script": script,
        "profile": profile,
        "encoding": encoding,
    }
    if name is not None:
        stanza["name"] = name
    profiles_root = profiles_root or root
    profile_path = profiles_root / "profiles" / f"{profile}.toml"
    if composed is not None:
        if profile_path.exists() and profile_path.read_text(encoding="utf-8") != composed:
            raise EditionError(profile_path, "a profile of that name is already in the sources")
        check_options(profiles_root, file, stanza | {"profile": None})
    else:
        check_options(profiles_root, file, stanza)
    meta_path = root / "witnesses.toml"
    source, existing, books = "", [], set()
    if meta_path.is_file():
        source = read_text(meta_path)
        document = read_toml(meta_path)[0]
        books = {book["siglum"] for book in document.get("evidence", ())}
        if "witness" in document:
            existing = load_witness_metadata(meta_path)[0]
    if siglum in taken or siglum in books or any(w.siglum == siglum for w in existing):
        raise EditionError(meta_path, f"siglum {siglum!r} is taken")
    target = root / file.name
    resumed = (
        target.is_file() and file.name not in {w.file for w in existing} and target.read_bytes() == file.read_bytes()
    )
    if target.exists() and not resumed:
        raise EditionError(target, "a file of that name is already in the sources")
    document = tomlkit.parse(source)
    if "witness" not in document:
        document.append("witness", tomlkit.aot())
    document["witness"].append(tomlkit.item(stanza))
    text = tomlkit.dumps(document)
    if violations(meta_path, text, tomllib.loads(text), "witnesses.toml"):
        raise EditionError(meta_path, "the new stanza would not be valid; nothing was added")
    root.mkdir(parents=True, exist_ok=True)
    files = ({} if resumed else {target: file.read_bytes()}) | {meta_path: text.encode("utf-8")}
    if composed is not None:
        profile_path.parent.mkdir(exist_ok=True)
        files[profile_path] = composed.encode("utf-8")
    with interrupts_as_errors(file, "nothing was added"):
        write_together(files)
    return target


def check_options(root: Path, file: Path, options: dict) -> None:
    """Raise the first of what is wrong with add-witness's options, in the words of the witness
    schema, or with the file read in the encoding given; options that are None are guessed."""
    if not file.is_file():
        raise EditionError(file, "no such witness file")
    given = {key: value for key, value in options.items() if value is not None}
    schema = validator().schema["$defs"]["witness"]
    names = {"file": "FILE's name"}
    for error in validator().evolve(schema=schema).iter_errors(given):
        if error.absolute_path:
            field = error.absolute_path[0]
            raise EditionError(
                file, f"{names.get(field, '--' + field)}: expected {expected(error)}, found {shown(error.instance)}"
            )
    if "profile" in given:
        load_profile(given["profile"], root)
    if "encoding" in given:
        read_raw(file, given["encoding"])


def write_together(files: dict[Path, bytes]) -> None:
    """Write the files so that either all of them are in place or none has changed."""
    staged = {path: path.with_name(f".{path.name}.adding") for path in files}
    placed: list[Path] = []
    try:
        for path, data in files.items():
            with staged[path].open("wb") as handle:
                handle.write(data)
                handle.flush()
                os.fsync(handle.fileno())
        for path in files:
            if not path.exists():
                placed.append(path)
            os.replace(staged[path], path)
    except BaseException:
        for path in staged.values():
            path.unlink(missing_ok=True)
        for path in placed:
            path.unlink(missing_ok=True)
        raise
