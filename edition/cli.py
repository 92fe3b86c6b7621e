"""The `edition` command: parses arguments and calls the library.

Whatever goes wrong reaches the user as one line: an `EditionError` names the file and line, an
`OSError` the path, anything else the step that was running; `--debug` shows the traceback.
"""

from __future__ import annotations

import sys
from contextlib import contextmanager
from pathlib import Path

import click

from . import __version__
from .errors import EditionError, one_line, os_error_parts, warn
from .work.additions import add_edition, add_to_chapter
from .work.chapter_build import build, check, collate_only
from .work.new_work import edition_siglum, init
from .work.sources import add_witness, guess_layout
from .work.work_build import build_work, check_work
from .work.work_sources import Work, is_work


def paths_and_verbosity(command):
    """The options every build command takes."""
    command = click.option("--quiet", is_flag=True, help="Print nothing but errors.")(command)
    command = click.option("--force", is_flag=True, help="Delete files in OUT that no build made.")(command)
    command = click.option("--out", type=click.Path(path_type=Path), default=Path("build"), show_default=True)(command)
    return click.option(
        "--sources", "sources_dir", type=click.Path(path_type=Path), default=Path("sources"), show_default=True
    )(command)


def fail(message: str, status: int = 1):
    click.echo(f"edition: error: {one_line(message)}", err=True)
    sys.exit(status)


@contextmanager
def one_line_errors(step: list[str]):
    """Turn every failure into one line; `step` holds what was being done when it happened."""
    try:
        yield
    except EditionError as error:
        fail(str(error))
    except KeyboardInterrupt:
        fail(f"interrupted during {step[-1]}; nothing was changed", 130)
    except Exception as error:
        if click.get_current_context().find_root().params.get("debug"):
            raise
        if isinstance(error, OSError):
            path, what = os_error_parts(error)
            fail(f"{path + ': ' if path else ''}{what} (during {step[-1]})")
        fail(
            f"unexpected {type(error).__name__} during {step[-1]}: {error} (run `edition --debug …` for the traceback)"
        )


def run_step(step, sources_dir: Path, out: Path, quiet: bool, force: bool, done: str) -> None:
    doing = [step.__name__]

    def progress(message: str) -> None:
        doing.append(message.strip())
        if not quiet:
            click.echo(f"  {message}", err=True)

    with one_line_errors(doing):
        step(sources_dir, out, progress, force)
    if not quiet:
        click.echo(f"edition: {done} {out}/", err=True)


@click.group()
@click.version_option(__version__, prog_name="edition")
@click.option("--debug", is_flag=True, help="Show the traceback of an unexpected error.")
def main(debug: bool) -> None:
    """Turn raw witnesses of a classical Chinese text into a critical edition."""


@main.command("build")
@paths_and_verbosity
@click.option(
    "--chapter", help="Of a work: build this chapter alone (number, title or heading); the others stay as they were."
)
@click.option(
    "--jobs", "-j", type=click.IntRange(min=1), help="Of a work: chapters built at once (default: the machine's cores)."
)
def build_command(
    sources_dir: Path, out: Path, quiet: bool, force: bool, chapter: str | None, jobs: int | None
) -> None:
    """Build everything from SOURCES into OUT: witness transcriptions, the edition, the reports.
    A work (SOURCES/work.toml) is built chapter by chapter, only the chapters whose sources changed."""
    if is_work(sources_dir):

        def work_step(sources_dir, out, progress, force):
            build_work(sources_dir, out, progress, force, chapter, jobs, quiet)

        work_step.__name__ = "build"
        run_step(work_step, sources_dir, out, quiet, force, "built")
    elif chapter:
        fail(f"{sources_dir}: --chapter needs a work (a work.toml in the sources)")
    else:
        run_step(build, sources_dir, out, quiet, force, "built")


@main.command("collate")
@paths_and_verbosity
def collate_command(sources_dir: Path, out: Path, quiet: bool, force: bool) -> None:
    """Collate the witnesses into OUT/edition.xml and the collation report."""
    run_step(collate_only, sources_dir, out, quiet, force, "collated into")


