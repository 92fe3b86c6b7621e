"""喪服 (卷十一), checked by hand: the apparatus of its opening, SBCK lines 8–36 (615 characters of
經, 傳 and 注), against the two witnesses' files (WYG lines 56–171)."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
import regex
from lxml import etree

from edition.collation import decisions
from edition.collation.analysis import Context
from edition.collation.model import Decision, Decisions
from edition.publication import report

NS = {"t": "http://www.tei-c.org/ns/1.0"}
XML_ID = "{http://www.w3.org/XML/1998/namespace}id"


@pytest.fixture(scope="module")
def body(sangfu) -> etree._Element:
    return sangfu.document.find(".//t:body", NS)


def entries(body: etree._Element, count: int) -> list[tuple[str, str, list[tuple[str, str, str]]]]:
    """The first entries of the 經 and 傳 that record a witness's reading: lemma, its witnesses, and
    the readings (witnesses, type, text); not those of the editions a 校语 reports alone."""
    reported = {
        "#" + w.get(XML_ID)
        for w in body.getroottree().iterfind(".//t:listWit/t:witness", NS)
        if w.findtext("t:note[@type='status']", namespaces=NS).startswith("reported")
    }
    found = []
    for app in body.iter(f"{{{NS['t']}}}app"):
        if any(etree.QName(a).localname == "note" for a in app.iterancestors()):
            continue  # the 注's own apparatus
        readings = [
            (r.get("wit"), r.get("type"), "".join(r.itertext()))
            for r in app.iterfind(".//t:rdg", NS)
            if not set(r.get("wit", "").split()) <= reported
        ]
        if readings:
            lemma = app.find(".//t:lem", NS)
            found.append(("".join(lemma.itertext()), lemma.get("wit"), readings))
        if len(found) == count:
            break
    return found


def test_the_opening_of_sangfu_reads_as_the_two_files_read(body):
    """SBCK 杖各分其心, 冠纓纓條屬, 鍜而勿&KR0069;, 寢不&KR0003;絰帶, 翦屏柱楣, 而巳 against WYG 杖各齊其心,
    冠繩纓條屬, 鍛而勿灰, 寢不脫絰帶, 翦屏拄&KR0925;, 而已. Where the 單疏本 quotes WYG's reading too (云杖各
    齊其心者, 云冠繩纓條屬者, 云鍛而勿灰者: KR1d0027_028.txt) the base is emended on two sources; not by 寢不脫
    絰帶, 說 for 脫 being a usage (通假), never an emendation; 巳/已, a graphic family, reads as WYG, the
    base's 巳 a graphic variant; 䘮/喪 and 䟽/疏 are variant forms, no entry. &KR0925;, which Kanripo's
    table leaves open, is 楣 (sources/gaiji.tsv): 柱/拄 is the substantive reading, 楣 a stand-in's."""
    found = entries(body, 8)
    assert found[0] == ("齊", "#wWYG", [("#wSBCK", "substantive", "分")])
    assert found[1] == ("繩", "#wWYG", [("#wSBCK", "substantive", "纓")])
    assert found[2] == ("鍛", "#wWYG", [("#wSBCK", "substantive", "鍜")])
    assert found[3] == ("&KR0069;", "#wSBCK", [("#wWYG", "gaiji", "灰")])  # Kanripo's table: KR0069 is 灰
    assert found[4] == ("&KR0003;", "#wSBCK", [("#wWYG", "usage", "脫")])  # KR0003 is 說 there
    assert found[5] == ("柱", "#wSBCK", [("#wWYG", "substantive", "拄")])
    assert found[6] == ("楣", "#wSBCK", [("#wWYG", "gaiji", "&KR0925;")])
    assert found[7] == ("已", "#wWYG", [("#wSBCK", "graphic", "巳")])
    outer = [
        a
        for a in body.iter(f"{{{NS['t']}}}app")
        if not any(etree.QName(p).localname == "note" for p in a.iterancestors())
    ]
    evidence = [
        (d.get("wit"), d.findtext("t:q", namespaces=NS))
        for a in outer
        for d in a.iterfind("t:witDetail[@type='evidence']", NS)
    ]
    assert [q for wit, q in evidence if wit == "#wSHU"][:3] == ["杖各齊其心", "冠繩纓條屬", "鍛而勿灰"]
    assert ("#wWYG", "寢不脫絰帶") in evidence and ("#wSHU", "寢不脫絰帶") not in evidence
    lemmata = {lemma for lemma, _, _ in entries(body, 40)}
    assert not lemmata & {"䘮", "喪", "䟽", "疏"}


