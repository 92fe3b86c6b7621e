"""The `edition` command: parses arguments and calls the library."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from . import __version__
from .build import build
from .errors import EditionError


def fail(error: EditionError) -> None:
    click.echo(f"edition: error: {error}", err=True)
    sys.exit(1)


@click.group()
@click.version_option(__version__, prog_name="edition")
def main() -> None:
    """Turn raw witnesses of a classical Chinese text into a critical edition."""


@main.command("build")
@click.option("--sources", "sources_dir", type=click.Path(path_type=Path), default=Path("sources"), show_default=True)
@click.option("--out", type=click.Path(path_type=Path), default=Path("build"), show_default=True)
@click.option("--quiet", is_flag=True, help="Print nothing but errors.")
def build_command(sources_dir: Path, out: Path, quiet: bool) -> None:
    """Build the edition from SOURCES into OUT."""
    progress = (lambda message: None) if quiet else (lambda message: click.echo(f"  {message}", err=True))
    try:
        build(sources_dir, out, progress)
    except EditionError as error:
        fail(error)
    if not quiet:
        click.echo(f"edition: built {out}/", err=True)
