"""The languages of the HTML edition's interface: every word the pages, their scripts and their
data say of their own (headings, navigation, labels, titles, the ledes) from the catalog
`messages.toml`, a Chinese form and an English one for each. The text of the edition itself (the
edited text, the apparatus as the conventions phrase it, the 凡例) is never translated.

The site is written in two languages: the edition's own (`language` in the sources, zh-Hant where
the base is in traditional script) at its root, and the other (English, or Chinese where the
edition's is English) under `en/` (or `zh/`), each page with a link to the same page in the other.
A Chinese interface in simplified script is the catalog's traditional one converted by OpenCC.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources

import opencc
from markupsafe import Markup

CHINESE = ("zh-Hant", "zh-Hans")
LANGUAGES = (*CHINESE, "en")
CATALOG_LANGUAGES = ("zh-Hant", "en")  # what the catalog writes; zh-Hans is converted from zh-Hant


@cache
def catalog() -> dict[str, dict[str, str]]:
    """messages.toml flattened: "nav.text" -> {"zh-Hant": …, "en": …}."""
    data = tomllib.loads((resources.files("edition.publication") / "messages.toml").read_text(encoding="utf-8"))
    out: dict[str, dict[str, str]] = {}

    def walk(prefix: str, table: dict) -> None:
        for key, value in table.items():
            if isinstance(value, dict) and not set(value) & set(CATALOG_LANGUAGES):
                walk(f"{prefix}{key}.", value)
            else:
                out[prefix + key] = value

    walk("", data)
    return out


@cache
def _to_simplified():
    return opencc.OpenCC("t2s")


def other_language(language: str) -> str:
    """The second language of a site whose first is `language`."""
    return "zh-Hant" if language == "en" else "en"


def folder_of(language: str) -> str:
    """The folder the pages of the site's second language are written to: en/ or zh/."""
    return "en" if language == "en" else "zh"


@dataclass(frozen=True)
class Messages:
    """The interface in one language: `t(key, **values)` is the message with its fields filled,
    the values escaped and the message's own markup kept (a <span lang> round a Chinese word in
    English); `t.plain(key, **values)` is its text alone, for an attribute or a script."""

    language: str

    def template(self, key: str) -> str:
        entry = catalog()[key]
        if self.language == "zh-Hans":
            return _to_simplified().convert(entry["zh-Hant"])
        return entry[self.language]

    def __call__(self, key: str, **values) -> Markup:
        return Markup(self.template(key)).format(**values)

    def plain(self, key: str, **values) -> str:
        return self(key, **values).striptags()

    def has(self, key: str) -> bool:
        return key in catalog()

    def code(self, group: str, value) -> str:
        """A code of the data (a layer, a reading type) as this language names it; the code itself
        where the catalog has no name for it."""
        key = f"{group}.{value}"
        return self.plain(key) if key in catalog() else str(value)

    def group(self, group: str) -> dict[str, str]:
        """Every message of a group as plain text, its fields unfilled: for the scripts, which fill them."""
        prefix = group + "."
        return {
            key[len(prefix) :]: Markup(self.template(key)).striptags() for key in catalog() if key.startswith(prefix)
        }

    @property
    def chinese(self) -> bool:
        return self.language in CHINESE


@dataclass(frozen=True)
class Language:
    """One language of a site: its messages, where its pages are (`folder`, "" at the root) and
    the way from one of them to the site's root (`root`)."""

    messages: Messages
    folder: str
    other: Language | None = None

    @property
    def code(self) -> str:
        return self.messages.language

    @property
    def root(self) -> str:
        return "../" if self.folder else ""

    def switch(self, page: str) -> str:
        """The link from `page` in this language to the same page in the other."""
        return f"../{page}" if self.folder else f"{self.other.folder}/{page}"


def site_languages(language: str) -> list[Language]:
    """The languages of a site whose own is `language`: it at the root, the other in its folder."""
    second = other_language(language)
    first = Language(Messages(language), "")
    other = Language(Messages(second), folder_of(second), first)
    first = Language(first.messages, "", other)
    return [first, other]
