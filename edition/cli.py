"""The `edition` command: parses arguments and calls the library."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from . import __version__
from .build import build, check, collate_only
from .errors import EditionError
from .guess import guess
from .sources import add_witness


def paths_and_verbosity(command):
    """The options every build command takes."""
    command = click.option("--quiet", is_flag=True, help="Print nothing but errors.")(command)
    command = click.option("--force", is_flag=True, help="Delete files in OUT that no build made.")(command)
    command = click.option("--out", type=click.Path(path_type=Path), default=Path("build"), show_default=True)(command)
    return click.option("--sources", "sources_dir", type=click.Path(path_type=Path), default=Path("sources"), show_default=True)(command)


def run_step(step, sources_dir: Path, out: Path, quiet: bool, force: bool, done: str) -> None:
    progress = (lambda message: None) if quiet else (lambda message: click.echo(f"  {message}", err=True))
    try:
        step(sources_dir, out, progress, force)
    except EditionError as error:
        click.echo(f"edition: error: {error}", err=True)
        sys.exit(1)
    if not quiet:
        click.echo(f"edition: {done} {out}/", err=True)


@click.group()
@click.version_option(__version__, prog_name="edition")
def main() -> None:
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
@click.option("--profile", help="Its layout profile (default: guessed).")
@click.option("--encoding", help="Its encoding (default: guessed).")
@click.option("--script", type=click.Choice(["simplified", "traditional", "mixed"]), help="Its script (default: guessed).")
@click.option("--sources", "sources_dir", type=click.Path(path_type=Path), default=Path("sources"), show_default=True)
def add_witness_command(file: Path, siglum: str, title, profile, encoding, script, sources_dir: Path) -> None:
    """Copy FILE into the sources untouched and describe it in witnesses.toml."""
    try:
        guessed = guess(file)
        for line in guessed.lines():
            click.echo(f"  guessed {line}")
        target = add_witness(
            sources_dir, file, siglum, title or file.stem, profile or guessed.profile, encoding or guessed.encoding, script or guessed.script
        )
    except (EditionError, OSError) as error:
        click.echo(f"edition: error: {error}", err=True)
        sys.exit(1)
    click.echo(f"edition: added {target} as witness {siglum}; `make edition` includes it")


@main.command("check")
@click.option("--sources", "sources_dir", type=click.Path(path_type=Path), default=Path("sources"), show_default=True)
def check_command(sources_dir: Path) -> None:
    """Check the sources without building: metadata, encodings, profiles, decisions."""
    problems = check(sources_dir)
    for problem in problems:
        click.echo(problem)
    sys.exit(1 if problems else 0)
