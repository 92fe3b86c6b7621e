"""Collation of the seed witnesses into build/edition.xml: the apparatus, its types and links,
fragments, transpositions, emendations, sections; measured against a hand-checked gold apparatus."""

import json
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
import regex
from differences import minimal_difference
from hypothesis import given
from hypothesis import strategies as st
from lxml import etree
from stripped import without

from edition.collation.apparatus import collate
from edition.collation.reading import classify
from edition.intake.align import align, gap_ops
from edition.publication import validate
from edition.publication.tei import TEI_NS

NS = {"t": TEI_NS}
XML_ID = "{http://www.w3.org/XML/1998/namespace}id"
FIXTURES = Path(__file__).resolve().parent / "fixtures"


@pytest.fixture(scope="module")
def edition(built):
    """The 經 and its apparatus (without the 注, see test_commentary_edition)."""
    return without(etree.parse(str(built / "edition.xml")))


@pytest.fixture(scope="module")
def report(built):
    return json.loads((built / "reports" / "collation.json").read_text())


def text_of(node) -> str:
    return "".join(node.itertext())


def test_edition_is_valid_against_tei_all_and_the_project_schema(edition):
    assert validate.problems(edition) == []


def test_schematron_catches_a_witness_attested_twice_and_a_dangling_wit(edition):
    doc = etree.fromstring(etree.tostring(edition))
    rdg = doc.xpath("//t:p/t:app[t:lem[contains(@wit, '#w002')]]/t:rdg", namespaces=NS)[0]
    rdg.set("wit", rdg.get("wit") + " #w002 #nobody")
    messages = [p.message for p in validate.problems(etree.ElementTree(doc))]
    assert any("witness 002 (" in m and "is attested exactly once" in m and "w002" not in m for m in messages)
    assert any("points at a witness of listWit" in m for m in messages)


def test_header(edition):
    assert edition.xpath("//t:variantEncoding[@method='parallel-segmentation'][@location='internal']", namespaces=NS)
    assert edition.xpath("//t:appInfo/t:application[@ident='edition']/@version", namespaces=NS)
    witnesses = edition.xpath("//t:listWit/t:witness", namespaces=NS)
    assert [w.get(XML_ID) for w in witnesses] == [
        "wSBCK",
        "w000",
        "w001",
        "w002",
        "w003",
        "wWYG",
        "wSHU",
        "wSW",
        "jinwen",
        "guwen",
        "shijing",
        "jianben",
        "zhuzi",
        "aoben",
        "yangben",
    ], "the base first, the books of evidence after the witnesses, the editions the 考證 reports last"
    excluded = edition.xpath("//t:sourceDesc/t:listBibl[@type='excluded']/t:bibl", namespaces=NS)
    assert [w.get(XML_ID) for w in excluded] == ["w004"]
    for w in witnesses[:6] + excluded:
        assert w.xpath("t:note[@type='quality']", namespaces=NS) and w.xpath("t:note[@type='extent']", namespaces=NS)
    for w in witnesses[6:8]:
        assert w.xpath("t:note[@type='status']", namespaces=NS)[0].text.startswith("evidence")
    for w in witnesses[8:10]:
        assert w.xpath("t:note[@type='status']", namespaces=NS)[0].text.startswith("hypothetical")
    for w in witnesses[10:]:
        assert w.xpath("t:note[@type='status']", namespaces=NS)[0].text.startswith("reported")
    assert edition.xpath("//t:charDecl/t:char[@xml:id='g-EB8E']", namespaces=NS), (
        "gaiji read in the apparatus are declared"
    )


def test_every_app_has_ids_and_typed_readings(edition):
    apps = edition.xpath("//t:app", namespaces=NS)
    assert len(apps) > 100
    ids = [n.get(XML_ID) for n in edition.xpath("//t:app | //t:lem | //t:rdg", namespaces=NS)]
    assert all(ids) and len(ids) == len(set(ids))
    types = {r.get("type") for r in edition.xpath("//t:rdg", namespaces=NS)}
    assert types == {"substantive", "lacuna", "gaiji", "transposition", "intrusion", "jinguwen", "fragment", "usage"}, (
        "variant forms are in the 异体字表 only; a usage (一/壹, 通假) is a reading of its own type"
    )


