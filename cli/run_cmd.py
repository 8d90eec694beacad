"""``polygon run SUITE``."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import click

from polygon.cli.context import Context, executor_options, system_now
from polygon.cli.enforce_opts import enforcement_options, exit_if_missed, policy
from polygon.cli.output import warn
from polygon.cli.progress import Reporter, mode

if TYPE_CHECKING:
    from polygon.app import RunSummary
    from polygon.execute import Executor


@click.command()
@click.argument("suite", type=click.Path(path_type=str))
@click.option(
    "--config",
    "configs",
    multiple=True,
    metavar="NAME",
    help="Configuration to run (repeatable; default: all in the suite).",
)
@click.option(
    "--seed", type=click.IntRange(-(2**63), 2**63 - 1), default=None, help="Run seed (default: the suite's)."
)
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
@click.option("--no-progress", is_flag=True, help="No progress (a bar on a terminal, else a line every 5 s).")
@click.option(
    "--base-url",
    default="",
    metavar="URL",
    help="OpenAI-compatible server for openai/… models (else the suite's, else $OPENAI_BASE_URL).",
)
@click.option(
    "--cache", is_flag=True, help="Reuse recorded model answers for identical requests (no new call)."
)
@click.option(
    "--stale",
    type=click.Choice(["warn", "refuse"]),
    default="warn",
    show_default=True,
    help="What to do when generated personas are stale (their prompt changed).",
)
@enforcement_options
@executor_options
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
    base_url: str,
    cache: bool,
    stale: str,
    fail_on: str | None,
    min_pass_rate: float | None,
    allow_inconclusive: bool,
    allow_simulator_errors: bool,
    executor: Executor,
) -> None:
    """Simulate every scenario of SUITE against each configuration; print the run id.

    SUITE is a suite file or a directory holding suite.yaml. Every turn, noise injection
    and tool call goes to the event log; `polygon replay` shows any call afterwards.
    """
    from polygon.app import RunOptions, check_stale, missed_goals, open_log, recorded_answers, run_suite
    from polygon.cli.main import on_sigterm_say
    from polygon.models import ModelHub
    from polygon.suite import load_suite

    loaded = load_suite(suite)
    options = RunOptions(
        configs=configs,
        seed=seed,
        concurrency=concurrency,
        run_id=run_id,
        resume=resume,
        executor=executor,
    )
    for warning in check_stale(loaded, refuse=stale == "refuse"):
        warn(f"warning: {warning}")
    settings = obj.model_settings(base_url or loaded.suite.openai_base_url, cache)
    shown = Reporter("conversations", mode(quiet=no_progress or as_json))
    not_yet = f"no run had started: run the suite again (`polygon run {suite}`)"
    if resume:
        not_yet = f"`polygon run {suite} --resume {resume}` finishes run {resume}"
    with open_log(obj.log_path, readonly=False) as log, shown, on_sigterm_say(not_yet) as say:
        hub = ModelHub(settings, recorded=recorded_answers(log) if cache else None)
        summary = run_suite(
            loaded,
            log,
            options,
            now=system_now,
            progress=shown.update,
            score_progress=shown.staged("scored and probed"),
            on_end=shown.note,
            on_warning=warn,
            on_started=lambda rid: say(f"`polygon run {suite} --resume {rid}` finishes run {rid}"),
            hub=hub,
        )
        asked = policy(fail_on, min_pass_rate, allow_inconclusive, allow_simulator_errors)
        missed = missed_goals(log, summary.run_id, asked)
    _print_summary(summary, as_json)
    exit_if_missed(missed)


def _print_summary(summary: RunSummary, as_json: bool) -> None:
    """The run id on stdout (or the JSON summary); how the calls ended and what to run next on stderr."""
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
    if summary.ran_now and set(summary.end_reasons) == {"agent_error"}:  # a URL or server, not the agent
        quoted = json.dumps(summary.agent_error, ensure_ascii=False)  # one line, its quotes escaped
        why = f"; most often: {quoted}" if summary.agent_error else ""
        click.echo(
            f"warning: every call ended agent_error (the agent gave no answer{why}): `polygon report "
            f"{summary.run_id}` says why; a server that is down or a wrong URL fails every call alike",
            err=True,
        )
    click.echo(
        f"report: polygon report {summary.run_id} · replay: polygon replay "
        f"{summary.run_id}.<config>.<scenario>.<trial>",
        err=True,
    )
