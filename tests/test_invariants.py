"""No witness can break the build (issue 23): whatever a witness does to the text, the collation
keeps its invariants by construction (every witness attested exactly once in every entry where it is
extant, in the 經 and in the 注) and the edition is valid as the build validates it (tei_all, the
project's RelaxNG and Schematron).

The material is real and small: the first passages of 士相見禮 with their 注, as SBCK reads them (in
the mandoku layout, each passage on a line with its note in small characters). The base is that
stretch; the witnesses are copies of it that hypothesis mutates as real editions differ: a clause
moved with its 注, a note dropped or written twice, text added before the first character or after
the last (a title, a byline) or beside a clause, a lost leaf (`# page missing`), a character
written twice. They go through the real pipeline, from the files: intake, the lost leaves,
collation, the analyses, the TEI. Each mutation shows in the apparatus."""

from __future__ import annotations

import itertools
import random
import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest
import regex
from click.testing import CliRunner
from conftest import KANRIPO, ROOT, SOURCES, WORK
from hypothesis import example, given, settings
from hypothesis import strategies as st

from edition.cli import main
from edition.collation import decision_file
from edition.publication import tei, validate
from edition.work.chapter_build import edit
from edition.work.sources import Sources
from edition.work.work_sources import Work, export_chapter

NS = {"t": tei.TEI_NS}
PASSAGES = 14  # of 士相見禮: some 280 characters of 經 and 400 of 注
HEADER = "# -*- mode: mandoku-view -*-\n#+TITLE: 儀禮\n<pb:T_1a>¶\n"
REMARK = "# page missing"
STANZA = (
    '[[witness]]\nsiglum = "{siglum}"\nfile = "{siglum}.txt"\ntitle = "{siglum}"\nscript = "traditional"\n'
    'profile = "mandoku-notes"\n\n'
)
EDITION = '[edition]\ntitle = "t"\nbase = "B"\ncomparison_script = "simplified"\nscript = "traditional"\n'


def passages(chapter: str = "士相見禮") -> list[tuple[str, str]]:
    """SBCK's passages of a chapter: each its 經 and the 注 after it, in its own characters."""
    work = Work.load(WORK)
    sources = work.sources(work.chapter(chapter))
    base = next(w for w in sources.intake_all() if w.meta.siglum == "SBCK")
    out: list[list[str]] = []
    for segment in base.segments:
        if segment.layer == "classic":
            if not out or out[-1][1]:
                out.append(["", ""])
            out[-1][0] += segment.text(base.raw)
        elif segment.layer == "commentary" and out:
            out[-1][1] += segment.text(base.raw)
    return [(classic, note) for classic, note in out]


BASE = passages()[:PASSAGES]
BASE_TEXT = "".join(c + n for c, n in BASE)
ADDED = [c for c in "甲乙丙丁戊庚辛壬癸寅卯辰酉戌亥" if c not in BASE_TEXT]  # characters the stretch has not
HAN = regex.compile(r"\p{Han}")

# A witness: its lines, each a passage (its 經 and 注) or a transcriber's remark.
Line = tuple[str, str] | str


def text_of(lines: list[Line]) -> str:
    body = "".join(line + "\n" if isinstance(line, str) else f"{line[0]}({line[1]})¶\n" for line in lines)
    return HEADER + body


def passage_indices(lines: list[Line]) -> list[int]:
    return [i for i, line in enumerate(lines) if not isinstance(line, str)]


# --- the mutations: each changes a witness's lines and says how the apparatus shows it -------------


@dataclass(frozen=True)
class Mutation:
    at: int  # which passage (taken modulo the passages there are)

    def passage(self, lines: list[Line], at: int | None = None) -> int:
        indices = passage_indices(lines)
        return indices[(self.at if at is None else at) % len(indices)]

    def changed(self, lines: list[Line], change) -> list[Line]:
        """The lines with the passage's 經 and 注 changed by `change`."""
        i = self.passage(lines)
        return [*lines[:i], change(*lines[i]), *lines[i + 1 :]]


@dataclass(frozen=True)
class Move(Mutation):
    """A passage and its 注 read after another one."""

    to: int

    def apply(self, lines: list[Line]) -> list[Line]:
        i = self.passage(lines)
        moved = lines[i]
        rest = lines[:i] + lines[i + 1 :]
        j = self.passage(rest, self.to) + 1
        if j == i:  # where it was: after the next one
            j += 1
        return rest[:j] + [moved] + rest[j:]

    def shows(self, witness: Shown) -> bool:
        return witness.has("classic", "transposition") or witness.has("classic", "omission", "addition")


