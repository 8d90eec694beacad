"""``polygon replay CONVERSATION``."""

from __future__ import annotations

import json
import sys
from typing import TextIO

import click

from polygon.cli.context import CONVERSATION, Context
from polygon.visible import visible


@click.command()
@click.argument("conversation", type=CONVERSATION)
@click.option(
    "--step",
    is_flag=True,
    help="Wait for a line on stdin before each turn (Enter at a terminal; q or the end of stdin stops).",
)
@click.option("--json", "as_json", is_flag=True, help="The same content as JSON.")
@click.pass_obj
def replay(obj: Context, conversation: str, step: bool, as_json: bool) -> None:
    """Show a call turn by turn from the log.

    What the caller meant, what noise did, what the agent heard, tool calls (arguments,
    validity, results, faults), the replies, and how the call ended. Reads only the log;
    nothing is called again.
    """
    from polygon.app import broken_policies, load_conversation, open_log
    from polygon.render import (
        replay_data,
        replay_ending_lines,
        replay_header_lines,
        replay_policy_lines,
        replay_turn_lines,
    )

    with open_log(obj.log_path, readonly=True) as log:
        view = load_conversation(log, conversation)
        broken = broken_policies(log, conversation)
    if as_json:
        data = replay_data(view, broken)
        click.echo(json.dumps(data, ensure_ascii=False, sort_keys=True, indent=2))
        return
    for line in replay_header_lines(view):
        click.echo(visible(line))
    stdin = sys.stdin
    for shown, t in enumerate(view.turns):
        if step and (why := _stop_reason(stdin)):
            # q, or stdin ended (a pipe ran dry, or Ctrl-D): stop where we are, in one line, not "Aborted!"
            click.echo(f"stopped after {shown} of {len(view.turns)} turns: {why}", err=True)
            return
        for line in replay_turn_lines(t):
            click.echo(visible(line))
    for line in replay_ending_lines(view):
        click.echo(visible(line))
    for line in replay_policy_lines(broken):
        click.echo(visible(line))


def _stop_reason(stdin: TextIO) -> str:
    """Wait for a line on stdin (Enter at a terminal, any line from a pipe).

    Empty to show the next turn; else why to stop: the user typed q, or stdin ended.
    """
    if stdin.isatty():
        click.echo("(Enter for the next turn, q to stop)", nl=False, err=True)
    line = stdin.readline()
    if not line:
        return "stdin ended"
    return f"the user typed {line.strip()}" if line.strip().lower() in ("q", "quit") else ""
