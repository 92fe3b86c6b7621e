"""The build: sources in, `build/` out, all or nothing.

Everything is produced in a staging folder beside the output folder and validated there; only
then does it replace the output folder whole, in one step (see `output`). A failed or killed
build leaves the previous output as it was.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

from ..collation import decisions, jinguwen, punctuation, same_error, steps, textual_note
from ..collation.apparatus import Apparatus, collate
from ..collation.commentary import Commentary, collate_commentary
from ..collation.sections import Section, divisions, set_headings_apart
from ..collation.sections import sections as find_sections
from ..errors import EditionError, SourceErrors
from ..intake.witness import Witness
from ..publication import pdf, render, report, site, tei, validate
from ..publication.output import Staging, staged
from .sources import Sources

Progress = Callable[[str], None]


def stage_witnesses(sources: Sources, witnesses: list[Witness], staging: Staging, progress: Progress) -> None:
    for witness in witnesses:
        document = tei.witness_document(sources, witness)
        relative = f"witnesses/{witness.meta.siglum}.xml"
        progress(f"validate {relative}")
        validate.check(document, staging.out / relative)
        staging.write(relative, tei.serialize(document))
    summary = report.witnesses_report(witnesses, sources.variants)
    staging.write("reports/witnesses.json", json.dumps(summary, ensure_ascii=False, indent=1) + "\n")
    staging.write("reports/witnesses.md", report.summary_markdown(summary))


class Edited(NamedTuple):
    apparatus: Apparatus  # of the 經
    notes: list[jinguwen.Note]
    anchors: list[jinguwen.Anchor]
    sections: list[Section]
    commentary: Commentary | None  # the 注 collated, if the base carries it
    textual_notes: tuple  # the witnesses' 校语 found, and the 考證 entries read as none
    steps: tuple[list[steps.Step], list[steps.Unplaced]]  # the ritual's steps the 疏 names, and the formulas not placed


def edit(sources: Sources, witnesses: list[Witness], choices: decisions.Decisions) -> Edited:
    """Collation of the 經 and of the 注, the 今文/古文 notes, the witnesses' 校语, the sections, the
    ritual's steps, the editors' decisions, and the same errors treated alike."""
    config = sources.config
    witness_choices = choices.witnesses(True), choices.witnesses(False)
    apparatus = collate(witnesses, config.base, sources.orthography(), config.min_quality, *witness_choices)
    if config.punctuation_from:
        if config.punctuation_from not in apparatus.witnesses:
            raise EditionError(
                sources.root / "edition.toml",
                f"punctuation_from: witness {config.punctuation_from!r} is not in the apparatus "
                f"({apparatus.statuses[config.punctuation_from].reason})",
            )
        apparatus.punctuation, apparatus.punctuation_source = (
            punctuation.carried(apparatus, config.punctuation_from),
            config.punctuation_from,
        )
    normalizer = sources.normalizer()
    notes, anchors = jinguwen.collect(apparatus, normalizer)
    jinguwen.apply(apparatus, anchors)
    textual = textual_note.collect(apparatus, sources.persons, normalizer)
    textual_note.apply(apparatus, textual[0])
    headings = divisions(apparatus.base, config.divisions)
    set_headings_apart(apparatus, headings)
    found = find_sections(apparatus.base, apparatus.units, apparatus.section_cuts, apparatus.section_titles, headings)
    ritual_steps = steps.find_steps(apparatus, steps.load(normalizer))
    decisions.apply(apparatus, choices, normalizer.fold, found)
    apparatus.same_errors = same_error.treat_alike(apparatus)
    commentary = collate_commentary(witnesses, config.base, sources.orthography(), config.min_quality, *witness_choices)
    return Edited(apparatus, notes, anchors, found, commentary, textual, ritual_steps)


def stage_edition(sources: Sources, witnesses: list[Witness], staging: Staging, progress: Progress) -> None:
    config = sources.config
    progress(f"collate {len(witnesses)} witnesses against base {config.base}")
    started = time.perf_counter()
    choices = decisions.load(sources.decisions)
    apparatus, notes, anchors, found, commentary, (passages, unrecognised), (placed_steps, unplaced_steps) = edit(
        sources, witnesses, choices
    )
    seconds = time.perf_counter() - started
    staging.timings["collation"] = seconds
    for decision in choices.items:
        if decision.stale:
            progress(f"  stale decision {decision.number} (decisions.toml:{decision.line}): {decision.stale}")
    placed = sum(1 for a in anchors if a.confidence != "none")
    progress(f"  今文/古文: {len(notes)} notes, {len(anchors)} readings, {placed} anchored")
    textual_summary = textual_note.report(apparatus, passages, unrecognised, sources.persons)
    progress(f"  校语: {len(textual_summary['notes'])} notes, {textual_summary['placed']} with an apparatus entry")
    for siglum, status in apparatus.statuses.items():
        progress(
            f"  {siglum}: quality {status.quality:.3f}, "
            f"{'included' if status.included else 'excluded'} ({status.reason})"
        )
    progress(
        f"  {len(apparatus.all_units())} variation units, {len(apparatus.transpositions)} transpositions, "
        f"{len(found)} sections in {seconds:.2f} s"
    )
    if commentary:
        progress(f"  注: {commentary_line(commentary)}")
    formulas = len(placed_steps) + sum(len(s.agreeing) for s in placed_steps) + len(unplaced_steps)
    progress(
        f"  steps of the rite: {formulas} formulas of the 疏, {len(placed_steps)} steps placed, "
        f"{len(unplaced_steps)} formulas not placed"
    )
    for unplaced in unplaced_steps:
        progress(f"    {unplaced.source} line {unplaced.line} 論{unplaced.title}: {unplaced.reason}")
    document = tei.edition_document(
        sources, apparatus, found, choices.editors, steps.paragraph_starts(placed_steps), commentary
    )
    progress("validate edition.xml")
    validate.check(document, staging.out / "edition.xml", witness_at=tei.WitnessPlaces(apparatus, commentary))
    staging.write("edition.xml", tei.serialize(document))
    summary = report.collation_report(apparatus, found, choices.editors)
    staging.write("reports/collation.json", json.dumps(summary, ensure_ascii=False, indent=1) + "\n")
    staging.write("reports/collation.md", report.collation_markdown(summary))
    decisions_summary = decisions.report(choices)
    staging.write("reports/decisions.json", json.dumps(decisions_summary, ensure_ascii=False, indent=1) + "\n")
    staging.write("reports/decisions.md", decisions.markdown(decisions_summary))
    notes_summary = jinguwen.report(apparatus, notes, anchors, found)
    staging.write("reports/jinguwen.json", json.dumps(notes_summary, ensure_ascii=False, indent=1) + "\n")
    staging.write("reports/jinguwen.md", jinguwen.markdown(notes_summary))
    staging.write("reports/textual_notes.json", json.dumps(textual_summary, ensure_ascii=False, indent=1) + "\n")
    staging.write("reports/textual_notes.md", textual_note.markdown(textual_summary))


def stage_pdf(sources: Sources, witnesses: list[Witness], staging: Staging, progress: Progress) -> None:
    """The printed edition, from the staged edition.xml only; typeset again only if its LaTeX changed."""
    started = time.perf_counter()
    edition = render.read(staging.root / "edition.xml")
    tex = pdf.latex(edition)
    previous = staging.out / "pdf" / "edition.tex"
    if (
        all(p in staging.previous for p in ("pdf/edition.tex", "pdf/lines.json", "edition.pdf"))
        and previous.read_text(encoding="utf-8") == tex
    ):
        progress("edition.pdf: unchanged")
        staging.keep("pdf", "edition.pdf")
        return
    progress("typeset edition.pdf (XeLaTeX, reledmac)")
    compiled = pdf.compile_pdf(tex, staging.root / "pdf")
    pdf.write_lines(staging.root / "pdf")
    staging.write("edition.pdf", compiled.read_bytes())
    staging.timings["typesetting"] = time.perf_counter() - started
    progress(f"  {counts_line(pdf.counts(edition))} in {staging.timings['typesetting']:.1f} s")


def stage_site(sources: Sources, witnesses: list[Witness], staging: Staging, progress: Progress) -> None:
    """The static HTML edition, from the staged TEI, reports and PDF only."""
    progress("write site/ (HTML)")
    site.build_site(staging.root / "edition.xml", staging.root, staging.root / "site")


def stage_chapter_site(sources: Sources, witnesses: list[Witness], staging: Staging, progress: Progress) -> None:
    """A chapter's HTML in a work: its fonts are the work site's, made once for all chapters."""
    progress("write site/ (HTML)")
    site.build_site(staging.root / "edition.xml", staging.root, staging.root / "site", shared_fonts=True)


def commentary_line(commentary: Commentary) -> str:
    units, transpositions = len(commentary.apparatus.all_units()), len(commentary.apparatus.transpositions)
    readings = "; ".join(
        f"{siglum} {', '.join(f'{n} {kind}' for kind, n in counts.most_common())}"
        for siglum, counts in commentary.counts().items()
        if counts
    )
    return (
        f"{len(commentary.glosses)} glosses, {units} variation units, {transpositions} transpositions; "
        f"readings: {readings}"
    )


def counts_line(counts: dict[str, int]) -> str:
    return ", ".join(f"{n} notes in series {series}" for series, n in counts.items())


CHAPTER_STAGES = (stage_witnesses, stage_edition, stage_pdf, stage_site)
WORK_CHAPTER_STAGES = (stage_witnesses, stage_edition, stage_pdf, stage_chapter_site)


def run(sources_dir: Path, out: Path, stages, progress: Progress, force: bool, carry: bool) -> None:
    """Run the given staging steps on the sources; their products (with the previous build's
    others if `carry`) replace the output folder only if all succeed."""
    with staged(out, sources_dir, force, carry) as staging:
        run_stages(Sources.load(sources_dir), staging, stages, progress)


def run_stages(sources: Sources, staging: Staging, stages, progress: Progress) -> list[Witness]:
    witnesses = sources.intake_all(progress)
    for stage in stages:
        stage(sources, witnesses, staging, progress)
    return witnesses


def build(sources_dir: Path, out: Path, progress: Progress = lambda message: None, force: bool = False) -> None:
    run(sources_dir, out, CHAPTER_STAGES, progress, force, carry=False)


def collate_only(sources_dir: Path, out: Path, progress: Progress = lambda message: None, force: bool = False) -> None:
    """edition.xml and the collation reports; the other products stay as they were."""
    run(sources_dir, out, (stage_edition,), progress, force, carry=True)


def check(sources_dir: Path) -> list[str]:
    """Every problem of the sources that can be found without building, one line each."""
    return check_sources(lambda: Sources.load(sources_dir))


def check_sources(load_sources: Callable[[], Sources]) -> list[str]:
    """The problems of one edition's sources (`load_sources` reads them): their files, the
    witnesses' intake, the decisions against the collation."""
    problems: list[str] = []
    try:
        sources = load_sources()
        choices = decisions.load(sources.decisions)
    except SourceErrors as errors:
        return [str(error) for error in errors.errors]
    except EditionError as error:
        return [str(error)]
    witnesses = sources.intake_all(errors=problems)
    if problems:
        return problems
    edit(sources, witnesses, choices)
    return [
        f"{sources.decisions}:{d.line}: decision {d.number} ({d.kind}) is stale: {d.stale}"
        for d in choices.items
        if d.stale
    ]