@dataclass(frozen=True)
class Quote(Move):
    """A passage's 經 read again after another one (a compiler quoting it)."""

    def apply(self, lines: list[Line]) -> list[Line]:
        i = self.passage(lines)
        j = self.passage(lines, self.to) + 1
        return [*lines[:j], (lines[i][0], ""), *lines[j:]]

    def shows(self, witness: Shown) -> bool:
        """Its readings hold the passage's characters once more: as an addition, a transposition, or
        an entry over the passage and its repetition."""
        quoted = HAN.findall(BASE[self.at % len(BASE)][0])
        return sum(len(HAN.findall(r.xpath("string()"))) for r in witness.readings("classic")) >= len(quoted)


@dataclass(frozen=True)
class DropNote(Mutation):
    def apply(self, lines: list[Line]) -> list[Line]:
        return self.changed(lines, lambda classic, note: (classic, ""))

    def shows(self, witness: Shown) -> bool:  # an omission; a lacuna if long; at an edge, where its 注 begins or ends
        return witness.has("commentary", "omission") or any(
            witness.marks("commentary", name) for name in ("lacunaStart", "witStart", "witEnd")
        )


@dataclass(frozen=True)
class DuplicateNote(Mutation):
    def apply(self, lines: list[Line]) -> list[Line]:
        return self.changed(lines, lambda classic, note: (classic, note + note))

    def shows(self, witness: Shown) -> bool:
        """Its readings of the 注 hold the note once more: as an addition, a transposition, or an
        entry over the note and its repetition."""
        note = HAN.findall(BASE[self.at % len(BASE)][1])
        return sum(len(HAN.findall(r.xpath("string()"))) for r in witness.readings("commentary")) >= len(note)


@dataclass(frozen=True)
class AddBefore(Mutation):
    """Text before the passage's 經 (before the base's first character, for the first)."""

    text: str

    def apply(self, lines: list[Line]) -> list[Line]:
        return self.changed(lines, lambda classic, note: (self.text + classic, note))

    def shows(self, witness: Shown) -> bool:
        return self.text in witness.texts("classic", "addition")


@dataclass(frozen=True)
class AddAtEnd(AddBefore):
    """Text after the last passage's 經 and its 注: after the base's last character."""

    def apply(self, lines: list[Line]) -> list[Line]:
        return [*lines, (self.text, "")]


@dataclass(frozen=True)
class LostLeaf(Mutation):
    """Passages lost, a transcriber's remark in their place."""

    count: int

    def apply(self, lines: list[Line]) -> list[Line]:
        i = self.passage(lines)
        return [*lines[:i], REMARK, *lines[i + self.count :]]

    def shows(self, witness: Shown) -> bool:
        return witness.marks("classic", "lacunaStart") or witness.marks("classic", "witEnd")


@dataclass(frozen=True)
class Repeat(Mutation):
    """A character of the passage's 經 written twice."""

    character: int

    def apply(self, lines: list[Line]) -> list[Line]:
        def twice(classic: str, note: str) -> tuple[str, str]:
            spans = [m.span() for m in HAN.finditer(classic)]
            a, b = spans[self.character % len(spans)]
            return classic[:b] + classic[a:b] + classic[b:], note

        return self.changed(lines, twice)

    def shows(self, witness: Shown) -> bool:
        """An addition, or the entry over the repetition (升 read 升升) when the base's character
        stands beside it."""
        return witness.has("classic", "addition") or any(
            len(reading) == len(lemma) + 1 for lemma, reading in witness.pairs("classic")
        )


@dataclass(frozen=True)
class Substitute(Repeat):
    """A character of the passage's 經 written otherwise."""

    def apply(self, lines: list[Line]) -> list[Line]:
        def otherwise(classic: str, note: str) -> tuple[str, str]:
            spans = [m.span() for m in HAN.finditer(classic)]
            a, b = spans[self.character % len(spans)]
            return classic[:a] + ADDED[0] + classic[b:], note

        return self.changed(lines, otherwise)

    def shows(self, witness: Shown) -> bool:
        return ADDED[0] in "".join(witness.texts("classic", "substitution"))


# --- the edition made of them, and what it shows --------------------------------------------------


