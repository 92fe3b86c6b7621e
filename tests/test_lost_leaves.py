"""The base's lost leaves, supplied (issue 21), checked by hand against the raw files.

士冠禮: SBCK (KR1d0026_001.txt) has lost leaf 5 (`# page missing`, line 80). Before the remark it
reads …待于西坫南南面東上賔升則東面(爵弁者/制如冕), after it (者所服玉藻曰童子之節也…)賔如主人服.
WYG (KR1d0028_001.txt) reads there the rest of that 注 (…如冕黑色但無繅耳…古文匴為篹坫為襜), the
經 主人𤣥端爵韠立于阼階下直東序西面 and three more passages with their 注, to 將冠者采衣紒在房中
南面 and the head of its 注, 采衣未冠, whose tail is SBCK's 者所服玉藻曰….

大射: of SBCK's five remarks, the two `# image missing` (lines 226, 237) stand where the text runs
on (…工六人四 | 瑟…, …小樂正從 | 之…): nothing is lost. At line 214 the leaf begins and ends with
the same words: SBCK reads 媵爵者奠觶于 | 篚主人洗觚, WYG 媵爵者奠觶于篚…以虛觶降奠于篚主人洗觚.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from conftest import WORK, printed_entries
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from lxml import etree

from edition.collation import decision_file
from edition.collation.lost_leaf import READS_ON, SMALLEST, supply
from edition.intake.model import TRANSMITTED, WitnessMeta
from edition.intake.profile import load_profile
from edition.intake.witness import intake_witness
from edition.work.chapter_build import edit
from edition.work.work_sources import Work

NS = {"t": "http://www.tei-c.org/ns/1.0"}


def chapter(name: str):
    sources = Work.load(WORK).sources(Work.load(WORK).chapter(name))
    return sources, sources.intake_all()


@pytest.fixture(scope="module")
def shiguan():
    sources, witnesses = chapter("士冠禮")
    supplied, findings = supply(witnesses, "SBCK", sources.normalizer())
    return sources, supplied, findings, witnesses


def layer_text(witness, layers) -> str:
    """The witness's characters of some layers, in reading order, without layout."""
    return "".join(s.text(witness.raw) for s in witness.segments if s.layer in layers)


@pytest.mark.tier("build")  # reads a chapter of the corpus
def test_a_lost_leaf_is_supplied_with_its_zhu_each_after_its_own_jing(shiguan):
    _, witnesses, findings, _ = shiguan
    base = witnesses[[w.meta.siglum for w in witnesses].index("SBCK")]
    first = findings[0]
    assert (first.line, first.remark, first.status, first.source) == (80, "page missing", "supplied", "WYG")
    classic, commentary = layer_text(base, TRANSMITTED), layer_text(base, ("commentary",))
    assert "賔升則東面主人玄端爵韠立于阼階下直東序西面兄弟畢袗玄" in classic, "its first 經, 𤣥 restored"
    assert "將冠者采衣紒在房中南面賔如主人服" in classic, "its last 經, the base's own after it"
    assert "爵弁者制如冕黑色但無繅耳" in commentary, "the base's 注 before the leaf, then the rest of it"
    assert "采衣未冠者所服玉藻曰" in commentary, "the head of the last 注, then the base's tail of it"
    leaf = base.supplied[0]
    text = base.raw.text[leaf.start : leaf.end]
    assert "𤣥" not in text and "疏" not in text and "釋曰" not in text and "音義" not in text
    assert base.raw.line_of(leaf.start) == base.raw.line_of(leaf.end - 1) == 80, "the remark's line"
    assert base.raw.path.name == "KR1d0026_001.txt" and base.raw.sha256 == base.raw.original.sha256


@pytest.mark.tier("build")  # reads a chapter of the corpus
def test_the_base_is_not_extant_on_its_lost_leaf(shiguan):
    sources, _, _, witnesses = shiguan
    edited = edit(sources, witnesses, decision_file.load(sources.decisions))
    apparatus = edited.apparatus
    first, second = apparatus.leaves
    tokens = apparatus.base.classic.tokens
    supplied = "".join(t.source(apparatus.base.raw) for t in tokens[first.t0 : first.t1])
    assert supplied.startswith("主人玄端爵韠") and supplied.endswith("將冠者采衣紒在房中南面")
    assert first.lemma.sigla == ["WYG"] and [(r.sigla, r.type) for r in first.readings] == [(["SBCK"], "lacuna")]
    inside = [u for u in apparatus.units if first.t0 <= u.t0 and u.t1 <= first.t1]
    assert [u.lemma.source for u in inside] == ["袗", "紒"], "its 今文/古文 entries, from WYG's 注"
    assert all("SBCK" not in r.sigla for u in inside for r in u.all_readings)
    extant = apparatus.statuses["SBCK"].extant
    assert (0, first.t0) in extant and all(not (a < first.t0 + 1 < b) for a, b in extant)
    assert second.lemma.display.startswith("拜亦如之") and second.lemma.display.endswith("主人酬賓束帛儷皮")
    # The 注 supplied at the first leaf's edges stands in the base's notes around it, outside the
    # 經's entry: an entry of the 注 each, the base's lacuna starting or ending in its reading.
    zhu = edited.commentary.apparatus
    edges = [(u.lemma.display, [(r.sigla, r.type) for r in u.readings], u.markers) for u in zhu.leaves]
    assert [(display[:6], display[-6:]) for display, _, _ in edges] == [
        ("黑色但無繅耳", "匴爲篹坫爲襜"),
        ("采衣未冠", "采衣未冠"),
    ]
    assert [readings for _, readings, _ in edges] == [[(["SBCK"], "lacuna")]] * 2
    assert [markers for _, _, markers in edges] == [{"SBCK": ["lacunaStart"]}, {"SBCK": ["lacunaEnd"]}]
    assert {u.lost_leaf for u in zhu.leaves} == {first.lost_leaf}, "both of the leaf the 經's entry is of"
    beside = [(u.lemma.display, u.markers["SBCK"]) for u in zhu.units if "lacuna" in "".join(u.markers.get("SBCK", []))]
    assert beside == [("之", ["lacunaStart"]), ("飲", ["lacunaEnd"])], (
        "the second leaf's 注 begins and ends with the notes: the base's fragments beside it"
    )


