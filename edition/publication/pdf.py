"""The printed edition: the TEI rendered through a Jinja template into LaTeX (ctex for Chinese,
reledmac for the text and its apparatus in five series, each sentence cited in the margin by
section and sentence as in the TEI and the HTML, every fifth line numbered and each note opened by
its line), typeset with XeLaTeX. The notes are phrased by `conventions` in the edition's style, and
the front matter gives the 凡例 from the TEI. `write_lines` records, after the typesetting, where it
put each entry, for the volume of the work.

Series A holds the witnesses' substantive readings, lacunae, intrusions, transpositions and
emendations; series B the 今文/古文 readings with Zheng Xuan's words; series C the stand-ins, and
the variant forms where the TEI records them at each place (`variant_forms = "apparatus"`);
series D the entries on Zheng Xuan's 注, which follows each passage of the 經 in two rows of small
type within the line (雙行夾注, templates/jiazhu.tex.j2);
series E the 校语 that report no reading at their place; an appendix gives the 异体字表. A
character missing from the fonts fails the build with the character named.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import tempfile
from collections import Counter
from importlib import resources
from pathlib import Path
from typing import NoReturn

import jinja2
import regex

from ..errors import EditionError
from ..processes import die_with
from ..tables import printable
from ..text import CLOSING
from .conventions import SERIES, Conventions, listed, unsaid
from .model import App, Cite, EditionView, GlossView, LayerMark, Leaf, Paragraph, WitnessView

LATEX_SPECIAL = {
    "\\": r"\textbackslash{}",
    "{": r"\{",
    "}": r"\}",
    "%": r"\%",
    "#": r"\#",
    "$": r"\$",
    "&": r"\&",
    "_": r"\_",
    "^": r"\textasciicircum{}",
    "~": r"\textasciitilde{}",
    # the superscript digits (之⁴, a lemma's occurrence) that the text fonts lack
    **{chr(0x2070 + d): rf"\textsuperscript{{{d}}}" for d in (0, 4, 5, 6, 7, 8, 9)},
}
MISSING = regex.compile(r"Missing character: There is no (.+?) \((U\+[0-9A-F]+)\) in font ([^!\n]+)")
MAX_RUNS = 5
LOW_SPACE = 4 * 1024**2  # bytes free on the typesetting's disk under which its failure is the full disk
FILE_LINE_ERROR = regex.compile(r"^\S+\.\w+:\d+: ")  # an error in the source or in a package's file
# reledmac's record of a label (\edlabel): page|line|subline|…|{label}; and the template's \recordpages
LABEL = regex.compile(r"^\\l@dmake@labels (\w+)\|(\d+)\|.*\|\{(.+)\}$", regex.M)
PAGES_BEFORE = regex.compile(r"^\\pagesbefore\{(\w+)\}\{(\d+)\}$", regex.M)
# what a note of the 注 measures its line by in place of an entry's or a margin note's edge: nothing
# as wide, which parts the characters about it as the edge does
EDGE = r"\special{}"


def escape(text: str) -> str:
    return "".join(LATEX_SPECIAL.get(c, c) for c in printable(text)).replace("\n", " ")


def environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(resources.files("edition.publication") / "templates")),
        block_start_string=r"\BLOCK{",
        block_end_string="}",
        variable_start_string=r"\VAR{",
        variable_end_string="}",
        comment_start_string=r"\#{",
        comment_end_string="}",
        line_statement_prefix="%%",
        line_comment_prefix="%#",
        trim_blocks=True,
        lstrip_blocks=True,
        autoescape=False,
        undefined=jinja2.StrictUndefined,
    )
    env.filters["tex"] = escape
    return env


class Notes:
    """The apparatus notes of every app, series by series, as LaTeX: each the entry phrased by the
    edition's conventions, after the citation (section.sentence) of the sentence it is in."""

    def __init__(self, edition: EditionView):
        self.edition = edition
        self.conventions = Conventions(edition.style)
        self.entries = self.conventions.entries(edition)
        self.since: list[str] = []  # the 經 set since the last note of the 注, or the paragraph's start

    def series(self, app: App, name: str) -> str:
        parts = [
            part for _, pieces in self.conventions.sentence(self.entries[app.id].series(name), app) for part in pieces
        ]
        return "".join(
            rf"\textit{{{escape(p.text)}}}" if p.role == "note" and self.edition.style == "latin" else escape(p.text)
            for p in parts
        )

    def edtext(self, app: App, lemma: str | None = None) -> str:
        """The entry on its lemma (by default its parts, with the entries nested in them), with
        its notes."""
        notes = []
        for series in SERIES:
            text = self.series(app, series)
            if text:
                notes.append(rf"\{series}footnote{{\citeno{{{escape(app.citation)}}}{text}\appno{{{app.label}}}}}")
        label = self.text(rf"\edlabel{{{app.id}}}", EDGE)
        if lemma is None:
            lemma = "".join(self.part(part) for part in app.parts)
        if not notes:
            return label + lemma
        return rf"\edtext{{{label}{lemma}}}{{\lemma{{}}{''.join(notes)}}}" + self.text("", EDGE)

    def part(self, part) -> str:
        """A piece of a lemma or of the 經: text, an entry, a note of the 注 or a leaf."""
        if isinstance(part, App):
            return self.edtext(part)
        if isinstance(part, GlossView):
            return self.gloss(part)
        if isinstance(part, Leaf):
            return self.leaf(part)
        return self.text(escape(part))

    def text(self, tex: str, measured: str | None = None) -> str:
        """Text of the 經 as set, kept (or `measured`, what is as wide) for the next note of the 注
        to measure its line by."""
        self.since.append(tex if measured is None else measured)
        return tex

    def leaf(self, leaf: Leaf) -> str:
        """Where a leaf of the base begins, in the left margin: its 卷 and leaf."""
        return self.text(rf"\ledleftnote{{\leafno{{{escape(self.conventions.leaf(leaf.n, short=True))}}}}}", EDGE)

    def plain(self, part) -> str:
        """A piece of a note of the 注 as it is set, with nothing that writes (no entry, no leaf)."""
        if isinstance(part, App):
            return "".join(self.plain(p) for p in part.parts)
        return escape(part) if isinstance(part, str) else ""

    def deferred(self, item: App | Leaf) -> list[str]:
        """An entry of the 注 and the entries and leaves inside its lemma, each entry with no lemma
        (the rows give its text), or a leaf: set after the rows of the note that hold its place."""
        if isinstance(item, Leaf):
            return [self.leaf(item)]
        inside = (d for part in item.parts if isinstance(part, (App, Leaf)) for d in self.deferred(part))
        return [self.edtext(item, lemma=""), *inside]

    def gloss(self, gloss: GlossView) -> str:
        """A note of the 注 after its passage, in 雙行夾注 (jiazhu.tex.j2): the text of the 經
        since the last note, to measure the line by; the note's text, with the place of each entry
        and leaf; and the entries and leaves, set after the rows that hold them."""
        before, self.since = "".join(self.since), []
        text, deferred = [], []
        for item in gloss.items:
            if isinstance(item, (App, Leaf)):
                deferred += self.deferred(item)
                text.append(rf"\zhuat{{{len(deferred)}}}{self.plain(item)}")
            else:
                text.append(self.plain(item))
        held = "".join(rf"\zhudefer{{{n}}}{{{tex}}}" for n, tex in enumerate(deferred, 1))
        self.since = []  # what the deferred entries and leaves kept: no text of the 經
        return rf"\zhu{{{before}}}{{{''.join(text)}}}{{{held}}}"

    def paragraph(self) -> str:
        """Where a paragraph starts: the notes of the 注 measure their lines from its indent."""
        self.since = []
        return r"\zhupar{}"


