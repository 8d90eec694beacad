"""``polygon divergence``: the first turn at which two calls part."""

from __future__ import annotations

import json

import click

from polygon.cli.context import CONVERSATION, Context


@click.command(name="divergence")
@click.argument("a", type=CONVERSATION)
@click.argument("b", type=CONVERSATION)
@click.option("--json", "as_json", is_flag=True)
@click.pass_obj
def divergence_cmd(obj: Context, a: str, b: str, as_json: bool) -> None:
    """The first turn at which conversations A and B part, and why."""
    from polygon.app import divergence_between, open_log
    from polygon.events import to_builtins

    with open_log(obj.log_path, readonly=True) as log:
        found = divergence_between(log, a, b)
    if as_json:
        click.echo(
            json.dumps({"a": a, "b": b, "divergence": to_builtins(found)}, sort_keys=True, ensure_ascii=False)
        )
        return
    if found is None:
        click.echo(f"{a} and {b} never part: same speakers, tools, endings and wording throughout")
        return
    click.echo(f"turn {found.turn} ({found.speaker}): {found.reason} — {found.detail}")
    click.echo(f"  A {a}: {found.a_text or '(call over)'}")
    click.echo(f"  B {b}: {found.b_text or '(call over)'}")
