"""Emendation under the editor's control: an automatic emendation rests on two independent sources
(witnesses of other families, quotations in another family's commentary, books of evidence);
the other places where the base may be wrong are candidates, with their evidence and a decision
to paste; the same error in the same words is emended alike; decisions carry the basis of the
emendation (對校, 本校, 他校, 理校)."""

import re
import shutil
import tomllib
from dataclasses import replace
from pathlib import Path

import pytest
from conftest import SOURCES, WORK

from edition.collation import analysis, decision_file, decisions
from edition.collation.analysis import Context
from edition.collation.apparatus import collate, emendation, independent, support
from edition.collation.sections import sections as find_sections
from edition.errors import SourceErrors
from edition.publication import report, tei, validate
from edition.work.chapter_build import check, edit
from edition.work.sources import Sources
from edition.work.work_sources import Work

ROOT = Path(__file__).resolve().parent.parent
NS = {"t": tei.TEI_NS}
WITNESSES = ("000", "001", "002", "003", "WYG")


def unit_at(apparatus, context: str):
    """The unit over the bracketed characters of `context` (base text, comparison script)."""
    before, inside, after = re.fullmatch(r"(.*)\[(.*)\](.*)", context).groups()
    text = apparatus.base.classic.text
    assert text.count(before + inside + after) == 1, context
    t0 = text.index(before + inside + after) + len(before)
    return next(u for u in apparatus.units if (u.t0, u.t1) == (t0, t0 + len(inside)))


def families(witnesses: dict, **named: str) -> dict:
    """The witnesses with the families `named` (siglum=family) in their stanzas."""
    return {s: replace(w, meta=replace(w.meta, family=named.get(s, w.meta.family))) for s, w in witnesses.items()}


def test_no_automatic_emendation_rests_on_fewer_than_two_independent_sources(witnesses, sources):
    choices = decision_file.load(SOURCES / "decisions.toml")
    edited = edit(sources, list(witnesses.values()), choices)
    emended = 0
    for apparatus in (edited.apparatus, edited.commentary.apparatus):
        for unit in (u for u in apparatus.units if u.emended and u.same_as is None):
            quotations = unit.evidence.get(unit.lemma.norm, [])
            assert len(support([unit.lemma], quotations, apparatus.family)) >= 2, unit.lemma.display
            assert "SBCK" not in unit.lemma.sigla
            if unit.decided is None and not unit.graphic:  # witnesses alone never emend
                assert independent(quotations, unit.reading_of("SBCK"), apparatus.family), unit.lemma.display
            emended += 1
    assert emended, "the 單疏本 is a source of its own"
    for siglum in WITNESSES:  # a witness and its own commentary are one source; the base elsewhere is another
        alone = collate([witnesses["SBCK"], witnesses[siglum]], "SBCK", sources.orthography())
        assert any(u.candidate for u in alone.units), siglum
        own = lambda unit: any(q.layer == "elsewhere" for q in unit.evidence.get(unit.lemma.norm, []))
        assert not any(u.emended and not own(u) for u in alone.all_units()), siglum


def test_a_quotation_in_the_commentary_of_another_family_is_a_source(witnesses, sources):
    """001 reads 将兴者于右; WYG 將舉者於右; 002 has lost the clause from its text, but the heading
    of its 疏 quotes it: [疏]“将举者於右”。 (line 334). 002's 疏 is a second source only where 002
    is of another family than WYG; even then the two are witnesses collated, and witnesses alone
    never emend: the place is the editor's. The same words in a book of evidence emend it."""
    one = families(witnesses, **{"001": "A", "WYG": "B", "002": "B"})
    apparatus = collate([one[s] for s in ("001", "WYG", "002")], "001", sources.orthography())
    unit = unit_at(apparatus, "凡奠者于左[将兴者于右]众宾之长")
    assert unit.candidate and not unit.emended, "WYG and a book of its family quoting it: one source"
    assert len(support(unit.readings, unit.evidence["将举者于右"], apparatus.family)) == 1
    two = families(witnesses, **{"001": "A", "WYG": "B", "002": "C"})
    apparatus = collate([two[s] for s in ("001", "WYG", "002")], "001", sources.orthography())
    unit = unit_at(apparatus, "凡奠者于左[将兴者于右]众宾之长")
    assert len(support(unit.readings, unit.evidence["将举者于右"], apparatus.family)) == 2
    assert unit.candidate and not unit.emended, "two witnesses of two families: still witnesses alone"
    relations = sources.orthography().relations
    voters = [r for r in unit.readings if not r.moves]
    assert emendation(unit.lemma, voters, unit.evidence, apparatus.family, relations) == []
    book = {norm: [replace(q, siglum="SHU") for q in found] for norm, found in unit.evidence.items()}
    [emending] = emendation(unit.lemma, voters, book, apparatus.family, relations)
    assert emending.display == "將舉者於右" and emending.sigla == ["WYG"], "a book of evidence is beyond them"
    assert unit.reading_of("002").subtype == "omission", "002's own text lacks the clause"
    [quotation] = unit.evidence["将举者于右"]
    raw = witnesses["002"].raw
    assert (quotation.siglum, quotation.layer, quotation.rule, quotation.text) == (
        "002",
        "subcommentary",
        "shu-heading",
        "将举者於右",
    )
    assert (
        raw.text[quotation.start : quotation.end] == "将举者於右"
        and raw.line_of(quotation.start) == quotation.line == 334
    )
    assert raw.text.splitlines()[333].startswith("[疏]")


