"""Reading the edition's data files: UTF-8 text read strictly, TOML documents validated against
the one declared schema of the sources (`schemas/sources.schema.json`), TSV tables with a header
row and '#' comment lines. Every problem is a one-line error naming the file and line."""

from __future__ import annotations

import codecs
import json
import math
import tomllib
import unicodedata
from functools import cache
from importlib import resources
from pathlib import Path

import jsonschema
import regex

from .errors import EditionError, SourceErrors

# The schemas (RelaxNG, Schematron, JSON) ship inside the package; schemas/ in the repository links here.
SCHEMAS = Path(str(resources.files("edition") / "schemas"))
SCHEMA_PATH = SCHEMAS / "sources.schema.json"
# Characters that are not text: controls (but tab and line ends), surrogates, noncharacters.
NOT_TEXT = regex.compile(r"[^\P{Cc}\t\n\r]|\p{Cs}|\p{Noncharacter_Code_Point}")
SIGLUM = regex.compile(r"[\p{L}\p{N}][\p{L}\p{N}_-]{0,31}")
NAME = regex.compile(r"[\p{L}\p{N}][\p{L}\p{N}_-]{0,63}")
# A file or folder name of the sources: one path component, not hidden, of text characters.
FILE_NAME = regex.compile(r"(?![.])[^/\\\p{Cc}\p{Cs}\p{Noncharacter_Code_Point}]+")


# What text stands for when printed: a line or paragraph separator (copied from a web page) is
# whitespace, a format character (a zero-width space, a direction mark, a soft hyphen) nothing.
SEPARATOR = regex.compile(r"[\p{Zl}\p{Zp}]")
FORMAT = regex.compile(r"\p{Cf}")


def printable(text: str) -> str:
    """The text as XML, HTML and LaTeX are to hold it: separators as spaces, format characters left out."""
    return FORMAT.sub("", SEPARATOR.sub(" ", text))


def describe_not_text(char: str) -> str:
    kind = "control character" if unicodedata.category(char) == "Cc" else "noncharacter"
    return f"U+{ord(char):04X}, a {kind}"


CONTEXT = regex.compile(r"[^\[\]]*\[[^\[\]]*\][^\[\]]*")


def read_text(path: Path) -> str:
    """A data file's text: strict UTF-8 (a BOM is allowed), or an error naming the line."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise EditionError(path, f"cannot read ({exc.strerror})") from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise EditionError(path, f"not valid UTF-8 (byte 0x{data[exc.start]:02x})", line) from None


def is_text_encoding(name: str) -> bool:
    try:
        return codecs.lookup(name)._is_text_encoding
    except LookupError:
        return False


def compiles(pattern: str) -> bool:
    try:
        regex.compile(pattern, regex.VERSION0)
    except regex.error:
        return False
    return True


FORMATS = {
    "siglum": (
        lambda v: bool(SIGLUM.fullmatch(v)),
        "a siglum of 1 to 32 letters, digits, '_' or '-', starting with a letter or digit",
    ),
    "name": (
        lambda v: bool(NAME.fullmatch(v)),
        "a name of letters, digits, '_' or '-', starting with a letter or digit",
    ),
    "line": (lambda v: "\n" not in v and not NOT_TEXT.search(v), "one line of text without control characters"),
    "text": (lambda v: not NOT_TEXT.search(v), "text without control characters"),
    "file-name": (
        lambda v: bool(FILE_NAME.fullmatch(v)),
        "a file name in the folder itself: no '/' or '\\', not starting with '.', no control characters",
    ),
    "encoding": (is_text_encoding, "a text encoding such as utf-8, gb18030 or big5"),
    "regex": (compiles, "a pattern of the regex module"),
    "context": (lambda v: bool(CONTEXT.fullmatch(v)), "text with the characters concerned in one pair of [brackets]"),
    "finite": (lambda v: not isinstance(v, float) or math.isfinite(v), "a finite number"),
}


@cache
def validator() -> jsonschema.Draft202012Validator:
    schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    checker = jsonschema.FormatChecker(formats=())
    for name, (check, _) in FORMATS.items():
        checker.checks(name)(lambda value, check=check: not isinstance(value, (str, float)) or check(value))
    return jsonschema.Draft202012Validator(schema, format_checker=checker)


class TomlLines:
    """Where each table and key of a TOML document starts, by its path in the parsed document
    (array-of-tables entries by index), so that a violation can name its line."""

    HEADER = regex.compile(r"\s*(\[\[?)\s*([^\]]+?)\s*\]\]?\s*(?:#.*)?$")
    KEY = regex.compile(r"\s*([\w-]+|\"[^\"]*\"|'[^']*')\s*(?:\.|=)")

    def __init__(self, source: str):
        self.lines: dict[tuple, int] = {}
        counts: dict[tuple, int] = {}
        latest: dict[tuple, tuple] = {}  # a table's dotted name -> its path, indices included
        table: tuple = ()
        multiline = None
        for number, text in enumerate(source.splitlines(), 1):
            if multiline:
                if text.count(multiline) % 2:
                    multiline = None
                continue
            header = self.HEADER.match(text)
            if header:
                names = tuple(n.strip().strip("\"'") for n in header.group(2).split("."))
                table = latest.get(names[:-1], names[:-1]) + names[-1:]
                if header.group(1) == "[[":
                    counts[table] = counts.get(table, -1) + 1
                    table += (counts[table],)
                latest[names] = table
                self.lines.setdefault(table, number)
                continue
            key = self.KEY.match(text)
            if key:
                self.lines.setdefault(table + (key.group(1).strip("\"'"),), number)
                for quote in ('"""', "'''"):
                    if text.count(quote) % 2:
                        multiline = quote

    def line(self, path) -> int | None:
        path = tuple(path)
        while path:
            if path in self.lines:
                return self.lines[path]
            path = path[:-1]
        return None


