"""Emendation on independent evidence only (issue 21), checked by hand against the raw files.

士冠禮, SBCK (KR1d0026_001.txt) line 12, 注: 素韠曰韋韠, where WYG's 注 reads 素韠白韋韠; WYG's own 疏
(KR1d0028_001.txt line 70) quotes 云素韠白韋韠者, which is WYG again; the 單疏本 (KR1d0027_001.txt line
158) quotes 云素韠白韋韠者 too, transmitted apart from the 注疏: two sources, so 白 is the lemma.

SBCK line 64, 注: 易曰夫玄黃者天地之雜色, where WYG (line 375) reads 天地之雜也; 張淳's 儀禮識誤
(KR1d0029_001.txt line 30) heads the entry 也 and says 色 is a copyist's error for 也 (為色也字近色
傳寫者誤爾從易): WYG and 張淳, two sources.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from conftest import WORK
from lxml import etree

from edition.collation import decision_file
from edition.publication import report, tei
from edition.work.chapter_build import edit
from edition.work.work_sources import Work

NS = {"t": tei.TEI_NS}


@pytest.fixture(scope="module")
def guanli():
    work = Work.load(WORK)
    sources = work.sources(work.chapter("士冠禮"))
    return sources, edit(sources, sources.intake_all(), decision_file.load(sources.decisions))


def zhu_unit(sources, edited, before: str, base: str):
    """The 注's entry where the base reads `base` after `before` (compared as collation compares)."""
    apparatus, comparison = edited.commentary.apparatus, sources.normalizer().comparison
    text = apparatus.base.classic.text
    at = text.index(before.translate(comparison)) + len(before)
    return next(u for u in apparatus.units if u.t0 == at and text[u.t0 : u.t1] == base.translate(comparison))


def test_a_quotation_of_the_subcommentary_printed_alone_is_a_source_of_its_own(guanli):
    sources, edited = guanli
    unit = zhu_unit(sources, edited, "素韠", "曰")
    assert unit.emended and unit.lemma.display == "白" and unit.lemma.sigla == ["WYG"]
    quoted = {(q.siglum, q.text, q.line) for q in unit.evidence["白"]}
    assert ("SHU", "素韠白韋韠", 158) in quoted, "the 單疏本's 云素韠白韋韠者"
    assert any(q.siglum == "WYG" for q in unit.evidence["白"]), "WYG's own 疏 quotes it too: WYG again"


def test_a_judgement_of_the_shiwu_is_a_source_of_its_own(guanli):
    sources, edited = guanli
    unit = zhu_unit(sources, edited, "天地之雜", "色")
    assert unit.emended and unit.lemma.display == "也"
    [judged] = [q for q in unit.evidence["也"] if q.siglum == "SW"]
    assert judged.line == 30 and judged.text.startswith("也：") and "傳寫者誤" in judged.text


def test_a_witness_and_its_own_commentary_are_one_source(guanli):
    sources, _ = guanli
    witnesses = sources.intake_all()
    alone = edit(replace(sources, evidence=()), witnesses, decision_file.load(sources.decisions))
    unit = zhu_unit(sources, alone, "素韠", "曰")
    assert not unit.emended and unit.candidate, "WYG and its 疏: one source, the place for the editor"
    emended = [u for u in alone.apparatus.all_units() if u.emended]
    # WYG alone emends nothing in the 經: the one emendation, 卒筮書卦, rests on the base's own 注 (書卦者)
    assert [(u.lemma.norm, [q.layer for q in u.evidence[u.lemma.norm] if q.siglum == "SBCK"]) for u in emended] == [
        ("卦", ["commentary"])
    ]


def test_the_evidence_is_in_the_tei_and_every_emendation_in_the_report_with_its_sources(guanli):
    sources, edited = guanli
    apparatus, commentary = edited.apparatus, edited.commentary
    document = tei.edition_document(sources, apparatus, edited.sections, {}, commentary=commentary)
    books = {w.get("n"): w for w in document.iterfind(".//t:listWit/t:witness", NS)}
    assert books["SHU"].findtext("t:note[@type='status']", namespaces=NS).startswith("evidence")
    assert books["SW"].findtext("t:bibl/t:author", namespaces=NS) == "張淳"
    details = document.xpath("//t:witDetail[@wit='#wSHU']", namespaces=NS)
    assert any(d.findtext("t:q", namespaces=NS) == "素韠白韋韠" and d.get("n") == "158" for d in details)
    notes = document.xpath("//t:witDetail[@wit='#wSW'][@subtype='collation-notes']", namespaces=NS)
    assert any("傳寫者誤" in (d.findtext("t:q", namespaces=NS) or "") for d in notes)
    summary = report.collation_report(apparatus, edited.sections, {}, commentary=commentary)
    assert summary["emendations"], "士冠禮 has emendations on independent evidence"
    for emendation in summary["emendations"]:
        assert len(emendation["sources"]) >= 2, emendation
    assert {"SHU", "注疏本"} <= {s for e in summary["emendations"] for s in e["sources"]}
    etree.fromstring(tei.serialize(document))  # well-formed


def test_an_entry_of_the_shiwu_attests_its_own_characters_not_the_words_it_quotes_about_them():
    """張淳 quotes 士昏禮's 經 某得以爲昬姻之故不敢固辭敢不從 for its 不 (敢不從: 監本 read 敢從): the
    entry says what 不 should be, and nothing of 得以 that it quotes with it, where WYG reads 以得."""
    from types import SimpleNamespace

    from edition.collation.external_evidence import ExternalEvidence, Placed

    text = "某得以为昏姻之故不敢固辞敢不从"
    target = text.rindex("不")
    entry = Placed("classic", 0, len(text), text, "張淳's entry", about=(target, target + 1))
    evidence = ExternalEvidence([entry], SimpleNamespace(texts={"classic": text}), {})
    assert evidence.of("classic", 1, 3, {"得以", "以得"}) == {}
    assert evidence.of("classic", target, target + 1, {"不", ""}) == {"不": ["張淳's entry"]}
    quoted = replace(entry, about=None)  # a 疏's quotation attests all it quotes
    assert ExternalEvidence([quoted], evidence.base, {}).of("classic", 1, 3, {"得以", "以得"}) == {
        "得以": ["張淳's entry"]
    }
