r"""Layers: a declarative layout profile splits a raw witness into typed segments with exact offsets.

A profile is an ordered list of rules (TOML). Each rule claims characters that are still in one of
the layers it works `within` (by default: not yet assigned). A `pattern` rule assigns each match
to `layer`, or its named groups to the layers they are named after (`commentary`, `format__close`:
the part after `__` only keeps group names unique; a group that repeats assigns every capture).
With `across`, a pattern reads through characters of those layers as if they were not there (a
note running over page breaks and the markers of printed line ends), sees the line ends between
them, and leaves them as they are. Three rule kinds go beyond a regular expression: `intrusion`
(inserted web spam, see `intrusion.py`), `register` (modern lines, see `register.py`) and
`alignment` (classic text told from commentary, or where a 傳 ends, by the other witnesses,
see `alignment_rule.py`) and `attestation` (text that no other witness has, see `attestation.py`).

A profile composes: an entry `feature = "small-notes"` stands for the rules of the shared feature
`features/small-notes.toml` at that place (a feature may compose others). Their names are
prefixed with the feature's (`small-notes:note`), so that a report can say which rule of which
feature claimed what.

A match is confined to its span: lookbehind sees the text before the span, `\Z` matches at its
end. Line terminators and a BOM are always `format`. Every character must end up in exactly one layer.
A rule's patterns may spend only so long matching (`TimeLimit`): a pattern that runs away (`(a|a)+$`)
is an error naming the rule and the line, not a hung build.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from importlib import resources
from pathlib import Path

from ..errors import EditionError
from ..tables import NAME, TomlLines, read_toml
from . import alignment_rule, attestation, intrusion, register
from .layering import FORCED_FORMAT, Layering, TimeLimit
from .model import RawText, Segment
from .rule import READS_OTHERS, Rule


@dataclass(frozen=True)
class Profile:
    name: str
    description: str
    rules: tuple[Rule, ...]

    @property
    def aligns_text(self) -> bool:
        """Whether a rule decides by the other witnesses what of the text is collated (classic text
        out of commentary), not only how the text collated divides (經 and 傳): such a profile
        cannot be weighed by the base's text."""
        return any(rule.kind in READS_OTHERS and not rule.divides for rule in self.rules)


def profile_dirs(sources: Path | None) -> list[tuple[Path, Path]]:
    """Profiles in the edition's `sources/profiles/` come first, then the built-in ones; each
    folder with the folder its files must resolve inside (the sources themselves for
    `profiles/`, which may be a link)."""
    dirs = [(sources / "profiles", sources)] if sources is not None else []
    return dirs + [(built_in("profiles"), built_in("profiles"))]


def built_in(folder: str) -> Path:
    return Path(str(resources.files("edition.intake") / folder))


def load_profile(name: str, sources: Path | None = None) -> Profile:
    """A profile by name, from the first profile folder that has it; the file must resolve, after
    symlinks, inside that folder."""
    if not NAME.fullmatch(name):
        raise EditionError(None, f"bad layout profile name {name!r}: letters, digits, '_' or '-' only")
    for directory, bound in profile_dirs(sources):
        path = directory / f"{name}.toml"
        if path.is_file():
            if not path.resolve().is_relative_to(bound.resolve()):
                raise EditionError(path, f"layout profile {name!r} resolves outside {bound} (to {path.resolve()})")
            doc, lines = read_toml(path, "profile")
            return Profile(name, doc.get("description", ""), compose(doc, lines, path, ()))
    raise EditionError(None, f"unknown layout profile {name!r} (known: {', '.join(available_profiles(sources))})")


def compose(doc: dict, lines: TomlLines, path: Path, using: tuple[str, ...]) -> tuple[Rule, ...]:
    """The rules of a profile or feature, each feature it uses expanded at its place; `using`: the
    features being expanded, outermost first."""
    rules: list[Rule] = []
    for i, table in enumerate(doc["rule"]):
        line = lines.line(("rule", i))
        if "feature" not in table:
            rule = Rule.from_table(table, str(path), line)
            rules.append(replace(rule, name=f"{using[-1]}:{rule.name}") if using else rule)
            continue
        name = table["feature"]
        if name in using:
            raise EditionError(path, f"feature {name!r} uses itself (through {' → '.join(using)})", line)
        feature = built_in("features") / f"{name}.toml"
        if not feature.is_file():
            known = ", ".join(sorted(p.stem for p in built_in("features").glob("*.toml")))
            raise EditionError(path, f"unknown feature {name!r} (known: {known})", line)
        feature_doc, feature_lines = read_toml(feature, "feature")
        rules += compose(feature_doc, feature_lines, feature, (*using, name))
    return tuple(rules)


def available_profiles(sources: Path | None = None) -> list[str]:
    return sorted({p.stem for d, _ in profile_dirs(sources) if d.is_dir() for p in d.glob("*.toml")})


def apply_pattern(layering: Layering, rule: Rule, limit: TimeLimit) -> None:
    for text, start, end, to_raw in layering.views(rule):
        for match in limit.finditer(rule.pattern, text, start, end, to_raw):
            if match.end() == match.start():
                continue
            first, last = to_raw(match.start()), to_raw(match.end() - 1) + 1
            claimable = layering.spans(rule.within, first, last) if rule.across else [(first, last)]
            pieces = [(first, last, rule.layer)] if rule.layer else []
            for group in rule.pattern.groupindex:
                pieces += [(to_raw(a), to_raw(b - 1) + 1, group.split("__")[0]) for a, b in match.spans(group) if b > a]
            for a, b, layer in pieces:
                parts = [(max(a, c), min(b, d)) for c, d in claimable if max(a, c) < min(b, d)]
                for number, (c, d) in enumerate(parts):
                    layering.assign(c, d, layer, rule, join=number > 0)


def split_layers(
    raw: RawText,
    profile: Profile,
    extra_rules: tuple[Rule, ...] = (),
    reference: alignment_rule.References = None,
) -> list[Segment]:
    """Apply a witness's own rules (repairs), then its profile; fail if anything is left over.
    `reference`: the other witnesses' classic text, for rules of kind `alignment`."""
    return layered(raw, profile, extra_rules, reference).segments()


def layered(
    raw: RawText,
    profile: Profile,
    extra_rules: tuple[Rule, ...] = (),
    reference: alignment_rule.References = None,
) -> Layering:
    """The layering of split_layers, with the stretches its rules of kind `alignment` left undecided."""
    layering = Layering(raw)
    format_rule = Rule("line-end", "pattern", (), "format")
    if raw.has_bom:
        layering.assign(0, 1, "format", format_rule)
    for rule in (*extra_rules, *profile.rules):
        if rule.kind in READS_OTHERS:
            {"alignment": alignment_rule.apply, "attestation": attestation.apply}[rule.kind](layering, rule, reference)
            continue
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
    return layering