TYPE_NAMES = {
    "string": "text",
    "number": "a number",
    "integer": "a whole number",
    "boolean": "true or false",
    "array": "a list",
    "object": "a table",
}


def field_name(path) -> str:
    """`witness 3, title` for the path ['witness', 2, 'title']."""
    parts: list[str] = []
    for part in path:
        if isinstance(part, int) and parts:
            parts[-1] = f"{parts[-1]} {part + 1}"
        else:
            parts.append(str(part))
    return ", ".join(parts) or "the document"


def value_at(document, path):
    for part in path:
        document = document[part]
    return document


def shown(value) -> str:
    text = json.dumps(value, ensure_ascii=False) if not isinstance(value, float) else repr(value)
    return text if len(text) <= 40 else text[:37] + "…"


def expected(error: jsonschema.ValidationError) -> str:
    """What the schema expected, in words."""
    kind, schema = error.validator, error.validator_value
    if kind == "type":
        return TYPE_NAMES.get(schema, schema)
    if kind == "enum":
        return "one of " + ", ".join(str(v) for v in schema)
    if kind == "const":
        return shown(schema)
    if kind in ("minimum", "maximum"):
        low, high = error.schema.get("minimum"), error.schema.get("maximum")
        return (
            f"a number from {low} to {high}"
            if low is not None and high is not None
            else f"a number {'≥' if kind == 'minimum' else '≤'} {schema}"
        )
    if kind == "minLength":
        return "a text that is not empty"
    if kind == "format":
        return FORMATS[schema][1]
    if kind == "pattern":
        return f"text matching {schema}"
    if kind == "anyOf":
        options = [
            s.get("const") or " or ".join(s.get("enum", ())) or s.get("$ref", "").rsplit("/", 1)[-1] for s in schema
        ]
        return "one of " + ", ".join(str(o) for o in options)
    return error.message


