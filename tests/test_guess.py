"""Guessing composes: `edition add-witness` finds a file's layout features, composes them into a
profile (a built-in one where that is the same), checks it against the base and says how sure it
is; the composed profile is written for review and read by the build."""

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import SOURCES

from edition.cli import main
from edition.intake.guess import built_in_equivalent, detectors, features_found
from edition.intake.profile import compose
from edition.intake.rule import READS_OTHERS
from edition.tables import read_toml
from edition.work.sources import Sources

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def project(tmp_path) -> Path:
    root = tmp_path / "sources"
    shutil.copytree(SOURCES, root)
    return root


def add(project: Path, file: Path, siglum: str, *options: str):
    return CliRunner().invoke(main, ["add-witness", str(file), "--siglum", siglum, "--sources", str(project), *options])


def found(text: str) -> list[str]:
    return [f.feature for f in features_found(text)]


def test_every_feature_composed_can_be_detected():
    assert all(d.words for d in detectors())
    order = [d.feature for d in detectors()]
    after = order[order.index("rest-is-classic") + 1 :]
    assert after[-1] == "tradition-by-alignment", "the 經 and the 傳 are divided last, once the text is settled"
    for name in after:
        path = ROOT / "edition" / "intake" / "features" / f"{name}.toml"
        doc, lines = read_toml(path, "feature")
        assert all(rule.kind in READS_OTHERS for rule in compose(doc, lines, path, (name,))), (
            f"{name}: what comes after the layout's own rules is decided by the other witnesses"
        )


@pytest.mark.tier("build")  # reads a chapter of the corpus
def test_the_kanripo_editions_are_the_built_in_profiles(project, tmp_path):
    for name, siglum, profile, features in (
        ("KR1d0026_005.txt", "N1", "mandoku-notes", ("mandoku", "headings", "small-notes")),
        (
            "KR1d0028_005.txt",
            "N2",
            "mandoku-zhushu",
            ("kaozheng", "marked-small-notes", "zhu-in-large-characters", "classic-by-alignment"),
        ),
    ):
        copy = tmp_path / f"new-{name}"
        shutil.copy(SOURCES / name, copy)
        result = add(project, copy, siglum)
        assert result.exit_code == 0, result.output
        assert f"guessed layout profile: {profile}\n" in result.output
        assert all(f"found {f}:" in result.output for f in features)
        assert "found bibliographic-header" not in result.output, "a mandoku header is not a bibliographic one"
        assert "how sure: " in result.output and ": sure" in result.output
        assert f'profile = "{profile}"' in (project / "witnesses.toml").read_text(encoding="utf-8")
    assert not (project / "profiles").exists(), "nothing to write where a built-in profile is the same"


@pytest.mark.tier("build")  # reads a chapter of the corpus
def test_a_layout_nobody_tuned_for_is_composed_written_and_read(project, tmp_path):
    opening = (
        "鄉射之禮主人戒賓賓出迎再拜主人荅再拜乃請賓賓禮辭許主人再拜賓荅再拜"
        "主人退賓送再拜無介乃席賓南面東上衆賓之席繼而西"
    )
    notes = [
        "主人州長也鄉大夫若在焉則稱鄉大夫也",
        "戒猶警也語也出迎出門也",
        "請告也告賓以射事",
        "退還射宫省録射事",
        "雖先飲酒主於射也",
        "言繼者甫欲習衆庶未有所殊别",
    ]
    lines = ["欽定四庫全書", "　儀禮集説卷五"]
    for i, note in enumerate(notes):
        lines += [opening[i * 10 : (i + 1) * 10], "　" + note]
    lines.append(opening[60:])
    new = tmp_path / "jishuo.txt"
    new.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = add(project, new, "JS")
    assert result.exit_code == 0, result.output
    assert "found indented-commentary" in result.output and "found headings" in result.output
    assert "written to sources/profiles/JS.toml for review" in result.output
    written = (project / "profiles" / "JS.toml").read_text(encoding="utf-8")
    assert [line.split('"')[1] for line in written.splitlines() if line.startswith("feature")] == [
        "headings",
        "indented-commentary",
        "rest-is-classic",
    ]
    sources = Sources.load(project)
    witness = sources.intake(next(m for m in sources.witnesses if m.siglum == "JS"), sources.normalizer())
    assert "".join(s.text(witness.raw) for s in witness.segments_of("classic")) == opening
    assert "".join(s.text(witness.raw) for s in witness.segments_of("commentary")) == "".join(notes)


def test_a_compilers_layout_composes_its_remarks_and_labels():
    text = (
        "礼书\n\n乡射之礼【主人州长也○案此说是】主人戒宾\n右戒宾\n"
        "宾出迎【出迎出门也○又案】再拜\n右迎宾\n【请告也】【告宾】\n"
    )
    assert found(text) == [
        "title-line",
        "section-labels",
        "lenticular-notes",
        "compiler-remarks",
        "rest-is-classic",
        "classic-by-attestation",
        "section-labels-by-alignment",
        "notes-by-attestation",
    ]
    assert "circle-separators" not in found(text), "the ○ are inside the notes"
    mandoku = (
        "#+TITLE: 儀禮經傳通解\n<pb:X_001-1a>¶\n鄉射之禮主人戒賓(主人州長也○今/案此説是)¶\n"
        "賓出迎(出迎出門/也○又案)再拜¶\n右戒賓¶\n右迎賓¶\n(請告也)(告賓)(退還)(射宫)¶\n"
    )
    assert found(mandoku) == [
        "mandoku",
        "section-labels",
        "small-notes",
        "compiler-remarks",
        "rest-is-classic",
        "classic-by-attestation",
        "section-labels-by-alignment",
        "notes-by-attestation",
    ]


