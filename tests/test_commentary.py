"""The 注 collated: Zheng Xuan's commentary of SBCK against that of WYG, 礼书纲目 (000), the 注疏
seed (002) and 五礼通考 (003), in an apparatus of its own, every unit tied to the 經 passage it
comments on; readings found by hand in the raw files."""

import dataclasses

import pytest
from conftest import SOURCES, collated

from edition.collation import decision_file
from edition.collation.commentary import collate_commentary
from edition.intake.align import align
from edition.work.chapter_build import commentary_line
from edition.work.sources import decisions_path


@pytest.fixture(scope="module")
def choices():
    return decision_file.load(decisions_path(SOURCES))


def commentary_of(witnesses, sources, choices):
    return collated(witnesses, sources, choices, collate_commentary)


@pytest.fixture(scope="module")
def commentary(witnesses, sources, choices):
    return commentary_of(witnesses, sources, choices)


@pytest.fixture(scope="module")
def fold(sources):
    normalizer = sources.normalizer()
    return lambda text: "".join(normalizer.fold(char)[0] for char in text)


def unit_at(commentary, fold, before: str, lemma: str):
    """The unit whose lemma is `lemma` where the base's 注 reads `before` + `lemma` (as SBCK writes it)."""
    text = commentary.apparatus.base.classic.text
    start = text.index(fold(before + lemma)) + len(before)
    assert text.count(fold(before + lemma)) == 1
    return next(u for u in commentary.apparatus.all_units() if (u.t0, u.t1) == (start, start + len(lemma)))


def passage(commentary, witnesses, unit) -> str:
    """The base's 經 passage that the unit's gloss comments on."""
    gloss = commentary.gloss_of(unit)
    return witnesses[commentary.apparatus.base.meta.siglum].classic.text[gloss.c0 : gloss.c1]


def test_the_witnesses_that_carry_the_commentary_are_collated(commentary):
    statuses = commentary.apparatus.statuses
    assert set(statuses) == {"SBCK", "WYG", "000", "002", "003"}, "001 and 004 carry no 注"
    assert all(status.included for status in statuses.values())
    n = len(commentary.apparatus.base.classic.tokens)
    assert statuses["WYG"].extant == [(0, n)], "the 注疏 carries the whole 注"
    assert len(statuses["002"].extant) == 1 and statuses["002"].extant[0][1] == n, "002: from 彻俎 to the end"
    assert n > 6000 and len(commentary.glosses) > 300


def test_readings_of_wyg_found_by_hand(commentary, witnesses, fold):
    # KR1d0026 line 347 肅愼氏貢楛矢 (after 上握焉); KR1d0028 line 813 肅慎氏貢枯矢
    unit = unit_at(commentary, fold, "肅愼氏貢", "楛")
    assert unit.reading_of("WYG").display == "枯" and unit.reading_of("WYG").subtype == "substitution"
    assert "SBCK" in unit.lemma.sigla and passage(commentary, witnesses, unit).endswith(fold("兼束之以茅上握焉"))
    # line 356 起由中東就左獲 (after 興自前適左東面); KR1d0028 line 835 起由中西就左獲
    unit = unit_at(commentary, fold, "起由中", "東")
    assert unit.reading_of("WYG").display == "西"
    assert passage(commentary, witnesses, unit).endswith(fold("興自前適左東面"))


def test_a_note_wyg_places_under_another_passage_is_one_transposition(commentary, witnesses, fold):
    """SBCK line 545 reads 今文無執觶…觶爲之 in the note on 執觶者洗升實觶反奠于賔與大夫; WYG line
    1205-1206 in the note on 而錯皆不拜, as its own 考證 says (line 1720: 監本誤置)."""
    base_text = commentary.apparatus.base.classic.text
    moved = next(
        t
        for t in commentary.apparatus.transpositions
        if t.siglum == "WYG" and base_text[t.b0 : t.b1] == fold("今文無執觶及賔觶大夫之觶皆爲爵實觶觶爲之")
    )
    classic = witnesses["SBCK"].classic.text
    away, arrival = commentary.gloss_of(moved.away), commentary.gloss_of(moved.arrival)
    assert classic[away.c0 : away.c1].endswith(fold("反奠于賔與大夫"))
    assert classic[arrival.c0 : arrival.c1].endswith(fold("而錯皆不拜"))


