"""今文/古文: every note of Zheng Xuan in the 注 of SBCK (the base, whose 注 is whole), 000 and 002
found, parsed, anchored on the right characters of the base, and encoded in build/edition.xml;
WYG's, which carries the same 注, found too."""

import json
import tomllib
from pathlib import Path

import pytest
import regex
from lxml import etree

from edition.publication import render
from edition.publication.conventions import Conventions, same_words
from edition.publication.model import App, EditionView, ReadingView, VariantFormView, WitnessView
from edition.publication.tei import TEI_NS
from edition.traditions import jinguwen

NS = {"t": TEI_NS}
FIXTURES = Path(__file__).resolve().parent / "fixtures"
GOLD = [
    note
    for name in ("jinguwen_gold.toml", "jinguwen_gold_sbck.toml")
    for note in tomllib.loads((FIXTURES / name).read_text())["note"]
]
GOLD_WITNESSES = {g["witness"] for g in GOLD}


@pytest.fixture(scope="module")
def found(apparatus, sources):
    notes, anchors = jinguwen.collect(apparatus, sources.normalizer())
    return apparatus, notes, anchors


@pytest.mark.parametrize(
    "text,expected",
    [
        ("今文揖为升", [("jinwen", "substitution", "揖", "升", "one")]),
        ("古文贯作闗", [("guwen", "substitution", "贯", "闗", "one")]),
        ("古文挟皆作接", [("guwen", "substitution", "挟", "接", "all")]),
        ("古文缩皆为蹙", [("guwen", "substitution", "缩", "蹙", "all")]),
        ("今文改弓为肱也", [("jinwen", "substitution", "弓", "肱", "one")]),
        (
            "古文▯只为▯，今文或作植",
            [("guwen", "substitution", "▯只", "▯", "one"), ("jinwen", "substitution", "▯只", "植", "one")],
        ),
        ("今文无南", [("jinwen", "omission", "南", "", "one")]),
        ("古文曰少退立", [("guwen", "phrase", "", "少退立", "one")]),
        ("古文曰：遂命获者倚旌", [("guwen", "phrase", "", "遂命获者倚旌", "one")]),
        (
            "今文糅为缩韬为翿",
            [("jinwen", "substitution", "糅", "缩", "one"), ("jinwen", "substitution", "韬", "翿", "one")],
        ),
        (
            "今文坐取觯无进又曰坐奠之拜",
            [("jinwen", "omission", "进", "", "one"), ("jinwen", "phrase", "", "坐奠之拜", "one")],
        ),
        (
            "古文“有”作“又”，今文无“其馀否”",
            [("guwen", "substitution", "有", "又", "one"), ("jinwen", "omission", "其馀否", "", "one")],
        ),
        (
            "今文无执觯及宾觯、大夫之觯，皆为爵",
            [
                ("jinwen", "omission", "执觯", "", "one"),
                ("jinwen", "substitution", "宾觯", "宾爵", "all"),
                ("jinwen", "substitution", "大夫之觯", "大夫之爵", "all"),
            ],
        ),
        (
            "今文皮树繁竖，糅为纟舀",
            [("jinwen", "substitution", "皮树", "繁竖", "one"), ("jinwen", "substitution", "糅", "纟舀", "one")],
        ),
        (
            "今文皮𣗳繁豎糅爲縚古文無以",
            [
                ("jinwen", "substitution", "皮𣗳", "繁豎", "one"),
                ("jinwen", "substitution", "糅", "縚", "one"),
                ("guwen", "omission", "以", "", "one"),
            ],
        ),
        (
            "古文壹皆爲一今文饗皆爲郷",
            [("guwen", "substitution", "壹", "一", "all"), ("jinwen", "substitution", "饗", "郷", "all")],
        ),
        (
            "今文坐取觶無進又曰坐奠之拜",
            [("jinwen", "omission", "進", "", "one"), ("jinwen", "phrase", "", "坐奠之拜", "one")],
        ),
        ("今文豫为序序乃夏后氏之学亦非也", [("jinwen", "substitution", "豫", "序", "one")]),
        (
            "今文君射则为下",
            [("jinwen", "substitution", "君", "射", "one"), ("jinwen", "substitution", "则", "下", "one")],
        ),
        ("今文糅为纟舀", [("jinwen", "substitution", "糅", "纟舀", "one")]),
    ],
)
def test_formulas_are_parsed(text, expected):
    parsed, problem = jinguwen.parse(text)
    assert problem == ""
    assert [(p.tradition, p.kind, p.lemma, p.reading, p.scope) for p in parsed] == expected


