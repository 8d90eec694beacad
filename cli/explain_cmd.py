"""``polygon explain``: why one call got its verdict."""

from __future__ import annotations

import json

import click

from polygon.cli.context import CONVERSATION, Context


@click.command(name="explain")
@click.argument("conversation", type=CONVERSATION)
@click.option(
    "--rubric", default=None, help="Rubric version (default: the run's own, the one its suite named)."
)
@click.option("--judge", "judge_name", default=None, help="Show the latest pass by this judge.")
@click.option("--pass", "pass_id", default=None, help="Show this pass (its id, as `report` prints it).")
@click.option("--json", "as_json", is_flag=True)
@click.pass_obj
def explain_cmd(
    obj: Context,
    conversation: str,
    rubric: str | None,
    judge_name: str | None,
    pass_id: str | None,
    as_json: bool,
) -> None:
    """Why CONVERSATION got its verdict.

    Every criterion, weight, repeat, median, gate and piece of evidence, each event cited by its
    place in the call's stream (#N).
    """
    from polygon.app import explain_conversation, open_log
    from polygon.render import explain_data, explain_lines

    with open_log(obj.log_path, readonly=True) as log:
        found = explain_conversation(log, conversation, rubric, pass_id=pass_id, judge=judge_name)
    if as_json:
        data = explain_data(found.row, found.rubric)
        click.echo(json.dumps(data, sort_keys=True, ensure_ascii=False, indent=2))
        return
    for line in explain_lines(found.row, found.rubric, found.view):
        click.echo(line)
