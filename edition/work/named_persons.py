"""The persons an edition names, for a new work's persons.tsv: the commentators its heading lines
name with their work (漢鄭氏注　唐陸德明音義　孔穎達疏, 禮記　鄭氏註: the layer each wrote) and the
scholars its notes quote by name (杜子春云), as the package's table of them (`data/persons.tsv`)
knows them. A row is added for each the work's table lacks; a layer that a person of the work
already owns is left to them."""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import regex

from ..intake.guess import decode
from ..intake.normalize import Normalizer
from ..tables import read_text, read_tsv
from ..text import NUMERAL

TABLE = Path(str(resources.files("edition.work") / "data" / "persons.tsv"))
COLUMNS = ("id", "name", "role", "dates", "aliases", "layers", "source")  # a row of the work's persons.tsv
# A heading line that names commentators: indented, or a chapter's title (…第五), and short, ending
# in the name of a work of commentary (漢鄭氏注　唐陸德明音義, 　　　禮記(…)鄭氏註, 士冠禮第一　儀禮
# 鄭氏注); the book and its commentator after a note ((…)禮記　鄭氏註); or a chapter's title whose
# note opens with one (曲禮上第一(陸德明音義曰…), 投壷第四十(陸曰…)).
WORKS = "(?:注|註|疏|䟽|箋|傳|音義|解詁|集解|正義)"
HEADING_LINE = regex.compile(
    rf"^(?:\u3000+|[^\n(]{{1,12}}第[{NUMERAL}]+[\u3000(])[^\n]{{0,40}}?{WORKS}¶?$"
    rf"|(?:^|\))\p{{Han}}{{1,8}}\u3000+[^\n()\u3000]{{1,12}}{WORKS}¶?$"
    rf"|^[^\n(]{{1,12}}第[{NUMERAL}]+\([^\n)]{{0,6}}(?:音義曰|陸曰)"
)
# A scholar the notes quote by name: at least twice, and five times in 100,000 characters (鄭司農云
# fills the 周禮's 注; the 禮記's 疏 quotes him a dozen times in 1.4 million)
QUOTED_AT_LEAST, QUOTED_SHARE = 2, 5e-5


@dataclass(frozen=True)
class Named:
    row: dict[str, str]  # the work's row for the person
    how: str  # where the edition names him, in words


def known() -> list[dict[str, str]]:
    return [row for _, row in read_tsv(TABLE, ("id", "name", "found", "named", "layers"))]


def named_in(files: list[Path], normalizer: Normalizer, siglum: str) -> list[Named]:
    """The persons of the table an edition's files name, in the table's order."""
    fold = lambda text: text.translate(normalizer.comparison)
    texts = [decode(path.read_bytes())[0] for path in files]
    headings = fold("\n".join(line for text in texts for line in text.splitlines() if HEADING_LINE.search(line)))
    whole = fold("\n".join(texts))
    found = []
    for person in known():
        forms = [form for form in person["named"].split("、") if form]
        if person["found"] == "heading":
            form = next((f for f in forms if fold(f) in headings), None)
            how = f"{siglum} names him in a heading ({form})"
        else:
            least = max(QUOTED_AT_LEAST, QUOTED_SHARE * len(whole))
            form = next((f for f in forms if whole.count(fold(f)) >= least), None)
            how = f"{siglum}'s notes quote him ({form}…)"
        if form:
            row = {column: person.get(column, "") for column in COLUMNS}
            found.append(Named(row | {"source": how}, how))
    return found


def with_persons(table: Path, named: list[Named]) -> tuple[str, list[str]]:
    """The work's persons.tsv with a row for each person named that it lacks (by id or name), the
    layers a person of the work already owns left out; and a line for each row added."""
    rows = [row for _, row in read_tsv(table, ("id", "name"))]
    have = {row["id"] for row in rows} | {row["name"] for row in rows}
    owned = {layer for row in rows for layer in row.get("layers", "").split("、") if layer}
    text, lines = read_text(table), []
    header = next(line for line in text.splitlines() if line.strip() and not line.startswith("#")).split("\t")
    for person in named:
        row = person.row
        if row["id"] in have or row["name"] in have:
            continue
        layers = [layer for layer in row["layers"].split("、") if layer and layer not in owned]
        owned |= set(layers)
        row = row | {"layers": "、".join(layers)}
        text += ("" if text.endswith("\n") else "\n") + "\t".join(row.get(c, "") for c in header) + "\n"
        have |= {row["id"], row["name"]}
        lines.append(f"persons.tsv: {row['name']} added ({person.how}{'; the ' + row['layers'] if layers else ''})")
    return text, lines
