"""The build: sources in, `build/` out, all or nothing.

Everything is produced in a staging folder beside the output folder and validated there; only
then does it replace the output folder whole, in one step (see `output`). A failed or killed
build leaves the previous output as it was.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import asdict, replace
from pathlib import Path
from typing import NamedTuple

from ..collation import (
    analysis,
    decision_file,
    decisions,
    external_evidence,
    headings,
    layer_slips,
    punctuation,
    same_error,
    sections,
)
from ..collation.analysis import Context, Report
from ..collation.apparatus import align_witnesses, apparatus_of
from ..collation.commentary import align_commentary, commentary_of
from ..collation.external_evidence import ExternalEvidence
from ..collation.lineage import Lineage
from ..collation.lost_leaf import LeafFinding, supply
from ..collation.model import Apparatus, Commentary, Decisions, Section, Step
from ..errors import EditionError, SourceErrors
from ..intake.model import Witness
from ..publication import chapter_site, pdf, render, report, tei, validate
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


# The engine's analyses of the apparatus (see `collation.analysis`), run with those of the work's
# tradition in the order their phases give: the punctuation carried over before the entries the
# analyses make (the 儀禮's 今文/古文 readings, 校语 and the editions they report), before the headings
# and sections divide them (by the steps of the rite the 疏 names where no witness's label does), then
# the decisions on the sections they name, and the same error treated alike once every emendation is made.
ANALYSES = (punctuation, headings, sections, decisions, same_error)
COMMENTARY_ANALYSES = (punctuation, decisions)  # the 注 has no sections, steps or notes of its own to place


class Edited(NamedTuple):
    apparatus: Apparatus  # of the 經
    commentary: Commentary | None  # the 注 collated, if the base carries it
    found: dict  # each analysis's findings, by its name
    reports: list[Report]
    leaves: list[LeafFinding]  # what became of each lost leaf of the base
    external: ExternalEvidence | None = None  # the books of evidence apart from the witnesses, placed

    @property
    def sections(self) -> list[Section]:
        return self.found["sections"]

    @property
    def paragraphs(self) -> dict[int, Step]:
        """Base token -> the step of the rite a paragraph begins with there (if the tradition names steps)."""
        return sections.paragraph_starts(self.found["steps"].steps if "steps" in self.found else [])


def edit(sources: Sources, witnesses: list[Witness], choices: Decisions) -> Edited:
    """Collation of the 經 and of the 注, then the analyses of the apparatus."""
    config = sources.config
    witness_choices = choices.witnesses(True), choices.witnesses(False)
    witnesses, leaves = supply(witnesses, config.base, sources.normalizer(), config.min_quality)
    base = next(w for w in witnesses if w.meta.siglum == config.base)
    external = evidence_of(sources, base)
    orthography = sources.orthography()
    elsewhere = sources.elsewhere if any(w.compilation for w in witnesses) else ""
    classic = align_witnesses(witnesses, config.base, config.min_quality, *witness_choices, elsewhere=elsewhere)
    notes = align_commentary(witnesses, config.base, config.min_quality, *witness_choices)
    layers = [aligned for aligned in (classic, notes) if aligned is not None]
    lineage = Lineage.of([a.maps for a in layers], {s: m for a in layers for s, m in a.metas.items()})
    apparatus = apparatus_of(classic, orthography, (), external, lineage)
    commentary = notes and commentary_of(notes, orthography, external, lineage)
    if commentary is not None:
        layer_slips.mend(apparatus, commentary)
    context = Context(
        config, sources.root / "edition.toml", sources.normalizer(), sources.persons, choices, external=external
    )
    analyses = pipeline(sources)
    analysis.run(apparatus, analyses, context)
    if commentary is not None:  # the editors' decisions on the 注 (layer = "注"), reported with the others
        on_notes = replace(context, found={"sections": []})
        analysis.run(commentary.apparatus, COMMENTARY_ANALYSES, on_notes)
        context.found[decisions.NAME].merge(on_notes.found[decisions.NAME])
    reports = analysis.reports(apparatus, analyses, context)
    return Edited(apparatus, commentary, context.found, reports, leaves, external)


def pipeline(sources: Sources) -> tuple:
    """The engine's analyses and the tradition's, in the order they run."""
    return analysis.ordered((*ANALYSES, *sources.tradition.analyses))


def evidence_of(sources: Sources, base: Witness) -> ExternalEvidence | None:
    """The books of evidence of the sources, placed on the base (with its lost leaves supplied)."""
    if not sources.evidence or sources.chapter is None:
        return None
    chapter = sources.chapter
    readers = sources.tradition.readers
    return external_evidence.read(sources.evidence, readers, [chapter], chapter.number, base, sources.normalizer())


def stage_edition(sources: Sources, witnesses: list[Witness], staging: Staging, progress: Progress) -> None:
    config = sources.config
    progress(f"collate {len(witnesses)} witnesses against base {config.base}")
    started = time.perf_counter()
    choices = decision_file.load(sources.decisions)
    edited = edit(sources, witnesses, choices)
    apparatus, commentary, found, reports, leaves, external = edited
    seconds = time.perf_counter() - started
    staging.timings["collation"] = seconds
    for siglum, status in apparatus.statuses.items():
        progress(
            f"  {siglum}: quality {status.quality:.3f}, "
            f"{'included' if status.included else 'excluded'} ({status.reason})"
        )
    progress(
        f"  {len(apparatus.all_units())} variation units, {len(apparatus.transpositions)} transpositions, "
        f"{len(found['sections'])} sections in {seconds:.2f} s"
    )
    if commentary:
        progress(f"  注: {commentary_line(commentary)}")
    for leaf in leaves:
        progress(f"  lost leaf (line {leaf.line}, {leaf.remark}): {leaf.status} {leaf.source} {leaf.reason}".rstrip())
    for line in (line for r in reports for line in r.lines):
        progress(line)
    document = tei.edition_document(
        sources, apparatus, found["sections"], choices.editors, edited.paragraphs, commentary
    )
    progress("validate edition.xml")
    validate.check(
        document,
        staging.out / "edition.xml",
        witness_at=tei.WitnessPlaces(apparatus, commentary, found[decisions.NAME]),
    )
    staging.write("edition.xml", tei.serialize(document))
    shown = set(document.xpath("//t:facsimile//t:graphic/@url", namespaces={"t": tei.TEI_NS}))
    for siglum, images in sources.page_images.items():  # the photographs of its leaves, beside it
        for image in (i for i in images.values() if i.file is not None and i.published(siglum) in shown):
            staging.write(image.published(siglum), image.file.read_bytes())
    summary = report.collation_report(
        apparatus,
        found["sections"],
        choices.editors,
        found["same_error"].repeats,
        [asdict(leaf) for leaf in leaves],
        commentary,
    )
    reports = [Report("collation", summary, report.collation_markdown(summary)), *reports]
    if external is not None:
        reports.append(Report("evidence", external.reports, evidence_markdown(external.reports)))
    for written in (r for r in reports if r.summary is not None):
        staging.write(f"reports/{written.name}.json", json.dumps(written.summary, ensure_ascii=False, indent=1) + "\n")
        staging.write(f"reports/{written.name}.md", written.markdown)


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
    chapter_site.build_site(
        staging.root / "edition.xml", staging.root, staging.root / "site", language=sources.language
    )


def stage_chapter_site(sources: Sources, witnesses: list[Witness], staging: Staging, progress: Progress) -> None:
    """A chapter's HTML in a work: its fonts are the work site's, made once for all chapters."""
    progress("write site/ (HTML)")
    chapter_site.build_site(
        staging.root / "edition.xml", staging.root, staging.root / "site", shared_fonts=True, language=sources.language
    )


def evidence_markdown(reports: dict[str, dict]) -> str:
    """The books of evidence: what of each was placed on the base, and what not."""
    lines = ["# Evidence apart from the witnesses", ""]
    for siglum, found in reports.items():
        lines.append(f"- {siglum}: {len(found.get('placed', []))} placed, {len(found.get('unplaced', []))} not placed")
    return "\n".join(lines) + "\n"


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
        choices = decision_file.load(sources.decisions)
    except SourceErrors as errors:
        return [str(error) for error in errors.errors]
    except EditionError as error:
        return [str(error)]
    witnesses = sources.intake_all(errors=problems)
    if problems:
        return problems
    found = edit(sources, witnesses, choices).found["decisions"]
    return [f"{sources.decisions}:{d.line}: decision {d.number} ({d.kind}) is stale: {why}" for d, why in found.stale()]