def describe(error: jsonschema.ValidationError, document) -> tuple[list, str]:
    """The path of the offending field and what is wrong with it."""
    path = list(error.absolute_path)
    if error.validator == "required":
        missing = regex.match(r"'(.+)' is a required property", error.message).group(1)
        if not path:
            table = f"[[{missing}]]" if error.schema["properties"][missing].get("type") == "array" else f"[{missing}]"
            return path, f"no {table} in the file"
        return path, f"{field_name(path)} lacks field {missing!r}"
    if error.validator == "additionalProperties":
        known = set(error.schema.get("properties", {}))
        patterns = [regex.compile(p) for p in error.schema.get("patternProperties", {})]
        unknown = [k for k in error.instance if k not in known and not any(p.search(k) for p in patterns)]
        hint = (
            f"known: {', '.join(sorted(known))}"
            if known
            else "expected a chapter number from 1"
            if "^[1-9][0-9]*$" in error.schema.get("patternProperties", {})
            else f"expected names matching {', '.join(error.schema.get('patternProperties', {}))}"
        )
        return path + unknown[:1], f"{field_name(path)}: unknown field(s) {', '.join(map(repr, unknown))} ({hint})"
    if error.validator == "minItems" and path == ["witness"]:
        return path, "no [[witness]] in the file"
    if error.validator == "not" and "$comment" in error.schema:  # a field the schema forbids here, saying why
        return path, f"{field_name(path)}: {error.schema['$comment']}"
    if error.validator is None:  # a field that the schema forbids here (`false`)
        rule = value_at(document, path)
        key = next(k for k, v in rule.items() if v == error.instance)
        return path + [
            key
        ], f"{field_name(path + [key])}: not a field of a rule of kind {rule.get('kind', 'pattern')!r}"
    return path, f"{field_name(path)}: expected {expected(error)}, found {shown(error.instance)}"


def violations(path: Path, source: str, document: dict, kind: str) -> list[EditionError]:
    lines = TomlLines(source)
    schema = validator().schema["properties"][kind]
    found = {}
    for error in validator().evolve(schema=schema).iter_errors(document):
        where, message = describe(error, document)
        found.setdefault(message, lines.line(where) or 1)
    return [EditionError(path, message, line) for message, line in sorted(found.items(), key=lambda item: item[1])]


def read_toml(path: Path, kind: str | None = None) -> tuple[dict, TomlLines]:
    """A TOML file parsed and, when `kind` names its part of the schema, validated: every
    violation is raised together, the first one as the error's own line."""
    source = read_text(path)
    try:
        document = tomllib.loads(source)
    except tomllib.TOMLDecodeError as exc:
        line = regex.search(r"line (\d+)", str(exc))
        raise EditionError(path, f"invalid TOML: {exc}", int(line.group(1)) if line else None) from None
    if kind is not None:
        found = violations(path, source, document, kind)
        if found:
            raise SourceErrors(found)
    if path.name in PRINTED_FILES:
        document = printed_values(document)
    return document, TomlLines(source)


# The TOML sources whose text is printed (titles, headings, names, notes, reasons): read as
# `printable`, but for the patterns of a witness's repair rules (`rule`).
PRINTED_FILES = ("work.toml", "edition.toml", "chapter.toml", "witnesses.toml", "decisions.toml")


def printed_values(value):
    if isinstance(value, str):
        return printable(value)
    if isinstance(value, list):
        return [printed_values(v) for v in value]
    if isinstance(value, dict):
        return {k: v if k == "rule" else printed_values(v) for k, v in value.items()}
    return value


def read_tsv(path: Path, columns: tuple[str, ...]) -> list[tuple[int, dict[str, str]]]:
    lines = read_text(path).splitlines()
    rows: list[tuple[int, dict[str, str]]] = []
    header: list[str] | None = None
    for number, text in enumerate(lines, 1):
        if not text.strip() or text.startswith("#"):
            continue
        if NOT_TEXT.search(text):
            raise EditionError(
                path, f"control character U+{ord(NOT_TEXT.search(text).group()):04X} in the table", number
            )
        cells = text.split("\t")
        if header is None:
            header = cells
            missing = [c for c in columns if c not in header]
            if missing:
                raise EditionError(path, f"table lacks column(s) {', '.join(missing)}", number)
            continue
        if len(cells) != len(header):
            raise EditionError(path, f"expected {len(header)} tab-separated cells, found {len(cells)}", number)
        rows.append((number, dict(zip(header, cells))))
    return rows


MACRO = regex.compile(r"\{([A-Z]+)\}")


def expand_macros(pattern: str, macros: dict[str, str]) -> str:
    """A data file's pattern with each `{NAME}` replaced by its macro, as a group (macros may use
    macros)."""
    while MACRO.search(pattern):
        pattern = MACRO.sub(lambda m: f"(?:{macros[m.group(1)]})", pattern)
    return pattern