def test_scrambled_004_is_excluded_with_its_score(report, edition):
    w004 = next(w for w in report["witnesses"] if w["siglum"] == "004")
    assert not w004["included"] and w004["quality"] < 0.3 and "scrambled" in w004["reason"]
    assert not edition.xpath("//*[contains(@wit, '#w004')]", namespaces=NS)
    included = {w["siglum"]: w["quality"] for w in report["witnesses"] if w["included"]}
    assert (
        set(included) == {"SBCK", "000", "001", "002", "003", "WYG"} and min(included.values()) > 0.8
    )  # 000 relocates clauses


def test_the_config_can_force_a_witness_in(witnesses, sources):
    forced = collate(
        list(witnesses.values()),
        sources.config.base,
        sources.orthography(),
        sources.config.min_quality,
        include=("004",),
    )
    assert forced.statuses["004"].included and "included by an editorial decision" in forced.statuses["004"].reason
    assert any("004" in r.sigla for u in forced.units for r in u.all_readings)
    kept_out = collate(
        list(witnesses.values()),
        sources.config.base,
        sources.orthography(),
        sources.config.min_quality,
        exclude=("003",),
    )
    assert not kept_out.statuses["003"].included


def test_fragments_start_and_stop_instead_of_omitting(edition, report):
    for wit in ("w000", "w002", "w003"):
        assert len(edition.xpath(f"//t:witStart[@wit='#{wit}']", namespaces=NS)) == 1
        assert len(edition.xpath(f"//t:witEnd[@wit='#{wit}']", namespaces=NS)) == 1
    assert not edition.xpath("//t:witStart[@wit='#w001'] | //t:witStart[@wit='#wWYG']", namespaces=NS), (
        "complete witnesses"
    )
    omissions = edition.xpath("//t:rdg[@subtype='omission'][not(@type='jinguwen')]", namespaces=NS)
    assert len(omissions) < 40, "no flood of omissions outside a fragment"
    extents = {w["siglum"]: w["extant"] for w in report["witnesses"]}
    assert extents["002"][0]["incipit"].startswith("司正升立于序端")
    assert extents["000"][-1]["explicit"].endswith("刋夲尺"), (
        "in the base's order 000 ends with the 記 clause it reads after 三耦以反位"
    )


# 获者之俎折脊胁肺 and 主人亦饮于西阶上 stand on SBCK's lost leaf 37.
JI_CLAUSES = ["若有诸公则如", "三笙一和而成声", "司正既举觯而荐诸其位", "楅长如笴博三寸", "命负侯者由其位"]


def test_moved_ji_clauses_of_000_are_transpositions_tied_to_both_places(edition, report):
    moved = [t["text"] for t in report["transpositions"] if t["siglum"] == "000"]
    for clause in JI_CLAUSES:
        assert any(clause in text for text in moved), clause
    by_id = {n.get(XML_ID): n for n in edition.xpath("//t:rdg", namespaces=NS)}
    here = [
        r
        for r in edition.xpath("//t:rdg[@type='transposition'][@wit='#w000']", namespaces=NS)
        if "三笙一和而成声" in text_of(r)
    ]  # 000's own characters
    assert len(here) == 1
    targets = [by_id[ref.lstrip("#")] for ref in here[0].get("corresp").split()]
    assert targets and all(t.get("type") == "transposition" and text_of(t) == "" for t in targets)
    assert all(f"#{here[0].get(XML_ID)}" in t.get("corresp").split() for t in targets)
    base_text = "".join(
        text_of(
            t.getparent().find("t:lem", NS)
            if t.getparent().tag.endswith("app")
            else t.getparent().getparent().find(".//t:lem", NS)
        )
        for t in targets
    )
    assert "三笙一和而成聲" in base_text, "SBCK's"