def reading_text(element: etree._Element):
    """The edited text in document order, with ("mark", unit) where a milestone stands: no 注,
    no readings of the witnesses and their evidence."""
    name = etree.QName(element).localname if isinstance(element.tag, str) else ""
    if name == "milestone":
        yield ("mark", element.get("unit"))
    elif name and name not in ("note", "rdg", "witDetail"):
        if element.text:
            yield element.text
        for child in element:
            yield from reading_text(child)
            if child.tail:
                yield child.tail


def test_the_tradition_of_sangfu_is_marked_where_it_begins_and_ends(body):
    """The 經 斬衰裳…菅屨者, its 注, then the 傳 傳曰斬者何不緝也…哭無時, its 注, then the 經 父."""
    pieces, current = [], ["classic", ""]
    for item in reading_text(body):
        if isinstance(item, tuple):
            pieces.append(tuple(current))
            current = [item[1], ""]
        else:
            current[1] += item
    pieces = [(unit, regex.sub(r"[\s\p{P}]", "", text)) for unit, text in pieces + [tuple(current)]]
    assert pieces[0][0] == "classic" and pieces[0][1].endswith("斬衰裳苴絰杖絞帶冠繩纓菅屨者")
    assert pieces[1][0] == "tradition" and pieces[1][1].startswith("傳曰斬者何不緝也苴絰者麻之有蕡者也苴絰大搹左")
    assert pieces[1][1].endswith("旣練舎外寢始食菜果飯素食哭無時")
    assert pieces[2][0] == "classic" and pieces[2][1].startswith("父")
    assert len(pieces) > 60


def test_an_editors_decision_on_the_zhu_emends_it(sangfu):
    """喪服's decisions.toml emends the 注's 一斬匹緝 (SBCK line 415, 匹 for 四) to WYG's 四
    (KR1d0028_011.txt line 2090), the base standing without independent evidence otherwise: a
    decision with layer = "注" rules the entry of the 注's apparatus, as one on the 經 rules the 經's."""
    commentary = sangfu.edited.commentary.apparatus
    [decided] = [u for u in commentary.units if u.decided is not None]
    base_reading = next(r for r in decided.readings if "SBCK" in r.sigla)
    assert (base_reading.source, decided.lemma.source, decided.lemma.sigla, decided.basis) == (
        "匹",
        "四",
        ["WYG"],
        "對校",
    )
    assert not [u for u in sangfu.edited.apparatus.units if u.decided is not None], "nothing decided on the 經"
    found = sangfu.edited.found["decisions"]
    assert not found.stale()
    [summary] = decisions.summarize(found)["decisions"]
    assert summary["layer"] == "注" and summary["applied_to"] == f"zhu-app-{decided.index + 1}"
    [lem] = sangfu.document.xpath(f"//t:app[@xml:id='zhu-app-{decided.index + 1}']/t:lem", namespaces=NS)
    assert (lem.text, lem.get("resp"), lem.get("cause")) == ("四", "#ed-ed", "對校")
    note = lem.getparent().find("t:note[@type='editorial']", NS)
    assert note is not None and "一斬四緝" in note.text, "the editor's reason, as written"


def test_the_candidates_of_the_zhu_are_listed_with_a_decision_on_the_zhu(sangfu):
    """Where the base's 注 stands alone against WYG, the place is listed for the editor, and the
    decision ready to paste is one on the 注 that finds its place again."""
    summary = report.collation_report(
        sangfu.edited.apparatus, sangfu.edited.sections, {"ed": "editors"}, [], [], sangfu.edited.commentary
    )
    on_notes = [c for c in summary["candidates"] if c["app"].startswith("zhu-app-")]
    assert len(on_notes) > 20 and all(c["layer"] == "注" for c in on_notes)
    stanza = tomllib.loads(on_notes[0]["decision"])["decision"][0]
    assert stanza["layer"] == "注" and stanza["kind"] == "lemma"
    choices = Decisions(Path("decisions.toml"), {"ed": "editors"}, [Decision(1, 1, "lemma", stanza)])
    context = Context(sangfu.sources.config, Path("edition.toml"), sangfu.sources.normalizer(), {}, choices)
    context.found["sections"] = []
    found = decisions.find(sangfu.edited.commentary.apparatus, context)
    [(_, (t0, t1))] = found.places
    unit = next(u for u in sangfu.edited.commentary.apparatus.units if (u.t0, u.t1) == (t0, t1))
    assert on_notes[0]["app"] == f"zhu-app-{unit.index + 1}"
    assert not decisions.find(sangfu.edited.apparatus, context).places, "a decision on the 注 is not placed in the 經"