@dataclass
class Shown:
    """A witness's readings and markers in the edition, in the 經 and in the 注."""

    document: object
    siglum: str

    def readings(self, layer: str):
        inside = "ancestor::t:note[@type = 'commentary']"
        where = inside if layer == "commentary" else f"not({inside})"
        ref = f" #w{self.siglum} "
        return [
            r
            for r in self.document.xpath(f"//t:rdg[{where}]", namespaces=NS)
            if ref in f" {r.get('wit', '')} " and r.get("type") != "fragment"
        ]

    def has(self, layer: str, *kinds: str) -> bool:
        """It has readings of each kind (a type or a substantive subtype) in the layer."""
        found = {r.get("subtype") or r.get("type") for r in self.readings(layer)}
        found |= {r.get("type") for r in self.readings(layer)}
        return all(kind in found for kind in kinds)

    def pairs(self, layer: str) -> list[tuple[str, str]]:
        """Each reading's lemma and its text."""
        return [
            (
                "".join(r.xpath("ancestor::t:app[1]/descendant::t:lem[1]", namespaces=NS)[0].itertext()),
                "".join(r.itertext()),
            )
            for r in self.readings(layer)
            if r.xpath("ancestor::t:app[1]/descendant::t:lem[1]", namespaces=NS)
        ]

    def texts(self, layer: str, kind: str) -> list[str]:
        return ["".join(r.itertext()) for r in self.readings(layer) if kind in (r.get("type"), r.get("subtype"))]

    def marks(self, layer: str, name: str) -> bool:
        inside = "ancestor::t:note[@type = 'commentary']"
        where = inside if layer == "commentary" else f"not({inside})"
        return bool(self.document.xpath(f"//t:{name}[@wit = '#w{self.siglum}'][{where}]", namespaces=NS))


COUNTER = itertools.count()


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    validate.load_schemas()
    return tmp_path_factory.mktemp("invariants")


def edition_of(folder: Path, witnesses: dict[str, list[Line] | str], settings: str = "", decided: str = ""):
    """The witnesses (B the base; each its lines, or its raw text) as a one-chapter edition (with
    `settings` and `decided`, its decisions, of its own): its TEI as the build makes it, and the
    problems the build's validation finds in it, with the decisions found stale."""
    root = folder / str(next(COUNTER))
    root.mkdir()
    for name in ("variants.tsv", "gaiji.tsv", "persons.tsv"):
        shutil.copy(WORK / name, root / name)
    (root / "edition.toml").write_text(EDITION + settings, encoding="utf-8")
    (root / "witnesses.toml").write_text("".join(STANZA.format(siglum=s) for s in witnesses), encoding="utf-8")
    for siglum, lines in witnesses.items():
        (root / f"{siglum}.txt").write_text(lines if isinstance(lines, str) else text_of(lines), encoding="utf-8")
    if decided:
        (root / "decisions.toml").write_text(decided, encoding="utf-8")
    edited, document, problems = built_in_memory(root)
    shutil.rmtree(root)
    stale = [why for _, why in edited.found["decisions"].stale()]
    return document, problems + [f"stale: {why}" for why in stale]


def built_in_memory(root: Path):
    """A one-chapter edition's sources as its build edits them, its TEI, and the problems the
    build's validation finds in it (tei_all, the project's RelaxNG and Schematron)."""
    sources = Sources.load(root)
    choices = decision_file.load(sources.decisions)
    edited = edit(sources, sources.intake_all(), choices)
    paragraphs = edited.paragraphs
    document = tei.edition_document(
        sources, edited.apparatus, edited.sections, choices.editors, paragraphs, edited.commentary
    )
    places = tei.WitnessPlaces(edited.apparatus, edited.commentary)
    found = validate.validation_problems(document, True, places)
    return edited, document, [f"{p.schema}: {p.message}" for p in found]


def added_text():
    return st.text(st.sampled_from(ADDED), min_size=2, max_size=6)


positions = st.integers(0, PASSAGES - 1)
mutations = st.one_of(
    st.builds(Move, positions, positions),
    st.builds(Quote, positions, positions),
    st.builds(DropNote, positions),
    st.builds(DuplicateNote, positions),
    st.builds(AddBefore, st.just(0), added_text()),
    st.builds(AddBefore, positions, added_text()),
    st.builds(AddAtEnd, st.just(0), added_text()),
    st.builds(LostLeaf, st.integers(1, PASSAGES - 3), st.integers(1, 2)),
    st.builds(Repeat, positions, st.integers(0, 40)),
    st.builds(Substitute, positions, st.integers(-3, 40)),
)