def test_readings_of_002_found_by_hand(commentary, witnesses, fold):
    # SBCK line 634 唯比二事 (after 與獻釋獲者釋弓矢); 002 line 542 唯此二事, WYG line 1495 惟此二事
    unit = unit_at(commentary, fold, "", "唯比")
    assert unit.reading_of("002").display == "唯此" and unit.reading_of("WYG").display == "惟此"
    assert not unit.emended, "the two witnesses do not agree against the base"
    assert passage(commentary, witnesses, unit).endswith(fold("與獻釋獲者釋弓矢"))
    # 002 line 94 opens （ and never closes it: the note on 賔興樂正命奏陔 stops at 奏《陔夏
    unit = unit_at(commentary, fold, "賔醉而出奏陔夏", "陔夏者天子諸侯以鍾鼓大夫士鼓而巳")
    assert unit.reading_of("002").subtype == "omission" and len(unit.reading_of("WYG").norm) == len(unit.lemma.norm)
    assert passage(commentary, witnesses, unit).endswith(fold("賔興樂正命奏陔"))


def test_every_unit_is_tied_to_the_classic_passage_before_its_gloss(commentary, witnesses):
    base = commentary.apparatus.base
    classic = witnesses[base.meta.siglum].classic
    glosses = commentary.glosses
    assert glosses[0].t0 == 0 and glosses[-1].t1 == len(base.classic.tokens)
    for gloss, following in zip(glosses, glosses[1:]):
        assert gloss.t1 == following.t0 and gloss.c1 == following.c0 < following.c1, "one gloss after each passage"
    for gloss in glosses:
        # in the raw file the gloss stands right after the last token of its passage
        first, last = base.classic.tokens[gloss.t0], base.classic.tokens[gloss.t1 - 1]
        assert classic.tokens[gloss.c1 - 1].end <= first.start
        assert gloss.c1 == len(classic.tokens) or last.end <= classic.tokens[gloss.c1].start
    units = commentary.apparatus.all_units()
    assert len(units) > 200
    for unit in units:
        gloss = commentary.gloss_of(unit)
        assert gloss.t0 <= unit.t0 <= gloss.t1 and gloss.c0 < gloss.c1


def test_what_the_abridging_witnesses_leave_out_is_no_omission(commentary, witnesses, sources, choices):
    """003 quotes Zheng in part (no 今文/古文 sentences) and 000 abridges him at times: a note or a
    sentence they leave out is where they do not quote, a lacuna, not an omission."""
    apparatus = commentary.apparatus
    readings = [(s, r) for u in apparatus.all_units() for r in u.readings for s in r.sigla]
    assert not [r for s, r in readings if s in ("000", "003") and r.subtype == "omission"]
    assert [r for s, r in readings if s == "003" and r.subtype == "substitution"], "what 003 quotes is collated"
    wmap, text = apparatus.maps["003"], apparatus.base.classic.text
    status = apparatus.statuses["003"]
    inside = range(status.extant[0][0], status.extant[-1][1])
    for gloss in commentary.glosses:
        if (
            gloss.t0 in inside
            and gloss.t1 - 1 in inside
            and not any(wmap.reads_in_place(i) for i in range(gloss.t0, gloss.t1))
        ):
            break
    else:
        pytest.fail("003 carries every note of its extent")
    units = [u for u in apparatus.all_units() if gloss.t0 <= u.t0 and u.t1 <= gloss.t1 and u.t1 > u.t0]
    assert not any(u.reading_of("003") for u in units), "a note 003 does not carry has no reading of it"
    before, after = next(
        (a, b) for a, b in zip(status.extant, status.extant[1:]) if a[1] <= gloss.t0 and gloss.t1 <= b[0]
    )
    markers = {
        (token, name) for u in apparatus.all_units() for name in u.markers.get("003", ()) for token in range(u.t0, u.t1)
    }
    assert (before[1] - 1, "lacunaStart") in markers and (after[0], "lacunaEnd") in markers
    sentences = [i for i in inside if text.startswith(("今文", "古文"), i)]
    assert len(sentences) >= 10 and not any(wmap.reads_in_place(i) for i in sentences), "the 今文/古文 sentences"
    # without the declaration, the same places are read as omissions
    unabridged = {
        **witnesses,
        "003": dataclasses.replace(witnesses["003"], meta=dataclasses.replace(witnesses["003"].meta, abridged=())),
    }
    omissions = [
        r
        for u in commentary_of(unabridged, sources, choices).apparatus.all_units()
        for r in u.readings
        if "003" in r.sigla and r.subtype == "omission"
    ]
    assert len(omissions) > 20


