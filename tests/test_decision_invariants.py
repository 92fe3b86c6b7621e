"""No decision can break the edition (issue 41): whatever an editor writes in `decisions.toml`, on
the 經 or the 注, the edition stays valid as the build validates it, or the decision is refused in
one line naming its file and line.

The material is real and small: 士相見禮 as the work builds it (SBCK the base, WYG, the 單疏本 and
the 識誤 as evidence). Hypothesis draws decisions of every kind, anchored on the entries the
collation makes or anywhere in the base's text (an empty bracket among them), overlapping or not,
with readings a witness reads, that none reads, or nothing."""

from __future__ import annotations

import json
from copy import deepcopy
from pathlib import Path

import pytest
from conftest import WORK
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from edition.collation import decision_file, decisions
from edition.errors import EditionError
from edition.publication import tei, validate
from edition.work.chapter_build import edit
from edition.work.work_sources import Work

pytestmark = pytest.mark.tier("build")  # each example collates a real chapter

CHAPTER = "士相見禮"
KINDS = ("lemma", "reject-emendation", "error", "note", "punctuation", "anchor", "witness")
BASES = ("對校", "本校", "他校", "理校")


class Chapter:
    """士相見禮 read once; each example collates it again with its own decisions."""

    def __init__(self):
        work = Work.load(WORK)
        self.sources = work.sources(work.chapter(CHAPTER))
        self.witnesses = self.sources.intake_all()
        edited = edit(self.sources, self.witnesses, decision_file.load(Path("/nonexistent")))
        self.layers = {"經": edited.apparatus, "注": edited.commentary.apparatus}
        self.sigla = sorted({s for a in self.layers.values() for s in a.statuses}) + ["jinwen", "guwen", "NONE"]

    def edited(self, path: Path):
        """The chapter edited with the decisions in `path`: its TEI and the problems the build's
        validation finds in it."""
        choices = decision_file.load(path)
        edited = edit(self.sources, self.witnesses, choices)
        paragraphs = edited.paragraphs
        document = tei.edition_document(
            self.sources, edited.apparatus, edited.sections, choices.editors, paragraphs, edited.commentary
        )
        places = tei.WitnessPlaces(edited.apparatus, edited.commentary)
        return edited, [f"{p.schema}: {p.message}" for p in validate.validation_problems(document, True, places)]


@pytest.fixture(scope="module")
def chapter() -> Chapter:
    return Chapter()


@st.composite
def a_decision(draw, chapter: Chapter) -> dict:
    """A decision as an editor might write one: on an entry of either layer or anywhere in the
    base's text, of any kind, with any reading."""
    layer = draw(st.sampled_from(("經", "注")))
    apparatus = chapter.layers[layer]
    text = apparatus.base.classic.text
    units = apparatus.all_units()
    if units and draw(st.booleans()):
        unit = draw(st.sampled_from(units))
        t0, t1 = unit.t0, unit.t1
        readings = [r.source for r in unit.all_readings]
    else:
        t0 = draw(st.integers(0, len(text)))
        t1 = min(len(text), t0 + draw(st.integers(0, 4)))
        readings = []
    kind = draw(st.sampled_from(KINDS))
    fields: dict = {"kind": kind}
    if kind != "witness":
        fields["context"] = decision_file.unique_context(text, t0, t1)
        if layer == "注":
            fields["layer"] = layer
    if kind == "lemma":
        fields["reading"] = draw(st.sampled_from([*readings, "", "甲", text[t0:t1] or "乙"]))
        basis = draw(st.sampled_from(BASES))
        fields["basis"] = basis
        if basis == "他校":
            fields["source"] = "某書"
    if kind in ("error", "anchor", "witness"):
        fields["witness"] = draw(st.sampled_from(chapter.sigla))
    if kind == "anchor":
        fields["words"] = draw(st.sampled_from(["今文某爲某", text[t0 : t0 + 3] or "某"]))
    if kind == "witness":
        fields["include"] = draw(st.booleans())
    if kind == "punctuation":
        fields["mark"] = draw(st.sampled_from(["，", "。", "", "」"]))
    if kind == "note":
        fields["text"] = "按"
    else:
        fields["reason"] = "試"
    return fields | {"resp": "ed"}


