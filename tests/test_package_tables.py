"""The tables of every work, package data (the variant forms, the classical usages), and what a
work's sources add to them: a new work folds the generic variant forms with no row of its own, a
row of its `usages.tsv` makes a pair a usage, and a bad row is one line."""

import shutil
from pathlib import Path

import pytest
from conftest import SOURCES, sample_work
from probe import write_witness

from edition.collation import decision_file
from edition.collation.apparatus import collate
from edition.intake.variants import VariantForms
from edition.publication import tei
from edition.work.chapter_build import check, edit
from edition.work.sources import Sources
from edition.work.work_build import check_work
from edition.work.work_sources import Work, export_chapter

NS = {"t": tei.TEI_NS}
USAGES_HEADER = "character\tother\trelation\tsource\tevidence\n"
# Phrases of the 儀禮; the other witness writes forms of the package's table there (SBCK's 靣, YS's 虗).
BASE = "納采用鴈主人筵于戶西西上右几使者玄端至擯者出請事入告女子許嫁笄而醴之稱字賓升西階當阿東面致命主人受虛爵達于房"
FORMS = {"面": "靣", "虛": "虗"}


def new_work(root: Path, other: str, base: str = BASE) -> Path:
    """A one-chapter edition of no tradition whose variants.tsv has no rows: the base A and a
    witness B, plain text."""
    root.mkdir()
    for name in ("gaiji.tsv", "persons.tsv"):
        shutil.copy(SOURCES / name, root / name)
    (root / "variants.tsv").write_text("variant\tstandard\tsource\tevidence\n", encoding="utf-8")
    config = '[edition]\ntitle = "t"\nbase = "A"\ncomparison_script = "traditional"\n'
    (root / "edition.toml").write_text(config, encoding="utf-8")
    write_witness(root, "A", "a.txt", base.encode("utf-8"), profile="plain")
    write_witness(root, "B", "b.txt", other.encode("utf-8"), profile="plain", append=True)
    return root


def collated(root: Path):
    sources = Sources.load(root)
    return collate(sources.intake_all(), "A", sources.orthography(), sources.config.min_quality)


def test_a_new_work_folds_the_variant_forms_of_the_package_table(tmp_path):
    other = "".join(FORMS.get(c, c) for c in BASE)
    apparatus = collated(new_work(tmp_path / "sources", other))
    assert apparatus.units == [], "no substantive reading"
    assert {(pair.text, pair.form) for pair in apparatus.variant_forms} == set(FORMS.items())
    assert all(VariantForms({}).fold(form) is None for form in FORMS.values()), "the other tables lack them"
    sources = Sources.load(tmp_path / "sources")
    assert sources.orthography().sources("靣", "面") == ("editor (variant form) (variants.tsv)",)


def test_forms_of_the_li_ji_s_prints_that_no_other_table_relates_are_variant_forms(tmp_path):
    """SBCK 禮記 writes 𬒳 (示 for 衣, Kanripo's KR0013), 頴, 尫 and 葘 where WYG reads 被, 穎, 尪
    and 菑: Big5 has 頴 and 菑's kin, Unihan relates 尫 and 葘 to nothing."""
    base = "君實不察其罪𬒳此名也刀郤刃授頴吾欲暴尫而奚若去民之葘此皆有功烈於民者也"
    forms = {"𬒳": "被", "頴": "穎", "尫": "尪", "葘": "菑"}
    apparatus = collated(new_work(tmp_path / "sources", "".join(forms.get(c, c) for c in base), base))
    assert apparatus.units == [], "no substantive reading"
    assert {(pair.text, pair.form) for pair in apparatus.variant_forms} == set(forms.items())


def test_forms_the_review_found_emended_are_variant_forms(tmp_path):
    """The 儀禮's SBCK writes 穪 (士冠禮 注 男子之羙穪), 沉 (覲禮 注 升沉) and 軛 where WYG reads 稱, 沈
    and 軶 (既夕禮 注 楔貌如軶): variant forms, never emended, in the 異體字表."""
    base = "字者所以相尊男子之美穪也升沉必就祭者也楔貌如軛上兩末"
    forms = {"穪": "稱", "沉": "沈", "軛": "軶"}
    apparatus = collated(new_work(tmp_path / "sources", "".join(forms.get(c, c) for c in base), base))
    assert apparatus.units == [], "no substantive reading, no emendation"
    assert {(pair.text, pair.form) for pair in apparatus.variant_forms} == set(forms.items())


