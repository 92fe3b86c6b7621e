"""Forms, graphic families, usages, taboo characters and a site's word filter told apart: variant
forms are folded (sources/variants.tsv); the classes of edition/collation/relations.py are typed
from their tables (edition/collation/data/), each row with its source, never substantive and never
an automatic emendation. The real places are checked by hand against the raw files, as named."""

from __future__ import annotations

import shutil
from dataclasses import replace
from types import SimpleNamespace

import pytest
import regex
from conftest import SOURCES
from lxml import etree

from edition.collation import relations
from edition.collation.apparatus import choose_lemma, emendation, for_the_editor
from edition.collation.model import Reading
from edition.collation.reading import classify
from edition.errors import EditionError
from edition.intake.variants import CURATED, VariantForms, load_curated
from edition.publication import render, report, tei, validate
from edition.publication.conventions import Conventions
from edition.publication.model import App
from edition.publication.tei import TEI_NS
from edition.tables import read_tsv
from edition.work.sources import Sources

NS = {"t": TEI_NS}
XML_ID = "{http://www.w3.org/XML/1998/namespace}id"


@pytest.fixture(scope="module")
def orthography(sources):
    return sources.orthography()


def reading(orthography, text: str, siglum: str = "w") -> Reading:
    """A hand-made reading of `text`, compared as the edition compares it."""
    norm = "".join(orthography.normalizer.fold(c)[0] for c in text)
    return Reading([siglum], [], text, norm, forms=tuple(text), owner=siglum)


def quotation(siglum: str) -> SimpleNamespace:
    """A quotation of a reading in the book `siglum`, all the emendation rule asks of one."""
    return SimpleNamespace(siglum=siglum)


# --- each class on hand-made readings ---------------------------------------------------------


@pytest.mark.parametrize(
    "lemma,text,typed",
    [
        ("而巳", "而已", ("graphic", None)),
        ("慈巳", "慈己", ("graphic", None)),
        ("孰", "熟", ("usage", "gujinzi")),
        ("說", "脫", ("usage", "tongjia")),
        ("視", "眂", ("usage", "gujinzi")),  # 眂 folds to 眡, the 古文 of 視
        ("無擯", "無儐", ("usage", "tongjia")),  # 聘禮, where WYG wrote each for the other both ways
        ("俟儐", "俟擯", ("usage", "tongjia")),
        ("其佗", "其他", ("usage", "gujinzi")),  # 聘禮 注, against the 他 of WYG's 疏
        ("賔尸", "儐尸", ("usage", "gujinzi")),  # 有司 注
        ("貳", "二", ("usage", "tongjia")),  # 喪服 貳, 士昬禮 二: WYG the other both ways
        ("竟", "境", ("usage", "gujinzi")),  # 喪服 注, where WYG's 疏 writes 境 throughout
        ("解", "懈", ("usage", "gujinzi")),  # 鄉射禮 注 爲有解倦
        ("隋", "隨", ("substantive", "substitution")),  # 士冠禮 注 隋方曰篋: 隋 means 橢, WYG's 隨 is its slip
        ("于", "於", ("usage", "gujinzi")),  # two traditional witnesses: one in the comparison, still a reading
        ("坐于", "坐扵", ("usage", "gujinzi")),  # 扵, the 四庫's variant form of 於
        ("後", "后", ("usage", "tongjia")),
        ("仇", "讐", ("usage", "tongjia")),  # 讐, a variant form of 讎
        ("招弭", "招彌", ("usage", "tongjia")),  # 士喪禮 注, after the 周禮's 男巫: WYG's 彌 is no emendation
        ("燋契", "燋挈", ("usage", "tongjia")),  # the 周禮's 菙氏
        ("北墉", "北庸", ("usage", "tongjia")),
        ("防", "坊", ("usage", "tongjia")),
        ("州立謝", "州立榭", ("usage", "tongjia")),  # 鄉射禮 注, five times 謝 in one gloss: treated alike
        ("玄", "元", ("taboo", None)),
        ("元", "玄", ("taboo", None)),
        ("褻", "防", ("intrusion", "word-filter")),
        ("䙝", "防", ("intrusion", "word-filter")),  # SBCK's variant form of 褻
        ("防", "褻", ("substantive", "substitution")),  # a filter goes one way
        ("孰巳", "熟已", ("substantive", "substitution")),  # two relations: no one class
        ("巳", "以", ("substantive", "substitution")),
    ],
)
def test_each_class_is_typed_from_its_table(orthography, lemma, text, typed):
    assert classify(reading(orthography, text), reading(orthography, lemma), orthography.relations) == typed