@pytest.mark.tier("build")  # reads a chapter of the corpus
def test_remarks_where_nothing_is_lost_and_a_leaf_that_begins_and_ends_alike():
    sources, witnesses = chapter("大射")
    supplied, findings = supply(witnesses, "SBCK", sources.normalizer())
    statuses = {f.line: f.status for f in findings}
    assert statuses == {214: "supplied", 226: "none lost", 237: "none lost", 248: "supplied", 540: "supplied"}
    base = next(w for w in supplied if w.meta.siglum == "SBCK")
    text = layer_text(base, (*TRANSMITTED, "commentary"))
    assert "媵爵者奠觶于篚命長致者使長者一人致也" in text and "以虛觶降奠于篚主人洗觚升獻大夫" in text
    assert not base.lacunae, "no remark marks a lacuna any more"
    assert [(s.line, s.attrs.get(READS_ON)) for s in base.segments if READS_ON in s.attrs] == [
        (226, "WYG"),
        (237, "WYG"),
    ], "the two remarks where nothing is lost say which witness reads on"


@pytest.mark.xfail(strict=True, reason="WYG's 經 that runs on unmarked after its 注 is told by SBCK's 經, lost here")
def test_the_jing_of_a_leaf_that_runs_on_after_its_zhu_is_jing():
    """WYG line 501: 大夫長升受旅以辯大夫卒受者以虛觶降奠于篚 is 經 after the 注 of 如初, with no
    marker between; intake tells it by SBCK's 經 (classic-by-alignment), which has lost that leaf."""
    sources, witnesses = chapter("大射")
    supplied, _ = supply(witnesses, "SBCK", sources.normalizer())
    base = next(w for w in supplied if w.meta.siglum == "SBCK")
    assert "大夫卒受者以虛觶降奠于篚主人洗觚" in layer_text(base, TRANSMITTED)


# A copy of 士相見禮's SBCK that has lost some lines of its body, supplied from the file itself,
# reads as the file does: what was lost comes back, character for character, in its layers.
SHIXIANGJIAN = WORK / "SBCK" / "KR1d0026_003.txt"
LINES = SHIXIANGJIAN.read_text(encoding="utf-8").splitlines(keepends=True)
BODY = range(next(i for i, line in enumerate(LINES) if line.startswith("<pb:")) + 2, len(LINES) - 2)
OWN_REMARK = next(i for i, line in enumerate(LINES) if line.startswith("# page missing"))


@pytest.fixture(scope="module")
def shixiangjian(tmp_path_factory):
    sources = Work.load(WORK).sources(Work.load(WORK).chapter("士相見禮"))
    normalizer, profile = sources.normalizer(), load_profile("mandoku-notes")
    folder = tmp_path_factory.mktemp("leaf")

    def read(siglum: str, lines: list[str]):
        path = folder / f"{siglum}.txt"
        path.write_text("".join(lines), encoding="utf-8")
        return intake_witness(
            WitnessMeta(siglum, path.name, siglum, "traditional", "mandoku-notes"), path, profile, (), normalizer
        )

    return normalizer, read, read("W", LINES)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.integers(BODY.start, BODY.stop - 12), st.integers(1, 10))
def test_a_leaf_cut_from_a_copy_comes_back_whole(shixiangjian, first, count):
    normalizer, read, whole = shixiangjian
    assume(not first - 3 <= OWN_REMARK <= first + count + 3)  # away from the leaf the file has lost itself
    base = read("B", [*LINES[:first], "# page missing\n", *LINES[first + count :]])
    layers = (*TRANSMITTED, "commentary")
    text = whole.stream.only(layers).text
    assume(len(text) - len(base.stream.only(layers).text) >= SMALLEST)  # the lines held text, not a label
    (supplied, _), findings = supply([base, whole], "B", normalizer)
    assert supplied.stream.only(layers).text == text
    own = next(f for f in findings if f.line == first + 1)
    assert (own.status, own.source) == ("supplied", "W")