def test_paired_phrases_that_the_base_reads_as_they_stand_are_one_phrase(found):
    """今文君射则为下 parses as 君→射 and 则→下 too; where the base reads 君射则为下 it is the
    phrase 今文 reads (without the base's last 射), while 皮树繁竖 stays a pair."""
    _, notes, _ = found
    by_words = {n.text: [(p.kind, p.lemma, p.reading) for p in n.parsed] for n in notes}
    assert by_words["今文君射则为下"] == [("phrase", "", "君射则为下")]
    assert by_words["今文皮树繁竖，糅为纟舀"] == [("substitution", "皮树", "繁竖"), ("substitution", "糅", "纟舀")]


def test_every_note_of_the_base_000_and_002_is_found_and_look_alikes_are_not(found, sources):
    _, notes, _ = found
    seen = {(n.siglum, n.text) for n in notes if n.siglum in GOLD_WITNESSES}
    assert seen == {(g["witness"], g["words"]) for g in GOLD}
    for look_alike in ("刋本一作肤", "奉本作拳", "周礼作序", "古者与人饮食", "刋本一作膚"):
        assert not any(look_alike in n.text for n in notes)
    assert not any(n.siglum == "003" for n in notes), "五礼通考 drops the 今古文 sentences"
    apparatus = found[0]
    as_compared = {
        siglum: {jinguwen.Anchoring(apparatus, sources.normalizer()).norm(n.text) for n in notes if n.siglum == siglum}
        for siglum in ("SBCK", "WYG")
    }
    assert "古文曰再拜受爵" in {n.text for n in notes if n.siglum == "WYG"}, "on a leaf SBCK has lost"
    assert len(as_compared["SBCK"] - as_compared["WYG"]) <= 4, "WYG carries the same 注 but for a few words"


def test_translation_and_subcommentary_are_not_searched(witnesses, found):
    _, notes, _ = found
    w = witnesses["002"]
    translated = "".join(s.text(w.raw) for s in w.segments_of("translation"))
    shu = "".join(s.text(w.raw) for s in w.segments_of("subcommentary"))
    assert "今文" in translated and "今文" in shu
    assert all(
        n.start in range(len(w.raw.text)) and w.raw.text[n.start : n.start + 2] in ("今文", "古文")
        for n in notes
        if n.siglum == "002"
    )
    assert not any("解释" in n.commentary or "释曰" in n.commentary for n in notes)


def context_span(base_text: str, context: str, fold) -> tuple[int, int]:
    plain = "".join(fold(c)[0] for c in context.replace("[", "").replace("]", ""))
    assert base_text.count(plain) == 1, plain
    start = base_text.index(plain) + context.index("[")
    return start, start + context.index("]") - context.index("[") - 1


def test_at_least_ninety_percent_are_anchored_on_exactly_the_right_characters(found, sources):
    apparatus, notes, anchors = found
    base_text = apparatus.base.classic.text
    fold = sources.normalizer().fold
    folded = jinguwen.Anchoring(apparatus, sources.normalizer()).norm  # entities resolved, script folded
    right = total = 0
    misses = []
    for gold in GOLD:
        for expected in gold["readings"]:
            placed = [
                (a.t0, a.t1)
                for a in anchors
                if a.note.siglum == gold["witness"]
                and a.note.text == gold["words"]
                and (a.parsed.tradition, folded(a.parsed.lemma), folded(a.parsed.reading))
                == (expected["tradition"], folded(expected["lemma"]), folded(expected["reading"]))
            ]
            if not expected["base"]:
                assert all(a.confidence == "none" for a in anchors if a.note.text == gold["words"]), (
                    "a place the base has lost is not anchored"
                )
                continue
            total += 1
            if context_span(base_text, expected["base"], fold) in placed:
                right += 1
            else:
                misses.append((gold["words"], expected["base"], placed))
    assert total == 41 + 48
    assert right / total >= 0.9, misses