def test_order_difference_inside_a_clause_is_a_substitution_not_a_moved_clause():
    """Characters inverted in place (二字互乙) have no other place to point at: a transposition is a
    clause moved elsewhere, with its counterpart there (edition.sch)."""
    from edition.collation.model import Reading

    base, witness = "主人坐取爵于上篚以降宾降", "主人坐取爵于篚上以降宾降"
    a = align(base, witness)
    changed = [op for op in a.ops if op.tag != "equal"]
    b0, b1 = min(op.b0 for op in changed), max(op.b1 for op in changed)
    w0, w1 = min(op.w0 for op in changed), max(op.w1 for op in changed)
    lemma = Reading(["b"], [], base[b0:b1], base[b0:b1])
    reading = Reading(["w"], [], witness[w0:w1], witness[w0:w1])
    assert reading.norm != lemma.norm and sorted(reading.norm) == sorted(lemma.norm)
    assert classify(reading, lemma) == ("substantive", "substitution")


def test_words_a_witness_reads_a_few_characters_on_are_one_reading_said_as_moved():
    """喪服 注 (SBCK 卷十一 l.318: 治其縷如小功而成布尊四升半…以服至也; WYG 卷十一 l.1417: …成布四升半…
    以服至尊也): the 尊 the 注疏 leaves out and adds again eighteen characters on, in the same note, is
    one substitution over both places (倒文), said 「四庫本「尊」在「服至」下」, not an omission and an
    addition; not where the words stand farther apart than `near`, nor across a passage's end."""
    from types import SimpleNamespace

    from edition.publication.conventions import Conventions, reading_kind

    base = "治其缕如小功而成布尊四升半细其缕者以恩轻也升数少者以服至也凡布细而疏者谓之繐"
    witness = base.replace("布尊四", "布四").replace("服至也", "服至尊也")

    def changed(**options):
        return [
            (op.tag, base[op.b0 : op.b1], witness[op.w0 : op.w1])
            for op in align(base, witness, **options).ops
            if op.tag != "equal"
        ]

    assert changed(near=24) == [
        ("replace", "尊四升半细其缕者以恩轻也升数少者以服至", "四升半细其缕者以恩轻也升数少者以服至尊")
    ]
    assert [tag for tag, *_ in changed()] == [tag for tag, *_ in changed(near=12)] == ["delete", "insert"]
    end_of_note = base.index("升数")  # where another passage began
    assert [tag for tag, *_ in changed(near=24, base_passages=frozenset({end_of_note}))] == ["delete", "insert"]
    lemma, reading = changed(near=24)[0][1:]
    app = SimpleNamespace(lemma=SimpleNamespace(text=lemma))
    r = SimpleNamespace(type="substantive", subtype="substitution", text=reading)
    assert reading_kind(app, r) == "displaced_after"
    template = Conventions("chinese").templates["displaced_after"]
    assert template.format(sigla="四庫本", moved="尊", anchor="服至") == "四庫本「尊」在「服至」下"
    # read back (displaced_before), and two characters swapped in place stay 二字互乙
    back = SimpleNamespace(type="substantive", subtype="substitution", text=reading[-1] + reading[:-1])
    assert reading_kind(SimpleNamespace(lemma=SimpleNamespace(text=reading)), back) == "displaced_before"
    swapped = SimpleNamespace(type="substantive", subtype="substitution", text="以得")
    assert reading_kind(SimpleNamespace(lemma=SimpleNamespace(text="得以")), swapped) == "inversion"


LETTERS = "天地玄黃宇宙洪荒日月盈昃辰宿列張寒來暑往秋收冬藏閏餘成歲律呂調陽雲騰致雨露結為霜"