def paragraph(section, notes: Notes) -> str:
    """A section's text with its apparatus and the citation of each sentence in the margin; no
    line may start with closing punctuation after a lemma, so the lemma and the punctuation are
    tied."""
    out = [notes.paragraph()]
    for item in section.items:
        if isinstance(item, str):
            if out and out[-1].endswith("}") and item[:1] in CLOSING:
                out.append(notes.text(r"\nobreak{}"))
            out.append(notes.part(item))
        elif isinstance(item, Cite):
            out.append(notes.text(rf"\ledrightnote{{\sentenceno{{{escape(item.n)}}}}}", EDGE))
        elif isinstance(item, Paragraph):
            if not item.first:
                out.append("\\pend\n\\pstart% a paragraph of the section\n" + notes.paragraph())
        elif isinstance(item, LayerMark):
            if item.unit == "tradition":
                out.append(notes.text(r"\chuan{}"))
        else:
            out.append(notes.part(item))
    return "".join(out)


def counts(edition: EditionView) -> dict[str, int]:
    notes = Notes(edition)
    return {
        series: sum(1 for app in edition.all_apps if app.in_text and notes.series(app, series)) for series in SERIES
    }


def latex(edition: EditionView) -> str:
    notes = Notes(edition)
    conventions = notes.conventions
    # the readings the entries say, of the 經 and the 注 (a witness's lacunae and intrusions are no
    # readings, and a compiler's order is counted for him)
    types = Counter(
        r.type
        for app in edition.all_apps
        for r in app.readings
        if notes.entries[app.id].clauses and not unsaid(edition, r)
    )
    jinguwen = [(app, r) for app in edition.apps for r in app.of_types(("jinguwen",))]
    return (
        environment()
        .get_template("edition.tex.j2")
        .render(
            edition=edition,
            face=edition.face,
            title_page=conventions.title_page(edition),
            notes=notes,
            paragraph=paragraph,
            types=[(conventions.label(kind), conventions.words(number)) for kind, number in sorted(types.items())],
            emendations=conventions.words(sum(1 for app in edition.all_apps if app.emended)),
            listed=[conventions.words(len(apps)) for apps in listed(edition, notes.entries)],
            label=conventions.label,
            jinguwen=jinguwen,
            traditions=any(w.hypothetical for w in edition.witnesses.values()),  # the work reports 今文/古文
            tradition_labels=edition.traditions,
            counts={series: conventions.words(number) for series, number in counts(edition).items()},
            manuscripts=[w for w in edition.witnesses.values() if not w.hypothetical],
            h=conventions.templates["headings"],
            list_joiner=conventions.templates["list_joiner"],
            appendix=lambda w: appendix(w, conventions),
        )
    )


