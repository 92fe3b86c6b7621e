"""MkDocs hook: the manual's reference pages, generated from what the toolchain itself reads.

`reference/sources.md` is written from the JSON schema of the sources (`schemas/sources.schema.json`):
every file, property, type, enum and `$comment`. `reference/features.md` is written from the
layout features (`edition/intake/features/*.toml`): each feature's description, rules and
`[detect]` table, with the profiles and features that use it. Neither page is committed: MkDocs
adds them to the build (`on_files`), so they cannot drift from the schema and the features.
"""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCHEMA = ROOT / "edition" / "schemas" / "sources.schema.json"
FEATURES = ROOT / "edition" / "intake" / "features"
PROFILES = ROOT / "edition" / "intake" / "profiles"

SOURCES_PAGE = "reference/sources.md"
FEATURES_PAGE = "reference/features.md"

TYPES = {
    "object": "table",
    "array": "array",
    "string": "string",
    "integer": "integer",
    "number": "number",
    "boolean": "boolean",
}


def code(value) -> str:
    """`value` as a Markdown code span, whatever backticks it holds."""
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    text = text.replace("\n", "\\n")
    fence = "`" * (max((len(run) for run in re.findall(r"`+", text)), default=0) + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def escape(text: str) -> str:
    """Prose from a data file, with the characters that Markdown would read as HTML escaped
    outside its code spans."""
    pieces = re.split(r"(`+[^`]*`+)", text)
    return "".join(
        piece if index % 2 else piece.replace("&", "&amp;").replace("<", "&lt;") for index, piece in enumerate(pieces)
    )


def slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


def codes(names) -> str:
    return ", ".join(code(name) for name in names)


# The sources reference


def _ref(ref: str) -> str:
    name = ref.rsplit("/", 1)[-1]
    return f"[{name}](#def-{slug(name)})"


def _summary(schema) -> str:
    """One line for a schema: its type, values and constraints, and its `$comment`."""
    if schema is False or (isinstance(schema, dict) and schema.get("not") == {}):
        text = "not allowed"
        return f"{text} ({escape(schema['$comment'])})" if isinstance(schema, dict) and "$comment" in schema else text
    if schema is True or schema == {}:
        return "anything"
    parts = []
    if "$ref" in schema:
        parts.append(_ref(schema["$ref"]))
    if "const" in schema:
        parts.append(f"exactly {code(schema['const'])}")
    if "enum" in schema:
        parts.append("one of " + codes(schema["enum"]))
    if "type" in schema:
        parts.append(TYPES.get(schema["type"], schema["type"]))
    for key, words, noun in (
        ("minLength", "at least", "character"),
        ("maxLength", "at most", "character"),
        ("minimum", "from", ""),
        ("maximum", "up to", ""),
        ("minItems", "at least", "item"),
        ("minProperties", "at least", "key"),
    ):
        if key in schema:
            count = schema[key]
            noun = f" {noun}{'' if count == 1 else 's'}" if noun else ""
            parts.append(f"{words} {count}{noun}")
    if schema.get("uniqueItems"):
        parts.append("no item twice")
    if "format" in schema:
        parts.append(f"format {code(schema['format'])}")
    if "pattern" in schema:
        parts.append(f"matching {code(schema['pattern'])}")
    if "items" in schema:
        parts.append("of: " + _summary(schema["items"]))
    plain = [part for part in schema.get("allOf", []) if "if" not in part]
    if plain:
        parts.append(" and ".join(_summary(part) for part in plain))
    if "anyOf" in schema:
        parts.append(" or ".join(_summary(part) for part in schema["anyOf"]))
    unlisted = [name for name in schema.get("required", []) if name not in schema.get("properties", {})]
    if unlisted:
        parts.append("requires " + codes(unlisted))
    if schema.get("additionalProperties") is False:
        parts.append("no other keys")
    text = ", ".join(part for part in parts if part) or (
        "table" if "properties" in schema else "as below" if "if" in schema else "anything"
    )
    if "$comment" in schema:
        text += f": {escape(schema['$comment'])}"
    return text


def _condition(schema: dict) -> str:
    consts = {name: sub["const"] for name, sub in schema.get("properties", {}).items() if "const" in sub}
    parts = [f"{code(name)} is {code(value)}" for name, value in consts.items()]
    parts += [f"{code(name)} is given" for name in schema.get("required", []) if name not in consts]
    parts += [f"{code(name)} is not given" for name in schema.get("not", {}).get("required", [])]
    return " and ".join(parts) or "always"


def _consequence(schema: dict) -> str:
    parts = []
    if "$ref" in schema:
        parts.append("as " + _ref(schema["$ref"]))
    if "required" in schema:
        parts.append("requires " + codes(schema["required"]))
    properties = schema.get("properties", {})
    banned = [name for name, sub in properties.items() if _summary(sub).startswith("not allowed")]
    if banned:
        parts.append(
            "does not allow "
            + ", ".join(_summary(properties[name]).replace("not allowed", code(name)) for name in banned)
        )
    parts += [f"{code(name)}: {_summary(sub)}" for name, sub in properties.items() if name not in banned]
    return "; ".join(parts) or "nothing more"


def _conditions(schema: dict) -> list[dict]:
    own = [schema] if "if" in schema else []
    return own + [part for part in schema.get("allOf", []) if "if" in part]


def _inner(schema):
    """The table a property holds, where it describes one in place (not by `$ref`)."""
    if not isinstance(schema, dict):
        return None
    if "items" in schema:
        return _inner(schema["items"])
    if any(key in schema for key in ("properties", "patternProperties", "propertyNames")):
        return schema
    return None


def _entries(schema: dict, depth: int = 0) -> list[str]:
    """Bullets for the keys of a table, nested, and for the conditions on it."""
    indent = "    " * depth
    lines = []
    required = set(schema.get("required", []))
    for name, sub in schema.get("properties", {}).items():
        mark = " (required)" if name in required else ""
        lines.append(f"{indent}- {code(name)}{mark}: {_summary(sub)}")
        inner = _inner(sub)
        if inner is not None:
            lines += _entries(inner, depth + 1)
    for pattern, sub in schema.get("patternProperties", {}).items():
        lines.append(f"{indent}- keys matching {code(pattern)}: {_summary(sub)}")
    if isinstance(schema.get("additionalProperties"), dict):
        lines.append(f"{indent}- any key: {_summary(schema['additionalProperties'])}")
    if "propertyNames" in schema:
        lines.append(f"{indent}- every key: {_summary(schema['propertyNames'])}")
    for part in _conditions(schema):
        condition = _condition(part["if"])
        if "$comment" in part["if"]:
            condition += f" ({escape(part['if']['$comment'])})"
        line = f"{indent}- if {condition}: {_consequence(part.get('then', {}))}"
        if "else" in part:
            line += f"; otherwise: {_consequence(part['else'])}"
        lines.append(line)
    return lines


def _section(level: str, title: str, anchor: str, schema) -> list[str]:
    lines = [f"{level} {code(title)} {{#{anchor}}}", "", _summary(schema) + ".", ""]
    entries = _entries(_inner(schema) or schema) if isinstance(schema, dict) else []
    return lines + (entries + [""] if entries else [])


def sources_reference(schema: dict | None = None) -> str:
    """The sources reference page, in Markdown, from the schema of the sources."""
    if schema is None:
        schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    lines = [
        "# Sources reference",
        "",
        "Generated from `schemas/sources.schema.json` when the manual is built; the same schema "
        "checks the sources (`edition check`, and every build). See [the sources](../sources.md) "
        "for what the files are for.",
        "",
        escape(schema["description"]),
        "",
        "## Files",
        "",
    ]
    for name, sub in schema["properties"].items():
        lines += _section("###", name, f"file-{slug(name)}", sub)
    lines += ["## Definitions", "", "What the files above refer to by name.", ""]
    for name, sub in schema["$defs"].items():
        lines += _section("###", name, f"def-{slug(name)}", sub)
    return "\n".join(lines)


# The features reference


def _toml(path: Path) -> dict:
    return tomllib.loads(path.read_text(encoding="utf-8"))


def _value(value) -> str:
    if isinstance(value, list):
        return codes(value)
    if isinstance(value, dict):
        return ", ".join(f"{key} = {code(item)}" for key, item in value.items())
    return code(value)


def _rule(rule: dict) -> str:
    if "feature" in rule:
        return f"the feature [{code(rule['feature'])}](#{slug(rule['feature'])})"
    rest = [f"{key} {_value(value)}" for key, value in rule.items() if key != "name"]
    return f"**{rule['name']}**" + (": " + "; ".join(rest) if rest else "")


def _detect(detect: dict) -> str:
    parts = [escape(detect["words"])]
    if "pattern" in detect:
        flags = f" (flags {code(detect['flags'])})" if "flags" in detect else ""
        least = detect.get("min", 1)
        parts.append(f"pattern {code(detect['pattern'])}{flags}, at least {least} match{'' if least == 1 else 'es'}")
    if "with" in detect:
        parts.append("only with " + ", ".join(f"[{code(name)}](#{slug(name)})" for name in detect["with"]))
    if "unless" in detect:
        parts.append("not with " + ", ".join(f"[{code(name)}](#{slug(name)})" for name in detect["unless"]))
    return "; ".join(parts)


def features_reference(features: Path = FEATURES, profiles: Path = PROFILES) -> str:
    """The features reference page, in Markdown, from the features' own TOML."""
    found = {path.stem: _toml(path) for path in sorted(features.glob("*.toml"))}
    users: dict[str, list[str]] = {name: [] for name in found}
    for kind, _folder, tables in (
        ("profile", profiles, {path.stem: _toml(path) for path in sorted(profiles.glob("*.toml"))}),
        ("feature", features, found),
    ):
        for name, table in tables.items():
            for rule in table["rule"]:
                if rule.get("feature") in users:
                    link = code(name) if kind == "profile" else f"[{code(name)}](#{slug(name)})"
                    users[rule["feature"]].append(f"{kind} {link}")
    lines = [
        "# Features reference",
        "",
        "Generated from `edition/intake/features/*.toml` when the manual is built: each feature's "
        "own description, its rules in order, how `edition add-witness` tells it in a file "
        "(`[detect]`), and the built-in profiles and features that use it. See "
        "[profiles and features](../profiles.md) for how rules and features work.",
        "",
    ]
    for name, table in found.items():
        lines += [f"## {code(name)} {{#{slug(name)}}}", "", escape(table.get("description", "").strip()), ""]
        lines += ["Rules, in order:", ""]
        lines += [f"{number}. {_rule(rule)}" for number, rule in enumerate(table["rule"], 1)]
        lines.append("")
        if "detect" in table:
            lines += [f"Detected: {_detect(table['detect'])}.", ""]
        else:
            lines += ["Not detected by itself: a profile or feature names it.", ""]
        if users[name]:
            lines += ["Used by: " + ", ".join(users[name]) + ".", ""]
    return "\n".join(lines)


def pages() -> dict[str, str]:
    """The generated pages: their path in the manual and their Markdown."""
    return {SOURCES_PAGE: sources_reference(), FEATURES_PAGE: features_reference()}


def on_files(files, config):
    from mkdocs.structure.files import File

    for path, content in pages().items():
        files.append(File.generated(config, path, content=content))
    return files