def test_only_a_simplified_witness_s_characters_are_ambiguous(orthography):
    """于 and 於 are one character in the comparison (simplified script): between two traditional
    witnesses they are a usage, an entry at its place; where either writes simplified, its 于 may
    stand for 於, and the difference is one of script, no entry."""
    traditional = reading(orthography, "於")
    simplified = replace(reading(orthography, "于"), simplified=True)
    assert classify(reading(orthography, "于"), traditional, orthography.relations) == ("usage", "gujinzi")
    assert classify(simplified, traditional, orthography.relations) == ("orthographic", None)
    assert orthography.difference("于", False, "於", False) == "usage" and orthography.recorded("usage")
    assert orthography.difference("于", True, "於", False) == "script"
    assert orthography.difference("荅", False, "答", False) == "orthographic", "a variant form stays one"


def test_a_character_unicode_lacks_against_one_the_other_writes_is_no_substantive_reading(orthography):
    """The 禮記's SBCK writes 漆 as &KR0238;, which Kanripo's table gives no form: against the 四庫's
    漆, where the rest of the reading is the same, the difference is one of coding (gaiji), either way."""
    uncoded = Reading(["SBCK"], [], "&KR0238;", "\ufffc", forms=("&KR0238;",), owner="SBCK")
    assert classify(reading(orthography, "漆"), uncoded, orthography.relations) == ("gaiji", None)
    assert classify(uncoded, reading(orthography, "漆"), orthography.relations) == ("gaiji", None)
    other = Reading(["SBCK"], [], "&KR0238;漆", "\ufffc漆", forms=("&KR0238;", "漆"), owner="SBCK")
    assert classify(reading(orthography, "漆漆"), other, orthography.relations) == ("gaiji", None)
    assert classify(reading(orthography, "被"), reading(orthography, "漆"), orthography.relations)[0] == "substantive"


def test_without_the_tables_a_difference_of_characters_is_substantive(orthography):
    assert classify(reading(orthography, "熟"), reading(orthography, "孰")) == ("substantive", "substitution")


def test_none_of_them_ever_emends_the_base(orthography):
    """Two witnesses against the base, with a book of evidence, emend it where their reading is
    substantive (塾 for 孰); the witnesses alone only make a candidate. Never where it is a usage
    (熟), a graphic variant (已), a taboo form (元) or a site's filter (防)."""
    related = orthography.relations
    base = reading(orthography, "孰", "SBCK")
    voters = [reading(orthography, "塾", s) for s in "ab"]
    assert emendation(base, voters, {"塾": [quotation("SHU")]}, {"a": "a", "b": "b"}, related)
    assert not emendation(base, voters, {}, {"a": "a", "b": "b"}, related)
    assert for_the_editor(base, voters, {}, {"a": "a", "b": "b"}, related)
    for base_text, text in (("孰", "熟"), ("巳", "已"), ("玄", "元"), ("褻", "防")):
        base = reading(orthography, base_text, "SBCK")
        voters = [reading(orthography, text, s) for s in "ab"]
        assert not emendation(base, voters, {text: [quotation("SHU")]}, {}, related), text
        assert not for_the_editor(base, voters, {}, {}, related), text
        typed = classify(voters[0], base, related)[0]
        assert typed != "substantive", (text, typed)


def test_a_witness_of_a_related_reading_reads_the_base_word(orthography):
    """SBCK 巳, 002 and WYG 已, 003 以 with a quotation for 以 (鄉射禮 注, 「不以巳尊孤人也」): the base
    does not stand alone, so 以 does not emend it, though no other substantive reading has as much."""
    related = orthography.relations
    base = reading(orthography, "巳", "SBCK")
    voters = [reading(orthography, "已", "002"), reading(orthography, "已", "WYG"), reading(orthography, "以", "003")]
    assert not emendation(base, voters, {"以": [quotation("SHU")]}, {}, related)


