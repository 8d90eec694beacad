"""``polygon judge``, ``polygon report``, ``polygon explain``."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from polygon.app.judge import judge_run
from polygon.app.log import open_log
from polygon.app.replay import load_conversation
from polygon.app.report import enforce, load_run, run_of
from polygon.cli.context import Context, system_now
from polygon.cli.run_cmd import _progress
from polygon.models.hub import ModelHub
from polygon.projections.explain import explain, explain_data, explain_lines
from polygon.projections.report import (
    make_report,
    render_html,
    render_json,
    render_junit,
    render_text,
)
from polygon.score.rubric import load_rubric

RENDERERS = {"text": render_text, "json": render_json, "junit": render_junit, "html": render_html}
FAIL_ON = click.Choice(["fail", "warn"])


@click.command()
@click.argument("run_id", metavar="RUN")
@click.option("--rubric", default="v1", show_default=True, help="Rubric version (bundled) or a rubric file.")
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
@click.option("--base-url", default="", metavar="URL", help="OpenAI-compatible server for openai/… judges.")
@click.pass_obj
def judge(
    obj: Context, run_id: str, rubric: str, repeats: int, judge_model: str, new_pass: int, base_url: str
) -> None:
    """(Re)score RUN: checks and the judge. Appends a new pass; never overwrites earlier scores."""
    loaded_rubric = load_rubric(rubric)
    with open_log(obj.log_path, readonly=False) as log, _progress(sys.stderr.isatty()) as bar:
        task = bar.add_task("judging", total=None)
        summary = judge_run(
            log,
            run_id,
            rubric=loaded_rubric,
            judge_model=judge_model,
            repeats=repeats,
            new_pass=new_pass,
            hub=ModelHub(obj.model_settings(base_url)),
            now=system_now,
            progress=lambda done, total: bar.update(task, completed=done, total=total),
        )
    click.echo(f"pass {summary.pass_id}: scored {summary.scored}, already scored {summary.already}")
    click.echo(f"report: polygon report {run_id} --rubric {loaded_rubric.rubric.version}")


@click.command()
@click.argument("run_id", metavar="RUN")
@click.option("--format", "fmt", type=click.Choice(sorted(RENDERERS)), default="text", show_default=True)
@click.option("--json", "as_json", is_flag=True, help="Same as --format json.")
@click.option("--junit", "as_junit", is_flag=True, help="Same as --format junit.")
@click.option("--rubric", default=None, help="Rubric version to report (needed if the run has several).")
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), help="Write to a file.")
@click.option(
    "--fail-on",
    type=FAIL_ON,
    default=None,
    help="Exit 1 if any conversation fails (or, with warn, fails or warns).",
)
@click.pass_obj
def report(
    obj: Context,
    run_id: str,
    fmt: str,
    as_json: bool,
    as_junit: bool,
    rubric: str | None,
    output: Path | None,
    fail_on: str | None,
) -> None:
    """Scorecard and verdicts of RUN, rebuilt from the log."""
    fmt = "json" if as_json else "junit" if as_junit else fmt
    with open_log(obj.log_path, readonly=True) as log:
        result = make_report(load_run(log, run_id), rubric)
    text = RENDERERS[fmt](result)
    if output is None:
        click.echo(text, nl=False)
    else:
        output.write_text(text, encoding="utf-8")
        click.echo(f"wrote {output}", err=True)
    if enforce(result, fail_on):
        sys.exit(1)


@click.command(name="explain")
@click.argument("conversation")
@click.option("--rubric", default=None, help="Rubric version (needed if judged under several).")
@click.option("--json", "as_json", is_flag=True)
@click.pass_obj
def explain_cmd(obj: Context, conversation: str, rubric: str | None, as_json: bool) -> None:
    """Why CONVERSATION got its verdict.

    Every criterion, weight, repeat, median, gate and piece of evidence, with log positions.
    """
    with open_log(obj.log_path, readonly=True) as log:
        state = load_run(log, run_of(log, conversation))
        view = load_conversation(log, conversation)
    row, used = explain(state, conversation, rubric)
    if as_json:
        click.echo(json.dumps(explain_data(row, used), sort_keys=True, ensure_ascii=False, indent=2))
        return
    for line in explain_lines(row, used, view):
        click.echo(line)
