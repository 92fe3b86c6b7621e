"""Lineage (issue 21): books of one family are one source for an emendation, whether the editors
say so (`family` in the stanza) or the books agree against the base in most of their differences."""

from __future__ import annotations

import shutil

import pytest
from conftest import WORK

from edition.collation import decision_file
from edition.collation.apparatus import collate, support
from edition.collation.lineage import SHARED, TOGETHER, Agreement, families
from edition.intake.alignment_rule import Reference
from edition.intake.model import WitnessMeta
from edition.intake.witness import intake_witness
from edition.work.chapter_build import edit
from edition.work.work_sources import Work


def meta(siglum: str, family: str = "") -> WitnessMeta:
    return WitnessMeta(siglum, f"{siglum}.txt", siglum, "traditional", "plain", family=family)


def test_families_are_declared_or_found_by_agreement():
    metas = {s: meta(s, f) for s, f in (("A", ""), ("B", "注疏本"), ("C", "注疏本"), ("D", ""), ("E", ""))}
    pairs = [
        Agreement("A", "D", alike=4 * SHARED, first_only=1, second_only=2),  # nearly all their differences alike
        Agreement("B", "E", alike=SHARED, first_only=SHARED, second_only=0),  # half: not enough
        Agreement("A", "E", alike=SHARED - 1, first_only=0, second_only=0),  # too few to tell
        Agreement("D", "E", alike=3, first_only=20, second_only=15),  # independent
    ]
    assert [p.together for p in pairs] == [True, False, False, False] and pairs[0].share >= TOGETHER
    found = families(metas, pairs)
    assert found["B"] == found["C"] == "注疏本"
    assert found["A"] == found["D"] != found["E"]
    assert len(set(found.values())) == 3


@pytest.mark.tier("build")  # reads a chapter of the corpus
def test_a_copy_of_a_witness_adds_no_source(tmp_path):
    """士冠禮 with SBCK and WYG, then with a third witness made from WYG's file and added with no
    family, as `edition add-witness` adds it: it goes with WYG, found over the 經 and the 注 (the
    經 alone has too few differences from the base to tell, its 巳/已 and variant forms folded),
    and no emendation changes."""
    work = Work.load(WORK)
    sources = work.sources(work.chapter("士冠禮"))
    witnesses = {w.meta.siglum: w for w in sources.intake_all()}
    wyg = witnesses["WYG"]
    copy = tmp_path / "X.txt"
    shutil.copyfile(wyg.raw.path, copy)
    stanza = WitnessMeta("X", copy.name, "a copy of WYG's 卷一", "traditional", wyg.meta.profile)
    normalizer = sources.normalizer()
    reference = Reference.of([witnesses["SBCK"]], normalizer)
    x = intake_witness(stanza, copy, sources.profiles[stanza.profile], (), normalizer, reference)
    choices = decision_file.load(sources.decisions)
    alone = edit(sources, [witnesses["SBCK"], wyg], choices)
    both = edit(sources, [witnesses["SBCK"], wyg, x], choices)
    classic_only = collate([witnesses["SBCK"], wyg, x], "SBCK", sources.orthography())
    assert [(p.alike, p.together) for p in classic_only.agreements] == [(4, False)]
    for apparatus in (both.apparatus, both.commentary.apparatus):
        assert apparatus.family["X"] == apparatus.family["WYG"] == "注疏本"
        [pair] = apparatus.agreements
        assert pair.together and pair.alike > 4 and pair.first_only == pair.second_only == 0

    def emended(apparatus):
        return {(u.t0, u.t1, u.lemma.norm) for u in apparatus.all_units() if u.emended}

    assert emended(both.apparatus) == emended(alone.apparatus)
    assert emended(both.commentary.apparatus) == emended(alone.commentary.apparatus)
    apparatus = both.commentary.apparatus
    read_by_x = [u for u in apparatus.units if "substantive" in u.types and "X" in u.lemma.sigla + u.readings[0].sigla]
    assert read_by_x
    for unit in read_by_x:
        sources = support([unit.lemma], unit.evidence.get(unit.lemma.norm, []), apparatus.family)
        assert not unit.emended or sources - {"注疏本"}, "WYG and its copy are one source"
