"""Moved text: a clause that a witness reads elsewhere is one apparatus entry at each end, the two
linked both ways, with the witness's differences from the clause recorded where it has it; on the
seeds (礼书纲目's relocated 记 clauses) and on a small edition made here."""

import json
import re
import shutil
from pathlib import Path

import pytest
from conftest import SOURCES, printed_entries
from lxml import etree
from stripped import without

from edition.collation.apparatus import collate
from edition.collation.sections import sections
from edition.publication import tei, validate
from edition.work.sources import Sources

ROOT = Path(__file__).resolve().parent.parent
NS = {"t": tei.TEI_NS}
XML_ID = "{http://www.w3.org/XML/1998/namespace}id"
STANZA = (
    '\n[[witness]]\nsiglum = "{siglum}"\nfile = "{siglum}.txt"\ntitle = "test {siglum}"\n'
    'script = "simplified"\nprofile = "plain"\n'
)


def text_of(node) -> str:
    return "".join(node.itertext())


def lemma_text(lem) -> str:
    """A lemma's text, the lemmas of apps nested in it included, their readings left out."""
    copy = etree.fromstring(etree.tostring(lem))
    etree.strip_elements(copy, *(f"{{{tei.TEI_NS}}}{name}" for name in ("rdg", "note", "witDetail")), with_tail=False)
    return text_of(copy)


def bare(text: str) -> str:
    """Text without punctuation, an entity as one character."""
    return re.sub(r"\W", "", re.sub(r"&[^;]+;", "X", text))


def transposed(doc, wit: str) -> list:
    return doc.xpath(f"//t:rdg[@type='transposition'][@wit='{wit}']", namespaces=NS)


def assert_linked_both_ways(doc, readings) -> None:
    by_id = {r.get(XML_ID): r for r in doc.xpath("//t:rdg", namespaces=NS)}
    for reading in readings:
        other = by_id[reading.get("corresp").lstrip("#")]
        assert other.get("type") == "transposition" and other.get("corresp") == f"#{reading.get(XML_ID)}"


# --- A small edition: a witness that moves one sentence -------------------------------------------