def test_a_witness_and_its_own_shu_are_one_source(witnesses, sources):
    """SBCK's 末旅 against WYG's 未旅, whose 疏 says how far the passage goes: 注釋曰自此盡未旅 (line 360):
    WYG again, so the place is the editor's."""
    apparatus = collate([witnesses["SBCK"], witnesses["WYG"]], "SBCK", sources.orthography())
    unit = unit_at(apparatus, "北面立于觯南[末]旅三耦")
    assert unit.candidate and not unit.emended
    assert [(q.siglum, q.rule, q.text, q.line) for q in unit.evidence["未"]] == [("WYG", "shu-range", "未旅", 360)]


def edited(root: Path):
    sources = Sources.load(root)
    choices = decision_file.load(root / "decisions.toml")
    edited = edit(sources, sources.intake_all(), choices)
    return sources, edited.found, edited.apparatus, edited.sections


def test_the_base_s_own_words_elsewhere_are_a_source_of_a_reading(apparatus):
    """鄉射禮 三耦皆袓決遂 (SBCK line 273), 袒 in WYG and 001: the base writes 皆袒決遂 elsewhere in its
    經 and 皆袓決遂 nowhere else, so the book itself (本校) is a source of 袒, quoted where it writes
    it, and the base is emended."""
    unit = unit_at(apparatus, "拾三耦皆[袓]决遂")
    assert unit.emended and unit.lemma.norm == "袒"
    [own] = [q for q in unit.evidence["袒"] if q.layer == "elsewhere"]
    assert (own.siglum, own.rule, own.norm) == ("SBCK", "本校", "皆袒决遂")
    raw = apparatus.base.raw
    assert raw.text[own.start : own.end] == own.text == "皆袒決遂" and raw.line_of(own.start) == own.line
    assert "SBCK" in support([], [own], {})


@pytest.mark.tier("build")  # reads a chapter of the corpus
def test_the_base_s_note_on_the_passage_is_a_source_of_a_reading():
    """士冠禮 卒筮書封 (SBCK 卷一 line 26), 卦 in WYG: Zheng's 注 just after the passage takes up 書卦者
    (line 27), and nowhere 書封者, so the base's note attests 卦 (本校) and the base is emended, the
    quotation the base's own, of its 注."""
    work = Work.load(WORK)
    sources = work.sources(work.chapter("士冠禮"))
    witnesses = {w.meta.siglum: w for w in sources.intake_all()}
    apparatus = collate([witnesses["SBCK"], witnesses["WYG"]], "SBCK", sources.orthography())
    unit = unit_at(apparatus, "卒筮书[封]执以示")
    assert unit.emended and unit.lemma.norm == "卦"
    [note] = [q for q in unit.evidence["卦"] if q.siglum == "SBCK"]
    assert (note.layer, note.rule, note.text) == ("commentary", "本校", "書卦")
    assert apparatus.base.raw.line_of(note.start) == note.line == 27
    base_reading = next(r for r in unit.readings if "SBCK" in r.sigla)
    assert independent([note], base_reading, {"SBCK": "SBCK", "WYG": "WYG"})


def test_the_base_s_words_elsewhere_attest_only_where_it_never_writes_its_own_there(apparatus):
    """Every quotation of the base's own words is of four characters of the layer collated, the
    reading's with the base's characters about the place, which the base writes nowhere else."""
    text = apparatus.base.classic.text
    found = [(u, q) for u in apparatus.units for qs in u.evidence.values() for q in qs if q.layer == "elsewhere"]
    assert found
    for unit, q in found:
        own = text[unit.t0 : unit.t1]
        assert len(q.norm) == 4 and q.norm in text
        before = next(
            b
            for b in range(4)
            if q.norm[:b] == text[unit.t0 - b : unit.t0]
            and q.norm[b + len(own) :] == text[unit.t1 : unit.t1 + 4 - len(own) - b]
        )
        assert text.count(text[unit.t0 - before : unit.t0 - before + 4]) == 1


