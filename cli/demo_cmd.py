"""``polygon demo``: the offline end-to-end example."""

from __future__ import annotations

import click

from polygon.cli.choices import DEMO_EXAMPLES
from polygon.cli.context import Context, system_now
from polygon.cli.progress import Reporter, mode


@click.command()
@click.option(
    "--example",
    type=click.Choice(DEMO_EXAMPLES),
    default="clinic",
    show_default=True,
    help="Which bundled example: the dental clinic, or the pizza order line (with expect:).",
)
@click.pass_obj
def demo(obj: Context, example: str) -> None:
    """Run a bundled example offline and print what it shows.

    Two agent versions meet every caller type; everything lands in the event log, so any
    call can be replayed afterwards.
    """
    from polygon.app import open_log, run_demo
    from polygon.render import demo_lines

    with open_log(obj.log_path, readonly=False) as log, Reporter("calls", mode()) as shown:
        result = run_demo(log, now=system_now, progress=shown.update, example=example)
    for line in demo_lines(result, obj.log_path):
        click.echo(line)