def appendix(w: WitnessView, conventions: Conventions) -> str:
    """A witness in the appendix of the witnesses' extent and quality, in the edition's style."""
    h = conventions.templates["headings"]
    ranges = [h["extant_range"].format(first=first, start=start, end=end) for first, start, end in w.extant]
    counts = [h["unrecorded_kinds"][kind].format(n=conventions.words(n)) for kind, n in w.unrecorded]
    return h["witness_appendix"].format(
        title=w.title,
        role=h["roles"][w.role],
        quality=h["quality"].format(quality=w.quality, percent=f"{float(w.quality):.0%}") if w.quality else "",
        status=w.status,
        extent=w.extent,
        extant=h["extant"].format(ranges=conventions.templates["clause_joiner"].join(ranges)) if ranges else "",
        unrecorded=h["unrecorded"].format(counts=conventions.list_of(counts)) if counts else "",
    )


def compile_pdf(tex: str, workdir: Path) -> Path:
    """Typeset `tex` in `workdir`: XeLaTeX until its auxiliary files (reledmac's line numbers, the
    contents, labels) stop changing, at most MAX_RUNS times, then xdvipdfmx; return the PDF."""
    if shutil.which("xelatex") is None or shutil.which("xdvipdfmx") is None:
        raise EditionError(None, "xelatex and xdvipdfmx are not installed: run `make edition`, which installs them")
    workdir.mkdir(parents=True, exist_ok=True)
    (workdir / "edition.tex").write_text(tex, encoding="utf-8")
    state = None
    for _ in range(MAX_RUNS):
        result = run_child(
            ["xelatex", "-no-pdf", "-interaction=nonstopmode", "-halt-on-error", "-file-line-error", "edition.tex"],
            workdir,
        )
        if result.returncode != 0:
            log = read_log(workdir)
            error = next(
                (line for line in log.splitlines() if FILE_LINE_ERROR.match(line) or line.startswith("!")),
                result.stdout[-300:],
            )
            failed(workdir, f"XeLaTeX failed: {' '.join(error.split())}")
        state, previous = auxiliary_state(workdir), state
        if state == previous:
            break
    missing = sorted({(m.group(1), m.group(2), m.group(3).strip()) for m in MISSING.finditer(read_log(workdir))})
    if missing:
        listed = ", ".join(f"{char} ({code}) in {font}" for char, code, font in missing[:5])
        failed(workdir, f"{len(missing)} character(s) missing from the fonts: {listed}")
    return xdv_to_pdf(workdir)


