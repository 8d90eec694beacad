"""``polygon demo``: the offline end-to-end example."""

from __future__ import annotations

import click
from polygon.cli.context import Context

from polygon.app.demo import run_demo


@click.command()
@click.pass_obj
def demo(obj: Context) -> None:
    """Run the bundled example offline and print what it shows."""
    for line in run_demo(obj.log_path):
        click.echo(line)
