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

from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from ..errors import EditionError
from ..tables import NAME, read_toml
from . import intrusion, register
from .layering import FORCED_FORMAT, Layering, Segment, TimeLimit
from .raw import RawText
from .rule import Rule


@dataclass(frozen=True)
class Profile:
    name: str
    description: str
    rules: tuple[Rule, ...]


def profile_dirs(sources: Path | None) -> list[Path]:
    """Profiles in the edition's `sources/profiles/` come first, then the built-in ones."""
    dirs = [sources / "profiles"] if sources is not None else []
    return dirs + [Path(str(resources.files("edition.intake") / "profiles"))]


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