def test_the_end_of_a_tradition_is_told_by_the_others_where_no_circle_marks_it():
    """喪服 of SBCK shows 傳 whose end its layout cannot tell (a tail after the last 也 before a
    note): `tradition-by-alignment` is found and mandoku-notes composes it; WYG's ○ before each
    passage of the classic text tells, and it stays mandoku-zhushu."""
    for edition, name, profile in (
        ("SBCK", "KR1d0026_011.txt", "mandoku-notes"),
        ("WYG", "KR1d0028_011.txt", "mandoku-zhushu"),
    ):
        text = (ROOT / "sources" / edition / name).read_text(encoding="utf-8")
        features = features_found(text)
        assert ("tradition-by-alignment" in [f.feature for f in features]) == (edition == "SBCK")
        assert built_in_equivalent(features, text) == profile


@pytest.mark.tier("build")  # reads a chapter of the corpus
def test_scrambled_is_told_from_a_layout_problem(project, tmp_path):
    scrambled = tmp_path / "scrambled.txt"
    shutil.copy(SOURCES / "004_cea1450921f3d73e.txt", scrambled)
    result = add(project, scrambled, "SC")
    assert result.exit_code == 0, result.output
    assert "unsure: scrambled or unrelated" in result.output
    sbck = (SOURCES / "KR1d0026_005.txt").read_text(encoding="utf-8")
    flattened = tmp_path / "flattened.txt"
    flattened.write_text(sbck.replace("(", "").replace(")", "").replace("/", ""), encoding="utf-8")
    result = add(project, flattened, "FL")
    assert result.exit_code == 0, result.output
    assert "unsure: a layout problem" in result.output and "commentary read as classic text" in result.output


@pytest.mark.tier("build")  # reads a chapter of the corpus
def test_a_failed_add_writes_no_profile(project, tmp_path):
    new = tmp_path / "jishuo.txt"
    new.write_text(
        "　儀禮集説卷五\n" + "".join(f"鄉射之禮主人戒賓\n　主人州長也鄉大夫若在焉{i}\n" for i in range(6)),
        encoding="utf-8",
    )
    result = add(project, new, "001")
    assert result.exit_code == 1 and "siglum '001' is taken" in result.output
    assert not (project / "profiles").exists()


def family_edition(indent: str, byline: str) -> tuple[str, list[str]]:
    """SBCK's 鄉射禮 as another edition of the family might set it (made up from the rules, as
    張爾岐's 句讀 and the compilations set theirs): the author's line under the 卷's title, and a
    section label (右X) on a line of its own after every tenth line of the classic text at the
    margin, set in by `indent`. Also the labels inserted, in order."""
    lines = (SOURCES / "KR1d0026_005.txt").read_text(encoding="utf-8").splitlines(True)
    labels = iter(["右戒賔", "右陳設", "右主人獻賔", "右賔酢主人", "右主人酬賔", "右獻衆賔", "右一人舉觶"] * 40)
    out, inserted = [], []
    for number, line in enumerate(lines):
        out.append(line)
        if line.startswith("儀禮卷第五"):
            out.append(f"{byline}¶\n")
        elif number > 12 and number % 10 == 0 and not line.startswith(("<", "#", "\u3000")) and line.endswith("¶\n"):
            inserted.append(next(labels))
            out.append(f"{indent}{inserted[-1]}¶\n")
    return "".join(out), inserted


@pytest.mark.tier("build")  # reads a chapter of the corpus
@pytest.mark.parametrize(
    ("indent", "byline"),
    [("", "濟陽張爾岐撰"), ("\u3000", "\u3000\u3000濟陽張爾岐撰"), ("\u3000\u3000", "\u3000宋\u3000張淳\u3000撰")],
)
def test_an_unseen_editions_labels_and_author_line_are_never_classic(project, tmp_path, indent, byline):
    """Labels and bylines are never 經, however the edition sets them: a section label at the margin
    or set in by one U+3000 or more after a line at the margin, and the author's line under the
    title, with or without spaces. The classic text it reads is the base's, no more and no less."""
    text, labels = family_edition(indent, byline)
    path = tmp_path / "juzi.txt"
    path.write_text(text, encoding="utf-8")
    result = add(project, path, "JD")
    assert result.exit_code == 0, result.output
    assert "found section-labels" in result.output
    sources = Sources.load(project)
    read = {w.meta.siglum: w for w in sources.intake_all()}
    witness, base = read["JD"], read["SBCK"]
    found_labels = [s.text(witness.raw) for s in witness.segments_of("label")]
    assert [label for label in found_labels if label.startswith("右")] == labels
    assert byline.strip("\u3000") in found_labels
    assert witness.classic.text == base.classic.text
