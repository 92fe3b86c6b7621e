r"""Layers: a declarative layout profile splits a raw witness into typed segments with exact offsets.

A profile is an ordered list of rules (TOML). Each rule claims characters that are still in one of
the layers it works `within` (by default: not yet assigned). A `pattern` rule assigns each match
to `layer`, or its named groups to the layers they are named after (`commentary`, `format__close`:
the part after `__` only keeps group names unique). Two rule kinds go beyond a regular expression:
`intrusion` (inserted web spam, see `intrusion.py`) and `register` (modern lines, see `register.py`).
A match is confined to its span: lookbehind sees the text before the span, `\Z` matches at its
end. Line terminators and a BOM are always `format`. Every character must end up in exactly one layer.
A rule's patterns may spend only so long matching (`TimeLimit`): a pattern that runs away (`(a|a)+$`)
is an error naming the rule and the line, not a hung build.
"""

from __future__ import annotations

import re
import time
from array import array
from dataclasses import dataclass, field
from functools import cache
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
FORCED_FORMAT = re.compile("[\n\r]")
CODES = {layer: code for code, layer in enumerate((UNASSIGNED, *LAYERS))}  # a layer as one byte
# The time a rule's patterns may spend matching over a witness, and more per character of it.
TIME_LIMIT = 2.0
TIME_LIMIT_PER_CHAR = 2e-6
PROBE = 0.05  # seconds a search may take while the place a rule ran away is looked for


@dataclass(frozen=True, slots=True)
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
    origin: str = ""  # the profile file or witnesses.toml it comes from

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
        return cls(name, kind, within, table.get("layer"), pattern, dict(table.get("attrs", {})), params, origin)


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


@cache
def runs_of(layers: frozenset[str]) -> re.Pattern:
    """A pattern for runs of characters in any of `layers`, on Layering.codes."""
    return re.compile(b"[" + re.escape(bytes(sorted(CODES[layer] for layer in layers))) + b"]+")


class Layering:
    """The assignment of every character of a raw text to one layer, built rule by rule: per
    character a layer byte and the rule application that owns it, in compact arrays. Segments can
    only end where an application starts or ends (`cuts`)."""

    def __init__(self, raw: RawText):
        self.raw = raw
        n = len(raw.text)
        self.codes = bytearray(n)  # CODES of each character's layer
        self.claim = array("i", [-1]) * n  # index into self.claims: which rule application owns the char
        self.claims: list[tuple[str, str, dict]] = []  # (layer, rule name, attrs)
        self.cuts = [0, n]
        # Rules match on a view without the BOM in which '\r' reads as a line end.
        self.shift = 1 if raw.has_bom else 0
        self.view = raw.text[self.shift :].replace("\r", "\n")

    def spans(self, within: tuple[str, ...], start: int = 0, end: int | None = None) -> list[tuple[int, int]]:
        """Maximal runs of characters (between start and end) currently in one of the `within` layers."""
        if not within:
            return []
        runs = runs_of(frozenset(within))
        return [m.span() for m in runs.finditer(self.codes, start, len(self.codes) if end is None else end)]

    def assign(self, start: int, end: int, layer: str, rule: Rule, attrs: dict | None = None) -> None:
        self.claims.append((layer, rule.name, attrs if attrs is not None else rule.attrs))
        if end <= start:
            return
        self.codes[start:end] = bytes((CODES[layer],)) * (end - start)
        self.claim[start:end] = array("i", [len(self.claims) - 1]) * (end - start)
        self.cuts += (start, end)

    def unassigned(self) -> tuple[int, int]:
        """How many characters no rule claimed, and the first of them (-1 if none)."""
        return self.codes.count(CODES[UNASSIGNED]), self.codes.find(CODES[UNASSIGNED])

    def segments(self) -> list[Segment]:
        out: list[Segment] = []
        start = 0
        text_len = len(self.codes)
        for cut in sorted(set(self.cuts))[1:]:
            if cut < text_len and self.claim[cut] == self.claim[start]:
                continue
            layer, rule, attrs = self.claims[self.claim[start]] if self.claim[start] >= 0 else (UNASSIGNED, "", {})
            out.append(Segment(layer, start, cut, self.raw.line_of(start), rule, attrs))
            start = cut
        return out


class TimeLimit:
    """The time a rule's patterns may take matching over one witness: a pathological pattern fails
    with a line naming the rule and the place it ran away, instead of hanging the build."""

    def __init__(self, rule: Rule, raw: RawText):
        self.rule = rule
        self.raw = raw
        self.seconds = TIME_LIMIT + TIME_LIMIT_PER_CHAR * len(raw.text)
        self.spent = 0.0

    def exceeded(self, offset: int) -> EditionError:
        """`offset`: the raw offset where the rule ran away."""
        return EditionError(
            self.rule.origin or None,
            f"rule {self.rule.name!r} exceeded its time limit ({self.seconds:.0f} s) on {self.raw.path} line {self.raw.line_of(offset)}",
        )

    def left(self, offset: int) -> float:
        """Seconds left; `offset`: the raw offset the rule works from next."""
        if self.spent >= self.seconds:
            raise self.exceeded(offset)
        return self.seconds - self.spent

    def timed(self, call):
        began = time.perf_counter()
        try:
            return call()
        finally:
            self.spent += time.perf_counter() - began

    def finditer(self, pattern: regex.Pattern, text: str, start: int, end: int, to_raw=lambda offset: offset):
        """pattern.finditer(text, start, end) within the time left; `to_raw` maps offsets in `text` to raw offsets."""
        matches = pattern.finditer(text, start, end, timeout=self.left(to_raw(start)))
        position = start
        try:
            while match := self.timed(lambda: next(matches, None)):
                yield match
                position = match.end()
        except TimeoutError:
            raise self.exceeded(to_raw(culprit(pattern, text, position, end))) from None

    def match(self, pattern: regex.Pattern, text: str, offset: int):
        """pattern.match(text) within the time left; `offset`: where `text` starts in the raw text."""
        timeout = self.left(offset)
        try:
            return self.timed(lambda: pattern.match(text, timeout=timeout))
        except TimeoutError:
            raise self.exceeded(offset) from None


def culprit(pattern: regex.Pattern, text: str, start: int, end: int) -> int:
    """The offset from which a search of text[start:end] runs away, `start` known to be one: the
    last one, by bisection, since a search from beyond it runs no more into it."""
    low, high = start, end - 1
    while low < high:
        middle = (low + high + 1) // 2
        try:
            pattern.search(text, middle, end, timeout=PROBE)
            high = middle - 1
        except TimeoutError:
            low = middle
    return low


def apply_pattern(layering: Layering, rule: Rule, limit: TimeLimit) -> None:
    shift = layering.shift
    for start, end in layering.spans(rule.within):
        for match in limit.finditer(rule.pattern, layering.view, start - shift, end - shift, lambda offset: offset + shift):
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
        apply = {"pattern": apply_pattern, "intrusion": intrusion.apply, "register": register.apply}[rule.kind]
        apply(layering, rule, TimeLimit(rule, raw))
    for match in FORCED_FORMAT.finditer(raw.text):
        layering.assign(match.start(), match.end(), "format", format_rule)
    left, first = layering.unassigned()
    if left:
        sample = raw.text[first : first + 12].split("\n")[0]
        raise EditionError(
            raw.path,
            f"profile {profile.name!r} leaves {left} character(s) unassigned, first at column "
            f"{raw.column_of(first)}: {sample!r}",
            raw.line_of(first),
        )
    return layering.segments()
