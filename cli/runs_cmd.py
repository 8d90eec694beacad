"""``polygon runs``: list runs; ``polygon runs hide RUN``."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import click

from polygon.cli.context import RUN, Context, system_now
from polygon.texttable import LEFT, RIGHT, table

if TYPE_CHECKING:
    from polygon.app import RunRow


@click.group(invoke_without_command=True)
@click.option("--suite", default=None, metavar="NAME", help="Only runs of this suite (its name).")
@click.option("--all", "include_hidden", is_flag=True, help="Hidden runs too.")
@click.option("--json", "as_json", is_flag=True)
@click.pass_context
def runs(ctx: click.Context, suite: str | None, include_hidden: bool, as_json: bool) -> None:
    """The runs in the log, newest first: calls, verdicts, rubrics, finished or not."""
    if ctx.invoked_subcommand is not None:
        return
    from polygon.app import list_runs, open_log, run_state
    from polygon.events import to_builtins

    obj: Context = ctx.obj
    with open_log(obj.log_path, readonly=True) as log:
        rows = list_runs(log, suite=suite, include_hidden=include_hidden)
    if as_json:
        click.echo(json.dumps(to_builtins(rows), sort_keys=True))
        return
    if not rows:
        click.echo("no runs (polygon demo, or polygon run SUITE)")
        return
    for line in table(
        [
            ("run", LEFT),
            ("suite", LEFT),
            ("started", LEFT),
            ("calls", RIGHT),
            ("state", LEFT),
            ("rubrics", LEFT),
            ("verdicts", LEFT),
        ],
        (
            [r.run_id, r.suite, r.started, r.calls, run_state(r), ",".join(r.rubrics) or "—", _verdicts(r)]
            for r in rows
        ),
    ):
        click.echo(line)
    click.echo("refer to the newest as `latest` (and `latest~1` …) wherever a run id is asked for", err=True)


def _verdicts(r: RunRow) -> str:
    return " ".join(f"{k} {v}" for k, v in r.states.items()) or "not judged"


@runs.command("hide")
@click.argument("run_id", metavar="RUN", type=RUN)
@click.option("--reason", default="", help="Why, in a line.")
@click.pass_obj
def hide(obj: Context, run_id: str, reason: str) -> None:
    """Hide RUN from default views (an event: nothing is deleted; `log compact` drops runs)."""
    from polygon.app import hide_run, open_log

    with open_log(obj.log_path, readonly=False) as log:
        changed = hide_run(log, run_id, reason=reason, now=system_now)
    click.echo(f"{run_id} hidden" if changed else f"{run_id} was already hidden")