@pytest.mark.parametrize(
    "context,base_text,others,partial,taken",
    [
        (("不敢以", "尊降祖"), "巳", {"WYG": "已"}, False, "己"),  # 喪服 注: 己, which no witness reads
        (("一哭而", "旣練舎"), "巳", {"WYG": "已"}, False, "已"),  # 喪服 經 而已: the witness's member
        (("命之親皆没", "躬命之"), "己", {"WYG": "已"}, False, None),  # 士昬禮 經: the words call for the base's
        (("族謂父昆弟", "昆弟子"), "巳", {"WYG": "已"}, False, "?"),  # 士昬禮 注: the words decide nothing
        (("不敢以", "尊降祖"), "巳", {"WYG": "已", "003": "以"}, False, "己"),  # one reads otherwise as well
        (("不敢以", "尊降祖"), "巳", {}, False, None),  # none extant
        (("不敢以", "尊降祖"), "巳", {"WYG": "已"}, True, None),  # a witness starts inside the entry reading the base
    ],
)
def test_the_edited_text_takes_the_member_of_a_graphic_family_the_words_call_for(
    orthography, context, base_text, others, partial, taken
):
    """Never a witness's member for its own sake: the base's words about it decide (graphic_senses.tsv),
    and where they do not, the base stands and the place is the editor's to decide ("?")."""
    readings = {"SBCK": reading(orthography, base_text, "SBCK")}
    readings |= {s: reading(orthography, t, s) for s, t in others.items()}
    lemma, rest, emended, candidate, graphic = choose_lemma(
        readings, "SBCK", base_text, base_text, orthography, {}, {}, partial, context
    )
    assert not emended and candidate == (taken == "?")
    taken = None if taken == "?" else taken
    assert graphic == (taken is not None)
    assert lemma.display == (taken or base_text)
    assert lemma.sigla == [s for s, t in others.items() if t == lemma.display] + ([] if taken else ["SBCK"])
    base = next(r for r in [lemma, *rest] if "SBCK" in r.sigla)
    if taken:
        assert base.type == "graphic", "the base's member, a reading of its own"
    assert all(r.type == "graphic" for r in rest if r.display in "已己巳")


def test_each_row_of_the_senses_calls_for_its_member_in_its_own_words(orthography):
    """The rows as the work's words show them: a pronoun after a preposition comes before an adverb
    before a verb (以己食 is 己); 丁巳 is a day, 後丁後己 the order of the 天干."""
    relations = orthography.relations
    for before, after, member in [
        ("親臨", "食侍食", "己"),
        ("唯", "所欲", "己"),
        ("後丁後", "筮尸", "己"),
        ("諏丁", "之日", "巳"),
        ("大功", "上又加", "已"),
        ("卒猶", "也今文", "已"),
        ("祖廟", "毀則教", "已"),
        ("所以", "不", None),
        ("爲禮所及則", "徃有嫌也", None),  # 聘禮 注: 則己往, 已往 no row decides
        ("父昆弟", "昆弟子", None),
    ]:
        called = relations.sense(before, after, "己")
        assert (called and called[0]) == member, (before, after)


def test_the_ladle_and_the_numeral_are_told_apart_by_their_words(orthography):
    """七 and 匕, which the prints take one for another (SBCK 特牲 加七, 士喪禮 右執七; WYG 棘心七刻):
    the ladle after a verb of the rite or before what goes with it, the numeral before what it
    counts; a row of the other family never answers (以 before 己 calls for nothing here)."""
    relations = orthography.relations
    for before, after, member in [
        ("贊者錯俎加", "", "匕"),  # 特牲 經
        ("卒載加", "于鼎卒", "匕"),  # 特牲 經
        ("祝盥右執", "卻之左", "匕"),  # 士喪禮 經
        ("雍府執四", "以從司", "匕"),  # 少牢 經: four ladles, not the numeral
        ("肵俎棘心", "刻", "匕"),  # 特牲 記: the base's own 匕 stands
        ("正俎羞", "湆肉湆", "匕"),  # 有司 注
        ("使者", "介侯伯", "七"),  # 聘禮 注
        ("年及", "十", "七"),  # the numeral before 十, though 及 comes before it
        ("所", "以從", None),
        ("不敢以", "尊降", None),
    ]:
        called = relations.sense(before, after, "七")
        assert (called and called[0]) == member, (before, after)


