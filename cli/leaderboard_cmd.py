"""``polygon leaderboard SWEEP``."""

from __future__ import annotations

import click

from polygon.cli.context import Context


@click.command()
@click.argument("sweep_id", metavar="SWEEP")
@click.option(
    "--format", "fmt", type=click.Choice(["text", "json", "html"]), default="text", show_default=True
)
@click.option(
    "--rubric",
    default=None,
    metavar="V",
    help="Rubric version (default: the first point's own if all share it, else the newest shared).",
)
@click.pass_obj
def leaderboard(obj: Context, sweep_id: str, fmt: str, rubric: str | None) -> None:
    """A sweep's points ranked: mean composite, then stability, then speed; ties marked."""
    from polygon.app import open_log, sweep_leaderboard
    from polygon.render import leaderboard_html, leaderboard_json, leaderboard_lines

    with open_log(obj.log_path, readonly=True) as log:
        board = sweep_leaderboard(log, sweep_id, rubric)
    if fmt == "json":
        click.echo(leaderboard_json(board), nl=False)
    elif fmt == "html":
        click.echo(leaderboard_html(board), nl=False)
    else:
        for line in leaderboard_lines(board):
            click.echo(line)