def test_a_row_of_the_work_comes_before_the_package_table(tmp_path):
    """A row whose standard is its variant keeps a character unfolded that the package's folds."""
    table = tmp_path / "variants.tsv"
    table.write_text("variant\tstandard\tsource\tevidence\n虗\t虗\teditor (a test)\t-\n", encoding="utf-8")
    assert VariantForms.load(table).fold("虗") is None
    assert VariantForms.load(SOURCES / "variants.tsv").standard("虗") == "虛"


def test_a_row_of_the_work_s_usages_makes_a_pair_a_usage(tmp_path):
    """懸, the later character of 縣 "hang" (the 儀禮's 縣 of the bells), is a substantive reading
    against 縣 until the work's usages.tsv gives the pair; then the TEI types it a usage."""
    root = new_work(tmp_path / "sources", BASE.replace("右几", "右懸"), BASE.replace("右几", "右縣"))
    (reading,) = [r for unit in collated(root).units for r in unit.readings if "B" in r.sigla]
    assert (reading.type, reading.subtype) == ("substantive", "substitution")
    row = '縣\t懸\t古今字\teditor (懸, the later character of 縣 "hang")\t儀禮 縣 = 懸\n'
    (root / "usages.tsv").write_text(USAGES_HEADER + row, encoding="utf-8")
    sources = Sources.load(root)
    witnesses = sources.intake_all()
    edited = edit(sources, witnesses, decision_file.load(sources.decisions))
    document = tei.edition_document(sources, edited.apparatus, edited.sections, {})
    (rdg,) = document.xpath("//t:rdg[@wit='#wB']", namespaces=NS)
    assert (rdg.get("type"), rdg.get("subtype"), "".join(rdg.itertext())) == ("usage", "gujinzi", "懸")


def test_a_work_s_usages_are_a_chapter_s_input_and_go_with_it(tmp_path):
    """The work's usages.tsv is read by every chapter, is among its build's inputs, and goes with
    a chapter exported as a one-chapter edition."""
    root = sample_work(tmp_path / "sources", (3,))
    (root / "usages.tsv").write_text(USAGES_HEADER + "灋\t法\t古今字\teditor\t周禮\n", encoding="utf-8")
    work = Work.load(root)
    chapter = work.chapter(3)
    assert root / "usages.tsv" in work.inputs(chapter)
    assert [row.characters for row in work.sources(chapter).own_usages] == [("灋", "法")]
    exported = export_chapter(work, chapter, tmp_path / "chapter")
    assert [row.characters for row in Sources.load(exported).own_usages] == [("灋", "法")]


@pytest.mark.parametrize(
    "row,problem",
    [
        ("灋\t法\t假借\teditor\t周禮\n", "relation must be one of 古今字, 通假"),
        ("灋\t法式\t古今字\teditor\t周禮\n", "other must be one character, found '法式'"),
        ("灋\t法\t古今字\t \t周禮\n", "the row has no source"),
        ("灋\t法\t古今字\n", "expected 5 tab-separated cells, found 3"),
    ],
)
def test_a_bad_row_of_the_sources_usages_is_one_line(tmp_path, row, problem):
    """Once for a work of two chapters, and for a one-chapter edition."""
    work, edition = sample_work(tmp_path / "work", (3, 10)), new_work(tmp_path / "edition", BASE)
    for root, problems in ((work, check_work), (edition, check)):
        (root / "usages.tsv").write_text("# the work's usages\n" + USAGES_HEADER + row, encoding="utf-8")
        assert problems(root) == [f"{(root / 'usages.tsv').resolve()}:3: {problem}"]


def test_two_characters_that_differ_each_by_a_relation_of_its_own_are_two_entries(tmp_path):
    """A witness reads 熟已 for the base's 孰巳: a usage (孰/熟, 古今字) and a graphic variant (巳/已),
    each an entry typed by its own relation, not one substantive reading of two characters."""
    base = BASE[:30] + "孰巳" + BASE[30:]
    units = collated(new_work(tmp_path / "sources", base.replace("孰巳", "熟已"), base)).units
    typed = sorted((u.lemma.display, [(r.display, r.type) for r in u.readings]) for u in units)
    # the graphic variant's lemma is the one the sense asks for (已), the base's 巳 its reading
    assert typed == [("孰", [("熟", "usage")]), ("已", [("巳", "graphic")])], typed
