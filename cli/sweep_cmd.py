"""``polygon sweep FILE``."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import click

from polygon.cli.context import Context, executor_options, system_now
from polygon.cli.output import warn

if TYPE_CHECKING:
    from polygon.execute import Executor


@click.command()
@click.argument("sweep_file", metavar="FILE", type=click.Path(path_type=str))
@click.option(
    "--resume", default="", metavar="SWEEP", help="Continue a killed sweep (refused if its file changed)."
)
@click.option("--sweep-id", default="", metavar="ID", help="Fixed sweep id (default: generated).")
@click.option(
    "--concurrency",
    type=click.IntRange(1, 512),
    default=8,
    show_default=True,
    help="Calls in flight at once.",
)
@click.option("--base-url", default="", metavar="URL", help="OpenAI-compatible server for openai/… models.")
@click.option("--json", "as_json", is_flag=True, help="Print the summary and the leaderboard as JSON.")
@executor_options
@click.pass_obj
def sweep(
    obj: Context,
    sweep_file: str,
    resume: str,
    sweep_id: str,
    concurrency: int,
    base_url: str,
    as_json: bool,
    executor: Executor,
) -> None:
    """Run a sweep: each point a profile and an ordinary run; print the leaderboard.

    FILE names the suite, the base configuration, the parameters and their values or
    ranges, the mode (oat, grid, random), the scenarios, trials, floor and token limit.
    Progress goes to stderr, a line per point.
    """
    from polygon.app import SweepOptions, open_log, run_sweep, sweep_leaderboard
    from polygon.models import ModelHub
    from polygon.render import leaderboard_data, leaderboard_lines
    from polygon.suite import load_sweep

    loaded = load_sweep(sweep_file)
    for warning in loaded.warnings:
        warn(f"warning: {warning}")
    settings = obj.model_settings(base_url or loaded.suite.suite.openai_base_url)
    say = (lambda line: None) if as_json else (lambda line: click.echo(line, err=True))
    with open_log(obj.log_path, readonly=False) as log:
        summary = run_sweep(
            loaded,
            log,
            SweepOptions(
                resume=resume,
                sweep_id=sweep_id,
                concurrency=concurrency,
                executor=executor,
            ),
            now=system_now,
            hub=ModelHub(settings),
            say=say,
        )
        board = sweep_leaderboard(log, summary.sweep_id)
    if as_json:
        board_data = leaderboard_data(board)
        data = {"sweep_id": summary.sweep_id, "summary": vars(summary), "leaderboard": board_data}
        click.echo(json.dumps(data, sort_keys=True))
        return
    click.echo(summary.sweep_id)
    for line in leaderboard_lines(board):
        click.echo(line, err=True)