@given(st.permutations(LETTERS), st.integers(8, 30), st.integers(1, 3), st.integers(-20, 20), st.booleans())
def test_words_a_witness_moves_a_few_characters_are_one_substitution_read_once(letters, at, length, by, divided):
    """Words moved a few characters on or back (倒文) are one substitution, unless a passage ends
    between their two places; either way the ops read every base and witness character once, in
    order, and an equal op reads what the base reads."""
    base = "".join(letters)
    words, rest = base[at : at + length], base[:at] + base[at + length :]
    to = min(max(at + by, 8), len(rest) - 8)  # away from the edges, where the base is no longer extant
    witness = rest[:to] + words + rest[to:]
    bound = (min(at, to) + max(at, to) + length) // 2
    passages = frozenset({bound}) if divided else frozenset()
    ops = align(base, witness, near=24, base_passages=passages).ops
    b = w = 0
    for op in ops:
        assert (op.b0, op.w0) == (b, w), ops
        b, w = op.b1, op.w1
        if op.tag == "equal":
            assert base[op.b0 : op.b1] == witness[op.w0 : op.w1]
    assert (b, w) == (len(base), len(witness))
    changed = [op for op in ops if op.tag != "equal"]
    if witness != base and not divided:
        assert len(changed) == 1 and changed[0].tag == "replace", changed


@given(
    st.text(alphabet="甲乙丙丁戊己", min_size=1, max_size=6),
    st.text(alphabet="庚辛壬癸", min_size=1, max_size=8),
    st.text(alphabet="甲乙丙丁戊己", min_size=1, max_size=6),
)
def test_no_op_between_two_anchors_spans_a_moved_clause(before, moved, after):
    """Between two anchors the witness's text is aligned without the clauses it moves there; an op
    that reads the text on both sides of one is split at it (楊復's 儀禮圖, 士昏禮: 婦入寢門…加勺, moved
    before 主人出婦復位, made an equal op read the base's 主人說服 against his 加勺主人, six false
    readings), so that an equal op reads what the base reads and nothing reads the clause twice."""
    base, witness = before + after + moved, before + moved + after
    w0 = len(before)
    block = (w0, w0 + len(moved), len(before + after), len(base))
    ops = gap_ops(base, witness, 0, len(before + after), 0, len(before + moved + after), [block], 40)
    for op in ops:
        assert not (op.w0 < block[1] and block[0] < op.w1), op
        if op.tag == "equal":
            assert base[op.b0 : op.b1] == witness[op.w0 : op.w1], op
    read = sorted(w for op in ops for w in range(op.w0, op.w1))
    assert read == [*range(0, block[0]), *range(block[1], len(witness))]


@pytest.mark.parametrize(
    "wrong,right,evidence",
    [("袓", "袒", ("elsewhere", "皆袒決遂")), ("天", "矢", ("elsewhere", "乗矢而取")), ("末", "未", ("#wSHU", "未旅"))],
)
def test_evident_errors_of_the_base_are_emended_on_evidence_beyond_one_family(edition, wrong, right, evidence):
    """SBCK's 袓, 天 and 末 against 袒, 矢 and 未 in the other witnesses, all of them 注疏本 editions
    (one source): where the base itself writes their words elsewhere (三耦皆袒決遂, 兼誘射之乗矢而取之),
    that is a source of its own (本校); the 單疏本's lemma 未旅, which the base reads with one
    character otherwise, is placed by the lemma of its 注 that follows (注旅序至終也), and is another.
    The base is emended, the entry quoting the evidence."""
    own = "t:lem | t:rdg | t:rdgGrp/t:lem | t:rdgGrp/t:rdg"  # the app's own readings
    apps = [
        app
        for app in edition.xpath("//t:app[not(ancestor::t:rdg)][not(ancestor::t:note)]", namespaces=NS)
        if any(text_of(r) == wrong and "#wSBCK" in r.get("wit", "").split() for r in app.xpath(own, namespaces=NS))
        and any(text_of(r) == right for r in app.xpath(own, namespaces=NS))
    ]
    assert len(apps) == 1, (wrong, right)
    lem = apps[0].xpath("t:lem | t:rdgGrp/t:lem", namespaces=NS)[0]
    assert (text_of(lem), lem.get("resp")) == (right, "#edition-auto")
    where, words = evidence
    quoted = apps[0].xpath(f"t:witDetail[@subtype='{where}' or @wit='{where}']/t:q", namespaces=NS)
    assert [text_of(q) for q in quoted] == [words]


