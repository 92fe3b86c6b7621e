"""The 單疏本 of 賈公彥's 疏 (卷一–三, 士冠禮) read into quotations and placed on SBCK, checked by hand
against SBCK's text (sources/SBCK/KR1d0026_001.txt)."""

from edition.collation.quotation_order import BaseLayers, attested
from edition.traditions.yili.subcommentary_quotations import FIRST, LAST, PHRASE, WHOLE, formulas, report


def lemma(placement, words: str, layer: str, nth: int = 0) -> list:
    """The placed quotes of the nth lemma whose words (X至Y, or whole) are `words`."""
    found = {}
    for p in placement.placed:
        if p.quote.layer == layer and p.quote.role != PHRASE:
            found.setdefault(p.quote.comment, []).append(p)
    matches = [ps for ps in found.values() if "至".join(p.quote.text for p in ps) == words or ps[0].quote.text == words]
    return matches[nth]


def passage(guanli, placed) -> str:
    base = BaseLayers.of(guanli.base)
    return base.own(placed[0].quote.layer, *placed[0].passage)


def test_the_chapter_is_found_by_its_heading(shu_guanli):
    edition = shu_guanli.edition
    assert list(edition.chapters) == [1]
    chapter = edition.chapters[1]
    assert (chapter.title, chapter.juan) == ("士冠禮", [1, 2, 3])
    assert chapter.comments[0].title.startswith("士冠禮第一　鄭目録云")
    assert [c.title for c in chapter.comments[1:3]] == ["儀禮", "鄭氏注"]  # the book's title, the 注's name
    assert edition.lost == []


def test_every_formula_has_its_reason():
    import tomllib

    from edition.traditions.yili.subcommentary_quotations import DATA

    doc = tomllib.loads(DATA.read_text(encoding="utf-8"))
    for table in ("layout", "juan", "chapter", "comment", "placement"):
        for key, value in doc[table].items():
            if not key.endswith("_reason") and not isinstance(value, list | dict):
                assert f"{key}_reason" in doc[table], f"{table}.{key}"
    assert all(p["reason"] for p in doc["phrase"])
    assert formulas().first == 2


def test_lemmata_of_the_classic_on_sbck(guanli, shu_guanli):
    """X至Y: the first words where a passage of the 經 begins, the last where it ends (by hand)."""
    placement = shu_guanli.placement
    expected = {
        "士冠至廟門": "士冠禮筮于廟門",
        "主人至西面": "主人玄冠朝服緇帶素韠即位于門東西面",
        "有司至北上": "有司如主人服即位於西方東面北上",
        "筮與至西塾": "筮與席所卦者具饌于西塾",
        "布席至西面": "布席于門中闑西閾外西面",
        "筮人至主人": "筮人執筴抽上韇兼執之進受命於主人",
        "主人受眡反之": "主人受眡反之",
    }
    for words, text in expected.items():
        placed = lemma(placement, words, "classic")
        assert passage(guanli, placed) == text, words
        assert [p.quote.role for p in placed] == ([WHOLE] if "至" not in words else [FIRST, LAST])
        assert all(p.span.exact and not p.differs for p in placed)
    first, last = lemma(placement, "主人至西面", "classic")
    assert (first.base_text, last.base_text) == ("主人", "西面")
    assert (first.quote.file, first.quote.line) == ("KR1d0027_001.txt", 124)
    assert first.span.t0 == first.passage[0] and last.span.t1 == first.passage[1]
    # 卷二 opens with 陳服至北上, under the title and the compilers' line
    opening = lemma(placement, "陳服至北上", "classic")
    assert passage(guanli, opening).startswith("陳服于房中") and opening[0].quote.line == 8


def test_quotations_of_the_commentary_on_sbck(guanli, shu_guanli):
    placement = shu_guanli.placement
    zhu = lemma(placement, "筮者至廟神", "commentary")
    assert (
        passage(guanli, zhu)
        == "筮者以&KR0433;問日吉凶於易也冠必筮日於廟門者重以成人之禮成子孫也廟謂禰廟不於堂者嫌蓍之靈由廟神"
    )
    assert passage(guanli, lemma(placement, "闑門至爲蹙", "commentary")) == "闑門橛閾閫也古文闑爲&KR0527;閾爲蹙"
    whole = lemma(placement, "逺日旬之外", "commentary")
    assert [p.quote.role for p in whole] == [WHOLE] and whole[0].base_text == "逺日旬之外"
    phrase = next(p for p in placement.placed if p.quote.role == PHRASE and p.quote.text == "易曰六畫而成卦")
    assert phrase.quote.layer == "commentary" and phrase.span.exact
    assert (
        BaseLayers.of(guanli.base).own("commentary", phrase.span.t0 - 9, phrase.span.t1)
        == "所卦者所以畫地記爻易曰六畫而成卦"
    )


def test_words_taken_up_that_hold_zhe_are_quoted_whole(shu_guanli):
    """云載合升者明亨與載皆合左右胖者 (卷二, line 93): the words taken up run past their own 者, and are
    quoted whole as well as up to it, and placed on the 注 that reads them."""
    placed = {p.quote.text for p in shu_guanli.placement.placed if p.quote.role == PHRASE}
    assert {"載合&KR0155;", "載合&KR0155;者明亨與載皆合左右胖"} <= placed


def test_where_the_subcommentary_reads_otherwise(shu_guanli):
    """SBCK's 注 reads 素韠曰韋韠 and 柶狀如七; the 單疏本 quotes 素韠白韋韠 and 柶狀如匕 (云…者)."""
    placed = {p.quote.text: p for p in shu_guanli.placement.placed if p.quote.role == PHRASE}
    white = placed["素韠白韋韠"]
    assert (white.base_text, white.differs, white.quote.layer) == ("素韠曰韋韠", True, "commentary")
    assert white.span.similarity == 0.8 and (white.quote.file, white.quote.line) == ("KR1d0027_001.txt", 158)
    spoon = placed["柶狀如匕以角爲之"]
    assert spoon.base_text == "柶狀如七以角爲之" and spoon.differs
    # as evidence: of a unit over SBCK's 曰 that reads 曰 or 白, the quotation attests 白
    base = BaseLayers.of(shu_guanli.base)
    t = white.span.t0 + 2
    assert base.texts["commentary"][t] == "曰"
    assert attested(white.quote.norm, white.span, base.texts["commentary"], t, t + 1, {"曰", "白"}) == ["白"]


def test_what_is_not_placed_says_why(shu_guanli):
    unplaced = {(u.quote.text, u.quote.role): u.reason for u in shu_guanli.placement.unplaced}
    # SBCK has lost a leaf (# page missing) where 兄弟畢袗玄 stands
    assert "lost a leaf" in unplaced[("兄弟", FIRST)]
    assert any("another book or another place" in r for (_, role), r in unplaced.items() if role == PHRASE)
    counts = shu_guanli.placement.counts()
    assert counts["lemma_placed"] + counts["lemma_unplaced"] == counts["lemma_quotes"]
    assert counts["lemma_placed"] >= 0.85 * counts["lemma_quotes"]
    summary = report(shu_guanli.placement)
    assert summary["chapter"] == 1 and len(summary["unplaced"]) == len(shu_guanli.placement.unplaced)