def toml_of(drawn: list[dict]) -> str:
    body = "".join(
        "\n[[decision]]\n" + "".join(f"{k} = {json.dumps(v, ensure_ascii=False)}\n" for k, v in d.items())
        for d in drawn
    )
    return '[editors]\ned = "editor"\n' + body


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_any_decisions_keep_the_edition_valid_or_are_refused_in_one_line(chapter, tmp_path, data):
    drawn = data.draw(st.lists(a_decision(chapter), min_size=1, max_size=4))
    path = tmp_path / "decisions.toml"
    path.write_text(toml_of(drawn), encoding="utf-8")
    try:
        _, problems = chapter.edited(path)
    except EditionError as refusal:
        said = str(refusal)
        assert said.startswith(f"{path}:") and "\n" not in said, said
        return
    assert problems == [], (drawn, problems)


def test_an_entry_a_decision_made_that_breaks_a_rule_names_the_decision(chapter, tmp_path):
    """Should an entry a decision made still break a rule, the failure names the decision's file
    and line, not a witness's file: here the entry of a note, its reading then written twice."""
    apparatus = chapter.layers["經"]
    unit = next(u for u in apparatus.units if u.readings and u.t1 > u.t0)
    context = decision_file.unique_context(apparatus.base.classic.text, unit.t0, unit.t1)
    path = tmp_path / "decisions.toml"
    path.write_text(toml_of([{"kind": "note", "context": context, "text": "按", "resp": "ed"}]), encoding="utf-8")
    choices = decision_file.load(path)
    edited = edit(chapter.sources, chapter.witnesses, choices)
    found = edited.found[decisions.NAME]
    noted = found.outcome(choices.items[0]).applied_to
    document = tei.edition_document(
        chapter.sources, edited.apparatus, edited.sections, choices.editors, {}, edited.commentary
    )
    app = document.xpath(f"//t:app[@xml:id = '{tei.app_id(tei.APP_PREFIX, noted)}']", namespaces={"t": tei.TEI_NS})[0]
    rdg = app.find(f"{{{tei.TEI_NS}}}rdg")
    rdg.addnext(deepcopy(rdg))
    places = tei.WitnessPlaces(edited.apparatus, edited.commentary, found)
    with pytest.raises(EditionError) as failure:
        validate.check(document, tmp_path / "edition.xml", witness_at=places)
    said = str(failure.value)
    assert said.startswith(f"{path}:4: decision 1 (note) cannot be applied: "), said
    assert "breaks a rule of the edition" in said and "\n" not in said


def test_an_emendation_of_ones_own_on_the_text_supplied_for_a_lost_leaf_is_stale(chapter, tmp_path):
    """士相見禮's base lost the leaf of 對也妥而后傳言…毋改眾皆若是 (supplied from the 四庫本): an editor's
    reading of his own there (本校) would leave the base attested nowhere in its entry; it is stale,
    said why, and the edition stays valid (hypothesis found it)."""
    context = (
        "在凡言非[对也妥而后传言与君言言使臣与大人言言事君与老者言言使弟子与幼者言言孝弟于父兄与众言言忠信"
        "慈祥与居官者言言忠信凡与大人言始视面中视抱卒视面毋改众皆若是]若父则游"
    )
    drawn = [{"kind": "lemma", "context": context, "reading": "", "basis": "本校", "reason": "試", "resp": "ed"}]
    path = tmp_path / "decisions.toml"
    path.write_text(toml_of(drawn), encoding="utf-8")
    edited, problems = chapter.edited(path)
    assert problems == []
    said = json.dumps([r.summary for r in edited.reports], ensure_ascii=False)
    assert "lost the leaf these characters are on" in said, said[:2000]