def test_candidates_carry_evidence_and_a_decision_to_paste(witnesses, sources, tmp_path):
    """With 001 as base, 001 and 002 lack the 記 that opens the 记, which WYG reads and 002's 疏
    headings quote (“记大”至“为宾”): not the base's reading, so a candidate."""
    apparatus = collate([witnesses[s] for s in ("001", "WYG", "002")], "001", sources.orthography())
    sections = find_sections(apparatus.base, apparatus.units, apparatus.section_cuts, apparatus.section_titles)
    unit = unit_at(apparatus, "乡乐唯欲[]大夫与则公")
    assert unit.candidate and not unit.emended
    summary = report.collation_report(apparatus, sections, {"ed": "editors"})
    [entry] = [c for c in summary["candidates"] if c["app"] == f"app-{unit.index + 1}"]
    reading = next(r for r in entry["readings"] if r["witnesses"] == ["WYG"])
    assert reading["reading"] == "記" and {(q["witness"], q["layer"], q["quote"]) for q in reading["evidence"]} == {
        ("002", "subcommentary", "记大")
    }
    assert all(witnesses["002"].raw.text[slice(*q["offsets"])] == "记大" for q in reading["evidence"])
    assert all(c["readings"] for c in summary["candidates"])
    assert "记大" in report.collation_markdown(summary)
    stanza = tomllib.loads(entry["decision"])["decision"][0]
    assert (
        stanza["reading"] == "記"
        and stanza["basis"] == "對校"
        and "002 subcommentary quotes 「记大」" in stanza["reason"]
    )
    (tmp_path / "decisions.toml").write_text('[editors]\ned = "editors"\n\n' + entry["decision"], encoding="utf-8")
    choices = decision_file.load(tmp_path / "decisions.toml")
    context = Context(sources.config, tmp_path / "edition.toml", sources.normalizer(), sources.persons, choices)
    context.found["sections"] = sections
    analysis.run(apparatus, [decisions], context)
    assert not context.found["decisions"].stale() and unit.lemma.source == "記" and unit.decided is choices.items[0]
    assert f"app-{unit.index + 1}" not in {
        c["app"] for c in report.collation_report(apparatus, sections, {})["candidates"]
    }


# On a copy of the sources with 001 as base, its 说矢束 written 说天束 at both places (4659 and, in
# the 记, 6578), and only WYG and 002 (from 彻俎 on) beside it: WYG and 002 read 矢 in the 记, WYG
# alone at the first place. Witnesses alone never emend: the editor emends the 记 on theirs (對校).
# A 他校 decision emends 命张侯 (1959) to 命設侯, which no witness reads.
EXCLUDED = (
    '\n[[decision]]\nkind = "witness"\nwitness = "{}"\ninclude = false\n'
    'reason = "the test collates 001, WYG and 002"\nresp = "ed"\n'
)
TAJIAO = """
[[decision]]
kind = "lemma"
context = "大夫说[天]束坐"
reading = "矢"
reason = "WYG and 002 read 矢, for the test"
resp = "ed"

[[decision]]
kind = "lemma"
context = "司马命[张]侯弟子"
reading = "設"
basis = "他校"
source = "a parallel text, for the test"
reason = "a test of an emendation no witness reads"
resp = "ed"
"""


def on_001(root: Path, extra: str = "") -> None:
    shutil.copytree(SOURCES, root)
    config = (root / "edition.toml").read_text(encoding="utf-8")
    config = re.sub(r"(?m)^punctuation_from = .*\n", "", re.sub(r"(?m)^base = .*$", 'base = "001"', config))
    (root / "edition.toml").write_text(config, encoding="utf-8")
    web = root / "001_c77d09b7a3e08e74.txt"
    text = web.read_text(encoding="utf-8")
    assert text.count("说矢束") == 2
    web.write_text(text.replace("说矢束", "说天束"), encoding="utf-8")
    # the witnesses as independent books (no family declared; WYG and 002 agree too little to go together)
    stanzas = root / "witnesses.toml"
    stanzas.write_text(re.sub(r"(?m)^family = .*\n", "", stanzas.read_text(encoding="utf-8")), encoding="utf-8")
    excluded = "".join(EXCLUDED.format(siglum) for siglum in ("SBCK", "000", "003", "004"))
    (root / "decisions.toml").write_text('[editors]\ned = "editors"\n' + excluded + extra, encoding="utf-8")


@pytest.fixture(scope="module")
def same_words(tmp_path_factory):
    root = tmp_path_factory.mktemp("same") / "sources"
    on_001(root, TAJIAO)
    return edited(root)


