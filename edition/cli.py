"""The `edition` command: parses arguments and calls the library."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from . import __version__
from .build import build, collate_only
from .errors import EditionError


def paths_and_verbosity(command):
    """The options every build command takes."""
    command = click.option("--quiet", is_flag=True, help="Print nothing but errors.")(command)
    command = click.option("--out", type=click.Path(path_type=Path), default=Path("build"), show_default=True)(command)
    return click.option("--sources", "sources_dir", type=click.Path(path_type=Path), default=Path("sources"), show_default=True)(command)


def run_step(step, sources_dir: Path, out: Path, quiet: bool, done: str) -> None:
    progress = (lambda message: None) if quiet else (lambda message: click.echo(f"  {message}", err=True))
    try:
        step(sources_dir, out, progress)
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
def build_command(sources_dir: Path, out: Path, quiet: bool) -> None:
    """Build everything from SOURCES into OUT: witness transcriptions, the edition, the reports."""
    run_step(build, sources_dir, out, quiet, "built")


@main.command("collate")
@paths_and_verbosity
def collate_command(sources_dir: Path, out: Path, quiet: bool) -> None:
    """Collate the witnesses into OUT/edition.xml and the collation report."""
    run_step(collate_only, sources_dir, out, quiet, "collated into")
