"""A small real work for the tests of the work-level products, until the lead's `edition.work`
builds one: chapters of the 儀禮 built one by one from SBCK and WYG alone (the seed witnesses are
鄉射禮's), each with today's chapter build into chapters/NN-title/, and work.json written by hand."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

from edition.build import build
from edition.publication import pdf
from edition.publication.conventions import chinese_number

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ROOT / "sources"
TITLES = {3: "士相見禮", 10: "覲禮"}


def chapter_sources(number: int, title: str, into: Path) -> Path:
    """A flat sources folder for chapter `number`: its SBCK and WYG files and the tables."""
    into.mkdir(parents=True)
    for name in ("variants.tsv", "gaiji.tsv", "persons.tsv"):
        shutil.copy(SOURCES / name, into / name)
    sbck, wyg = f"KR1d0026_{number:03d}.txt", f"KR1d0028_{number:03d}.txt"
    shutil.copy(SOURCES / "SBCK" / sbck, into / sbck)
    shutil.copy(SOURCES / "WYG" / wyg, into / wyg)
    config = (SOURCES / "edition.toml").read_text(encoding="utf-8")
    config = re.sub(r"(?m)^punctuation_from = .*\n", "", config)
    config = re.sub(r'(?m)^title = .*$', f'title = "儀禮·{title}"', config, count=1)
    config = re.sub(r'(?m)^chapter = .*$', f'chapter = "{title}第{chinese_number(number)}"', config, count=1)
    (into / "edition.toml").write_text(config, encoding="utf-8")
    stanzas = (SOURCES / "witnesses.toml").read_text(encoding="utf-8").split("[[witness]]\n")
    kept = []
    for stanza in stanzas[1:]:
        siglum = re.search(r'(?m)^siglum = "(.+)"', stanza).group(1)
        if siglum in ("SBCK", "WYG"):
            stanza = stanza.split("[[witness.rule]]")[0]
            stanza = re.sub(r'(?m)^file = .*$', f'file = "{sbck if siglum == "SBCK" else wyg}"', stanza)
            kept.append("[[witness]]\n" + stanza)
    (into / "witnesses.toml").write_text("".join(kept), encoding="utf-8")
    return into


def build_sample_work(root: Path, chapters: dict[int, str] = TITLES) -> Path:
    """Build `chapters` into root/chapters/NN-title/ and write root/work.json."""
    entries = []
    for number, title in sorted(chapters.items()):
        folder = f"{number:02d}-{title}"
        out = root / "chapters" / folder
        build(chapter_sources(number, title, root / "sources" / folder), out)
        pdf.write_lines(out / "pdf")  # what the chapter stage does after compile_pdf
        entries.append({"number": number, "title": title, "heading": f"{title}第{chinese_number(number)}", "folder": folder})
    numbers = [entry["number"] for entry in entries]
    work = {
        "title": "儀禮",
        "title_en": "Yili (Ceremonies and Rites)",
        "base": "SBCK",
        "chapters": entries,
        "witnesses": [{"siglum": "SBCK", "name": "四部叢刊本", "chapters": numbers}, {"siglum": "WYG", "name": "四庫本", "chapters": numbers}],
    }
    (root / "work.json").write_text(json.dumps(work, ensure_ascii=False, indent=1), encoding="utf-8")
    return root