def test_disagreement_and_left_out_notes_are_reported(built):
    report = json.loads((built / "reports" / "jinguwen.json").read_text())
    assert len([n for n in report["notes"] if n["witness"] in GOLD_WITNESSES]) == len(GOLD)
    disagreement = [d for d in report["disagreements"] if {r["tradition"] for r in d["reports"]} == {"jinwen", "guwen"}]
    by_tradition = [({r["tradition"]: r["witnesses"] for r in d["reports"]}, d["reading"]) for d in disagreement]
    assert any(
        reports["jinwen"] == ["000"] and {"002", "SBCK", "WYG"} <= set(reports["guwen"]) and "豫" in reading
        for reports, reading in by_tradition
    )
    assert any(item["witness"] == "003" and item["note"] == "今文无与笙" for item in report["left_out"])
    # each reading named in the work's own terms, as the grammar's data names the tradition
    named = {(r["tradition"], r["name"]) for row in report["notes"] for r in row["readings"]}
    named |= {(r["tradition"], r["name"]) for d in report["disagreements"] for r in d["reports"]}
    assert named == {("jinwen", "今文"), ("guwen", "古文")}
    for row in report["notes"]:
        for reading in row["readings"]:
            for anchor in reading["anchors"]:
                assert anchor["section"] and (anchor["confidence"] in ("high", "medium", "low") or anchor["reason"]), (
                    "an unanchored note says why"
                )
    assert "今文无射" in (built / "reports" / "jinguwen.md").read_text()


def test_notes_are_apparatus_entries_of_two_hypothetical_witnesses(built):
    doc = etree.parse(str(built / "edition.xml"))
    assert doc.xpath("//t:listWit/t:witness[@xml:id='jinwen']", namespaces=NS) and doc.xpath(
        "//t:listWit/t:witness[@xml:id='guwen']", namespaces=NS
    )
    shengs = [r for r in doc.xpath("//t:rdg[@wit='#jinwen']", namespaces=NS) if "".join(r.itertext()) == "升"]
    assert len(shengs) == 1
    app = shengs[0].getparent()
    assert app.find("t:lem", NS).text == "揖" and shengs[0].get("resp") == shengs[0].get("source") == "#zheng-xuan"
    quotes = {q.get("source"): q.text for q in app.iterfind("t:note[@type='jinguwen']/t:quote", NS)}
    assert quotes["#w000"] == "今文揖为升" and quotes["#wSBCK"] == "今文揖爲升", (
        "one entry for the note the witnesses share"
    )
    both = [a for a in doc.xpath("//t:app[t:rdg[@wit='#jinwen'] and t:rdg[@wit='#guwen']]", namespaces=NS)]
    assert any("豫" in "".join(r.itertext()) for a in both for r in a.iter(f"{{{TEI_NS}}}rdg")), (
        "今文与为豫 (000) and 古文与为豫 (002) in one app"
    )
    shared = [
        a
        for a in doc.xpath("//t:app[t:rdg[@type='jinguwen']]", namespaces=NS)
        if a.xpath("t:rdg[not(@type='jinguwen')] | t:rdgGrp", namespaces=NS)
    ]
    assert shared, "a 今古文 reading and a manuscript variant share one app"
    omitted = [r for r in doc.xpath("//t:rdg[@wit='#jinwen'][@subtype='omission']", namespaces=NS)]
    assert any(
        r.getparent().find("t:lem", NS) is not None and "".join(r.getparent().find("t:lem", NS).itertext()) == "南"
        for r in omitted
    )


NOTE_PATTERN = (
    "(?P<format>\\()(?P<commentary>[^()/\\n]*)"
    "(?:(?P<format__column>/)(?P<commentary__second>[^()\\n]*))?(?P<format__close>\\))"
)
SMALL_NOTES = f"""
[[rule]]
name = "note"
pattern = '{NOTE_PATTERN}'

[[rule]]
name = "classic"
layer = "classic"
pattern = '[^()\\n]+'
"""


