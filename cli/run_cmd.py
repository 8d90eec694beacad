"""``polygon run SUITE``."""

from __future__ import annotations

import json
import sys

import click
from polygon.cli.context import Context, system_now
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from polygon.app.logs import open_log
from polygon.app.run import RunOptions, run_suite
from polygon.suite import load_suite


@click.command()
@click.argument("suite", type=click.Path(path_type=str))
@click.option(
    "--config",
    "configs",
    multiple=True,
    metavar="NAME",
    help="Configuration to run (repeatable; default: all in the suite).",
)
@click.option("--seed", type=int, default=None, help="Run seed (default: the suite's).")
@click.option(
    "--concurrency",
    type=click.IntRange(1, 512),
    default=8,
    show_default=True,
    help="Conversations in flight at once.",
)
@click.option(
    "--resume",
    "resume",
    default="",
    metavar="RUN",
    help="Continue a killed run; refused if the suite, prompt or seed changed.",
)
@click.option("--run-id", default="", metavar="ID", help="Fixed run id (default: generated).")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
@click.option("--no-progress", is_flag=True, help="No progress bar.")
@click.pass_obj
def run(
    obj: Context,
    suite: str,
    configs: tuple[str, ...],
    seed: int | None,
    concurrency: int,
    resume: str,
    run_id: str,
    as_json: bool,
    no_progress: bool,
) -> None:
    """Simulate every scenario of SUITE against each configuration; print the run id.

    SUITE is a suite file or a directory holding suite.yaml. Every turn, noise injection
    and tool call goes to the event log; `polygon replay` shows any call afterwards.
    """
    loaded = load_suite(suite)
    options = RunOptions(configs=configs, seed=seed, concurrency=concurrency, run_id=run_id, resume=resume)
    show = not (no_progress or as_json) and sys.stderr.isatty()
    with open_log(obj.log_path, readonly=False) as log, _progress(show) as bar:
        task = bar.add_task("conversations", total=None)
        summary = run_suite(
            loaded,
            log,
            options,
            now=system_now,
            progress=lambda done, total: bar.update(task, completed=done, total=total),
        )
    if as_json:
        click.echo(
            json.dumps(
                {
                    "run_id": summary.run_id,
                    "conversations": summary.conversations,
                    "ran_now": summary.ran_now,
                    "end_reasons": summary.end_reasons,
                }
            )
        )
        return
    click.echo(summary.run_id)
    reasons = ", ".join(f"{k} {v}" for k, v in summary.end_reasons.items())
    click.echo(f"{summary.conversations} conversations ({summary.ran_now} run now): {reasons}", err=True)
    click.echo(f"replay one with: polygon replay {summary.run_id}.<config>.<scenario>.<trial>", err=True)


def _progress(show: bool) -> Progress:
    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        disable=not show,
        transient=True,
    )
