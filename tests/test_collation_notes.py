"""張淳's 儀禮識誤 (卷一, 士冠禮誤字) read into entries and placed on SBCK (and WYG), checked by hand
against the bases' text."""

from edition.collation.quotation_order import BaseLayers


def entry(chapter, heading: str):
    return next(e for e in chapter.entries if e.heading == heading)


def placed(placement, heading: str):
    return next(p for p in placement.placed if p.entry.heading == heading)


def around(witness, p, before: int, after: int) -> str:
    """The base's characters around an entry's target: before, [target], after."""
    base = BaseLayers.of(witness)
    t0, t1 = p.target
    return (
        base.own(p.layer, t0 - before, t0) + "[" + base.own(p.layer, t0, t1) + "]" + base.own(p.layer, t1, t1 + after)
    )


def test_the_entries_of_shiguanli(shiwu_guanli):
    edition = shiwu_guanli.edition
    assert sorted(edition.chapters) == [1, 2, 3, 4, 5, 6, 7, 8, 9]  # 卷一: 士冠禮 to 公食大夫禮
    assert edition.chapters[7].title == "大射儀" and edition.chapters[7].entries == []  # lost in the 四庫's source
    chapter = edition.chapters[1]
    assert [e.heading for e in chapter.entries] == [
        "眂", "撤", "染", "也", "&KR2093;", "以", "為篹", "為檐", "捷", "贄", "涖"
    ]  # fmt: skip
    zhi = entry(chapter, "贄")
    assert [(q.layer, q.text) for q in zhi.quotations] == [
        ("classic", "奠摯見于君遂以摯見于鄉大夫鄉先生"),
        ("commentary", "摯雉也"),
    ]
    assert zhi.judgement.startswith("按釋文云贄本又作摯") and zhi.follows == "釋文"
    assert (zhi.file, zhi.line) == ("KR1d0029_001.txt", 51)


def test_the_editors_remarks_are_kept_apart(shiwu_guanli):
    che = entry(shiwu_guanli.edition.chapters[1], "撤")
    assert [(q.layer, q.text) for q in che.quotations] == [("classic", "徹筮席"), ("commentary", "徹去也")]
    assert len(che.remarks) == 1 and che.remarks[0].text.startswith("案説文無撤字徹通徹去古皆用徹")
    assert che.remarks[0].text.endswith("撤疎矣")  # over three lines and a page, the columns' / taken out
    assert "案" not in che.judgement and che.judgement.endswith("宜皆作撤從釋文")


def test_placed_on_sbck_by_hand(guanli, shiwu_guanli):
    placement = shiwu_guanli.placement
    cases = {
        # heading: (layer, the base there, the base's reading, how)
        "眂": ("commentary", "其臣玄冕以[視]朔皮弁", "視", "named"),
        "撤": ("classic", "[徹]筮席", "徹", "neighbour"),
        "也": ("commentary", "天地之雜[色]", "色", "named"),
        "捷": ("commentary", "[扱]柶於醴中", "扱", "named"),
        "涖": ("classic", "吾子將[莅]之敢宿", "莅", "heading"),  # 莅 is a variant form of 涖 (Unihan)
        "染": ("commentary", "凡[染]絳一入", "染", "heading"),
    }
    for heading, (layer, there, reading, how) in cases.items():
        p = placed(placement, heading)
        before = there.index("[")
        after = len(there) - there.index("]") - 1
        assert (p.layer, around(guanli.base, p, before, after), p.base_reading, p.how) == (layer, there, reading, how)
        assert p.supports == heading and p.kind == "reading"
    # 眂: four 視 in the words quoted; the first is taken and the others named
    assert "the first of 4" in placed(placement, "眂").reason