@pytest.mark.parametrize("wrong,right", [("常", "堂"), ("座", "卒"), ("家", "賔"), ("斛", "觶")])
def test_typing_errors_of_a_witness_are_its_readings(edition, wrong, right):
    hits = [
        r
        for r in edition.xpath("//t:rdg[@wit='#w001'][@type='substantive']", namespaces=NS)
        if text_of(r) == wrong and right in text_of(r.getparent().find(".//t:lem", NS))
    ]
    assert len(hits) == 1, (wrong, right)


def test_no_automatic_emendation_rests_on_one_witness(edition, witnesses, sources):
    for lem in edition.xpath("//t:lem[@resp='#edition-auto']", namespaces=NS):
        assert len(lem.get("wit").split()) >= 2, text_of(lem)
    alone = collate([witnesses["SBCK"], witnesses["001"]], "SBCK", sources.orthography())
    own = lambda unit: any(q.layer == "elsewhere" for q in unit.evidence.get(unit.lemma.norm, []))
    assert not any(u.emended and not own(u) for u in alone.units), "one witness never emends the base alone"
    assert any(u.emended and own(u) for u in alone.units), "with the base's own words elsewhere it does (本校)"
    candidates = [u for u in alone.units if u.candidate]
    assert any(u.lemma.source == "末" and u.readings[0].source == "未" for u in candidates), (
        "a candidate for the editor instead"
    )


def edited_text(edition) -> str:
    body = etree.fromstring(etree.tostring(edition.find(".//t:body", NS)))
    for rdg in body.xpath("//t:rdg | //t:head | //t:app/t:note", namespaces=NS):
        rdg.getparent().remove(rdg)
    return "".join(body.itertext())


def test_intrusions_are_readings_and_never_in_the_edited_text(edition):
    intrusions = {text_of(r) for r in edition.xpath("//t:rdg[@type='intrusion']", namespaces=NS)}
    assert intrusions == {"摧", "蜂蜜英语"}
    text = edited_text(edition)
    assert "摧" not in text and "蜂蜜" not in text
    assert "主人取爵于上篚" in text and "上射升堂，少左" in text
    assert "升堂，揖；豫則鉤楹" in text and ";" not in regex.sub(r"&\w+;", "", text), (
        "SBCK's text with 001's punctuation, full-width"
    )
    marks = edition.xpath("//t:body//t:pc[not(ancestor::t:note[@type='textual'])]", namespaces=NS)
    assert marks and all(
        m.get("resp") == "#edition-auto" and m.get("source") == "#w001" and len(m.text) == 1 and not m.text.isascii()
        for m in marks
    )
    assert not edition.xpath("//t:rdg//t:pc", namespaces=NS), "editorial punctuation belongs to the edited text"


def test_variant_forms_are_counted_in_the_appendix(edition, witnesses):
    rows = edition.xpath(
        "//t:back/t:div[@type='variant-forms']/t:table/t:row[t:cell[1] = '賔'][t:cell[2] = '賓']", namespaces=NS
    )
    assert len(rows) == 1, "SBCK's 賔 where WYG writes 賓"
    cells = rows[0].findall("t:cell", NS)
    wyg = witnesses["WYG"]
    written = sum(s.text(wyg.raw).count("賓") for layer in ("classic", "commentary") for s in wyg.segments_of(layer))
    assert [r.get("target") for r in cells[3].findall("t:ref", NS)] == ["#wWYG"]
    assert 0.9 * written <= int(cells[2].text) <= written, "every 賓 of WYG's 經 and 注 but on SBCK's lost leaves"
    assert cells[4].text == "馬守真《漢英字典》；統一碼漢字資料庫釋義、部首同", "the dictionaries it was folded by"