def test_an_excerpt_is_extant_only_where_it_quotes():
    """A small base with a quotation of three of its phrases; 秋 stands twice in what it leaves out."""
    base = "天地玄黄宇宙洪荒日月盈昃辰秋宿列张寒来暑往秋收冬藏闰余成岁律吕调阳云腾致雨露结为霜"
    quoted = "天地玄黄宇宙洪荒日月盈昃" + "秋收冬藏" + "云腾致雨露结为霜"
    assert align(base, quoted).extant == [(0, len(base))], "a witness that leaves text out omits it"
    at = base.index
    assert align(base, quoted, excerpt=True).extant == [(0, at("辰")), (at("秋收"), at("闰")), (at("云"), len(base))]


def test_the_classic_apparatus_is_unchanged(witnesses, sources, choices, commentary):
    def signature(apparatus):
        return [
            (
                u.t0,
                u.t1,
                u.emended,
                [(r.type, r.subtype, tuple(r.sigla), r.display) for r in u.all_readings],
                sorted(u.markers.items()),
            )
            for u in apparatus.all_units()
        ]

    def classic():
        return collated(witnesses, sources, choices)

    before = signature(classic())
    commentary_of(witnesses, sources, choices)
    assert signature(classic()) == before
    assert all(
        w.layer == "classic" and not w.abridged and w.classic.text == w.stream.only(("classic",)).text
        for w in witnesses.values()
    )
    assert witnesses["003"].layer_view("commentary").abridged, "003 abridges its 注, not its 經"


def test_the_build_reports_the_commentary_counts(commentary):
    line = commentary_line(commentary)
    counts = commentary.counts()
    wyg = next(part for part in line.split("; ") if part.startswith("WYG "))
    assert f"{len(commentary.glosses)} glosses" in line and f"{counts['WYG']['substitution']} substitution" in wyg
    assert f"{counts['WYG']['usage']} usage" in wyg, "a usage is counted as such, not as a substitution"


def test_a_layer_view_compares_its_layer_and_takes_only_its_intrusions(witnesses):
    """001's web spam: two insertions in its classic text, eight in its translation."""
    web = witnesses["001"]
    translation = web.layer_view("translation")
    assert [s.text(web.raw).strip() for s in web.intrusions] == ["摧", "蜂蜜英语"]
    assert len(translation.intrusions) == 8 and "红烧鹅的做法 " in [s.text(web.raw) for s in translation.intrusions]
    base = witnesses["SBCK"]
    zhu = base.layer_view("commentary")
    notes = base.segments_of("commentary")
    assert zhu.classic.starts[0] == notes[0].start and zhu.classic.ends[-1] == notes[-1].end
    assert zhu.classic_between(notes[0].start, notes[0].end) == notes[0].text(base.raw)
    assert base.classic.text == base.stream.only(("classic",)).text, "the witness itself is unchanged"