# --- the tables ------------------------------------------------------------------------------------


def test_every_row_of_the_tables_names_its_source_and_evidence():
    for name, rows in relations.table_rows().items():
        assert rows, name
        assert all(row.source.strip() for row in rows), name
    for path in (relations.GRAPHIC_FAMILIES, relations.USAGES, relations.TABOO, relations.WORD_FILTERS):
        assert all(row["evidence"].strip() for _, row in read_tsv(path, ("source", "evidence"))), path


def test_a_usage_or_a_taboo_pair_is_two_characters_never_folded(orthography):
    """No variant form of the package folds one into the other (a comparison script may merge them:
    曆 and 歷 are both 历 in simplified script, a difference of script there). A work's own row may
    (the 儀禮's 閒 is 間, whose two senses the 禮記 keeps apart): in that work the pair is one. A taboo
    form with a missing stroke (𤣥 for 玄) folds, and the 異體字表 names it 避諱 first."""
    standard = VariantForms(load_curated(CURATED)).standard
    for row in relations.usages() + relations.graphic_families():
        assert len({standard(c) for c in row.characters}) == len(row.characters), row
    assert orthography.normalizer.variants.standard("閒") == "間"
    folded = [
        row for row in relations.taboo() if orthography.normalizer.fold(row.characters[1])[0] == row.characters[0]
    ]
    assert [row.characters for row in folded] == [("玄", "𤣥")], "only a form with a missing stroke folds"
    assert orthography.sources("玄", "𤣥")[0] == "taboo form: 陳垣《史諱舉例》卷一「避諱缺筆例」"


@pytest.mark.parametrize(
    "variant,standard,source",
    [
        ("眂", "眡", "variants.tsv"),
        ("靑", "青", "Kanripo standardized text"),
        ("莅", "涖", "Unihan kSemanticVariant"),  # 涖 to 蒞 and 莅, one character in script
        ("蒞", "涖", "Unihan kSemanticVariant"),
        ("貎", "貌", "variants.tsv"),
        ("㛮", "嫂", "Unihan kDefinition (same as 嫂)"),
        ("䄂", "袖", "variants.tsv"),
        ("𣙗", "槷", "variants.tsv"),
        ("㗖", "啗", "variants.tsv"),
    ],
)
def test_the_variant_forms_of_the_issue_fold(orthography, variant, standard, source):
    normalizer = orthography.normalizer
    assert normalizer.fold(variant)[0] == normalizer.fold(standard)[0]
    assert source in " ".join(orthography.sources(variant, standard))


def test_shi_is_not_folded_into_its_old_form(orthography):
    """眡 is the 說文's 古文 of 視; WYG's 考證 (大射: 「眂，石經及敖本作視，釋文作眂」) reads them as two
    texts' readings, which a fold would erase: a usage, typed, never folded."""
    fold = lambda c: orthography.normalizer.fold(c)[0]
    assert fold("眡") == fold("眂") != fold("視")


def test_the_two_wordings_of_one_guwen_note_are_one_reading(guanli):
    """士冠禮 注: SBCK 古文闑爲&KR0527;閾爲蹙 (line 20; Kanripo's table: KR0527 is 𣙗), WYG 古文闑為槷閾為蹙
    (line 110). 𣙗 folds to 槷, so the 古文 reading of both is one (jinguwen compares a note's words
    as the witnesses' text, its entities by their character)."""
    normalizer = guanli.normalizer
    entity = normalizer.gaiji.entries["&KR0527;"]
    assert entity.mapping == "𣙗"
    assert normalizer.fold(entity.mapping)[0] == normalizer.fold("槷")[0]


