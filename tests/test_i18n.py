"""The interface's languages: the catalog of its words (edition/publication/messages.toml) and the
language a site is written in, chosen by the sources."""

from __future__ import annotations

import string

import pytest
from conftest import simplified_only
from lxml import html as parser

from edition.publication.i18n import CATALOG_LANGUAGES, Messages, catalog, site_languages
from edition.settings import EditionConfig, interface_language


def fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def own_words(message: str) -> str:
    """A message's text without the words it marks as another language's (<span lang>)."""
    fragment = parser.fragment_fromstring(message, create_parent="div")
    for element in fragment.xpath(".//*[@lang]"):
        element.drop_tree()
    return fragment.text_content()


def test_every_message_is_in_both_languages_with_the_same_fields():
    assert len(catalog()) > 200
    for key, entry in catalog().items():
        assert set(entry) == set(CATALOG_LANGUAGES), key
        chinese, english = fields(entry["zh-Hant"]), fields(entry["en"])
        # The Chinese pages leave out the editors' English description of a witness (declared) and
        # the work's English title.
        assert chinese <= english and english - chinese <= {"declared", "title_en"}, key


def test_the_chinese_messages_are_in_traditional_script():
    for key, entry in catalog().items():
        assert not simplified_only(own_words(entry["zh-Hant"])), (key, simplified_only(own_words(entry["zh-Hant"])))


def test_a_simplified_interface_is_the_traditional_converted():
    assert Messages("zh-Hans").plain("nav.downloads") == "下载" and Messages("zh-Hant").plain("nav.downloads") == "下載"
    assert Messages("zh-Hans").plain("nav.variants") == "异体字表"


def test_messages_fill_their_fields_escaped_and_keep_their_markup():
    english = Messages("en")
    assert english("witness.title", siglum="<b>") == "Witness &lt;b&gt;"
    assert str(english("nav.jinguwen")) == '<span lang="zh-Hant">今文/古文</span>'
    assert english.plain("nav.jinguwen") == "今文/古文"
    assert english.code("layer", "classic") == "classic" and Messages("zh-Hant").code("layer", "classic") == "經"
    assert english.code("layer", "no-such-layer") == "no-such-layer"


def test_the_site_is_in_its_language_at_the_root_and_in_the_other_under_its_folder():
    chinese, english = site_languages("zh-Hant")
    assert (chinese.code, chinese.folder, english.code, english.folder) == ("zh-Hant", "", "en", "en")
    assert (
        chinese.switch("witnesses.html") == "en/witnesses.html"
        and english.switch("witnesses.html") == "../witnesses.html"
    )
    assert chinese.other.code == "en" and english.other.code == "zh-Hant"
    first, second = site_languages("en")
    assert (first.code, second.code, second.folder) == ("en", "zh-Hant", "zh")


@pytest.mark.parametrize(
    "language, script, expected",
    [("", "traditional", "zh-Hant"), ("", "simplified", "zh-Hans"), ("en", "traditional", "en")],
)
def test_the_language_is_the_configs_or_the_editions_script(language, script, expected):
    config = EditionConfig("儀禮", "SBCK", "simplified", script=script, language=language)
    assert interface_language(config) == expected


def test_the_sources_say_the_language(sources):
    assert sources.config.language == "zh-Hant" and sources.language == "zh-Hant"
