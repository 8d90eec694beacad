"""``polygon scenarios from-calls``: draft personas and scenarios from imported calls."""

from __future__ import annotations

import json
from pathlib import Path

import click

from polygon.cli.context import RUN, Context, system_now


@click.group()
def scenarios() -> None:
    """Scenarios drafted from real calls."""


@scenarios.command(name="from-calls")
@click.argument("run", type=RUN)
@click.option("--suite", default=None, help="The suite to extend: its configs, tools and coverage.")
@click.option(
    "-o",
    "--output",
    "out",
    required=True,
    type=click.Path(dir_okay=False, path_type=Path),
    help="The new suite file to write (never an existing one).",
)
@click.option(
    "--model",
    default="",
    help="A model to correct each rules' draft (openai/…, llama/…); its calls are recorded in the log.",
)
@click.option("--base-url", default="", metavar="URL", help="OpenAI-compatible server for openai/… models.")
@click.option("--json", "as_json", is_flag=True)
@click.pass_obj
def from_calls(
    obj: Context, run: str, suite: str | None, out: Path, model: str, base_url: str, as_json: bool
) -> None:
    """Draft a persona and scenario from each call of RUN (an imported run) into a new suite.

    Offline, by rules over the transcripts: caller type, goal, facts stated, intended
    outcome, an `expect:` from the tool calls that settled the call; clustered by intent.
    With --model, a model corrects each draft (a failed answer keeps the rules' draft).
    Prints which intents of the real calls the suite has no scenario for.
    """
    from polygon.app import DraftModel, open_log
    from polygon.app import from_calls as draft_from_calls
    from polygon.models import ModelHub

    with_model = DraftModel(model, ModelHub(obj.model_settings(base_url)), system_now) if model else None
    with open_log(obj.log_path, readonly=not model) as log:
        result = draft_from_calls(log, run, suite, out, with_model)
    if as_json:
        rows = [{"intent": i, "calls": n, "suite_personas": ids} for i, n, ids in result.coverage]
        click.echo(
            json.dumps(
                {
                    "path": str(result.path),
                    "drafts": len(result.drafts),
                    "model": result.model,
                    "failures": result.failures,
                    "coverage": rows,
                }
            )
        )
        return
    for failure in result.failures:
        click.echo(f"kept the rules' draft: {failure}", err=True)
    click.echo(f"wrote {len(result.drafts)} drafted scenarios from run {result.run_id} to {result.path}")
    click.echo("intent          calls  covered by the suite")
    for intent, calls, ids in result.coverage:
        click.echo(f"{intent:<15} {calls:>5}  {', '.join(ids) if ids else 'NO SCENARIO'}")
