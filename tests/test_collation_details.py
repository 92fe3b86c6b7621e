"""Details of the collation a philologist checks entry by entry: an omission or addition of a
repeated character (SBCK 勝者先升升堂, WYG and 000 先升堂) is an entry over the repetition; a
reading shared by witnesses of both scripts is printed in the characters of one that writes the
edition's script; a difference at the seam of two glosses of the 注 is said once. On a small
edition made here from SBCK's own lines, on the seeds' apparatus and on the seed build."""

import pytest
import regex
from conftest import ROOT, SOURCES, WORK, collated, printed_entries
from hypothesis import given, settings
from hypothesis import strategies as st
from lxml import etree

from edition.intake.align import align
from edition.intake.model import Op
from edition.publication import validate
from edition.publication.tei import TEI_NS
from edition.work.chapter_build import collate_only

NS = {"t": TEI_NS}
STANZA = (
    '\n[[witness]]\nsiglum = "{0}"\nfile = "{0}.txt"\ntitle = "test {0}"\nscript = "traditional"\n'
    'profile = "mandoku-notes"\n'
)
# SBCK 鄉射禮 (KR1d0026_005.txt) lines 158-162, 請安于賔(傳主人之命)賔禮 at line 160, and 372-386:
# 勝者先升升堂 at line 380, and Zheng's notes 居前俟所命來 (line 376) and 先升尊賢也… (line 380), one
# gloss after the other in the 注.
LINES = (slice(157, 162), slice(371, 386))
# W: 先升堂 as WYG reads it; 相揖揖 for 相揖; 賔(…)禮, the one 賔 after a note lacking; the end of one
# gloss and the start of the next in other characters, one difference across the seam (來|先 read 德|太).
CHANGES = (
    ("者先升升堂", "者先升堂"),
    ("相揖出于", "相揖揖出于"),
    ("之命)賔禮", "之命)禮"),
    ("所命來)", "所命德)"),
    ("(先升尊賢", "(太升尊賢"),
)


def plain(node) -> str:
    """An element's text without the punctuation the edition supplies, its nested readings left out."""
    copy = etree.fromstring(etree.tostring(node))
    etree.strip_elements(copy, *(f"{{{TEI_NS}}}{n}" for n in ("pc", "rdg", "note", "witDetail")), with_tail=False)
    return "".join(copy.itertext())


@pytest.fixture(scope="module")
def small(tmp_path_factory):
    """A base B (SBCK's lines) and a witness W that differs from it as CHANGES say, collated: the
    TEI and the apparatus as printed."""
    root = tmp_path_factory.mktemp("details")
    sources = root / "sources"
    sources.mkdir()
    for name in ("variants.tsv", "gaiji.tsv", "persons.tsv"):
        (sources / name).write_bytes((WORK / name).read_bytes())
    (sources / "edition.toml").write_text('[edition]\ntitle = "t"\nbase = "B"\ncomparison_script = "simplified"\n')
    (sources / "witnesses.toml").write_text(STANZA.format("B") + STANZA.format("W"))
    lines = (WORK / "SBCK" / "KR1d0026_005.txt").read_text(encoding="utf-8").splitlines(True)
    base = "".join(line for part in LINES for line in lines[part])
    witness = base
    for old, new in CHANGES:
        assert base.count(old) == 1
        witness = witness.replace(old, new)
    (sources / "B.txt").write_text(base, encoding="utf-8")
    (sources / "W.txt").write_text(witness, encoding="utf-8")
    collate_only(sources, root / "out")
    edition = root / "out" / "edition.xml"
    return etree.parse(str(edition)), printed_entries(edition).splitlines()


def test_the_small_edition_is_valid(small):
    assert validate.problems(small[0]) == []


def test_an_omission_of_one_of_two_repeated_characters_is_an_entry_over_both(small):
    document, printed = small
    (app,) = document.xpath("//t:app[t:rdg[@wit='#wW'] = '升']", namespaces=NS)
    assert plain(app.find("t:lem", NS)) == "升升" and app.find("t:lem", NS).get("wit") == "#wB"
    # the lemma says which characters, with the text's punctuation between them; not 「W無升」
    assert any(regex.sub(r"\p{P}", "", line) == "升升W作升" and line.endswith("，W作升。") for line in printed), printed


def test_a_character_doubled_is_an_entry_over_the_one_the_base_writes(small):
    document, printed = small
    (app,) = document.xpath("//t:app[t:rdg[@wit='#wW'] = '揖揖']", namespaces=NS)
    assert plain(app.find("t:lem", NS)) == "揖"
    assert "揖，W作揖揖。" in printed, "not 「W揖下有揖」, which of the two is added is no fact"


def test_a_character_that_repeats_one_across_a_note_is_a_word_of_its_own(small):
    """請安于賔(傳主人之命)賔禮: the two 賔 end one clause and begin the next; W lacks the second."""
    document, printed = small
    (app,) = document.xpath("//t:p//t:app[t:rdg[@wit='#wW'][@subtype='omission']]", namespaces=NS)
    assert plain(app.find("t:lem", NS)) == "賔"
    assert any(line.startswith("W無賔") for line in printed)


