"""The printed edition: the TEI rendered through a Jinja template into LaTeX (ctex for Chinese,
reledmac for the line-numbered text and its apparatus in three series), typeset with XeLaTeX.

Series A holds the witnesses' substantive readings, lacunae, intrusions, transpositions and
emendations; series B the 今文/古文 readings with Zheng Xuan's words; series C the stand-ins, and
the variant forms where the TEI records them at each place (`variant_forms = "apparatus"`);
an appendix gives the 异体字表. A character missing from the fonts fails the build with the
character named.
"""

from __future__ import annotations

import ctypes
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
from .render import SERIES_A, SERIES_C, App, Edition, Reading

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
}
MISSING = regex.compile(r"Missing character: There is no (.+?) \((U\+[0-9A-F]+)\) in font ([^!\n]+)")
TYPE_LABELS = {"lacuna": "lac.", "intrusion": "interp.", "transposition": "transp.", "substantive": ""}
TRADITION_LABELS = {"#jinwen": "今文", "#guwen": "古文"}
MAX_RUNS = 5
LIBC = ctypes.CDLL(None, use_errno=True)
PR_SET_PDEATHSIG = 1


def escape(text: str) -> str:
    return "".join(LATEX_SPECIAL.get(c, c) for c in text).replace("\n", " ")


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
    """The apparatus notes of one app, series by series, as LaTeX."""

    def __init__(self, edition: Edition):
        self.edition = edition

    def sigla(self, wit) -> str:
        return escape(self.edition.sigla(wit))

    def reading(self, text: str, wit, label: str = "") -> str:
        shown = escape(text) if text else r"\textit{om.}"
        return shown + r"\ " + self.sigla(wit) + (rf" \textit{{{label}}}" if label else "")

    def elsewhere(self, r: Reading) -> str:
        """Where a transposed reading's clause stands at its other place: section and line, and
        there the differences of the witness's text from the edited text."""
        places = [rf"\S{self.section_number(other)}, l.~\xlineref{{{other.id}}}" for other in r.elsewhere]
        differences = [f"{escape(inner.lemma.text or '+')}] " + "; ".join(self.reading(x.text, x.wit) for x in inner.of_types(SERIES_A)) for inner in r.inner if inner.of_types(SERIES_A)]
        return f" ({'; '.join(places + differences)})" if places or differences else ""

    def section_number(self, app: App) -> int:
        return next(number for number, section in enumerate(self.edition.sections, 1) if section.id == app.section)

    def series_a(self, app: App) -> str:
        parts = []
        if app.emended:
            parts.append(self.sigla(app.lemma.wit) + r" \textit{emend.}")
        for r in app.of_types(SERIES_A):
            parts.append(self.reading(r.text, r.wit, TYPE_LABELS.get(r.type, "")) + self.elsewhere(r))
        parts += [r"\textit{ed.} " + escape(text) for text in app.editorial]
        return "; ".join(parts)

    def series_b(self, app: App) -> str:
        parts = []
        for r in app.of_types(("jinguwen",)):
            words = "，".join(f"{escape(text)} {escape(self.edition.sigla([source]))}" for source, text in r.quotes)
            shown = escape(r.text) if r.text else r"\textit{om.}"
            parts.append(f"{TRADITION_LABELS.get(r.wit[0], '')}{shown}（{words}）")
        return "; ".join(parts)

    def series_c(self, app: App) -> str:
        return "; ".join(self.reading(r.text, r.wit) for r in app.of_types(SERIES_C))

    def edtext(self, app: App) -> str:
        notes = []
        for series, text in (("A", self.series_a(app)), ("B", self.series_b(app)), ("C", self.series_c(app))):
            if text:
                notes.append(rf"\{series}footnote{{{text}\appno{{{app.number}}}}}")
        lemma = "".join(self.edtext(part) if isinstance(part, App) else escape(part) for part in app.parts) if app.nested else escape(app.lemma.text)
        label = rf"\edlabel{{{app.id}}}"
        if not notes:
            return label + lemma
        if not lemma:
            return rf"\edtext{{{label}}}{{\lemma{{+}}{''.join(notes)}}}"
        if app.nested:  # a moved clause's place: the note's lemma gives its first and last words
            text = app.lemma.text
            shown = escape(text if len(text) <= 8 else f"{text[:3]}…{text[-3:]}")
            return rf"\edtext{{{label}{lemma}}}{{\lemma{{{shown}}}{''.join(notes)}}}"
        return rf"\edtext{{{label}{lemma}}}{{{''.join(notes)}}}"