def test_a_page_image_that_repeats_another_leaf_is_a_lost_leaf(shixiangjian):
    """Kanripo's `# ?=<003-5b>`: the page's image is that of leaf 5b again, and its own text is not
    transcribed: a leaf lost, supplied as one."""
    normalizer, read, whole = shixiangjian
    first = BODY.start + 10
    base = read("B", [*LINES[:first], "# ?=<003-5b>\n", *LINES[first + 6 :]])
    (supplied, _), findings = supply([base, whole], "B", normalizer)
    own = next(f for f in findings if f.line == first + 1)
    assert (own.status, own.source, own.remark) == ("supplied", "W", "?=<003-5b>")
    assert (
        supplied.stream.only((*TRANSMITTED, "commentary")).text == whole.stream.only((*TRANSMITTED, "commentary")).text
    )


def test_a_witness_that_has_lost_the_leaf_too_supplies_nothing(shixiangjian):
    """Lines cut next to the leaf the file has lost itself: the copy cannot tell what stood there."""
    normalizer, read, whole = shixiangjian
    first = OWN_REMARK - 8
    base = read("B", [*LINES[:first], "# page missing\n", *LINES[first + 6 :]])
    (supplied, _), findings = supply([base, whole], "B", normalizer)
    assert [(f.status, f.reason) for f in findings] == [("lacuna", "W: it has lost a leaf there too")] * 2
    assert len(supplied.lacunae) == 2


def test_a_compilation_supplies_no_leaf(shixiangjian):
    """A compilation orders and abridges the text its own way (the 欽定儀禮義疏 at 大射's page seam
    小樂正從 | 之 gave its own stretch as the leaf, and the base read 從之之): it supplies none, and
    where no other witness reads the leaf, the place stays a lacuna."""
    normalizer, read, whole = shixiangjian
    first = BODY.start + 10
    base = read("B", [*LINES[:first], "# page missing\n", *LINES[first + 6 :]])
    _, plain = supply([base, whole], "B", normalizer)
    _, compiled = supply([base, replace(whole, compilation=True)], "B", normalizer)
    assert [(f.status, f.source) for f in plain if f.line == first + 1] == [("supplied", "W")]
    assert [(f.status, f.reason) for f in compiled if f.line == first + 1] == [("lacuna", "no other witness")]


def test_a_lost_leaf_is_one_entry_of_the_base_in_the_tei_and_in_print(built: Path):
    """鄉射禮's three lost leaves (SBCK lines 115, 397, 643), each supplied from WYG: an entry of
    the 經 each, and an entry of the 注 for each note that runs into a leaf or out of one."""
    edition = built / "edition.xml"
    doc = etree.parse(str(edition))
    entries = doc.xpath("//t:app[t:rdg/t:gap[@unit='leaf']]", namespaces=NS)
    leaves = [app for app in entries if not app.xpath("ancestor::t:note", namespaces=NS)]
    assert len(leaves) == 3
    for app in entries:
        lem, rdg = app.find("t:lem", NS), app.find("t:rdg", NS)
        assert (rdg.get("wit"), rdg.get("type"), lem.get("source"), lem.get("resp")) == (
            "#wSBCK",
            "lacuna",
            "#wWYG",
            "#edition-supplied",
        )
        assert "#wSBCK" not in " ".join(
            a.get("wit", "") for a in app.xpath(".//t:lem//t:lem | .//t:lem//t:rdg", namespaces=NS)
        )
    last = "".join(leaves[2].find("t:lem", NS).xpath(".//text()[not(ancestor::t:note)]", namespaces=NS))
    assert "古者於旅也語" in last, "the 經 of SBCK's lost leaf 37, which WYG sets among the 記"
    # The 注 of a note the base begins before a leaf, or ends after it, is an entry of the 注: the
    # base's lacuna starts (迎大夫於門内也不出門 | 别於賓) or ends in its reading.
    supplied = lambda app: "".join(app.find("t:lem", NS).xpath(".//text()[not(ancestor::t:rdg)]", namespaces=NS))
    edges = {
        supplied(app): [m.tag.split("}")[1] for m in app.find("t:rdg", NS)[1:]] for app in entries if app not in leaves
    }
    assert list(edges.values()) == [["lacunaStart"]] * 3 + [["lacunaEnd"]], edges
    assert "别於賓" in edges, "the tail of 主人降's 注, on SBCK's lost leaf 7"
    for app in entries:
        later = app.xpath("following::t:app[t:rdg/t:gap[@unit='leaf']][1]", namespaces=NS)
        if edges.get(supplied(app)) == ["lacunaStart"]:
            assert later and later[0] in leaves, "the 經 of the leaf follows the 注 that runs into it"
    printed = printed_entries(edition)
    assert printed.count("底本缺葉，據四庫本補") == len(entries) and "原作▯" not in printed
    fanli = "".join(doc.find(".//t:front/t:div[@type='fanli']", NS).itertext())
    assert "底本缺葉三處" in fanli and "避諱" in fanli
    assert "實無闕文" not in fanli, "no remark of 鄉射禮 reads on: no item on such remarks"