@settings(max_examples=24, deadline=None)
@given(mutations)
@example(AddBefore(0, "甲乙丙"))  # a title or byline before the base's first character
@example(AddAtEnd(0, "丁戊"))  # a label after its last
@example(Move(4, 9))
@example(DropNote(1))
@example(DuplicateNote(3))
@example(LostLeaf(5, 2))
@example(Repeat(2, 3))
def test_a_mutated_witness_keeps_the_edition_valid_and_shows_in_its_apparatus(folder, mutation):
    witness = mutation.apply(list(BASE))
    document, problems = edition_of(folder, {"B": list(BASE), "W": witness, "V": list(BASE)})
    assert problems == []
    assert mutation.shows(Shown(document, "W")), mutation
    assert not Shown(document, "V").readings("classic"), "a copy of the base reads as the base"


@settings(max_examples=16, deadline=None)
@given(
    st.lists(mutations, min_size=1, max_size=3),
    st.lists(mutations, max_size=2),
    st.one_of(st.none(), st.builds(LostLeaf, st.integers(1, PASSAGES - 3), st.integers(1, 2))),
)
@example([AddBefore(6, "甲乙")], [Move(6, 10)], None)  # an addition beside a clause another witness moves
@example([AddBefore(7, "甲乙")], [Move(6, 10)], None)  # … after it
@example([Move(6, 2), AddBefore(7, "丙")], [Move(6, 10)], None)  # both move it, one adds beside
@example([Move(6, 10), Move(6, 2), AddBefore(6, "甲乙丙丁")], [Substitute(6, -1)], None)  # 聘禮's 儀禮圖
@example([Quote(6, 10), Move(6, 2)], [Quote(3, 8)], None)  # a clause read twice, moved and quoted
@example([AddBefore(5, "甲")], [Move(9, 2)], LostLeaf(5, 1))  # an addition across the base's lost leaf
@example([Move(0, 0), Move(1, 0)], [], LostLeaf(1, 1))  # a clause moved with its 注, lost in the base
@example([AddBefore(0, "甲乙"), AddAtEnd(0, "丙")], [LostLeaf(1, 2)], LostLeaf(8, 1))
@example([Move(9, 0)], [Move(9, 0)], None)  # both move one clause, a word added at its edge
@example([Move(0, 0)], [Move(9, 1)], LostLeaf(1, 1))  # one reads on, one holds the leaf and a moved passage
def test_witnesses_mutated_together_and_a_base_that_has_lost_a_leaf_keep_the_edition_valid(folder, first, second, leaf):
    """Two witnesses mutated at once, in the same places or near, over a base that may have lost a
    leaf (supplied from a witness that reads it)."""
    witnesses = {"W": list(BASE), "V": list(BASE)}
    for siglum, changes in (("W", first), ("V", second)):
        for mutation in changes:
            witnesses[siglum] = mutation.apply(witnesses[siglum])
    base = leaf.apply(list(BASE)) if leaf else list(BASE)
    document, problems = edition_of(folder, {"B": base, **witnesses})
    assert problems == []
    if leaf is not None and any(reads_in_place(lines, leaf) for lines in witnesses.values()):
        assert document.xpath("//t:lem[@resp = '#edition-supplied']", namespaces=NS), "the leaf is supplied"


# --- scattered substitutions beside the 記, as the bench of the 十三經 perturbs (issue 42) ---------


def around_the_ji(before: int = 4, after: int = 3) -> list[tuple[str, str]]:
    """SBCK's passages of 燕禮 around its 記, a division of its own (`divisions`): the 記's passage
    opens with the heading word, after the formulas of the guest's words (寡君…, 敢拜賜命)."""
    every = passages("燕禮")
    ji = next(i for i, (classic, _) in enumerate(every) if classic.startswith("記"))
    return every[ji - before : ji + after]


JI = around_the_ji()
JI_AT = next(i for i, (classic, _) in enumerate(JI) if classic.startswith("記"))


@dataclass(frozen=True)
class Scattered:
    """Single characters of the 經 and the 注 replaced, each with probability `rate`, by others of
    the stretch (as `bench/whole_work --scale` perturbs a copy: 0.5 %)."""

    seed: int
    rate: float

    def apply(self, lines: list[Line]) -> list[Line]:
        rng = random.Random(self.seed)
        alphabet = sorted(set(HAN.findall("".join(c + n for c, n in JI))))

        def perturbed(text: str) -> str:
            return HAN.sub(lambda m: rng.choice(alphabet) if rng.random() < self.rate else m.group(), text)

        return [line if isinstance(line, str) else (perturbed(line[0]), perturbed(line[1])) for line in lines]