def test_a_note_in_small_double_columns_is_read_whole(tmp_path):
    """A 雙行小注 broken by a column mark and run on to the next line is one note, in either script;
    】【 on one line begins another."""
    from probe import sample_sources, write_witness

    from edition.work.sources import Sources

    root = sample_sources(tmp_path / "sources")
    (root / "profiles").mkdir()
    (root / "profiles" / "small-notes.toml").write_text(SMALL_NOTES)
    text = "國中射則皮樹中(皮𣗳獸名今文/皮𣗳繁豎)\n(糅爲縚古文無以)於郊則閭中(今文/無射)(古文曰某從於子)\n"
    write_witness(root, "A", "a.txt", text.encode("utf-8"), profile="small-notes")
    sources = Sources.load(root)
    witness = sources.intake(sources.witnesses[0], sources.normalizer())
    notes = jinguwen.find_notes(witness)
    assert [n.text for n in notes] == ["今文皮𣗳繁豎糅爲縚古文無以", "今文無射", "古文曰某從於子"]
    assert [(p.tradition, p.kind, p.lemma, p.reading) for p in notes[0].parsed] == [
        ("jinwen", "substitution", "皮𣗳", "繁豎"),
        ("jinwen", "substitution", "糅", "縚"),
        ("guwen", "omission", "以", ""),
    ]
    assert witness.raw.text[notes[0].start : notes[0].start + 2] == "今文" and notes[1].line == 2


def test_each_formula_of_the_grammar_reads_its_example():
    """The grammar is data (edition/collation/data/jinguwen.toml): each formula's example, a note
    of the witnesses, is read, and by a clause the formula's own pattern matches."""
    formulas = tomllib.loads(jinguwen.DATA.read_text(encoding="utf-8"))["formula"]
    assert [f["name"] for f in formulas] == [f.name for f in jinguwen.FORMULAS]
    for table, formula in zip(formulas, jinguwen.FORMULAS):
        parsed, problem = jinguwen.parse(table["example"])
        assert parsed and not problem, (formula.name, table["example"], problem)
        assert formula.pattern is None or formula.pattern.search(table["example"]), formula.name


def test_the_old_copies_zheng_xuan_names_in_the_zhouli_are_a_tradition_of_the_grammar():
    """故書X作Y, 故書X爲Y: Zheng Xuan's 周禮注 on its old copies (春官 小宗伯 掌建國之神位: 故書位作立;
    大祝 祈: 故書祈爲幾), read as the 今文/古文 notes are, as readings of the tradition 故書; and
    今書X爲Y, the copies of his day, of the tradition 今書."""
    for note, lemma, reading, tradition in (
        ("故書位作立", "位", "立", "gushu"),
        ("故書祈爲幾", "祈", "幾", "gushu"),
        ("今書祈爲幾", "祈", "幾", "jinshu"),
    ):
        (parsed,), problem = jinguwen.parse(note)
        assert jinguwen.NAMES[parsed.tradition] == note[:2]
        assert (parsed.tradition, parsed.kind, parsed.lemma, parsed.reading, problem) == (
            tradition,
            "substitution",
            lemma,
            reading,
            "",
        )


def test_a_note_quoted_in_forms_that_differ_only_in_script_variant_form_or_punctuation_is_quoted_once():
    """「今文說皆作稅」 (SBCK) and 「今文説皆作稅」 (WYG) are one wording when the 異體字表 pairs 說 and
    説, whichever way its rows run; a simplified and punctuated web text's wording is one with them;
    a wording with a word more is another."""
    witnesses = {
        i: WitnessView(i, s, s, "", "included", "", name=n, script=script)
        for i, s, n, script in (
            ("wSBCK", "SBCK", "四部叢刊本", "traditional"),
            ("wWYG", "WYG", "四庫本", "traditional"),
            ("w002", "002", "網絡本", "simplified"),
        )
    }
    rows = [VariantFormView("說", "説", 3, [], ""), VariantFormView("説", "說", 1, [], "")]
    edition = EditionView("", "", witnesses, [], [], {}, variant_forms=rows)
    quoted = [("wSBCK", "今文說皆作稅"), ("wWYG", "今文説皆作稅"), ("w002", "今文说，皆作税。")]
    said = "".join(p.text for p in Conventions("chinese").quotes(edition, quoted))
    assert said == "「今文說皆作稅」（四部叢刊本、四庫本、網絡本）"
    quoted.append(("wWYG", "今文說作稅"))
    said = "".join(p.text for p in Conventions("chinese").quotes(edition, quoted))
    assert said.count("「") == 2 and "「今文說作稅」（四庫本）" in said


