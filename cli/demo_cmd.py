"""``polygon demo``: the offline end-to-end example."""

from __future__ import annotations

import click

from polygon.app.demo import demo_lines, run_demo
from polygon.app.log import open_log
from polygon.cli.context import Context, system_now
from polygon.cli.progress import Reporter, mode


@click.command()
@click.pass_obj
def demo(obj: Context) -> None:
    """Run the bundled clinic example offline and print what it shows.

    Two agent versions meet every caller type; everything lands in the event log, so any
    call can be replayed afterwards.
    """
    with open_log(obj.log_path, readonly=False) as log, Reporter("calls", mode()) as shown:
        result = run_demo(log, now=system_now, progress=shown.update)
    for line in demo_lines(result, obj.log_path):
        click.echo(line)