near_the_ji = st.integers(JI_AT - 2, JI_AT + 1)
ji_changes = st.lists(
    st.one_of(
        st.builds(LostLeaf, near_the_ji, st.integers(1, 2)),
        st.builds(DropNote, near_the_ji),
        st.builds(Move, near_the_ji, near_the_ji),
        st.builds(Substitute, near_the_ji, st.integers(0, 20)),
    ),
    max_size=2,
)


@pytest.mark.tier("build")  # each example collates some 700 characters of 經 and 注
@settings(max_examples=12, deadline=None)
@given(
    st.builds(Scattered, st.integers(0, 10**6), st.sampled_from([0.005, 0.02, 0.05])),
    st.builds(Scattered, st.integers(0, 10**6), st.sampled_from([0.005, 0.02, 0.05])),
    ji_changes,
    ji_changes,
)
@example(Scattered(1, 0.005), Scattered(2, 0.005), [LostLeaf(JI_AT - 1, 1)], [])  # 燕禮·7: WYG resumes at 記
def test_scattered_substitutions_in_two_witnesses_beside_the_ji_keep_the_edition_valid(folder, first, second, w, v):
    """Two witnesses with single characters replaced throughout their 經 and 注, and a leaf lost,
    a note dropped, a clause moved or a character changed beside the heading 記: where a witness
    starts again or stops at the heading, which no entry holds, its marker stands beside it."""
    witnesses = {"W": first.apply(list(JI)), "V": second.apply(list(JI))}
    for siglum, changes in (("W", w), ("V", v)):
        for mutation in changes:
            witnesses[siglum] = mutation.apply(witnesses[siglum])
    document, problems = edition_of(folder, {"B": list(JI), **witnesses}, 'divisions = ["記"]\n')
    assert problems == []


# --- a scrambled witness the editor forces in (issue 43) --------------------------------------------


