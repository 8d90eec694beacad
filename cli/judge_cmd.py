"""``polygon judge``: a new scoring pass over a run (appended; earlier passes stay)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from polygon.cli.context import RUN, Context, executor_options, pass_concurrency, system_now
from polygon.cli.progress import Reporter, mode

if TYPE_CHECKING:
    from polygon.execute import Executor


@click.command()
@click.argument("run_id", metavar="RUN", type=RUN)
@click.option(
    "--rubric",
    default=None,
    help="Rubric version (bundled) or a rubric file.  [default: the run's own, the one its suite named]",
)
@click.option(
    "--repeats", type=click.IntRange(1, 15), default=1, show_default=True, help="Judge repeats (k)."
)
@click.option("--judge", "judge_model", default="scripted/heuristic", show_default=True, help="Judge model.")
@click.option(
    "--new-pass",
    type=click.IntRange(0),
    default=0,
    help="Judge again with the same settings as a new pass (model judges vary).",
)
@pass_concurrency
@click.option("--base-url", default="", metavar="URL", help="OpenAI-compatible server for openai/… judges.")
@executor_options
@click.pass_obj
def judge(
    obj: Context,
    run_id: str,
    rubric: str | None,
    repeats: int,
    judge_model: str,
    new_pass: int,
    concurrency: int,
    base_url: str,
    executor: Executor,
) -> None:
    """(Re)score RUN: checks and the judge. Appends a new pass; never overwrites earlier scores."""
    from polygon.app import judge_run, open_log
    from polygon.models import ModelHub

    with open_log(obj.log_path, readonly=False) as log, Reporter("judging", mode()) as shown:
        summary = judge_run(
            log,
            run_id,
            rubric=rubric,
            judge_model=judge_model,
            repeats=repeats,
            new_pass=new_pass,
            hub=ModelHub(obj.model_settings(base_url)),
            now=system_now,
            concurrency=concurrency,
            progress=shown.update,
            executor=executor,
        )
    for warning in summary.warnings:
        click.echo(warning, err=True)
    click.echo(f"pass {summary.pass_id}: scored {summary.scored}, already scored {summary.already}")
    if summary.already and not summary.scored:
        # trial3: after upgrading Polygon a user re-judged a run to see a fix and got nothing new
        click.echo(f"(every call has this pass; --new-pass {new_pass + 1} judges them again as a new pass)")
    click.echo(f"report: polygon report {run_id} --rubric {summary.rubric_version}")
