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
from .work.build import build, check, collate_only
from .errors import EditionError
from .work.sources import add_witness, guess_layout


def paths_and_verbosity(command):
    """The options every build command takes."""
    command = click.option("--quiet", is_flag=True, help="Print nothing but errors.")(command)
    command = click.option("--force", is_flag=True, help="Delete files in OUT that no build made.")(command)
    command = click.option("--out", type=click.Path(path_type=Path), default=Path("build"), show_default=True)(command)
    return click.option("--sources", "sources_dir", type=click.Path(path_type=Path), default=Path("sources"), show_default=True)(command)


def fail(message: str, status: int = 1):
    click.echo(f"edition: error: {message}", err=True)
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
            where = f"{error.filename}: " if error.filename else ""
            fail(f"{where}{error.strerror or error} (during {step[-1]})")
        fail(f"unexpected {type(error).__name__} during {step[-1]}: {error} (run `edition --debug …` for the traceback)")


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
def build_command(sources_dir: Path, out: Path, quiet: bool, force: bool) -> None:
    """Build everything from SOURCES into OUT: witness transcriptions, the edition, the reports."""
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
@click.option("--script", type=click.Choice(["simplified", "traditional", "mixed"]), help="Its script (default: guessed).")
@click.option("--sources", "sources_dir", type=click.Path(path_type=Path), default=Path("sources"), show_default=True)
def add_witness_command(file: Path, siglum: str, title, name, profile, encoding, script, sources_dir: Path) -> None:
    """Copy FILE into the sources untouched and describe it in witnesses.toml."""
    with one_line_errors(["add-witness"]):
        guessed = guess_layout(sources_dir, file, siglum)
        target = add_witness(
            sources_dir, file, siglum, title or file.stem, profile or guessed.profile, encoding or guessed.encoding, script or guessed.script,
            None if profile else guessed.composed, name,
        )
    for line in guessed.lines(profile_given=profile is not None):
        click.echo(f"  {line}")
    click.echo(f"edition: added {target} as witness {siglum}; `make edition` includes it")


@main.command("check")
@click.option("--sources", "sources_dir", type=click.Path(path_type=Path), default=Path("sources"), show_default=True)
def check_command(sources_dir: Path) -> None:
    """Check the sources without building: metadata, encodings, profiles, decisions."""
    with one_line_errors(["check"]):
        problems = check(sources_dir)
    for problem in problems:
        click.echo(problem)
    sys.exit(1 if problems else 0)