def test_zhi_on_the_zhi_of_dian_zhi_jian_yu_jun(guanli, shiwu_guanli):
    """SBCK has lost the leaf of 奠摯見於君 (# page missing): the entry is reported; WYG has it."""
    unplaced = {u.entry.heading: u.reason for u in shiwu_guanli.placement.unplaced}
    assert "lost a leaf" in unplaced["贄"]
    p = placed(shiwu_guanli.on_wyg, "贄")
    assert (p.layer, around(guanli.wyg, p, 1, 3), p.supports) == ("classic", "奠[摯]見於君", "贄")
    assert "the first of 2" in p.reason  # 奠摯 and 以摯: the first


def test_an_addition_and_an_omission(guanli, shiwu_guanli):
    """The judgement says whether the heading is a character more or less: the authority followed
    lacks it (按疏無也字從疏) or has it after the words quoted (按疏此下有衣字從疏)."""
    from edition.traditions.yili.collation_notes import ShiwuPlacer, note_formulas

    chapters = shiwu_guanli.edition.chapters
    placer = ShiwuPlacer(BaseLayers.of(guanli.base), note_formulas())
    assert placer.kind(entry(chapters[2], "衣")) == ("addition", "衣", False)
    assert placer.kind(entry(chapters[3], "也")) == ("omission", "", False)
    assert placer.kind(entry(chapters[4], "正")) == ("reading", "正", False)  # 獨監本正作止…從士昬及公食大夫禮


def test_a_character_once_too_many_is_the_omission_of_the_one_the_judgement_names(guanli, shiwu_guanli):
    """聘禮: 辭　經曰辭曰非禮也敢對曰非禮也敢辭…以注及疏文義攷之下羨一辭字審矣…減經從注疏. The entry
    supports the omission of the later 辭 (SBCK 卷八 l. 611: 辭曰非禮也敢對曰非禮也敢辭), not the
    first 辭 as the base's reading; no authority need be named for 張淳's own judgement."""
    from dataclasses import replace

    from edition.traditions.yili.collation_notes import ShiwuPlacer, note_formulas, place

    pin = shiwu_guanli.edition.chapters[8]
    assert pin.title == "聘禮"
    sources = guanli.work.sources(guanli.work.chapter(8))
    base = sources.intake(next(m for m in sources.witnesses if m.siglum == "SBCK"), guanli.normalizer)
    assert ShiwuPlacer(BaseLayers.of(base), note_formulas()).kind(entry(pin, "辭")) == ("omission", "", True)
    judged = lambda heading, judgement: ShiwuPlacer(BaseLayers.of(base), note_formulas()).kind(
        replace(entry(pin, "辭"), heading=heading, judgement=judgement)
    )
    # 喪服 (卷二): 尊　注曰治其縷如小功而成布尊四升半又曰以服至也按疏上句多一尊字下句少一尊字…並從疏
    assert judged("尊", "按疏上句多一尊字下句少一尊字後記繶衰之注云不敢以兄弟之服服至尊也與疏下句之義合並從疏") == (
        "omission",
        "",
        False,
    )
    # 特牲 (卷二): an edition's 多一X字, where he follows the others, is no judgement of his on the text
    assert judged("鈃", "監本云及兩鈃鈃芼多一鈃字從諸本") == ("reading", "鈃", False)
    ci = placed(place(pin, base), "辭")
    assert (ci.kind, ci.supports) == ("omission", "")
    assert around(base, ci, 12, 0) == "辭曰非禮也敢對曰非禮也敢[辭]"


def test_graphic_neighbours_share_a_phonetic_part_of_some_strokes_or_a_radical():
    """By Unihan's kRSUnicode: the same strokes beside another radical, five or more (贄/摯, 涖/莅,
    撤/徹), or the same radical and strokes one apart (已/巳); not four strokes under two radicals
    (鈃 167.4 and 芼 140.4 look nothing alike)."""
    from edition.traditions.yili.collation_notes import neighbours

    for a, b in ("贄摯", "涖莅", "撤徹", "已巳"):
        assert neighbours(a, b), (a, b)
    assert not neighbours("鈃", "芼") and not neighbours("鈃", "鈃")
