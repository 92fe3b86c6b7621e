r"""Layers: a declarative layout profile splits a raw witness into typed segments with exact offsets.

A profile is an ordered list of rules (TOML). Each rule claims characters that are still in one of
the layers it works `within` (by default: not yet assigned). A `pattern` rule assigns each match
to `layer`, or its named groups to the layers they are named after (`commentary`, `format__close`:
the part after `__` only keeps group names unique). Two rule kinds go beyond a regular expression:
`intrusion` (inserted web spam, see `intrusion.py`) and `register` (modern lines, see `register.py`).
A match is confined to its span: lookbehind sees the text before the span, `\Z` matches at its
end. Line terminators and a BOM are always `format`. Every character must end up in exactly one layer.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

import regex

from . import intrusion, register
from .errors import EditionError
from .tables import NAME, read_toml
from .witness import RawText

LAYERS = (
    "classic",
    "commentary",
    "subcommentary",
    "translation",
    "scholia",
    "label",
    "chrome",
    "other-chapter",
    "intrusion",
    "format",
)
UNASSIGNED = "unassigned"
FLAGS = {"m": regex.MULTILINE, "s": regex.DOTALL, "x": regex.VERBOSE}
FORCED_FORMAT = "\n\r"


@dataclass(frozen=True)
class Segment:
    layer: str
    start: int
    end: int
    line: int
    rule: str
    attrs: dict = field(default_factory=dict, compare=False, hash=False)

    def text(self, raw: RawText) -> str:
        return raw.text[self.start : self.end]


@dataclass(frozen=True)
class Rule:
    name: str
    kind: str
    within: tuple[str, ...]
    layer: str | None = None
    pattern: regex.Pattern | None = None
    attrs: dict = field(default_factory=dict, hash=False)
    params: dict = field(default_factory=dict, hash=False)

    @classmethod
    def from_table(cls, table: dict, origin: str, line: int | None = None) -> "Rule":
        """A rule from a table the schema has validated: what is left to check is its pattern."""
        name = table["name"]
        kind = table.get("kind", "pattern")
        pattern = None
        if "pattern" in table:
            flags = 0
            for flag in table.get("flags", ""):
                flags |= FLAGS[flag]
            try:
                pattern = regex.compile(table["pattern"], flags | regex.VERSION0)
            except regex.error as exc:
                raise EditionError(origin, f"rule {name!r}: bad pattern: {exc}", line) from None
            for group in pattern.groupindex:
                if group.split("__")[0] not in LAYERS:
                    raise EditionError(origin, f"rule {name!r}: group {group!r} names no layer", line)
        if kind == "pattern" and not table.get("layer") and not pattern.groupindex:
            raise EditionError(origin, f"rule {name!r}: needs a layer or named groups", line)
        known = {"name", "kind", "within", "layer", "pattern", "flags", "attrs", "reason"}
        params = {k: v for k, v in table.items() if k not in known}
        within = tuple(table.get("within", [UNASSIGNED]))
        return cls(name, kind, within, table.get("layer"), pattern, dict(table.get("attrs", {})), params)


@dataclass(frozen=True)
class Profile:
    name: str
    description: str
    rules: tuple[Rule, ...]


def profile_dirs(sources: Path | None) -> list[Path]:
    """Profiles in the edition's `sources/profiles/` come first, then the built-in ones."""
    dirs = [sources / "profiles"] if sources is not None else []
    return dirs + [Path(str(resources.files("edition") / "profiles"))]


def load_profile(name: str, sources: Path | None = None) -> Profile:
    """A profile by name, from the first profile folder that has it; the file must resolve, after
    symlinks, inside that folder."""
    if not NAME.fullmatch(name):
        raise EditionError(None, f"bad layout profile name {name!r}: letters, digits, '_' or '-' only")
    for directory in profile_dirs(sources):
        path = directory / f"{name}.toml"
        if path.is_file():
            if not path.resolve().is_relative_to(directory.resolve()):
                raise EditionError(path, f"layout profile {name!r} resolves outside {directory}")
            doc, lines = read_toml(path, "profile")
            rules = tuple(Rule.from_table(t, str(path), lines.line(("rule", i))) for i, t in enumerate(doc["rule"]))
            return Profile(name, doc.get("description", ""), rules)
    raise EditionError(None, f"unknown layout profile {name!r} (known: {', '.join(available_profiles(sources))})")


