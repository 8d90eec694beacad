"""``polygon demo``: the offline end-to-end example."""

from __future__ import annotations

import sys

import click

from polygon.app.demo import demo_lines, run_demo
from polygon.app.log import open_log
from polygon.cli.context import Context, progress_bar, system_now


@click.command()
@click.pass_obj
def demo(obj: Context) -> None:
    """Run the bundled clinic example offline and print what it shows.

    Two agent versions meet every caller type; everything lands in the event log, so any
    call can be replayed afterwards.
    """
    with open_log(obj.log_path, readonly=False) as log, progress_bar(sys.stderr.isatty()) as bar:
        task = bar.add_task("calls", total=None)
        result = run_demo(
            log,
            now=system_now,
            progress=lambda done, total: bar.update(task, completed=done, total=total),
        )
    for line in demo_lines(result, obj.log_path):
        click.echo(line)