@pytest.mark.tier("build")  # reads a chapter of the corpus
def test_the_same_error_in_the_same_words_is_emended_alike(same_words):
    sources, findings, apparatus, found = same_words
    assert set(apparatus.witnesses) == {"001", "WYG", "002"}
    first, second = unit_at(apparatus, "进坐说[天]束兴"), unit_at(apparatus, "大夫说[天]束坐")
    assert second.decided and second.basis == "對校" and sorted(second.lemma.sigla) == ["002", "WYG"], "two witnesses"
    assert first.decided is second.decided and first.basis == "本校" and first.same_as is second, "the editor's, alike"
    assert first.lemma.sigla == ["WYG"], "one witness, but the same error"
    assert not first.evidence, "nothing else for it"
    repeats = findings["same_error"].repeats
    [alike] = [r for r in repeats if r.applied]
    assert alike.unit is first and alike.origin is second
    summary = report.collation_report(apparatus, found, findings["decisions"].decisions.editors, repeats)
    assert {(r["app"], r["treated_alike"]) for r in summary["same_errors"]} >= {(f"app-{first.index + 1}", True)}


@pytest.mark.tier("build")  # reads a chapter of the corpus
def test_places_that_cannot_be_emended_alike_are_listed(same_words):
    sources, findings, apparatus, found = same_words
    emended = unit_at(apparatus, "司马命[张]侯弟子")
    assert (
        emended.lemma.source == "設"
        and not emended.lemma.sigla
        and emended.basis == "他校"
        and not findings["decisions"].stale()
    )
    repeats = findings["same_error"].repeats
    [listed] = [r for r in repeats if r.origin is emended]
    assert not listed.applied and listed.why == "no witness reads 設 here"
    assert apparatus.base.classic.text[listed.t0 - 2 : listed.t1 + 1] == "前命张侯"
    summary = report.collation_report(apparatus, found, findings["decisions"].decisions.editors, repeats)
    assert any(not r["treated_alike"] and r["why_not"] == "no witness reads 設 here" for r in summary["same_errors"])
    assert "no witness reads 設 here" in report.collation_markdown(summary)


@pytest.mark.tier("build")  # reads a chapter of the corpus
def test_the_basis_and_the_evidence_are_in_the_tei(same_words):
    sources, findings, apparatus, found = same_words
    choices = findings["decisions"].decisions
    document = tei.edition_document(sources, apparatus, found, choices.editors)
    assert validate.problems(document) == []
    first, second, emended = (
        unit_at(apparatus, "进坐说[天]束兴"),
        unit_at(apparatus, "大夫说[天]束坐"),
        unit_at(apparatus, "司马命[张]侯弟子"),
    )
    first_app, emended_app = (
        document.xpath(f"//t:app[@xml:id='app-{u.index + 1}']", namespaces=NS)[0] for u in (first, emended)
    )
    assert first_app.find("t:lem", NS).get("cause") == "本校"
    assert first_app.xpath("t:note[@subtype='same-error']/@target", namespaces=NS) == [f"#app-{second.index + 1}"]
    lem = emended_app.find("t:lem", NS)
    assert (lem.get("cause"), lem.get("wit"), lem.text, lem.get("resp")) == ("他校", None, "設", "#ed-ed")
    assert emended_app.xpath("t:note[@subtype='source']/t:bibl/text()", namespaces=NS) == [
        "a parallel text, for the test"
    ]
    details = document.xpath("//t:witDetail[@type='evidence']", namespaces=NS)
    assert details and all(
        d.get("wit") in ("#w001", "#wWYG", "#w002", "#wSHU", "#wSW") and d.find("t:q", NS).text for d in details
    )
    summary = decisions.summarize(findings["decisions"])
    assert (
        summary["decisions"][-1]["basis"] == "他校"
        and summary["decisions"][-1]["source"] == "a parallel text, for the test"
    )
    assert all(d.get("basis", "對校") for d in summary["decisions"] if d["kind"] == "lemma")


def test_a_decision_with_a_bad_basis_is_rejected_in_one_line(tmp_path):
    root = tmp_path / "sources"
    shutil.copytree(SOURCES, root)
    number = len(tomllib.loads((root / "decisions.toml").read_text(encoding="utf-8"))["decision"]) + 1
    with (root / "decisions.toml").open("a", encoding="utf-8") as handle:
        handle.write(
            '\n[[decision]]\nkind = "lemma"\ncontext = "三耦皆[袓]决遂"\nreading = "袒"\nbasis = "理校"\nresp = "ed"\n'
        )
    lines = (root / "decisions.toml").read_text(encoding="utf-8").splitlines()
    start = len(lines) - 6 + 1
    with pytest.raises(SourceErrors) as raised:
        decision_file.load(root / "decisions.toml")
    [error] = raised.value.errors
    assert str(error) == f"{root / 'decisions.toml'}:{start}: decision {number} lacks field 'reason'"
    assert check(root) == [str(error)]
    with (root / "decisions.toml").open("a", encoding="utf-8") as handle:
        handle.write('reason = "r"\nsource = "說文"\n')
    [problem] = check(root)
    assert problem.endswith(f"decision {number}, source: only a 他校 emendation cites a source") and "\n" not in problem