def scrambled(how: str, seed: int) -> str:
    """The base's stretch scrambled as a careless or hostile hand might: its text or its lines
    reversed, its lines or their characters shuffled, its halves swapped."""
    rng = random.Random(seed)
    lines = text_of(list(BASE))[len(HEADER) :].splitlines(keepends=True)
    if how == "characters reversed":
        return HEADER + "".join(lines)[::-1]
    if how == "lines reversed":
        return HEADER + "".join(lines[::-1])
    if how == "lines shuffled":
        rng.shuffle(lines)
        return HEADER + "".join(lines)
    if how == "characters shuffled":
        return HEADER + "".join("".join(rng.sample(line, len(line))) for line in lines)
    return HEADER + "".join(lines[len(lines) // 2 :] + lines[: len(lines) // 2])


FORCED_IN = (
    '[editors]\ned = "editor"\n\n[[decision]]\nkind = "witness"\nwitness = "X"\ninclude = true\n'
    'reason = "r"\nresp = "ed"\n'
)
SCRAMBLES = ("characters reversed", "lines reversed", "lines shuffled", "characters shuffled", "halves swapped")


@settings(max_examples=12, deadline=None)
@given(st.sampled_from(SCRAMBLES), st.integers(0, 1000))
@example("characters reversed", 0)
def test_a_scrambled_witness_forced_in_keeps_the_edition_valid_or_its_decision_is_stale(folder, how, seed):
    """Forced in by the editor's decision, a scrambled witness gives a valid edition however
    poor, or the decision is stale, said why (a witness that aligns with the base nowhere)."""
    document, problems = edition_of(folder, {"B": list(BASE), "X": scrambled(how, seed)}, decided=FORCED_IN)
    assert all(p.startswith("stale: witness X: none of its text aligns") for p in problems), problems
    if not problems:
        assert document.xpath("//t:witness[@xml:id = 'wX']", namespaces=NS), "forced in"


def reads_in_place(lines: list[Line], leaf: LostLeaf) -> bool:
    """The witness reads the base's lost passages where they stand, between the passages the base
    keeps on either side (the base's text on either side of its remark is how a lost leaf is found
    in a witness; a stretch there that holds a passage the base reads elsewhere is no leaf, see
    `lost_leaf.unlike_a_leaf`)."""
    i = leaf.passage(list(BASE))
    kept = BASE[max(i - 1, 0) : i + leaf.count + 1]
    return any(lines[k : k + len(kept)] == kept for k in range(len(lines)))


# --- the family in the repo: the editions that broke the build (issue 23) --------------------------


def added(sources: Path, file: Path, siglum: str, *options: str) -> Path:
    """The file added to the sources as a philologist adds it: `edition add-witness`."""
    arguments = ["add-witness", str(file), "--siglum", siglum, "--sources", str(sources), *options]
    result = CliRunner().invoke(main, arguments)
    assert result.exit_code == 0, result.output
    return sources


def only_the_base(document) -> list:
    """The entries that attest no witness but the base: a witness's text before the base's first
    character or after its last left them so."""
    return document.xpath("//t:app[not(t:rdg | t:rdgGrp)][t:lem[@wit = '#wSBCK']]", namespaces=NS)


@pytest.mark.tier("build")
def test_the_yili_tu_of_yang_fu_added_to_pinli_keeps_the_edition_valid(tmp_path):
    """楊復's 儀禮圖, 卷八: the 記 set among the 經 and clauses read again, other text where it moves
    one; its title and byline (儀禮圖卷八 … 楊復撰 聘禮第八), where intake read them as 經, before the
    base's first character. The build failed on edition.sch: WYG, then TU, not attested once in
    every entry."""
    work = Work.load(WORK)
    sources = added(
        export_chapter(work, work.chapter("聘禮"), tmp_path / "sources"),
        KANRIPO / "KR1d0032-WYG" / "KR1d0032_008.txt",
        "TU",
        "--profile",
        "mandoku-notes",
    )
    edited, document, problems = built_in_memory(sources)
    assert problems == []
    first = document.xpath("(//t:body//t:app)[1]", namespaces=NS)[0]
    attested = " ".join(r.get("wit") for r in first.xpath(".//t:lem | .//t:rdg", namespaces=NS)).split()
    assert sorted(attested) == ["#wSBCK", "#wTU", "#wWYG"], "each witness once in the first entry"
    assert not only_the_base(document)
    moved = [t for t in edited.apparatus.transpositions if t.siglum == "TU"]
    assert moved and len({(t.b0, t.b1) for t in moved}) == len(moved), "each clause moved once"


@pytest.mark.tier("build")
def test_the_qinding_yishu_juan_8_added_to_xiangshe_keeps_the_edition_valid(tmp_path):
    """欽定儀禮義疏 卷八, the first half of 鄉射禮, its commentary on indented lines: the build crashed
    ('YS' is not in list) where the base's lost leaf was supplied from its 正義 and 案, read as 注.
    A leaf is supplied from a witness whose 經 and 注 agree with the base's: WYG."""
    sources = tmp_path / "sources"
    shutil.copytree(SOURCES, sources)
    added(sources, KANRIPO / "KR1d0037-WYG" / "KR1d0037_010.txt", "YS")
    edited, document, problems = built_in_memory(sources)
    assert problems == []
    assert [(leaf.status, leaf.source) for leaf in edited.leaves] == [("supplied", "WYG")] * 3
    assert edited.apparatus.statuses["YS"].included and not only_the_base(document)
    # the 凡例 names it among the compilations whose 注 is not collated, by what it is
    conventions = "".join(document.xpath("//t:front//text()", namespaces=NS))
    assert "YS（KR1d0037_010）為後人纂集之書" in conventions and "底本缺葉，亦不據以補" in conventions


@pytest.mark.tier("build")
def test_the_perturbed_yanli_of_the_scale_bench_keeps_its_marker_beside_the_ji(tmp_path):
    """燕禮 as the scale bench perturbs it (tests/fixtures/scale-yanli): WYG starts again at the
    heading 記, which no entry holds; its lacunaEnd stands in the first entry after the heading."""
    root = tmp_path / "sources"
    shutil.copytree(ROOT / "tests" / "fixtures" / "scale-yanli", root, ignore=shutil.ignore_patterns("README.md"))
    for name in ("variants.tsv", "gaiji.tsv", "persons.tsv"):
        shutil.copy(WORK / name, root / name)
    edited, document, problems = built_in_memory(root)
    assert problems == []
    division = document.xpath("//t:div[@type = 'division']", namespaces=NS)[0]
    assert division.findtext("t:head", namespaces=NS) == "記"
    resumed = document.xpath("//t:lacunaEnd[@wit = '#wWYG']", namespaces=NS)
    assert len(resumed) == 1
    assert resumed[0].xpath("ancestor::t:app[1]", namespaces=NS) == division.xpath("(.//t:app)[1]", namespaces=NS)
