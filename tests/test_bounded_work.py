"""Bounded work: a profile pattern that runs away is a one-line error naming the rule, its file and
the witness line, and intake of a large witness loses nothing and takes memory in proportion."""

import shutil
import subprocess
import sys
import tracemalloc
from pathlib import Path

import pytest
from conftest import SOURCES
from lxml import etree
from probe import SAMPLE, sample_sources, write_witness
from texts import text_of_body

from edition.errors import EditionError
from edition.intake.model import RawText
from edition.intake.profile import Profile, split_layers
from edition.intake.rule import Rule
from edition.publication import tei, validate
from edition.work.sources import Sources

ROOT = Path(__file__).resolve().parent.parent
EDITION = Path(sys.executable).parent / "edition"
RUNAWAY = "(a|a)+$"  # on a line of 40 a's with text after it: 2^40 ways to fail
WITH_RUNAWAY_LINE = SAMPLE.replace("右请射\n", "a" * 40 + "\n右请射\n")  # line 5
RUNAWAY_PROFILE = f"""
[[rule]]
name = "title"
layer = "label"
pattern = '\\A[^\\n]+'

[[rule]]
name = "runaway"
layer = "classic"
pattern = '{RUNAWAY}'

[[rule]]
name = "classic"
layer = "classic"
pattern = '[^\\n]+'
"""
WITNESS_RULE = f"""
[[witness.rule]]
name = "runaway"
reason = "a repair gone wrong"
layer = "classic"
pattern = '{RUNAWAY}'
"""


@pytest.fixture
def sources(tmp_path) -> Path:
    return sample_sources(tmp_path / "sources")


def edition(command: str, sources: Path, tmp_path: Path) -> tuple[int, list[str]]:
    """Exit status and the lines the installed command prints (check: stdout, build: stderr)."""
    args = [str(EDITION), command, "--sources", str(sources)]
    if command == "build":
        args += ["--quiet", "--out", str(tmp_path / "build")]
    result = subprocess.run(args, capture_output=True, text=True, timeout=120)
    assert "Traceback" not in result.stderr
    return result.returncode, (result.stdout if command == "check" else result.stderr).strip().splitlines()


@pytest.mark.tier("build")
@pytest.mark.parametrize("command", ["check", "build"])
def test_a_runaway_profile_rule_is_one_line(sources, tmp_path, command):
    (sources / "profiles").mkdir()
    (sources / "profiles" / "runaway.toml").write_text(RUNAWAY_PROFILE)
    write_witness(sources, "A", "a.txt", WITH_RUNAWAY_LINE.encode(), profile="runaway")
    status, lines = edition(command, sources, tmp_path)
    assert status == 1 and len(lines) == 1, lines
    assert lines[0].startswith(
        ("edition: error: " if command == "build" else "") + str(sources / "profiles" / "runaway.toml")
    )
    assert "rule 'runaway' exceeded its time limit" in lines[0] and lines[0].endswith("a.txt line 5")


@pytest.mark.tier("build")
@pytest.mark.parametrize("command", ["check", "build"])
def test_a_runaway_witness_rule_is_one_line(sources, tmp_path, command):
    write_witness(sources, "A", "a.txt", WITH_RUNAWAY_LINE.encode(), extra=WITNESS_RULE)
    status, lines = edition(command, sources, tmp_path)
    assert status == 1 and len(lines) == 1, lines
    assert f"{sources / 'witnesses.toml'}: rule 'runaway' exceeded its time limit" in lines[0]
    assert lines[0].endswith("a.txt line 5")


@pytest.mark.parametrize(
    "table",
    [
        {"name": "spam", "kind": "intrusion", "anchor": RUNAWAY},
        {"name": "modern", "kind": "register", "within": ["classic"], "layer": "translation", "marker": RUNAWAY},
        {"name": "tails", "kind": "alignment", "within": ["classic"], "layer": "classic", "pattern": RUNAWAY},
    ],
    ids=["intrusion", "register", "alignment"],
)
def test_intrusion_register_and_alignment_rules_have_a_time_limit_too(table):
    text = WITH_RUNAWAY_LINE.replace("a" * 40, "a" * 40 + " a")
    raw = RawText(Path("w.txt"), text.encode(), text, "utf-8")
    rule = Rule.from_table(table, "p.toml")
    classic = Rule.from_table({"name": "classic", "layer": "classic", "pattern": r"[^\n]+"}, "p.toml")
    rules = (rule, classic) if rule.kind == "intrusion" else (classic, rule)
    with pytest.raises(EditionError) as error:
        split_layers(raw, Profile("p", "", rules))
    assert str(error.value).startswith(f"p.toml: rule {table['name']!r} exceeded its time limit")
    assert str(error.value).endswith("w.txt line 5")


