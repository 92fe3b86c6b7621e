"""The work as one volume: the chapters' own PDFs (build/chapters/<folder>/edition.pdf) assembled
with pdfpages, never typeset again, so that a change to one chapter costs one chapter's
typesetting and this assembly. The volume typesets only its own pages: the title page, the
contents (each chapter's title page and, under it, the chapters of its PDF, from its
pdf/edition.toc), the 凡例 of the work, the conspectus of the witnesses, a title page for each chapter
(a part of the volume) and the index of the 今文/古文 notes of the whole work, by chapter, page
and line (where the chapter's typesetting put each entry: its pdf/lines.json, see
pdf.write_lines). It numbers every page, its number in the place of the chapter's own, which
it cuts off; each chapter's title page and contents are left out, the volume's contents
standing for them.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

import regex

from ..collation.punctuation_model import provenance
from ..errors import EditionError
from . import render
from .conventions import Conventions, cited, occurrence_mark
from .manifest import BuiltChapter, BuiltWork, WorkWitness, read_work
from .model import EditionView, WitnessView
from .pdf import compile_pdf, environment, xdv_to_pdf

TEX_UNSAFE = regex.compile(r"[\s%#{}~^\\$&]")
WITNESS_ITEMS = ("throughout", "partial", "excluded")  # the 凡例's items on the witnesses, in order
# a chapter of the contents of a chapter's PDF (pdf/edition.toc), its title without its number
CONTENTS_LINE = regex.compile(
    r"^\\contentsline \{chapter\}\{(?:\\numberline \{(?:[^{}]|\{[^{}]*\})*\})?(.*)\}\{(\w+)\}\{\}%$", regex.M
)
ROMAN = {"i": 1, "v": 5, "x": 10, "l": 50}


@dataclass
class VolumeChapter:
    """A chapter in the volume: its edition, its PDF and where its typesetting put things."""

    chapter: BuiltChapter
    edition: EditionView
    pdf: Path
    pages: int  # of the chapter's PDF
    lines: dict[str, int]  # app id -> line
    app_pages: dict[str, int]  # app id -> page of the chapter's text (1 its first)
    skipped: int  # pages the volume leaves out: the chapter's title page and contents
    text_from: int  # the page of the chapter's PDF its text starts on (1 the first)
    contents: list[tuple[str, int]]  # the chapters of the chapter's PDF: title (LaTeX), the page it starts on
    start: int = 0  # the volume's page of the part's title page

    @property
    def linked(self) -> str:
        return linked_name(self.chapter)

    def volume_page(self, app_id: str) -> int:
        """The page of the volume an entry of the chapter is on."""
        return self.in_volume(self.text_from + self.app_pages[app_id] - 1)

    def in_volume(self, page: int) -> int:
        """The volume's page of a page of the chapter's PDF (1 its first)."""
        return self.start + page - self.skipped


def roman(number: str) -> int:
    values = [ROMAN[c] for c in number]
    return sum(-v if v < after else v for v, after in zip(values, values[1:] + [0]))


def chapter_contents(toc: Path, pages_before: dict[str, int]) -> list[tuple[str, int]]:
    """The chapters of a chapter's PDF, each with the page of the PDF it starts on: the front
    matter's by their roman numbers from the 凡例's, the others' from the text's first page."""
    entries = CONTENTS_LINE.findall(toc.read_text(encoding="utf-8"))
    fanli = next((roman(page) for _, page in entries if not page.isdigit()), 0)
    return [
        (title, pages_before["text"] + int(page) if page.isdigit() else pages_before["fanli"] + 1 + roman(page) - fanli)
        for title, page in entries
    ]


def page_count(pdf: Path) -> int:
    result = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, check=False)
    pages = next((line.split()[-1] for line in result.stdout.splitlines() if line.startswith("Pages:")), None)
    if result.returncode != 0 or pages is None:
        raise EditionError(pdf, f"pdfinfo cannot read it: {result.stderr.strip() or 'no page count'}")
    return int(pages)


def linked_name(chapter: BuiltChapter) -> str:
    """The name the volume's folder gives a chapter's PDF: a link, since XeTeX finds no file whose
    path has a character outside the BMP (a folder 14-𥙊法)."""
    return f"chapter-{chapter.number}.pdf"


def read_part(build_root: Path, chapter: BuiltChapter) -> VolumeChapter:
    folder = build_root / "chapters" / chapter.folder
    pdf, lines_path, toc = folder / "edition.pdf", folder / "pdf" / "lines.json", folder / "pdf" / "edition.toc"
    for needed in (folder / "edition.xml", pdf, lines_path, toc):
        if not needed.exists():
            raise EditionError(
                needed,
                f"missing: chapter {chapter.heading} is not built "
                "(its PDF, edition.xml, pdf/lines.json and pdf/edition.toc)",
            )
    if TEX_UNSAFE.search(str(pdf.resolve())):
        raise EditionError(
            pdf, "its path has a space or a character special to TeX (%#{}~^\\$&): build the work in another folder"
        )
    lines = json.loads(lines_path.read_text(encoding="utf-8"))
    before = lines["pages_before"]
    if set(before) != {"fanli", "text"}:
        raise EditionError(
            lines_path,
            f"records the pages before {sorted(before)}, not before the 凡例 and the text: "
            f"typeset chapter {chapter.heading} again",
        )
    return VolumeChapter(
        chapter,
        render.read(folder / "edition.xml"),
        pdf.resolve(),
        page_count(pdf),
        lines["lines"],
        {app: int(page) for app, page in lines["pages"].items()},
        before["fanli"],
        before["text"] + 1,
        chapter_contents(toc, before),
    )


def paginate(parts: list[VolumeChapter]) -> None:
    """Each part's first page in the volume's numbering (1 the first part's title page): its title
    page, then the chapter's pages less those left out."""
    page = 1
    for part in parts:
        part.start = page
        page += 1 + part.pages - part.skipped


def descriptions(parts: list[VolumeChapter]) -> dict[str, WitnessView]:
    """Each witness's description in the chapters' listWit (the first that has it), as collated
    where any chapter collates it."""
    described: dict[str, WitnessView] = {}
    for part in parts:
        for w in part.edition.witnesses.values():
            if w.siglum not in described or (w.included and not described[w.siglum].included):
                described[w.siglum] = w
    return described


def fanli(work: BuiltWork, parts: list[VolumeChapter], conventions: Conventions, indexed: bool) -> list[str]:
    """The 凡例 of the work: its base and chapters, the witnesses collated throughout, those of
    some chapters only and those left out, then the items of the first chapter's 凡例 that hold
    for all (`from_chapters`: those of its config, phrased alike in every chapter); the index of
    the 今文/古文 readings is said where the work has one (`indexed`)."""
    templates = conventions.templates["volume"]
    headings = {c.number: c.heading for c in work.chapters}
    names = {w.siglum: w.name or w.siglum for w in work.witnesses}
    described = descriptions(parts)
    join = conventions.list_of
    items = [
        templates["base"].format(
            base=f"{names.get(work.base, work.base)}（{work.base}）",
            count=conventions.words(len(work.chapters)),
            chapters=join(list(headings.values())),
        )
    ]
    groups: dict[tuple[str, tuple[int, ...]], list[str]] = {}
    for w in work.witnesses:
        if w.siglum == work.base:
            continue
        numbers = tuple(n for n in w.chapters if n in headings)
        collated = w.siglum in described and described[w.siglum].included
        kind = "excluded" if not collated else "throughout" if set(numbers) == set(headings) else "partial"
        groups.setdefault((kind, numbers), []).append(names[w.siglum])
    for (kind, numbers), witnesses in sorted(groups.items(), key=lambda group: WITNESS_ITEMS.index(group[0][0])):
        items.append(templates[kind].format(witnesses=join(witnesses), chapters=join([headings[n] for n in numbers])))
    scores = provenance()["held_out_scores"]
    punctuation = templates["punctuation"].format(
        sentence_f1=scores["sentence_breaks"]["f1"], all_f1=scores["all_breaks"]["f1"]
    )
    items += [templates["chapters" if indexed else "chapters_without_index"], templates["gaiji"], punctuation]
    first = parts[0].edition
    own = dict(zip(first.fanli_keys, first.fanli))
    return items + [own[key] for key in templates["from_chapters"] if key in own]


def conspectus(
    work: BuiltWork, parts: list[VolumeChapter], conventions: Conventions
) -> list[tuple[WorkWitness, WitnessView | None, str]]:
    """Each witness of the work with its description in the chapters and the chapters it is in."""
    described = descriptions(parts)
    headings = {c.number: c.heading for c in work.chapters}
    rows = []
    for w in work.witnesses:
        covered = [headings[n] for n in w.chapters if n in headings]
        where = (
            conventions.templates["volume"]["all_chapters"]
            if set(headings) <= set(w.chapters)
            else conventions.list_of(covered)
        )
        rows.append((w, described.get(w.siglum), where))
    return rows


def index(parts: list[VolumeChapter], conventions: Conventions) -> list[tuple[str, list[dict]]]:
    """The 今文/古文 readings of the whole work: for each chapter (its heading), its readings in
    the order of the text, each with the chapter's number and where it is in the volume and in the
    chapter."""
    chapters = []
    for part in parts:
        edition = part.edition
        entries = [
            {
                "chapter": conventions.words(part.chapter.number),
                "page": part.volume_page(app.id),
                "line": part.lines[app.id],
                "citation": app.citation,
                "lemma": occurrence_mark(app),
                "reading": cited(r.text),
                "tradition": edition.traditions[r.wit[0]],
                "quotes": [(words, edition.sigla([source])) for source, words in r.quotes],
            }
            for app in edition.apps
            for r in app.of_types(("jinguwen",))
        ]
        if entries:
            chapters.append((part.chapter.heading, entries))
    return chapters


def volume_latex(build_root: Path) -> str:
    """The LaTeX of the volume of the work built in build_root (work.json, chapters/)."""
    work = read_work(build_root)
    parts = [read_part(build_root, chapter) for chapter in work.chapters]
    if not parts:
        raise EditionError(build_root / "work.json", "the work has no chapters")
    paginate(parts)
    conventions = Conventions(parts[0].edition.style)
    readings = index(parts, conventions)
    return (
        environment()
        .get_template("volume.tex.j2")
        .render(
            work=work,
            parts=parts,
            fanli=fanli(work, parts, conventions, bool(readings)),
            fanli_head=parts[0].edition.fanli_head,
            face=parts[0].edition.face,
            conspectus=conspectus(work, parts, conventions),
            index=readings,
            chapters=conventions.words(len(parts)),
            title_page=conventions.title_page(parts[0].edition),
            h=conventions.templates["headings"],
        )
    )


def build_volume(build_root: Path, out_pdf: Path, kept: Path | None = None, previous: Path | None = None) -> None:
    """Typeset the volume in a folder of its own under build_root and move it to out_pdf only if
    it succeeds; an EditionError (one line, naming the log) if it fails. With `kept`, its LaTeX and
    XeLaTeX's output are kept there (volume.tex, volume.xdv); where the `previous` build's LaTeX is
    the same (the chapters' pages and entries where they were), its output is only assembled
    again with the chapters' PDFs as they are now, by xdvipdfmx."""
    tex = volume_latex(build_root)
    workdir = Path(tempfile.mkdtemp(prefix=".volume-", dir=build_root))
    try:
        for chapter in read_work(build_root).chapters:
            (workdir / linked_name(chapter)).symlink_to(
                build_root.resolve() / "chapters" / chapter.folder / "edition.pdf"
            )
        if (
            previous is not None
            and (previous / "volume.xdv").is_file()
            and (previous / "volume.tex").read_text(encoding="utf-8") == tex
        ):
            shutil.copyfile(previous / "volume.xdv", workdir / "edition.xdv")
            compiled = xdv_to_pdf(workdir)
        else:
            compiled = compile_pdf(tex, workdir)
        if kept is not None:
            kept.mkdir(parents=True, exist_ok=True)
            (kept / "volume.tex").write_text(tex, encoding="utf-8")
            shutil.copyfile(workdir / "edition.xdv", kept / "volume.xdv")
        out_pdf.parent.mkdir(parents=True, exist_ok=True)
        shutil.move(compiled, out_pdf)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