def test_a_difference_across_the_seam_of_two_glosses_is_said_once(small):
    document, printed = small
    readings = [r.text for r in document.xpath("//t:note[@type='commentary']//t:rdg[@wit='#wW']", namespaces=NS)]
    assert sorted(readings) == ["太", "德"], "each gloss reads its own side of the seam, once"
    assert [line for line in printed if "德" in line or "太" in line] == ["注：來，W作德。", "注：先，W作太。"]


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.sampled_from("禮射賓主人升降堂階西東北南面揖拜受爵觶洗席尊獻酬卒司馬耦弓矢中獲"), min_size=40, max_size=90
    ),
    st.integers(min_value=12, max_value=28),
    st.booleans(),
)
def test_a_character_repeated_or_left_out_is_one_difference_and_no_character_is_read_twice(chars, at, doubled):
    """Whatever the text, a witness that writes one character of the base twice, or leaves one
    out, aligns with the base in ops that take each character of either text once, and one of
    them is that difference."""
    base = "".join(chars)
    witness = base[: at + 1] + base[at:] if doubled else base[:at] + base[at + 1 :]
    ops = align(base, witness).ops
    assert all(a.b1 == b.b0 and a.w1 == b.w0 for a, b in zip(ops, ops[1:])), "no character in two ops"
    if ops and ops[0].b0 == 0 and ops[-1].b1 == len(base):  # aligned throughout
        changed = [op for op in ops if op.tag != "equal"]
        assert [(op.tag, op.b1 - op.b0 + op.w1 - op.w0) for op in changed] == [("insert" if doubled else "delete", 1)]


# --- the seeds ------------------------------------------------------------------------------------------


def test_shengsheng_of_the_base_read_once_by_wyg_and_000_is_an_entry(built):
    """KR1d0026_005.txt line 380 勝者先升升堂少右; KR1d0028_005.txt 勝者先升堂 (its 考證: 楊本敖本疊升字);
    000 先升堂; 001 先升，升堂 as the base."""
    document = etree.parse(str(built / "edition.xml"))
    apps = [a for a in document.xpath("//t:p//t:app[t:lem]", namespaces=NS) if plain(a.find("t:lem", NS)) == "升升"]
    assert len(apps) == 1
    (reading,) = apps[0].xpath("t:rdg[. = '升']", namespaces=NS)
    assert set(reading.get("wit").split()) == {"#wWYG", "#w000"}
    assert set(apps[0].find("t:lem", NS).get("wit").split()) == {"#wSBCK", "#w001"}
    assert "勝者先升升堂少右" in plain(apps[0].xpath("ancestor::t:p", namespaces=NS)[0])


def test_a_reading_shared_by_both_scripts_is_in_the_traditional_witness_characters(witnesses, sources):
    """The edition writes traditional script: where WYG and a witness of simplified or mixed script
    read alike, the reading is WYG's characters and the other's are kept beside it (進, 003 虽 and
    WYG 雖, in the 注 on 大夫雖衆)."""
    from edition.collation import decision_file
    from edition.collation.commentary import collate_commentary
    from edition.work.sources import decisions_path

    commentary = collated(witnesses, sources, decision_file.load(decisions_path(SOURCES)), collate_commentary)
    shared = [
        r
        for u in commentary.apparatus.all_units()
        for r in u.readings
        if any(a.simplified for a in r.alike) or r.simplified and r.alike
    ]
    shared = [r for r in shared if any(not witnesses[s].meta.writes_simplified for s in r.sigla)]
    assert len(shared) >= 4, "the seeds have readings shared by WYG and a witness of simplified script"
    assert all(not r.simplified for r in shared), [(r.display, r.sigla) for r in shared if r.simplified]
    assert {r.display for r in shared} >= {"雖", "於", "撻"}  # 來 is the lemma (本校: 士來觀禮)


def classic_of(path, start: int, end: int) -> str:
    """Lines start:end of a 四部叢刊 file, its large characters alone (the 經)."""
    lines = path.read_text(encoding="utf-8").splitlines()[start:end]
    return "".join(regex.sub(r"\([^()]*\)|[^\p{Han}]", "", regex.sub(r"<[^>]*>", "", line)) for line in lines)


def test_a_files_text_of_the_chapter_before_is_no_addition_but_a_short_one_is():
    """A 卷 that holds the end of the chapter before and the start of this one (禮記注疏 卷五十八:
    深衣, then 投壺): its hundreds of characters before the base's first have nothing of the base to
    pair with, so no op covers them and they are no addition; a few characters more at the edge are
    an addition, as before. Text of 鄉射禮 (四部叢刊), a chapter's end before its start."""
    text = classic_of(ROOT / "tests" / "fixtures" / "kanripo" / "KR1d0026_005.txt", 5, 400)
    before, chapter = text[:400], text[400:1400]
    ops = align(chapter, before + chapter).ops
    assert min(op.w0 for op in ops) == len(before) and not any(op.tag == "insert" for op in ops)
    short = text[380:400]
    ops = align(chapter, short + chapter).ops
    assert ops[0] == Op("insert", 0, 0, 0, len(short))