@pytest.fixture(scope="module")
def small(witnesses, tmp_path_factory):
    """Base B: a passage of the seed base (001). M reads one sentence of it later, with one
    character changed; L reads it in place with a character lost inside that sentence."""
    base = witnesses["001"]
    tokens = base.classic.tokens
    passage = base.classic_between(tokens[200].start, tokens[700].end)
    sentences = re.findall(r"[^。]+。", passage)
    moved = next(s for s in sentences[len(sentences) // 3 :] if len(re.findall(r"[一-鿿]", s)) >= 12)
    without = passage.replace(moved, "", 1)
    target = without.index(sentences[-3])
    changed = moved[:5] + "甲" + moved[6:]
    texts = {
        "B": passage,
        "M": without[:target] + changed + without[target:],
        "L": passage.replace(moved, moved[:8] + "▯" + moved[9:], 1),
    }
    return (*small_edition(texts, tmp_path_factory), moved, changed)


def small_edition(texts: dict[str, str], tmp_path_factory):
    """The apparatus and TEI of a small edition of these texts, B the base."""
    root = tmp_path_factory.mktemp("moves") / "sources"
    root.mkdir()
    for name in ("variants.tsv", "gaiji.tsv", "persons.tsv"):
        shutil.copy(SOURCES / name, root / name)
    (root / "edition.toml").write_text('[edition]\ntitle = "t"\nbase = "B"\ncomparison_script = "simplified"\n')
    with (root / "witnesses.toml").open("w", encoding="utf-8") as handle:
        for siglum, text in texts.items():
            (root / f"{siglum}.txt").write_text(text + "\n", encoding="utf-8")
            handle.write(STANZA.format(siglum=siglum))
    sources = Sources.load(root)
    apparatus = collate(sources.intake_all(), "B", sources.orthography())
    found = sections(apparatus.base, apparatus.units, apparatus.section_cuts, apparatus.section_titles)
    return apparatus, tei.edition_document(sources, apparatus, found, {})


def test_a_moved_sentence_is_two_linked_entries(small):
    apparatus, document, moved, _ = small
    assert [(t.siglum, t.display) for t in apparatus.transpositions] == [
        ("M", re.sub(r"[，。、；：]", "", moved[:5] + "甲" + moved[6:]))
    ]
    readings = transposed(document, "#wM")
    assert len(readings) == 2
    apps = [r.getparent() for r in readings]
    assert all(a.get("type") == "transposition" for a in apps) and apps[0] is not apps[1]
    assert_linked_both_ways(document, readings)
    away = next(r for r in readings if text_of(r) == "")
    assert lemma_text(away.getparent().find("t:lem", NS)) == moved.rstrip("。"), "the whole sentence, one entry"


def test_a_lacuna_of_another_witness_inside_the_moved_sentence_does_not_fragment_it(small):
    _, document, moved, _ = small
    away = next(r for r in transposed(document, "#wM") if text_of(r) == "")
    nested = away.getparent().find("t:lem", NS).findall("t:app", NS)
    assert [(n.find(".//t:rdg", NS).get("wit"), n.find(".//t:rdg", NS).get("type")) for n in nested] == [
        ("#wL", "lacuna")
    ]


def test_the_change_inside_the_moved_sentence_is_recorded_where_the_witness_has_it(small):
    _, document, moved, changed = small
    arrival = next(r for r in transposed(document, "#wM") if text_of(r))
    nested = arrival.findall("t:app", NS)
    assert len(nested) == 1
    assert (text_of(nested[0].find("t:lem", NS)), text_of(nested[0].find("t:rdg", NS))) == (moved[5], "甲")
    assert nested[0].find("t:rdg", NS).get("subtype") == "substitution"


def test_the_small_edition_is_valid(small):
    assert validate.problems(small[1]) == []


def test_an_addition_between_two_clauses_another_witness_moves_attests_that_witness_in_the_lemma(
    witnesses, tmp_path_factory
):
    """M reads two neighbouring sentences later, each in another place; A adds a character between them. M is extant
    there and has nothing at that place: it reads the lemma (found by the scale bench, where the
    build failed on edition.sch)."""
    base = witnesses["001"]
    tokens = base.classic.tokens
    passage = base.classic_between(tokens[200].start, tokens[700].end)
    sentences = re.findall(r"[^。]+。", passage)
    first = next(
        i
        for i in range(len(sentences) // 3, len(sentences))
        if all(len(re.findall(r"[一-鿿]", s)) >= 12 for s in sentences[i : i + 2])
    )
    one, two = sentences[first], sentences[first + 1]
    without = passage.replace(one + two, "", 1)
    without = without.replace(sentences[-5], sentences[-5] + one, 1).replace(sentences[-2], sentences[-2] + two, 1)
    texts = {"B": passage, "M": without, "A": passage.replace(one + two, one + "雲" + two, 1)}
    apparatus, document = small_edition(texts, tmp_path_factory)
    assert [t.siglum for t in apparatus.transpositions] == ["M", "M"]
    addition = document.xpath("//t:app[t:rdg[@wit = '#wA'] = '雲']", namespaces=NS)
    assert len(addition) == 1 and "#wM" in addition[0].find("t:lem", NS).get("wit").split()
    assert validate.problems(document) == []


# --- The seeds: 礼书纲目's 记 clauses -------------------------------------------------------------


@pytest.fixture(scope="module")
def seed(built):
    """The seeds' edition.xml without the 注 (see test_commentary_edition), and collation report."""
    return without(etree.parse(str(built / "edition.xml"))), json.loads(
        (built / "reports" / "collation.json").read_text()
    )


def test_every_moved_clause_of_000_is_one_entry_at_each_end_linked_both_ways(seed):
    edition, report = seed
    moved = [t for t in report["transpositions"] if t["siglum"] == "000"]
    assert len(moved) >= 20
    readings = transposed(edition, "#w000")
    assert len(readings) == 2 * len(moved), "one reading at each end, no fragments"
    assert_linked_both_ways(edition, readings)
    apps = {a.get(XML_ID): a for a in edition.xpath("//t:app", namespaces=NS)}
    for t in moved:
        here, there = apps[t["app_here"]], apps[t["app_there"]]
        clause = bare(lemma_text(here.find("t:lem", NS)))  # the edited text of it: the base's, or emended
        base_text = bare(t["base_text"])
        assert (len(clause), clause[:2], clause[-2:]) == (len(base_text), base_text[:2], base_text[-2:]), (
            "the whole clause, one entry"
        )
        assert [text_of(r) for r in here.findall("t:rdg", NS) if r.get("wit") == "#w000"] == [""]
        arrival = [r for r in there.findall("t:rdg", NS) if r.get("wit") == "#w000"]
        assert len(arrival) == 1 and arrival[0].get("corresp") in {
            f"#{r.get(XML_ID)}" for r in here.findall("t:rdg", NS)
        }


def test_variants_inside_the_moved_clauses_are_recorded_where_000_has_them(seed):
    edition = seed[0]
    inside = {
        (
            text_of(app.find(".//t:lem", NS)),
            tuple(sorted((r.get("wit"), text_of(r)) for r in app.iterfind(".//t:rdg", NS))),
        )
        for app in edition.xpath("//t:rdg[@type='transposition'][@wit='#w000']/t:app", namespaces=NS)
    }
    assert ("薫", (("#w000", "纁"),)) in inside
    assert ("拳", (("#w000", "奉"),)) in inside
    assert ("矢", (("#wSBCK", "天"),)) in inside, "the base's 天 is emended to 000's 矢 (本校: it writes 乗矢而取)"


def test_omissions_of_000_among_its_relocated_clauses_have_entries(seed):
    edition = seed[0]
    omitted = {
        re.sub(r"\W", "", text_of(r.getparent().find("t:lem", NS)))
        for r in edition.xpath("//t:rdg[@wit='#w000'][@subtype='omission']", namespaces=NS)
    }
    assert {"樂正與立者齒", "立者東面北上"} <= omitted


def test_a_compilers_regrouping_is_said_once_not_clause_by_clause(printed, built):
    """江永's 禮書綱目 (000) moves clauses of 鄉射禮, 經 and 注, to where he explains them: no entry says
    them (the TEI keeps each as a transposition), the conspectus counts them for 000, and one item
    of the 凡例 says so; its page shows its order (below)."""
    assert not re.search(r"禮書綱目此下有「|禮書綱目此處無「", printed)
    document = etree.parse(str(built / "edition.xml"))
    moved = document.xpath("//t:rdg[@type='transposition'][@wit='#w000']", namespaces=NS)
    counted = document.xpath(
        "//t:listWit/t:witness[@n='000']/t:note[@type='unrecorded'][@subtype='regrouped']/@n", namespaces=NS
    )
    assert counted and int(counted[0]) >= 60 and len(moved) >= int(counted[0])
    [item] = document.xpath("//t:div[@type='fanli']/t:p[@n='regrouped']", namespaces=NS)
    assert item.text.startswith("一、禮書綱目重編經文")
    assert not document.xpath("//t:listWit/t:witness[@n!='000']/t:note[@subtype='regrouped']", namespaces=NS)


def test_the_moves_of_a_witness_that_does_not_regroup_are_said_where_they_stand(built, tmp_path):
    """The same moves as a witness's that moves fewer clauses than a compiler (its count taken out of
    the TEI): each end says where the other is, by section and sentence."""
    document = etree.parse(str(built / "edition.xml"))
    for note in document.xpath("//t:note[@type='unrecorded'][@subtype='regrouped']", namespaces=NS):
        note.getparent().remove(note)
    path = tmp_path / "edition.xml"
    document.write(str(path), encoding="utf-8")
    printed = printed_entries(path)
    arrivals = re.findall(r"禮書綱目此下有「[^」]+」，本在(\d+\.\d+)", printed)
    aways = re.findall(r"禮書綱目此處無「[^」]+」，移在(\d+\.\d+)", printed)
    assert len(arrivals) >= 20 and len(aways) >= 20


def test_the_witness_page_shows_its_own_order_and_the_base_order(built):
    site = built / "site"

    def plain(name: str) -> str:
        return re.sub(r"<[^>]+>", "", (site / name).read_text(encoding="utf-8"))

    own, base = plain("witness-000-own-order.html"), plain("witness-000.html")
    clause, later_text = (
        "三笙一和而成声",
        "主人降席自南方",
    )  # a 记 clause Jiang Yong puts after 乐宾, and the 立司正 text after it
    assert own.index(clause) < own.index(later_text), "Jiang Yong's arrangement"
    assert base.index(clause) > base.index(later_text), "the base's order"
    assert "witness-000-own-order.html" in (site / "witness-000.html").read_text(encoding="utf-8")