@main.command("add-witness")
@click.argument("file", type=click.Path(path_type=Path))
@click.option("--siglum", required=True, help="The witness's siglum in the apparatus.")
@click.option("--title", help="Its title (default: the file name).")
@click.option("--name", help="Its short name in the apparatus, e.g. 四部叢刊本 (default: the siglum).")
@click.option("--profile", help="Its layout profile (default: guessed).")
@click.option("--encoding", help="Its encoding (default: guessed).")
@click.option(
    "--script", type=click.Choice(["simplified", "traditional", "mixed"]), help="Its script (default: guessed)."
)
@click.option("--chapter", help="Of a work: the chapter it belongs to (default: found by its text).")
@click.option("--sources", "sources_dir", type=click.Path(path_type=Path), default=Path("sources"), show_default=True)
def add_witness_command(
    file: Path, siglum: str, title, name, profile, encoding, script, chapter, sources_dir: Path
) -> None:
    """Copy FILE into the sources untouched and describe it in witnesses.toml. In a work, FILE
    joins the chapter it belongs to; a folder of 卷 files becomes an edition of the whole work."""
    options = {"title": title, "name": name, "profile": profile, "encoding": encoding, "script": script}
    if file.is_symlink():
        warn(EditionError(file, f"is a symbolic link: what it points to ({file.resolve()}) is copied in"))
    with one_line_errors(["add-witness"]):
        if is_work(sources_dir):
            if file.is_dir() or not Work.load(sources_dir, taking_up=siglum).chapters:
                target, lines = add_edition(
                    sources_dir, file, siglum, options, lambda m: click.echo(f"  {m}", err=True)
                )
            else:
                target, lines = add_to_chapter(sources_dir, file, siglum, chapter, options)
        elif file.is_dir() or chapter:
            fail(f"{file}: a folder of chapters, or --chapter, needs a work (a work.toml in {sources_dir})")
        else:
            guessed = guess_layout(sources_dir, file, siglum)
            target = add_witness(
                sources_dir,
                file,
                siglum,
                title or file.stem,
                profile or guessed.profile,
                encoding or guessed.encoding,
                script or guessed.script,
                None if profile else guessed.composed,
                name,
            )
            lines = guessed.lines(profile_given=profile is not None)
    for line in lines:
        click.echo(f"  {line}")
    click.echo(f"edition: added {target} as witness {siglum}; `make edition` includes it")


@main.command("init")
@click.argument("base", required=False, type=click.Path(path_type=Path))
@click.option("--siglum", help="The base's siglum (default: the edition its files name, else BASE).")
@click.option("--title", help="The work's title (default: the base's).")
@click.option("--sources", "sources_dir", type=click.Path(path_type=Path), default=Path("sources"), show_default=True)
def init_command(base: Path | None, siglum: str | None, title: str | None, sources_dir: Path) -> None:
    """Start a new work in SOURCES: its settings and tables, and, from BASE (a folder of 卷 files,
    or one file), its base edition and chapters. Without BASE, the first edition added is the base."""
    with one_line_errors(["init"]):
        if base is not None and not base.exists():
            raise EditionError(base, "no such base edition (a folder of 卷 files, or a file)")
        written = init(sources_dir, title)
    click.echo(f"edition: started a work in {sources_dir}/ ({', '.join(p.name for p in written)})")
    if base is None:
        click.echo("  add its base edition: edition add-witness FOLDER --siglum X")
        return
    with one_line_errors(["init"]):
        target, lines = add_edition(
            sources_dir, base, siglum or edition_siglum(base), {}, lambda m: click.echo(f"  {m}", err=True)
        )
    for line in lines:
        click.echo(f"  {line}")
    click.echo(f"edition: added {target} as the base; `make edition` builds the work")


@main.command("check")
@click.option("--sources", "sources_dir", type=click.Path(path_type=Path), default=Path("sources"), show_default=True)
@click.option("--chapter", help="Of a work: check this chapter alone.")
def check_command(sources_dir: Path, chapter: str | None) -> None:
    """Check the sources without building: metadata, encodings, profiles, decisions."""
    with one_line_errors(["check"]):
        problems = check_work(sources_dir, chapter) if is_work(sources_dir) else check(sources_dir)
    for problem in problems:
        click.echo(problem)
    sys.exit(1 if problems else 0)