# --- 喪服, edited in process -------------------------------------------------------------------------


@pytest.fixture(scope="module")
def sangfu_view(sangfu, tmp_path_factory):
    path = tmp_path_factory.mktemp("sangfu") / "edition.xml"
    sangfu.document.write(str(path), encoding="utf-8")
    edition = render.read(path)
    conventions = Conventions(edition.style)
    return edition, conventions.entries(edition)


def app_at(document, lemma: str, after: str):
    """The first app whose lemma reads `lemma` and is followed by the base's words `after`."""
    for app in document.iter(f"{{{TEI_NS}}}app"):
        lem = app.find("t:lem", NS)
        lem = lem if lem is not None else app.find("t:rdgGrp/t:lem", NS)
        texts = app.xpath("following::text()[not(ancestor::t:rdg)]", namespaces=NS)[:4]
        following = regex.sub(r"\p{P}", "", "".join(texts))
        if lem is not None and "".join(lem.itertext()) == lemma and following.startswith(after):
            return app
    raise AssertionError(f"no app [{lemma}]{after}")


def test_kuer_yi_is_emended_on_the_sense_with_an_entry(sangfu, sangfu_view):
    """喪服 傳: SBCK line 26 「朝一哭夕一哭而巳」, WYG line 171 「朝一哭夕一哭而已」: the words 而_ call for 已,
    which WYG reads; the TEI records the base's 巳 as a graphic variant and the lemma as emended on
    the sense (理校), and the print says so, with the 單疏本's quotation, which reads 巳."""
    app = app_at(sangfu.document, "已", "旣練")
    lem, rdg = app.find("t:lem", NS), app.find("t:rdg", NS)
    assert app.get("type") == "graphic"
    assert (lem.get("wit"), lem.get("resp"), lem.get("cause")) == ("#wWYG", "#edition-graphic", "理校")
    assert (rdg.get("wit"), rdg.get("type"), "".join(rdg.itertext())) == ("#wSBCK", "graphic", "巳")
    header = sangfu.document.find(".//t:titleStmt", NS)
    assert header.xpath("t:respStmt[@xml:id='edition-graphic']/t:resp", namespaces=NS)
    edition, entries = sangfu_view
    view = next(a for a in edition.all_apps if a.id == app.get(XML_ID))
    assert view.graphic and view.emended
    said = ["".join(p.text for p in c.parts) for c in entries[view.id].clauses]
    assert said == ["已，原作巳，據文意改", "單疏本引「朝一哭夕一哭而巳」，與四部叢刊本同"], "the 單疏本 is printed too"
    section = next(s for s in edition.sections if view in s.items)
    text = "".join(i if isinstance(i, str) else i.lemma.text if isinstance(i, App) else "" for i in section.items)
    assert "一哭而已旣練" in regex.sub(r"\p{P}", "", text)


def test_a_character_in_the_wrong_one_of_two_quotations_is_set_back_on_the_shiwu(sangfu, sangfu_view):
    """喪服 注: SBCK 卷十一 l. 318 「治其縷如小功而成布尊四升半…升數少者以服至也」, WYG l. 1417–1419 and the 疏
    「成布四升半…以服至尊也」. 張淳 (識誤 卷二 l. 69): 尊　注曰治其縷如小功而成布尊四升半又曰以服至也按疏上句多一
    尊字下句少一尊字後記繶衰之注云…服至尊也…並從疏: 尊 stands in the wrong one of his two quotations,
    and goes between 至 and 也, where his own words have it. The entry attests WYG's reading over
    both, the base is emended on it, and the print says the 尊 moved (乙正)."""
    lemmata = ((a, "".join(a.xpath("t:lem//text()", namespaces=NS))) for a in sangfu.document.iter(f"{{{TEI_NS}}}app"))
    app = next(a for a, lemma in lemmata if "以服至尊" in lemma)
    lem, rdg = app.find("t:lem", NS), app.find("t:rdg", NS)
    # the lemma carries the base's punctuation where it reads the base's characters
    assert (lem.get("wit"), lem.get("resp"), "".join(lem.itertext())) == (
        "#wWYG",
        "#edition-auto",
        "四升半，細其縷者以恩輕也。升數少者以服至尊",
    )
    assert (rdg.get("wit"), "".join(rdg.itertext())) == ("#wSBCK", "尊四升半細其縷者以恩輕也升數少者以服至")
    shiwu = app.find("t:witDetail[@subtype='collation-notes']", NS)
    assert shiwu is not None and shiwu.get("target") == f"#{lem.get(XML_ID)}"
    edition, entries = sangfu_view
    said = ["".join(p.text for p in c.parts) for c in entries[app.get(XML_ID)].clauses]
    assert said[0] == "「尊」原在「四升」上，據四庫本移於「服至」下"
    assert said[1].startswith("識誤云「尊：按疏上句多一尊字下句少一尊字")


