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