def large_witness(tmp_path: Path, seed: str, profile: str, copies: int) -> Sources:
    """A one-witness edition: a seed file repeated `copies` times."""
    root = tmp_path / f"{seed}x{copies}"
    root.mkdir()
    for name in ("variants.tsv", "gaiji.tsv", "persons.tsv"):
        shutil.copy(SOURCES / name, root / name)
    (root / "edition.toml").write_text('[edition]\ntitle = "t"\nbase = "big"\ncomparison_script = "simplified"\n')
    (root / "witnesses.toml").write_text(
        f'[[witness]]\nsiglum = "big"\nfile = "big.txt"\ntitle = "t"\nscript = "mixed"\nprofile = "{profile}"\n'
    )
    text = next((SOURCES).glob(f"{seed}_*.txt")).read_text(encoding="utf-8")
    (root / "big.txt").write_text(text * copies, encoding="utf-8")
    return Sources.load(root)


def test_a_large_witness_loses_no_character(tmp_path):
    sources = large_witness(tmp_path, "002", "zhushu", 8)
    witness = sources.intake(sources.witnesses[0], sources.normalizer())
    assert len(witness.raw.data) > 1_000_000
    position = 0
    for segment in witness.segments:
        assert segment.start == position < segment.end
        position = segment.end
    assert position == len(witness.raw.text)
    document = tei.witness_document(sources, witness)
    assert text_of_body(etree.ElementTree(etree.fromstring(tei.serialize(document)))) == witness.raw.text.replace(
        "\r", ""
    )
    assert validate.problems(document) == []


def test_intake_memory_grows_in_proportion_to_the_witness(tmp_path):
    """No Python object per character: a quarter of the text takes about a quarter of the memory,
    and the peak stays at a few dozen bytes per character."""
    peaks = {}
    for copies in (2, 8):
        sources = large_witness(tmp_path, "000", "lishu-gangmu", copies)
        normalizer = sources.normalizer()
        tracemalloc.start()
        witness = sources.intake(sources.witnesses[0], normalizer)
        assert len(witness.classic.starts) > 0
        peaks[copies] = tracemalloc.get_traced_memory()[1] / len(witness.raw.text)
        tracemalloc.stop()
    assert peaks[8] < 100, f"{peaks[8]:.0f} bytes per character"
    assert peaks[8] < 1.25 * peaks[2]


def test_a_busy_machine_does_not_spend_a_matchs_cpu_time():
    """A match whose wall-clock timeout passes while its thread hardly ran (a busy machine) is
    tried again with more wall time; a runaway still stops once its CPU time is spent."""
    import time

    import regex

    from edition.budget import Budget

    timeouts = []

    def starved_then_matching(timeout):
        timeouts.append(timeout)
        if len(timeouts) == 1:
            time.sleep(timeout)
            raise TimeoutError
        return "matched"

    assert Budget(0.1).run(starved_then_matching) == "matched"
    assert timeouts[1] > 2 * timeouts[0]
    with pytest.raises(TimeoutError):  # how soon it stops, idle or busy: bench/budget
        Budget(0.2).run(lambda timeout: regex.match(RUNAWAY, "a" * 40 + "b", timeout=timeout))


def test_a_search_whose_wall_time_passes_between_matches_is_taken_up_again():
    """A rule's search reads every match though the wall-clock timeout regex was given passes
    while the reader of its matches works (or the machine is busy): the CPU time it spent is what
    counts. A runaway search still stops, and a match of no length is read once."""
    import time

    import regex

    from edition.budget import Budget

    found = []
    for match in Budget(0.2).finditer(regex.compile(r"\p{Han}"), "鄉射之禮主人", 0, 6):
        found.append(match.group())
        time.sleep(0.15)  # the reader's wall time, not the search's
    assert "".join(found) == "鄉射之禮主人"
    empty = Budget(0.2)
    assert [m.span() for m in empty.finditer(regex.compile(r"(?=禮)"), "鄉射之禮禮", 0, 5)] == [(3, 3), (4, 4)]
    with pytest.raises(TimeoutError):
        list(Budget(0.2).finditer(regex.compile(RUNAWAY), "a" * 40 + "b", 0, 41))