def test_ci_ji_is_emended_on_the_sense_though_no_witness_reads_it(sangfu, sangfu_view):
    """喪服 經: SBCK 「君子子爲庶母慈巳者」, WYG 「慈已者」, two lines before the 傳's 「以慈己加也」: the words
    慈_ call for 己, which neither reads. The lemma is the editor's (no @wit), and both witnesses'
    members are graphic variants."""
    app = app_at(sangfu.document, "己", "者君子子者")
    lem = app.find("t:lem", NS)
    assert (lem.get("wit"), lem.get("resp"), lem.get("cause")) == (None, "#edition-graphic", "理校")
    readings = {(r.get("wit"), r.get("type"), "".join(r.itertext())) for r in app.iterfind("t:rdg", NS)}
    assert readings == {("#wSBCK", "graphic", "巳"), ("#wWYG", "graphic", "已")}
    edition, entries = sangfu_view
    said = ["".join(p.text for p in c.parts) for c in entries[app.get(XML_ID)].clauses]
    assert said == ["己，原作巳，據文意改", "己，四庫本作已（形近）"]


def test_where_the_words_decide_nothing_the_base_stands_for_the_editor_to_decide(sangfu):
    """喪服 傳: SBCK 「他…袒免歸則巳」, WYG 「歸則已」: no row of the senses decides 則_ (則已 "then it ends",
    則己往 "then he goes himself"). The base stands, WYG's 已 is a graphic variant, and the report lists
    the place for the editor with a decision that takes 已, ready to paste."""
    app = app_at(sangfu.document, "巳", "謂服無親者")
    assert app.find("t:lem", NS).get("resp") is None
    assert [(r.get("wit"), r.get("type"), r.text) for r in app.iterfind("t:rdg", NS)] == [("#wWYG", "graphic", "已")]
    apparatus = sangfu.edited.apparatus
    found = report.collation_report(apparatus, sangfu.edited.sections, {})["candidates"]
    [entry] = [c for c in found if c["app"] == app.get(XML_ID)]
    assert 'reading = "已"' in entry["decision"]


def test_qin_bu_shuo_die_dai_is_a_usage_and_the_base_stands(sangfu, sangfu_view):
    """喪服 傳: SBCK line 25 「寢不&KR0003;絰帶」 (KR0003 is 說), WYG line 170 「寢不脫絰帶」, WYG's 疏
    quoting 寢不脫絰帶: 說 for 脫 is a 通假, no emendation (it was one, by WYG and its 疏)."""
    app = app_at(sangfu.document, "&KR0003;", "絰帶")
    lem, rdg = app.find("t:lem", NS), app.find("t:rdg", NS)
    assert (lem.get("wit"), lem.get("resp")) == ("#wSBCK", None)
    assert (rdg.get("wit"), rdg.get("type"), rdg.get("subtype"), rdg.text) == ("#wWYG", "usage", "tongjia", "脫")
    edition, entries = sangfu_view
    said = ["".join(p.text for p in c.parts) for c in entries[app.get(XML_ID)].clauses if c.type == "usage"]
    assert said == ["說，四庫本作脫（通假）"]


