"""``polygon callers sample`` and ``polygon callers report``."""

from __future__ import annotations

import click

from polygon.cli.context import RUN, Context, system_now

_ANSWERS = {"y": True, "yes": True, "n": False, "no": False}


@click.group()
def callers() -> None:
    """Review the simulated callers by hand: sample turns, mark them, see realism rates."""


@callers.command("sample")
@click.argument("run_id", metavar="RUN", type=RUN)
@click.option("-n", "count", default=20, show_default=True, help="How many caller turns to draw.")
@click.option("--seed", default=0, show_default=True, help="The draw (the same seed draws the same turns).")
@click.option("--by", default="", metavar="NAME", help="Who marks (default: $USER).")
@click.option("--show", is_flag=True, help="Only show the turns; ask for no marks.")
@click.pass_obj
def sample(obj: Context, run_id: str, count: int, seed: int, by: str, show: bool) -> None:
    """Show caller turns of RUN drawn at random, with context; mark each realistic or not.

    Answer y (realistic), n (not), s (skip) or q (stop); after n, a note in a line (optional).
    Each mark is a label.caller_turn event; `polygon callers report RUN` sums them up.
    """
    from polygon.app import open_log, record_marks, sample_turns

    with open_log(obj.log_path, readonly=show) as log:
        turns = sample_turns(log, run_id, count, seed)
        marks = []
        for i, t in enumerate(turns, start=1):
            click.echo(f"\n[{i}/{len(turns)}] {t.conversation_id} turn {t.turn} · {t.caller_type} caller · "
                       f"{t.language} · {t.caller_model or 'caller'}")
            click.echo(f"  goal:   {t.goal}")
            click.echo(f"  AGENT:  {t.before or '(the call opens)'}")
            click.echo(f"  CALLER: {t.said}    [{t.intent}]")
            if t.after:
                click.echo(f"  AGENT:  {t.after}")
            if show:
                continue
            answer = click.prompt("  realistic? [y/n/s/q]", default="s", show_default=False).strip().lower()
            if answer in ("q", "quit"):
                break
            if answer not in _ANSWERS:
                continue
            note = ""
            if not _ANSWERS[answer]:
                note = click.prompt("  why not (optional)", default="", show_default=False)
            marks.append((t, _ANSWERS[answer], note))
        if marks:
            record_marks(log, run_id, marks, by=by or obj.user, now=system_now)
    if not show:
        click.echo(f"\n{len(marks)} marks recorded")


@callers.command("report")
@click.argument("run_id", metavar="RUN", type=RUN)
@click.pass_obj
def report(obj: Context, run_id: str) -> None:
    """Realism of RUN's callers per type and language (Wilson 95% interval), from the marks."""
    from polygon.app import open_log, realism, realism_lines

    with open_log(obj.log_path, readonly=True) as log:
        for line in realism_lines(realism(log, run_id)):
            click.echo(line)