def xdv_to_pdf(workdir: Path) -> Path:
    """workdir/edition.xdv, as XeLaTeX wrote it, made into workdir/edition.pdf by xdvipdfmx."""
    result = run_child(["xdvipdfmx", "-q", "-E", "-o", "edition.pdf", "edition.xdv"], workdir)
    if result.returncode != 0:
        failed(workdir, f"xdvipdfmx failed: {result.stdout.strip()[-300:]}")
    return workdir / "edition.pdf"


def write_lines(workdir: Path) -> Path:
    """After compile_pdf(tex, workdir): workdir/lines.json, where the typesetting put each entry,
    from reledmac's labels in the .aux: {"lines": {app id: the line its lemma starts on}, "pages":
    {app id: its page}, "pages_before": {"fanli": n, "text": n}}, the pages before the 凡例 and
    before the text (the volume of the work reads it)."""
    aux = (workdir / "edition.aux").read_text(encoding="utf-8")
    labels = LABEL.findall(aux)
    lines = {
        "lines": {label: int(line) for _, line, label in labels},
        "pages": {label: page for page, _, label in labels},
        "pages_before": {name: int(n) for name, n in PAGES_BEFORE.findall(aux)},
    }
    path = workdir / "lines.json"
    path.write_text(json.dumps(lines, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    return path


def read_log(workdir: Path) -> str:
    log = workdir / "edition.log"
    return log.read_text(encoding="utf-8", errors="replace") if log.exists() else ""


def auxiliary_state(workdir: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in workdir.iterdir() if p.suffix not in (".tex", ".log", ".xdv", ".pdf")}


def failed(workdir: Path, message: str) -> NoReturn:
    """Keep the LaTeX source and log in a folder of their own, outside the build that is about to
    be discarded, and name the log in the error; where the disk is full, say so instead (and keep
    nothing)."""
    free = shutil.disk_usage(workdir).free
    if free < LOW_SPACE:
        raise EditionError(workdir, f"{message}: no space left on the device ({free // 1024} KB free)")
    kept = None
    try:
        kept = Path(tempfile.mkdtemp(prefix="edition-xelatex-"))
        for name in ("edition.tex", "edition.log"):
            if (workdir / name).exists():
                shutil.copy(workdir / name, kept / name)
    except OSError as error:
        if kept is not None:
            shutil.rmtree(kept, ignore_errors=True)
        raise EditionError(workdir, f"{message} (its log could not be kept: {error.strerror})") from None
    raise EditionError(kept / "edition.log" if (kept / "edition.log").exists() else kept / "edition.tex", message)


def run_child(command: list[str], cwd: Path) -> subprocess.CompletedProcess:
    """Run a typesetting program so that it dies with the build: in a process group of its own,
    killed whole if anything (an error, a signal) interrupts the wait, and with PR_SET_PDEATHSIG,
    so that the kernel kills it if this process dies, even by SIGKILL. That reaches only the
    child itself, which is why there is no latexmk: XeLaTeX with -no-pdf and xdvipdfmx, run
    directly, start no programs of their own (once the fonts and formats are installed)."""
    parent = os.getpid()
    child = subprocess.Popen(
        command,
        cwd=cwd,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        errors="replace",
        process_group=0,
        preexec_fn=lambda: die_with(parent),
    )
    try:
        output, _ = child.communicate()
    except BaseException:
        os.killpg(child.pid, signal.SIGKILL)
        child.wait()
        raise
    return subprocess.CompletedProcess(command, child.returncode, output)
