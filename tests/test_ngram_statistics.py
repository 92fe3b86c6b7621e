"""The statistics of the genre's unpunctuated texts: runs counted with the notes about them, pairs'
cohesion and branching, a table that reads back as written, the same bytes each time, and the
shipped table's word on the 儀禮's formulas."""

from hypothesis import given
from hypothesis import strategies as st

from edition.collation.ngram_statistics import FEWEST, NgramStatistics
from edition.collation.punctuation_model import shipped_statistics

STRETCHES = ["主人再拜", "賓荅再拜", "主人揖賓", "賓再拜", "主人西階上拜"] * FEWEST


def test_runs_are_counted_with_the_boundaries_after_and_before_them():
    counted = NgramStatistics.counted(STRETCHES)
    assert counted.counts["再拜"] == (3 * FEWEST, 3 * FEWEST, 0)  # it ends three stretches of five
    assert counted.counts["主人"] == (3 * FEWEST, 0, 3 * FEWEST)
    assert "人西階" not in counted.counts  # a run of three that neither ends nor starts a stretch: not kept
    assert "人西階上" not in counted.counts
    assert counted.characters == sum(map(len, STRETCHES)) and counted.pairs == sum(len(s) - 1 for s in STRETCHES)
    after, before = counted.branching["主人"]
    assert after > 0 and before == 0  # 主人 is followed by 再, 揖, 西; never preceded


def test_a_run_that_ends_stretches_says_so_at_its_last_character():
    counted = NgramStatistics.counted(STRETCHES)
    items = counted.features("賓再拜主人")
    assert "ends2=4" in items[2]  # 再拜 ends every stretch it stands in
    assert "starts2=4" in items[2]  # and 主人 starts every one
    assert not any(f.startswith("ends2") for f in items[3])  # 拜主 is never seen: it says nothing
    assert len(items) == 5


@given(st.lists(st.text(alphabet="主人賓再拜揖西階上", min_size=1, max_size=12), max_size=30))
def test_the_table_reads_back_as_written_and_is_written_the_same_each_time(tmp_path_factory, stretches):
    folder = tmp_path_factory.mktemp("statistics")
    counted = NgramStatistics.counted(stretches)
    counted.write(folder / "a.tsv.gz", "test")
    counted.write(folder / "b.tsv.gz", "test")
    assert (folder / "a.tsv.gz").read_bytes() == (folder / "b.tsv.gz").read_bytes()
    assert NgramStatistics.read(folder / "a.tsv.gz") == counted


def test_the_shipped_statistics_know_the_formulas_of_the_rite():
    shipped = shipped_statistics()
    assert shipped.characters > 3_000_000
    # 西階上 is one phrase: 上 coheres with 階 and rarely opens a stretch after a note
    assert shipped.pmi("阶上") > 3 and shipped.counts["上"][2] / shipped.counts["上"][0] < 0.05
    # 再拜 ends a clause more often than 主人 does, which starts one more often
    ends = {run: shipped.counts[run][1] / shipped.counts[run][0] for run in ("再拜", "主人")}
    starts = {run: shipped.counts[run][2] / shipped.counts[run][0] for run in ("再拜", "主人")}
    assert ends["再拜"] > 5 * ends["主人"] and starts["主人"] > 5 * starts["再拜"]
