"""The reading types are listed once (edition/vocabulary.py): the Schematron, the site's styles and
its message catalogue say the same (issue 36)."""

from __future__ import annotations

import tomllib
from importlib import resources

import regex
from lxml import etree

from edition.tables import SCHEMAS
from edition.vocabulary import APP_ORDER, FORM_ONLY, TELLING, ReadingType

SCH = {"sch": "http://purl.oclc.org/dsdl/schematron"}
PUBLICATION = resources.files("edition.publication")


def test_the_schematron_allows_exactly_the_reading_types():
    document = etree.parse(str(SCHEMAS / "edition.sch"))
    test = document.xpath("//sch:rule[@context = 'tei:rdg[@type]']/sch:assert[1]/@test", namespaces=SCH)[0]
    assert set(regex.findall(r"@type = '([a-z-]+)'", test)) == set(ReadingType)


def test_the_message_catalogue_names_every_reading_type():
    messages = tomllib.loads((PUBLICATION / "messages.toml").read_text(encoding="utf-8"))
    assert set(ReadingType) <= set(messages["type"])
    assert all({"zh-Hant", "en"} <= set(messages["type"][t]) for t in ReadingType)


def test_the_site_styles_every_type_a_marker_or_reading_shows():
    """Every type an entry's marker or a reading is coloured by (all but a fragment, which shows
    as the lemma it reads) has a style of its own."""
    css = (PUBLICATION / "static" / "site.css").read_text(encoding="utf-8")
    styled = set(regex.findall(r"\.(?:type|kind)-([a-z]+)", css))
    assert set(ReadingType) - {ReadingType.FRAGMENT} <= styled


def test_the_orders_and_series_are_of_reading_types_each_once():
    for listed in (APP_ORDER, TELLING, FORM_ONLY):
        assert len(set(listed)) == len(listed) and all(isinstance(t, ReadingType) for t in listed)
    assert not set(TELLING) & set(FORM_ONLY)
