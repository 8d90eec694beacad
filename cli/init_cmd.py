"""``polygon init DIR``."""

from __future__ import annotations

from pathlib import Path

import click


@click.command()
@click.argument("directory", type=click.Path(file_okay=False, path_type=Path))
def init(directory: Path) -> None:
    """Write a commented starter suite (suite.yaml, prompt.md, my_agent.py) into DIRECTORY."""
    from polygon.app import init_suite

    for path in init_suite(directory):
        click.echo(f"wrote {path}")
    click.echo(f"next: polygon run {directory / 'suite.yaml'}")