def test_the_variant_forms_of_sangfu_are_no_readings(sangfu):
    """傳 SBCK line 271 「是嫂亦可謂之母乎」 = WYG line 1252 「是㛮亦可謂之母乎」; 注 SBCK line 486 「其䄂足以
    容」 = WYG line 2133 「其袖足以容」 (an automatic emendation before 䄂 was folded)."""
    texts = {"".join(r.itertext()) for r in sangfu.document.iter(f"{{{TEI_NS}}}rdg")}
    assert not texts & {"㛮", "袖", "䄂"}
    lemmata = [lem for lem in sangfu.document.iter(f"{{{TEI_NS}}}lem") if lem.get("resp") == "#edition-auto"]
    assert not any("".join(lem.itertext()) in ("袖", "已", "己", "脫", "嫡", "避", "版") for lem in lemmata)


def test_the_usages_setting_leaves_them_out_of_the_print_and_the_html(sangfu, tmp_path):
    """`usages = "silent"`: the TEI types them as before, the 凡例 says they are not recorded, and
    no entry phrases them."""
    sources = replace(sangfu.sources, config=replace(sangfu.sources.config, usages="silent"))
    edited = sangfu.edited
    document = tei.edition_document(sources, edited.apparatus, edited.sections, {}, None, edited.commentary)
    assert document.xpath("//t:rdg[@type='usage']", namespaces=NS)
    assert document.xpath("//t:normalization[@xml:id='decl-usages'][@method='silent']", namespaces=NS)
    path = tmp_path / "edition.xml"
    document.write(str(path), encoding="utf-8")
    edition = render.read(path)
    assert not edition.usages_at_each_place
    entries = Conventions(edition.style).entries(edition)
    assert not any(c.type == "usage" for entry in entries.values() for c in entry.clauses)
    fanli = dict(zip(edition.fanli_keys, edition.fanli))
    assert "亦不出校" in fanli["usages"]


# --- 鄉射禮, built ------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def xiangshe(built):
    return etree.parse(str(built / "edition.xml"))


def test_a_site_word_filter_is_an_intrusion_of_the_witness(xiangshe, printed):
    """000 line 5 「尊大夫不敢防」 against SBCK line 120 and WYG line 267 「不敢褻」: the site's filter, an
    intrusion of 000, not a reading; with 000's 搢防也防 (SBCK 搢挿也挿), 今乡防 (SBCK 今鄉㑹) and 003's
    不见不防, 不可防也, 燕设防具, the seven such places of the chapter, all in the 注."""
    filtered = xiangshe.xpath("//t:rdg[@subtype='word-filter']", namespaces=NS)
    assert (
        sorted((r.get("wit"), "".join(r.itertext())) for r in filtered) == [("#w000", "防")] * 4 + [("#w003", "防")] * 3
    )
    assert all(r.get("type") == "intrusion" for r in filtered)
    assert not xiangshe.xpath("//t:rdg[@type='substantive'][. = '防']", namespaces=NS)
    assert "作防" not in printed, "no entry: the conspectus counts them"
    counted = lambda siglum: xiangshe.xpath(
        f"//t:listWit/t:witness[@n='{siglum}']/t:note[@type='unrecorded'][@subtype='word-filter']/@n", namespaces=NS
    )
    assert (counted("000"), counted("003")) == (["4"], ["3"])
    fanli = "".join(xiangshe.find(".//t:front/t:div[@type='fanli']/t:p[@n='word_filter']", NS).itertext())
    assert "褻、插、會、啗作防" in fanli and "亦不出校" in fanli