CLOSING = "，。、；：？！”’」』）》〉】…"


def paragraph(section, notes: Notes) -> str:
    """A section's text with its apparatus; no line may start with closing punctuation after a
    lemma, so the lemma and the punctuation are tied."""
    out = []
    for item in section.items:
        if isinstance(item, str):
            if out and out[-1].endswith("}") and item[:1] in CLOSING:
                out.append(r"\nobreak{}")
            out.append(escape(item))
        else:
            out.append(notes.edtext(item))
    return "".join(out)


def counts(edition: Edition) -> dict[str, int]:
    notes = Notes(edition)
    in_text = [app for app in edition.apps if app.in_text]
    return {
        "A": sum(1 for app in in_text if notes.series_a(app)),
        "B": sum(1 for app in in_text if notes.series_b(app)),
        "C": sum(1 for app in in_text if notes.series_c(app)),
    }


def latex(edition: Edition) -> str:
    notes = Notes(edition)
    types = Counter(r.type for app in edition.apps for r in app.readings)
    jinguwen = [(app, r) for app in edition.apps for r in app.of_types(("jinguwen",))]
    return environment().get_template("edition.tex.j2").render(
        edition=edition,
        notes=notes,
        paragraph=paragraph,
        types=types,
        emendations=sum(1 for app in edition.apps if app.emended),
        jinguwen=jinguwen,
        tradition_labels=TRADITION_LABELS,
        counts=counts(edition),
        manuscripts=[w for w in edition.witnesses.values() if not w.hypothetical],
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
        result = run_child(["xelatex", "-no-pdf", "-interaction=nonstopmode", "-halt-on-error", "-file-line-error", "edition.tex"], workdir)
        if result.returncode != 0:
            log = read_log(workdir)
            error = next((line for line in log.splitlines() if line.startswith("./edition.tex:") or line.startswith("!")), result.stdout[-300:])
            failed(workdir, f"XeLaTeX failed: {error.strip()}")
        state, previous = auxiliary_state(workdir), state
        if state == previous:
            break
    result = run_child(["xdvipdfmx", "-q", "-E", "-o", "edition.pdf", "edition.xdv"], workdir)
    if result.returncode != 0:
        failed(workdir, f"xdvipdfmx failed: {result.stdout.strip()[-300:]}")
    missing = sorted({(m.group(1), m.group(2), m.group(3).strip()) for m in MISSING.finditer(read_log(workdir))})
    if missing:
        listed = ", ".join(f"{char} ({code}) in {font}" for char, code, font in missing[:5])
        failed(workdir, f"{len(missing)} character(s) missing from the fonts: {listed}")
    return workdir / "edition.pdf"


def read_log(workdir: Path) -> str:
    log = workdir / "edition.log"
    return log.read_text(encoding="utf-8", errors="replace") if log.exists() else ""


def auxiliary_state(workdir: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in workdir.iterdir() if p.suffix not in (".tex", ".log", ".xdv", ".pdf")}


def failed(workdir: Path, message: str) -> NoReturn:
    """Keep the LaTeX source and log in a folder of their own, outside the build that is about to
    be discarded, and name the log in the error."""
    kept = Path(tempfile.mkdtemp(prefix="edition-xelatex-"))
    for name in ("edition.tex", "edition.log"):
        if (workdir / name).exists():
            shutil.copy(workdir / name, kept / name)
    raise EditionError(kept / "edition.log" if (kept / "edition.log").exists() else kept / "edition.tex", message)


def run_child(command: list[str], cwd: Path) -> subprocess.CompletedProcess:
    """Run a typesetting program so that it dies with the build: in a process group of its own,
    killed whole if anything (an error, a signal) interrupts the wait, and with PR_SET_PDEATHSIG,
    so that the kernel kills it if this process dies, even by SIGKILL. That reaches only the
    child itself, which is why there is no latexmk: XeLaTeX with -no-pdf and xdvipdfmx, run
    directly, start no programs of their own (once the fonts and formats are installed)."""
    parent = os.getpid()

    def die_with_parent() -> None:
        LIBC.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
        if os.getppid() != parent:  # the parent died before the prctl
            os._exit(1)

    child = subprocess.Popen(
        command,
        cwd=cwd,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        errors="replace",
        process_group=0,
        preexec_fn=die_with_parent,
    )
    try:
        output, _ = child.communicate()
    except BaseException:
        os.killpg(child.pid, signal.SIGKILL)
        child.wait()
        raise
    return subprocess.CompletedProcess(command, child.returncode, output)
