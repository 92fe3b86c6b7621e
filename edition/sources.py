"""Sources: everything an edition is built from, read and checked together.

`sources/` holds the raw witness files (kept byte for byte), `witnesses.toml` (one stanza each),
`edition.toml` (title, base witness, comparison script) and the data tables `variants.tsv`,
`gaiji.tsv`, `persons.tsv`. Optional `profiles/` adds layout profiles of the edition's own. The
editors' `decisions.toml` is read by `decisions.py`, after collation.
"""

from __future__ import annotations

import json
import shutil
import tomllib
from dataclasses import dataclass
from pathlib import Path

from .errors import EditionError
from .gaiji import GaijiTable
from .layers import Profile, Rule, load_profile
from .normalize import OPENCC_CONFIG, load_variants
from .tables import read_tsv
from .witness import SCRIPTS, WitnessMeta, load_witness_metadata

WITNESS_SUFFIXES = (".txt",)


@dataclass(frozen=True)
class EditionConfig:
    title: str
    base: str
    comparison_script: str
    title_en: str = ""
    chapter: str = ""
    editors: tuple[str, ...] = ()
    min_quality: float = 0.5  # a witness whose characters align in order less than this is left out
    pdf_orthographic: bool = True  # series C of the printed apparatus: orthographic variants and stand-ins


@dataclass(frozen=True)
class Person:
    id: str
    name: str
    role: str
    dates: str


@dataclass
class Sources:
    root: Path
    config: EditionConfig
    witnesses: list[WitnessMeta]
    profiles: dict[str, Profile]
    witness_rules: dict[str, tuple[Rule, ...]]
    variants: dict[str, str]
    gaiji: GaijiTable
    persons: dict[str, Person]

    def path(self, meta: WitnessMeta) -> Path:
        return self.root / meta.file

    def person_by_name(self, name: str) -> Person | None:
        return next((p for p in self.persons.values() if p.name == name), None)

    @classmethod
    def load(cls, root: Path) -> "Sources":
        if not root.is_dir():
            raise EditionError(root, "sources folder not found")
        config = load_config(root / "edition.toml")
        meta_path = root / "witnesses.toml"
        if not meta_path.is_file():
            raise EditionError(meta_path, "witness metadata file not found")
        witnesses = load_witness_metadata(meta_path)
        described = {w.file for w in witnesses}
        for path in sorted(root.iterdir()):
            if path.suffix in WITNESS_SUFFIXES and path.name not in described:
                raise EditionError(path, f"witness file has no metadata stanza in {meta_path}")
        profiles: dict[str, Profile] = {}
        witness_rules: dict[str, tuple[Rule, ...]] = {}
        for meta in witnesses:
            if not (root / meta.file).is_file():
                raise EditionError(meta_path, f"witness {meta.siglum}: file {meta.file} not found in {root}")
            if meta.profile not in profiles:
                try:
                    profiles[meta.profile] = load_profile(meta.profile, root)
                except EditionError as exc:
                    if exc.path is None:
                        raise EditionError(meta_path, f"witness {meta.siglum}: {exc.message}") from None
                    raise
            witness_rules[meta.siglum] = tuple(Rule.from_table(t, str(meta_path)) for t in meta.rules)
        if config.base not in {w.siglum for w in witnesses}:
            raise EditionError(root / "edition.toml", f"base witness {config.base!r} has no metadata stanza")
        persons = {
            row["id"]: Person(row["id"], row["name"], row["role"], row["dates"])
            for _, row in read_tsv(root / "persons.tsv", ("id", "name", "role", "dates"))
        }
        return cls(
            root=root,
            config=config,
            witnesses=witnesses,
            profiles=profiles,
            witness_rules=witness_rules,
            variants=load_variants(root / "variants.tsv"),
            gaiji=GaijiTable.load(root / "gaiji.tsv"),
            persons=persons,
        )


def load_config(path: Path) -> EditionConfig:
    if not path.is_file():
        raise EditionError(path, "edition config not found")
    try:
        doc = tomllib.loads(path.read_text(encoding="utf-8")).get("edition", {})
    except tomllib.TOMLDecodeError as exc:
        raise EditionError(path, f"invalid TOML: {exc}") from None
    missing = [k for k in ("title", "base", "comparison_script") if k not in doc]
    if missing:
        raise EditionError(path, f"[edition] lacks {', '.join(missing)}")
    if doc["comparison_script"] not in OPENCC_CONFIG:
        raise EditionError(path, f"comparison_script must be one of {', '.join(OPENCC_CONFIG)}")
    known = set(EditionConfig.__dataclass_fields__)
    unknown = set(doc) - known
    if unknown:
        raise EditionError(path, f"unknown setting(s) {', '.join(sorted(unknown))}")
    doc["base"] = str(doc["base"])
    doc["editors"] = tuple(str(v) for v in doc.get("editors", ()))
    return EditionConfig(**doc)


def add_witness(root: Path, file: Path, siglum: str, title: str, profile: str, encoding: str, script: str) -> Path:
    """Copy a raw witness file into the sources untouched and append its metadata stanza."""
    if not file.is_file():
        raise EditionError(file, "no such witness file")
    meta_path = root / "witnesses.toml"
    existing = load_witness_metadata(meta_path) if meta_path.is_file() else []
    if any(w.siglum == siglum for w in existing):
        raise EditionError(meta_path, f"siglum {siglum!r} is taken")
    target = root / file.name
    if target.exists():
        raise EditionError(target, "a file of that name is already in the sources")
    if script not in SCRIPTS:
        raise EditionError(file, f"script must be one of {', '.join(SCRIPTS)}")
    load_profile(profile, root)
    shutil.copyfile(file, target)
    stanza = (
        f"\n[[witness]]\nsiglum = {json.dumps(siglum, ensure_ascii=False)}\nfile = {json.dumps(file.name, ensure_ascii=False)}\n"
        f"title = {json.dumps(title, ensure_ascii=False)}\nscript = \"{script}\"\nprofile = \"{profile}\"\nencoding = \"{encoding}\"\n"
    )
    with meta_path.open("a", encoding="utf-8") as handle:
        handle.write(stanza)
    return target
