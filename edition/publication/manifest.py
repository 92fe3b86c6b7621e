"""work.json as the publication reads it: the work's title, base and language, its chapters in order (each
with the folder of its build under chapters/) and each witness with the chapters it is collated in.
The work build writes it first; the work's site and its volume read it."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from ..errors import EditionError


@dataclass
class BuiltChapter:
    number: int
    title: str
    heading: str  # 鄉射禮第五
    folder: str  # under build/chapters/


@dataclass
class WorkWitness:
    siglum: str
    name: str
    chapters: list[int]


@dataclass
class BuiltWork:
    title: str
    title_en: str
    base: str
    chapters: list[BuiltChapter]
    witnesses: list[WorkWitness]
    language: str = "zh-Hant"  # of the site's interface (the edition's own; the other is English)
    url: str = ""  # where the site is published, for the ids of its IIIF and DTS files

    @property
    def base_name(self) -> str:
        """The base's name (四部叢刊本), its siglum where it has none."""
        return next((w.name for w in self.witnesses if w.siglum == self.base), self.base)


def read_work(build_root: Path) -> BuiltWork:
    """build/work.json; a one-line error if it cannot be read."""
    path = build_root / "work.json"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return BuiltWork(
            data["title"],
            data["title_en"],
            data["base"],
            [BuiltChapter(c["number"], c["title"], c["heading"], c["folder"]) for c in data["chapters"]],
            [WorkWitness(w["siglum"], w["name"], w["chapters"]) for w in data["witnesses"]],
            data.get("language", "zh-Hant"),
            data.get("url", ""),
        )
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise EditionError(path, f"not a readable work.json: {error}") from None
