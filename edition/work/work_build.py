"""The build of a whole work: each chapter built as a one-chapter edition into `chapters/NN-title/`,
in parallel, only where its inputs changed; then the work's products from the chapters' TEI.

A chapter records the digest of what it read (`chapters/NN-title/inputs.sha256`): its files in the
sources, the shared tables and settings, the package's code. A chapter whose digest is unchanged is
carried over from the previous build as it is. All of it is staged and switched in whole (see
`publication.output`), so a failed chapter leaves the previous build in place.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import signal
import sys
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from ..errors import EditionError
from ..processes import die_with
from ..publication import corpus, validate, volume, work_site
from ..publication.output import Staging, code_listing, digest, listing, staged
from .chapter_build import WORK_CHAPTER_STAGES, Progress, check_sources, run_stages
from .work_sources import Chapter, Work

INPUTS = "inputs.sha256"


def chapter_digest(work: Work, chapter: Chapter, code: list[str]) -> str:
    paths = [p.relative_to(work.root).as_posix() for p in work.inputs(chapter)]
    return digest(listing(work.root, paths) + code)


def build_chapter(
    root: Path, number: int, out: Path, staging_root: Path, previous: dict[str, str], quiet: bool
) -> dict:
    """One chapter's build into its staging folder (run in a worker process): its figures, or
    the error that stopped it as (path, message, line)."""
    work = Work.load(root)
    chapter = work.chapter(number)

    def progress(message: str) -> None:
        if not quiet:
            print(f"  [{chapter.title}] {message.strip()}", file=sys.stderr, flush=True)

    staging = Staging(out, staging_root, previous)
    started = time.perf_counter()
    try:
        witnesses = run_stages(work.sources(chapter), staging, WORK_CHAPTER_STAGES, progress)
    except EditionError as error:
        return {"error": (error.path, error.message, error.line)}
    layers = {w.meta.siglum: layer_characters(w) for w in witnesses}
    return {"layers": layers, "seconds": time.perf_counter() - started, **staging.timings}


def layer_characters(witness) -> dict[str, int]:
    """The witness's raw characters in each layer (all of them are in one)."""
    counts: Counter = Counter()
    for segment in witness.segments:
        counts[segment.layer] += segment.end - segment.start
    return dict(sorted(counts.items()))


def build_work(
    sources_dir: Path,
    out: Path,
    progress: Progress = lambda message: None,
    force: bool = False,
    only: str | None = None,
    jobs: int | None = None,
    quiet: bool = False,
) -> list[str]:
    """Build the work's chapters whose inputs changed (with `only`, that one chapter alone, the
    others carried as they were), then the work's products. Returns the folders of the chapters built."""
    work = Work.load(sources_dir).started()
    selected = [work.chapter(only)] if only else work.chapters
    with staged(out, sources_dir, force, carry=False, complete=only is None) as staging:
        code = code_listing()
        due: list[tuple[Chapter, str]] = []
        present: dict[Chapter, str] = {}  # the chapters in the build, with their digests
        for chapter in work.chapters:
            folder = f"chapters/{chapter.folder}"
            inputs, was = chapter_digest(work, chapter, code), recorded(staging, f"{folder}/{INPUTS}")
            if chapter in selected and was != inputs:
                due.append((chapter, inputs))
            elif was is not None:
                staging.under(folder).keep()
                inputs = was
            else:
                continue
            present[chapter] = inputs
        figures = build_chapters(work, due, staging, progress, jobs, quiet)
        for chapter, inputs in due:
            staging.write(f"chapters/{chapter.folder}/{INPUTS}", inputs + "\n")
        products = digest([f"{inputs}  {chapter.folder}\n" for chapter, inputs in present.items()] + code)
        if not due and recorded(staging, INPUTS) == products:
            progress("the work's products are up to date")
            staging.keep(*({Path(p).parts[0] for p in staging.previous} - {"chapters"}))
        else:
            write_work_products(work, list(present), figures, staging, progress)
            staging.write(INPUTS, products + "\n")
    return [c.folder for c, _ in due]


def recorded(staging: Staging, relative: str) -> str | None:
    """A digest the previous build recorded, if it made that file."""
    return (staging.out / relative).read_text(encoding="utf-8").strip() if relative in staging.previous else None


