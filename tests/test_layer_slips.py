"""A witness's layer slips: the 四庫's 注 runs on into its 經, or its 經 is read as 注, and collation
finds the same words as a pair of false readings, one in each apparatus (四庫本無X / 注: …下有X). The
pair is taken out, counted for the witness in the conspectus and listed in the collation report."""

import json

import pytest
import regex
from conftest import edited_chapter
from lxml import etree

from edition.publication import tei

NS = {"t": tei.TEI_NS}


@pytest.fixture(scope="module")
def yanli():
    return edited_chapter("燕禮")


def readings_of(apparatus, siglum: str, words: str):
    """The units where the witness lacks or adds words that hold `words`."""
    text = apparatus.base.classic.text
    return [
        u
        for u in apparatus.units
        for r in u.readings
        if siglum in r.sigla and r.subtype in ("omission", "addition") and words in (r.norm or text[u.t0 : u.t1])
    ]


@pytest.mark.tier("build")  # reads a chapter of the corpus
def test_the_classic_text_that_a_witness_sets_among_its_notes_is_no_pair_of_readings(yanli):
    """燕禮 (SBCK 卷六): 致命曰寡君使某有不腆之酒以請吾子之與寡君須臾焉 / 君貺寡君多矣又辱賜于使臣臣敢拜賜命
    stand in WYG's 注 (two notes), its 經 lacking them: no omission of the 經 and no addition of the
    注, one slip of WYG's."""
    edited = yanli.edited
    [slip] = [s for s in edited.apparatus.slips if s.words.startswith("致命曰寡君使某")]
    assert (slip.siglum, slip.into, len(slip.note_units)) == ("WYG", "commentary", 2)
    assert slip.words == slip.theirs
    assert not readings_of(edited.apparatus, "WYG", "寡君使某有不腆之酒")
    assert not readings_of(edited.commentary.apparatus, "WYG", "寡君使某有不腆之酒")
    assert not readings_of(edited.commentary.apparatus, "WYG", "辱赐于使臣")
    notes = yanli.document.xpath(
        "//t:listWit/t:witness[@n='WYG']/t:note[@type='unrecorded'][@subtype='layer']/@n", namespaces=NS
    )
    assert notes == [str(sum(s.siglum == "WYG" for s in edited.apparatus.slips))]


@pytest.mark.tier("build")  # reads a chapter of the corpus
def test_the_notes_a_witness_runs_on_into_its_classic_text_are_no_pair_of_readings(work_sample):
    """覲禮 (卷十): WYG's 經 runs on, after its 疏 heading's word 疏, into Zheng's note 擯者請之侯氏坐取圭
    則遂左降拜稽首送玉也從後詔禮曰延延進也, which its 注 lacks: neither is printed, the report lists it."""
    _, build, _ = work_sample
    chapter = build / "chapters" / "10-覲禮"
    report = json.loads((chapter / "reports" / "collation.json").read_text(encoding="utf-8"))
    slips = [s for s in report["layer_slips"] if "擯者請之侯氏坐取圭" in s["theirs"]]
    assert [(s["siglum"], s["into"], s["theirs"][:1]) for s in slips] == [("WYG", "classic", "疏")]
    document = etree.parse(str(chapter / "edition.xml"))
    for rdg in document.xpath("//t:rdg[@wit='#wWYG'][@subtype='omission' or @subtype='addition']", namespaces=NS):
        lemma = "".join(rdg.getparent().find("t:lem", NS).itertext())
        assert "侯氏坐取圭" not in regex.sub(r"\W", "", lemma + "".join(rdg.itertext()))