def test_sections_come_from_the_witnesses_labels(edition, report):
    heads = edition.xpath("//t:div[@type='section']/t:head/text()", namespaces=NS)
    # 禮書綱目 (000) writes 献大夫, 乐賔…: its labels in the base's traditional script
    for title in ("獻大夫", "樂賔", "誘射", "飲不勝者", "旅酬", "徹俎", "記賓", "記侯"):
        assert title in heads, title
    divs = edition.xpath("//t:div[@type='section']", namespaces=NS)
    assert all(d.get(XML_ID) and d.find("t:p", NS).get(XML_ID) for d in divs)
    assert edition.xpath("//t:div[t:head='獻大夫']/t:head/@source", namespaces=NS) == ["#w000"]


def test_teiphy_converts_the_edition_to_nexus(built, tmp_path):
    out = tmp_path / "edition.nex"
    command = Path(sys.executable).parent / "teiphy"
    result = subprocess.run(
        [str(command), "-t", "orthographic", "-t", "gaiji", "-m", "lacuna", str(built / "edition.xml"), str(out)],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    nexus = out.read_text()
    assert nexus.startswith("#NEXUS") and "ntax=15" in nexus, (
        "six collated witnesses, the two books of evidence, the two traditions and the five editions the 考證"
        " reports (the excluded 004 is no witness of listWit)"
    )
    assert "Matrix" in nexus or "MATRIX" in nexus


def tool_variants(apparatus, start: int, end: int, sigla) -> set[tuple[str, int, str, str]]:
    """(witness, base position, base characters, witness characters) of every substantive
    difference from the base, whichever reading is the lemma."""
    base_siglum = apparatus.base.meta.siglum
    found = set()
    for unit in apparatus.units:
        if unit.t1 < start or unit.t0 > end:
            continue
        base_reading = unit.reading_of(base_siglum)
        for reading in unit.all_readings:
            for siglum in reading.sigla:
                if siglum not in sigla or reading.moves:
                    continue
                if classify(reading, base_reading)[0] != "substantive":
                    continue
                offset, base_chars, witness_chars = minimal_difference(base_reading.norm, reading.norm)
                found.add((siglum, unit.t0 + offset, base_chars, witness_chars))
    return found


def gold_variants(passage, base_text: str, normalizer) -> set[tuple[str, int, str, str]]:
    gold = set()
    for variant in passage["variant"]:
        context = variant["base"]
        plain = context.replace("[", "").replace("]", "")
        at = base_text.index(plain)
        assert base_text.count(plain) == 1, plain
        offset = at + context.index("[")
        chars = context[context.index("[") + 1 : context.index("]")]
        reading = "".join(normalizer.fold(c)[0] for c in variant["reading"])
        gold.add((variant["witness"], offset, chars, reading))
    return gold


def test_substantive_variants_match_the_gold_apparatus(apparatus, sources):

    normalizer = sources.normalizer()
    base_text = apparatus.base.classic.text
    passages = tomllib.loads((FIXTURES / "gold_apparatus.toml").read_text())["passage"]
    true_positive = found_total = gold_total = 0
    for passage in passages:
        start = base_text.index(passage["start"])
        end = base_text.index(passage["end"]) + len(passage["end"])
        gold = gold_variants(passage, base_text, normalizer)
        found = tool_variants(apparatus, start, end, set(passage["witnesses"]))
        true_positive += len(gold & found)
        found_total += len(found)
        gold_total += len(gold)
    precision, recall = true_positive / found_total, true_positive / gold_total
    assert precision >= 0.95 and recall >= 0.95, (precision, recall)