def test_a_web_witness_s_gaps_and_spam_are_counted_not_entries(xiangshe, printed):
    """002 marks characters its site could not show as ▯ (57 places from 彻俎 on, line 444 「▯緌」 among
    them); 001 has two spam insertions in the 經. No entry of the 校勘記 says them; the 傳本目錄 counts
    them for each witness, as many as the TEI's apparatus holds, and the 凡例 says so."""
    apparatus = lambda kind, siglum: [
        r
        for r in xiangshe.xpath(f"//t:app/t:rdg[@type='{kind}']", namespaces=NS)
        if f"#w{siglum}" in r.get("wit").split() and r.get("subtype") != "word-filter"
    ]
    counted = lambda kind, siglum: xiangshe.xpath(
        f"//t:listWit/t:witness[@n='{siglum}']/t:note[@type='unrecorded'][@subtype='{kind}']/@n", namespaces=NS
    )
    assert len(apparatus("lacuna", "002")) >= 50 and counted("lacuna", "002") == [str(len(apparatus("lacuna", "002")))]
    assert counted("intrusion", "001") == [str(len(apparatus("intrusion", "001")))] == ["2"]
    assert "，闕" not in printed
    assert not xiangshe.xpath("//t:rdg[@type='jinguwen'][contains(., '▯')]", namespaces=NS), "002's 古文▯只为▯ is none"
    assert not xiangshe.xpath("//t:listWit/t:witness[@n='SBCK']/t:note[@type='unrecorded']", namespaces=NS)
    fanli = "".join(xiangshe.find(".//t:front/t:div[@type='fanli']/t:p[@n='unrecorded']", NS).itertext())
    assert "注疏網絡本" in fanli and "網絡本" in fanli and "傳本目錄" in fanli


def test_yuan_for_xuan_in_003_is_a_taboo_form(xiangshe, printed):
    """003 line 17 「説朝服服元端也」 against SBCK line 553 「服玄端也」 (WYG 𤣥, 002 玄): 康熙's 玄燁."""
    taboo = xiangshe.xpath("//t:rdg[@type='taboo']", namespaces=NS)
    assert [(r.get("wit"), r.text) for r in taboo] == [("#w003", "元")]
    lem = taboo[0].getparent().find("t:lem", NS)
    assert lem.text == "玄" and lem.get("resp") is None
    assert "注：玄，五禮通考作元（避諱）" in printed
    fanli = "".join(xiangshe.find(".//t:front/t:div[@type='fanli']/t:p[@n='taboo']", NS).itertext())
    assert "玄作元" in fanli and "陳垣《史諱舉例》" in fanli and "底本缺葉" in fanli, "one item on taboo characters"


def test_no_automatic_emendation_rests_on_a_reading_that_is_not_substantive(xiangshe):
    """Where the base is emended, its own reading is substantive: SBCK's 孰 (注 「謂狗孰可食」, line 79) and
    庭 (「朝庭饗燕」, line 138), emended before by WYG's 熟 and 廷, stand now."""
    for lem in xiangshe.xpath("//t:lem[@resp='#edition-auto']", namespaces=NS):
        base = lem.getparent().xpath("t:rdg[contains(@wit, '#wSBCK')]", namespaces=NS)
        assert all(r.get("type") == "substantive" for r in base), "".join(lem.itertext())
    usages = {(r.get("wit"), r.text, r.get("subtype")) for r in xiangshe.xpath("//t:rdg[@type='usage']", namespaces=NS)}
    assert ("#wWYG", "熟", "gujinzi") in usages and ("#w000 #wWYG", "廷", "tongjia") in usages


def test_the_schematron_closes_the_reading_types(xiangshe):
    doc = etree.fromstring(etree.tostring(xiangshe))
    usage = doc.xpath("//t:rdg[@type='usage']", namespaces=NS)[0]
    del usage.attrib["subtype"]
    doc.xpath("//t:rdg[@type='taboo']", namespaces=NS)[0].set("type", "tabu")
    messages = [p.message for p in validate.problems(etree.ElementTree(doc), project=True)]
    assert any("rdg/@type is substantive" in m and "tabu" in m for m in messages)
    assert any("a usage is of the relation" in m for m in messages)


def test_the_sources_schema_knows_the_usages_setting(tmp_path):
    sources = tmp_path / "sources"
    shutil.copytree(SOURCES, sources)
    config = sources / "edition.toml"
    text = config.read_text(encoding="utf-8")
    assert 'usages = "apparatus"' in text, "the work's setting, exported with the chapter"
    config.write_text(text.replace('usages = "apparatus"', 'usages = "silent"'), encoding="utf-8")
    assert Sources.load(sources).config.usages == "silent"
    config.write_text(text.replace('usages = "apparatus"', 'usages = "sometimes"'), encoding="utf-8")
    with pytest.raises(EditionError, match="usages"):
        Sources.load(sources)
