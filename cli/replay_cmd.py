"""``polygon replay CONVERSATION``."""

from __future__ import annotations

import json

import click

from polygon.app.log import open_log
from polygon.app.replay import broken_policies, load_conversation
from polygon.cli.context import CONVERSATION, Context
from polygon.events import to_builtins
from polygon.projections.replay import as_data, ending_lines, header_lines, policy_lines, turn_lines


@click.command()
@click.argument("conversation", type=CONVERSATION)
@click.option("--step", is_flag=True, help="Wait for Enter between turns.")
@click.option("--json", "as_json", is_flag=True, help="The same content as JSON.")
@click.pass_obj
def replay(obj: Context, conversation: str, step: bool, as_json: bool) -> None:
    """Show a call turn by turn from the log.

    What the caller meant, what noise did, what the agent heard, tool calls (arguments,
    validity, results, faults), the replies, and how the call ended. Reads only the log;
    nothing is called again.
    """
    with open_log(obj.log_path, readonly=True) as log:
        view = load_conversation(log, conversation)
        broken = broken_policies(log, conversation)
    if as_json:
        data = as_data(view)
        if broken:
            data["broken_policies"] = to_builtins(broken)
        click.echo(json.dumps(data, ensure_ascii=False, sort_keys=True, indent=2))
        return
    for line in header_lines(view):
        click.echo(line)
    for t in view.turns:
        if step:
            click.prompt("", default="", show_default=False, prompt_suffix="(Enter for the next turn)")
        for line in turn_lines(t):
            click.echo(line)
    for line in ending_lines(view):
        click.echo(line)
    for line in policy_lines(broken, view):
        click.echo(line)