def build_chapters(
    work: Work, due: list[tuple[Chapter, str]], staging: Staging, progress: Progress, jobs: int | None, quiet: bool
) -> dict[str, dict]:
    """The due chapters built over the machine's cores, largest first; the first failure stops the build."""
    if not due:
        progress("every chapter is up to date")
        return {}
    work.check_evidence()
    size = {c.number: sum(p.stat().st_size for p in work.inputs(c)) for c, _ in due}
    order = sorted((c for c, _ in due), key=lambda c: -size[c.number])
    workers = max(1, min(jobs or os.cpu_count() or 1, len(order)))
    progress(f"build {len(order)} chapter(s) on {workers} process(es): {', '.join(c.title for c in order)}")
    figures: dict[str, dict] = {}
    validate.load_schemas()  # once, before the workers fork
    chapter_stagings = {c: staging.under(f"chapters/{c.folder}") for c in order}
    tasks = [(work.root, c.number, s.out, s.root, s.previous, quiet) for c, s in chapter_stagings.items()]
    with multiprocessing.get_context("fork").Pool(
        workers, initializer=worker_start, initargs=(os.getpid(),)
    ) as pool:  # left by terminate(): a failure stops the others
        for number, result in pool.imap_unordered(build_chapter_task, tasks):
            chapter = work.chapter(number)
            if "error" in result:
                path, message, line = result["error"]
                raise EditionError(path, f"{message} (chapter {chapter.number}, {chapter.heading})", line)
            figures[chapter.folder] = result
            progress(f"chapter {chapter.heading} built in {result['seconds']:.1f} s ({len(figures)}/{len(order)})")
    return figures


def worker_start(parent: int) -> None:
    """A worker dies with the build: of the signals that stop it (the parent cleans up), and at
    once if the parent itself dies, even by SIGKILL, so that it holds no lock after it."""
    die_with(parent)
    for name in ("SIGTERM", "SIGINT", "SIGHUP"):
        signal.signal(getattr(signal, name), signal.SIG_DFL)


def build_chapter_task(task: tuple) -> tuple[int, dict]:
    try:
        return task[1], build_chapter(*task)
    except StopIteration as error:  # raised in the parent's loop over the results, it would end it as if all were built
        raise RuntimeError(f"StopIteration {error}".strip()) from error


def work_manifest(work: Work, present: list[Chapter]) -> dict:
    """The work as its products read it: title, base, language, the chapters built, each witness's chapters."""
    witnesses: dict[str, dict] = {}
    languages = []
    for chapter in present:
        sources = work.sources(chapter)
        languages.append(sources.language)
        for meta in sources.witnesses:
            entry = witnesses.setdefault(
                meta.siglum,
                {"siglum": meta.siglum, "name": meta.name or meta.siglum, "edition": meta.edition, "chapters": []},
            )
            entry["chapters"].append(chapter.number)
    return {
        "title": work.title,
        "title_en": work.settings.get("title_en", ""),
        "base": work.settings["base"],
        "url": work.settings.get("url", ""),
        # The site's: the work's setting, or (where it has none) that of its chapters, the base's script.
        "language": work.settings.get("language") or (languages[0] if languages else "zh-Hant"),
        "chapters": [{"number": c.number, "title": c.title, "heading": c.heading, "folder": c.folder} for c in present],
        "witnesses": list(witnesses.values()),
    }


def write_work_products(
    work: Work, present: list[Chapter], figures: dict[str, dict], staging: Staging, progress: Progress
) -> None:
    """work.json, the work's TEI, and the build figures of the chapters built now."""
    manifest = work_manifest(work, present)
    staging.write("work.json", json.dumps(manifest, ensure_ascii=False, indent=1) + "\n")
    for folder, result in figures.items():
        staging.write(f"chapters/{folder}/reports/build.json", json.dumps(result, ensure_ascii=False, indent=1) + "\n")
    if not present:
        return
    progress(f"assemble edition.xml from {len(present)} chapter(s)")
    document = corpus.work_document(staging.root, manifest)
    validate.check(document, staging.out / "edition.xml", project=False)
    staging.write("edition.xml", corpus.serialize(document))
    progress(
        "typeset edition.pdf, the volume (XeLaTeX, pdfpages), "
        "and write site/ (the work's pages, the chapters' and the fonts)"
    )
    fonts = "site/fonts/characters.json"
    with ThreadPoolExecutor(max_workers=1) as typesetting:  # XeLaTeX runs while the fonts are made
        kept = "pdf/volume.xdv" in staging.previous and "pdf/volume.tex" in staging.previous
        typeset = typesetting.submit(
            volume.build_volume,
            staging.root,
            staging.root / "edition.pdf",
            staging.root / "pdf",
            staging.out / "pdf" if kept else None,
        )
        work_site.build_work_site(
            staging.root, staging.root / "site", staging.out / "site" / "fonts" if fonts in staging.previous else None
        )
        typeset.result()


def check_work(sources_dir: Path, only: str | None = None) -> list[str]:
    """The problems of the work's sources, chapter by chapter (or of one chapter); a problem of a
    file the chapters share (a table, an edition's stanza) once."""
    try:
        work = Work.load(sources_dir).started()
        chapters = [work.chapter(only)] if only else work.chapters
        work.check_evidence()
    except EditionError as error:
        return [str(error)]
    problems = (problem for chapter in chapters for problem in check_sources(lambda: work.sources(chapter)))
    return list(dict.fromkeys(problems))
