"""The CJK face the edition is set in: declared in the TEI from the work's settings (`glyphs`, by
default the glyphs of the edition's script), and used by the PDF and the site alike (issue 40)."""

from __future__ import annotations

from fontTools.ttLib import TTFont
from lxml import etree
from texts import NS

from edition.settings import EditionConfig, cjk_face


def test_the_face_follows_the_script_unless_the_work_chooses_its_glyphs():
    config = EditionConfig("儀禮", "SBCK", "simplified")
    assert cjk_face(config) == "Noto Serif CJK TC"  # a traditional edition: Taiwan's glyphs
    assert cjk_face(EditionConfig("儀禮", "SBCK", "simplified", script="simplified")) == "Noto Serif CJK SC"
    assert cjk_face(EditionConfig("儀禮", "SBCK", "simplified", glyphs="HK")) == "Noto Serif CJK HK"
    assert cjk_face(EditionConfig("儀禮", "SBCK", "simplified", glyphs="SC")) == "Noto Serif CJK SC"  # by choice


def test_the_tei_declares_the_face_and_the_pdf_and_the_site_are_set_in_it(built):
    """鄉射禮, a traditional edition: Noto Serif CJK TC in the TEI's tagsDecl, the PDF's fonts and
    the site's subset of Noto."""
    doc = etree.parse(str(built / "edition.xml"))
    (declared,) = doc.xpath("//t:encodingDesc/t:tagsDecl/t:rendition[@xml:id='r-face']/text()", namespaces=NS)
    assert declared == 'font-family: "Noto Serif CJK TC"'
    # the faces of the collection share one PostScript name: the typeset source says which
    assert r"\setCJKmainfont{Noto Serif CJK TC}" in (built / "pdf" / "edition.tex").read_text(encoding="utf-8")
    cut = TTFont(str(built / "site" / "fonts" / "NotoSerifCJK-Regular-subset.woff2"))
    assert cut["name"].getDebugName(1) == "Noto Serif CJK TC"