def available_profiles(sources: Path | None = None) -> list[str]:
    return sorted({p.stem for d in profile_dirs(sources) if d.is_dir() for p in d.glob("*.toml")})


class Layering:
    """The assignment of every character of a raw text to one layer, built rule by rule."""

    def __init__(self, raw: RawText):
        self.raw = raw
        n = len(raw.text)
        self.layer = [UNASSIGNED] * n
        self.claim = [-1] * n  # index into self.claims: which rule application owns the char
        self.claims: list[tuple[str, dict]] = []
        # Rules match on a view without the BOM in which '\r' reads as a line end.
        self.shift = 1 if raw.has_bom else 0
        self.view = raw.text[self.shift :].replace("\r", "\n")

    def spans(self, within: tuple[str, ...]) -> list[tuple[int, int]]:
        """Maximal runs of characters currently in one of the `within` layers."""
        wanted = set(within)
        out, start = [], None
        for i, layer in enumerate(self.layer):
            inside = layer in wanted
            if inside and start is None:
                start = i
            elif not inside and start is not None:
                out.append((start, i))
                start = None
        if start is not None:
            out.append((start, len(self.layer)))
        return out

    def assign(self, start: int, end: int, layer: str, rule: Rule, attrs: dict | None = None) -> None:
        self.claims.append((rule.name, attrs if attrs is not None else rule.attrs))
        claim = len(self.claims) - 1
        for i in range(start, end):
            self.layer[i] = layer
            self.claim[i] = claim

    def segments(self) -> list[Segment]:
        out: list[Segment] = []
        start = 0
        text_len = len(self.layer)
        for i in range(1, text_len + 1):
            if i == text_len or self.layer[i] != self.layer[start] or self.claim[i] != self.claim[start]:
                rule, attrs = self.claims[self.claim[start]] if self.claim[start] >= 0 else ("", {})
                out.append(Segment(self.layer[start], start, i, self.raw.line_of(start), rule, attrs))
                start = i
        return out


def apply_pattern(layering: Layering, rule: Rule) -> None:
    shift = layering.shift
    for start, end in layering.spans(rule.within):
        for match in rule.pattern.finditer(layering.view, start - shift, end - shift):
            if match.end() == match.start():
                continue
            if rule.layer:
                layering.assign(match.start() + shift, match.end() + shift, rule.layer, rule)
            for group in rule.pattern.groupindex:
                g_start, g_end = match.span(group)
                if g_start >= 0 and g_end > g_start:
                    layering.assign(g_start + shift, g_end + shift, group.split("__")[0], rule)


def split_layers(raw: RawText, profile: Profile, extra_rules: tuple[Rule, ...] = ()) -> list[Segment]:
    """Apply a witness's own rules (repairs), then its profile; fail if anything is left over."""
    layering = Layering(raw)
    format_rule = Rule("line-end", "pattern", (), "format")
    if raw.has_bom:
        layering.assign(0, 1, "format", format_rule)
    for rule in (*extra_rules, *profile.rules):
        if rule.kind == "pattern":
            apply_pattern(layering, rule)
        elif rule.kind == "intrusion":
            intrusion.apply(layering, rule)
        else:
            register.apply(layering, rule)
    for i, c in enumerate(raw.text):
        if c in FORCED_FORMAT:
            layering.assign(i, i + 1, "format", format_rule)
    left = [i for i, layer in enumerate(layering.layer) if layer == UNASSIGNED]
    if left:
        first = left[0]
        sample = raw.text[first : first + 12].split("\n")[0]
        raise EditionError(
            raw.path,
            f"profile {profile.name!r} leaves {len(left)} character(s) unassigned, first at column "
            f"{raw.column_of(first)}: {sample!r}",
            raw.line_of(first),
        )
    return layering.segments()
