"""The settings an edition is built with and the persons its layers are attributed to: plain data,
read from the sources (`work.toml` or `edition.toml`, a chapter's `chapter.toml`, `persons.tsv`)
and read by every stage."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import regex

from .tables import read_tsv


@dataclass(frozen=True)
class EditionConfig:
    title: str
    base: str
    comparison_script: str
    title_en: str = ""
    # The script the edition writes its own words in: its headings, the persons' names, the
    # witnesses' titles (converted by OpenCC where a witness's metadata is in another).
    script: str = "traditional"
    chapter: str = ""
    editors: tuple[str, ...] = ()  # who edited the work, as its title page names them
    place: str = ""  # where it is published, as its title page says
    # A witness whose characters align in order less than this is left out.
    min_quality: float = 0.5
    # Where variant forms are shown: "appendix" (the 异体字表 only) or "apparatus" (at each place too).
    variant_forms: str = "appendix"
    # Classical usages (古今字, 通假: 說/脫, 孰/熟): "apparatus" phrases each at its place in the print
    # and the HTML (series C, with its relation), "silent" leaves them out there; the TEI types them
    # (rdg type "usage") either way, and never emends by them.
    usages: str = "apparatus"
    # The witness whose punctuation an unpunctuated base takes, as editorial punctuation.
    punctuation_from: str = ""
    # The apparatus's conventions: "chinese" (校勘记 sentences) or "latin" (om., transp., lac.).
    apparatus_style: str = "chinese"
    # Heading words that open a division of their own where a passage of the base begins with them (記).
    divisions: tuple[str, ...] = ()
    # The language of the HTML edition's interface (its root; the other, English, one link away):
    # "zh-Hant", "zh-Hans" or "en"; empty, Chinese in the edition's `script` (interface_language).
    language: str = ""
    # The tradition whose analyses and books of evidence the work has (edition.traditions); none if empty.
    tradition: str = ""
    # The glyphs of the CJK face the PDF and the HTML set the text in (Noto Serif CJK): "TC" (as
    # Taiwan prints them), "HK", "SC" (as the mainland does), "JP" or "KR"; empty, by the edition's
    # script: TC for traditional, SC for simplified.
    glyphs: str = ""
    # The work's URN, which every chapter, section and sentence extends (urn:cts:chineseLit:yili:5.3.2);
    # empty, one made of the work's English title (its first word) or else of its title.
    urn: str = ""
    # The address the site is published at (https://…/): the IIIF manifests and the DTS files give
    # their ids under it; empty, relative to where they stand.
    url: str = ""


def work_urn(config: EditionConfig) -> str:
    """The URN the edition's citations extend: the config's, or urn:cts:chineseLit: and a name of the work."""
    words = regex.findall(r"[A-Za-z][A-Za-z0-9]*", config.title_en)
    name = words[0].lower() if words else "".join(regex.findall(r"[\p{L}\p{N}]", config.title.split("·")[0]))
    return config.urn or f"urn:cts:chineseLit:{name or 'edition'}"


def cjk_face(config: EditionConfig) -> str:
    """The CJK face the edition is set in: Noto Serif CJK with the glyphs the config chooses."""
    return f"Noto Serif CJK {config.glyphs or ('SC' if config.script == 'simplified' else 'TC')}"


def interface_language(config: EditionConfig) -> str:
    """The language of the site's interface: the config's, or Chinese in the script the edition
    writes its words in (zh-Hans for simplified, zh-Hant otherwise)."""
    return config.language or ("zh-Hans" if config.script == "simplified" else "zh-Hant")


@dataclass(frozen=True)
class Person:
    id: str
    name: str
    role: str
    dates: str
    aliases: tuple[str, ...] = ()  # other names the witnesses call them by (朱子 for 朱熹)
    layers: tuple[str, ...] = ()  # the witnesses' layers that are theirs (Zheng Xuan's 注)


def load_persons(path: Path) -> dict[str, Person]:
    def listed(value: str) -> tuple[str, ...]:
        return tuple(item for item in value.split("、") if item)

    return {
        row["id"]: Person(
            row["id"],
            row["name"],
            row["role"],
            row["dates"],
            listed(row.get("aliases", "")),
            listed(row.get("layers", "")),
        )
        for _, row in read_tsv(path, ("id", "name", "role", "dates", "layers"))
    }


def layer_persons(persons: dict[str, Person]) -> dict[str, str]:
    """Layer -> the id of the person whose it is (commentary -> zheng-xuan)."""
    return {layer: person.id for person in persons.values() for layer in person.layers}
