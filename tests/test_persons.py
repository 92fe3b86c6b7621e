"""persons.tsv: who the layers of the witnesses belong to, and a table of the old form refused
in one line, once for the whole work."""

import pytest
from conftest import WORK, sample_work

from edition.errors import EditionError
from edition.settings import layer_persons, load_persons
from edition.work.work_build import check_work


def test_the_layers_column_gives_each_layer_its_person():
    persons = load_persons(WORK / "persons.tsv")
    assert layer_persons(persons) == {
        "commentary": "zheng-xuan",
        "contents": "zheng-xuan",
        "subcommentary": "jia-gongyan",
        "phonetic": "lu-deming",
    }


def test_a_table_without_the_layers_column_is_one_line_once_for_the_work(tmp_path):
    sources = sample_work(tmp_path / "sources", (3, 10))
    table = sources / "persons.tsv"
    rows = [line.split("\t") for line in table.read_text(encoding="utf-8").split("\n")]
    layers = next(r for r in rows if r[0] == "id").index("layers")
    table.write_text("\n".join("\t".join(r[:layers] + r[layers + 1 :]) for r in rows), encoding="utf-8")
    with pytest.raises(EditionError, match=r"persons\.tsv:\d+: table lacks column\(s\) layers"):
        load_persons(table)
    problems = check_work(sources)
    assert len(problems) == 1 and "persons.tsv" in problems[0] and "layers" in problems[0]


def test_a_persons_table_with_no_rows_gives_valid_tei_with_no_list_of_persons(tmp_path):
    """A new work's persons.tsv may be its header alone (a work of no tradition, whose notes on
    readings need no commentator): the header then has no listPerson (an empty one is no TEI), and
    the edition and the witness's transcription are valid."""
    from probe import sample_sources

    from edition.collation import decision_file
    from edition.publication import tei, validate
    from edition.work.chapter_build import edit
    from edition.work.sources import Sources, decisions_path

    root = sample_sources(tmp_path / "sources", tradition="")
    table = root / "persons.tsv"
    lines = table.read_text(encoding="utf-8").splitlines()
    table.write_text("\n".join(line for line in lines if line.startswith(("#", "id\t"))) + "\n", encoding="utf-8")
    sources = Sources.load(root)
    assert sources.persons == {}
    witnesses = sources.intake_all()
    edited = edit(sources, witnesses, decision_file.load(decisions_path(root)))
    document = tei.edition_document(sources, edited.apparatus, edited.sections, {})
    transcription = tei.witness_document(sources, witnesses[0])
    for tree in (document, transcription):
        assert not tree.xpath("//t:listPerson", namespaces={"t": tei.TEI_NS})
        assert validate.problems(tree, project=tree is document) == []