def test_no_entry_quotes_the_same_note_twice_after_folding(built):
    """Over the built chapter, no 今古文 entry quotes two wordings of Zheng Xuan's note that are one
    after folding script, variant forms and punctuation."""
    edition = render.read(built / "edition.xml")
    same = same_words(edition)
    quoting = [r for app in edition.all_apps for r in app.of_types(("jinguwen",)) if len(r.quotes) > 1]
    assert len(quoting) > 20
    conventions = Conventions(edition.style)
    for r in quoting:
        said = "".join(p.text for p in conventions.quotes(edition, r.quotes))
        wordings = regex.findall(r"「([^」]*)」", said)
        assert len({same(w) for w in wordings}) == len(wordings), said


def made_up_edition(*readings) -> tuple[EditionView, App]:
    """An edition of three witnesses (the base SBCK) and the traditions 今文 and 古文, with one entry."""
    witnesses = {
        i: WitnessView(i, s, s, "", status, "", base=i == "wSBCK", name=n)
        for i, s, n, status in (
            ("wSBCK", "SBCK", "四部叢刊本", "included"),
            ("wWYG", "WYG", "四庫本", "included"),
            ("w002", "002", "網絡本", "included"),
            ("jinwen", "今文", "今文", "hypothetical"),
            ("guwen", "古文", "古文", "hypothetical"),
        )
    }
    app = App("app-1", 1, ReadingView("app-1-lem", ["#wSBCK", "#wWYG"], "弗"), list(readings))
    return EditionView("", "", witnesses, [], [app], {}), app


def said(edition: EditionView, app: App) -> str:
    conventions = Conventions("chinese")
    clauses = [c for r in app.readings for c in conventions.jinguwen(edition, app, r, "弗")]
    return "；".join("".join(p.text for p in c.parts) for c in clauses)


def test_notes_that_name_two_traditions_for_one_reading_are_one_statement_as_the_bases_note_names_it():
    """SBCK's 注 says 今文弗爲不, WYG's 古文弗為不 (士昏禮): a variant of the 注, said once, as 今文 with
    both wordings quoted, the base's first."""
    edition, app = made_up_edition(
        ReadingView("r1", ["#guwen"], "不", "jinguwen", quotes=[("wWYG", "古文弗為不無能字")]),
        ReadingView("r2", ["#jinwen"], "不", "jinguwen", quotes=[("wSBCK", "今文弗爲不無能字")]),
    )
    assert (
        said(edition, app) == "弗，今文作不。鄭注：「今文弗爲不無能字」（四部叢刊本），「古文弗為不無能字」（四庫本）"
    )


def test_readings_one_note_reports_both_are_one_sentence_quoting_it_once():
    """古文苦爲枯今文或作芐 (士虞禮): 「苦，古文作枯，今文作芐。鄭注：…」, the note quoted once, a web
    text's wording of it beside."""
    note = "古文弗爲枯今文或作芐"
    edition, app = made_up_edition(
        ReadingView("r1", ["#guwen"], "枯", "jinguwen", quotes=[("wSBCK", note), ("wWYG", note)]),
        ReadingView("r2", ["#jinwen"], "芐", "jinguwen", quotes=[("wSBCK", note), ("w002", "今文或作芐")]),
    )
    assert said(edition, app) == (
        "弗，古文作枯，今文作芐。鄭注：「古文弗爲枯今文或作芐」（四部叢刊本、四庫本），「今文或作芐」（網絡本）"
    )
