"""``polygon label`` and ``polygon labels import``."""

from __future__ import annotations

from pathlib import Path

import click

from polygon.cli.context import CONVERSATION, Context, system_now
from polygon.errors import UserInputError


@click.command()
@click.argument("conversation", type=CONVERSATION)
@click.argument("verdict", type=click.Choice(["pass", "fail"]))
@click.option(
    "--criterion", "criteria", multiple=True, metavar="NAME=1..5", help="A criterion score (repeatable)."
)
@click.option("--by", default="", metavar="NAME", help="Who labels (default: $USER).")
@click.option("--note", default="", metavar="TEXT", help="Why, in a line.")
@click.pass_obj
def label(
    obj: Context, conversation: str, verdict: str, criteria: tuple[str, ...], by: str, note: str
) -> None:
    """Label CONVERSATION pass or fail (and criteria 1–5): a label stands beside the verdict."""
    from polygon.app import VERDICTS, LabelInput, check_criteria, open_log, record_labels

    scores = {}
    for item in criteria:
        name, sep, value = item.partition("=")
        if not sep:
            raise UserInputError(f"--criterion {item!r}: expected NAME=SCORE (e.g. safety=2)")
        scores[name.strip()] = value
    labelled = LabelInput(
        conversation_id=conversation,
        verdict=VERDICTS[verdict],
        criteria=check_criteria(scores, "--criterion"),
        by=by or obj.user,
        note=note,
    )
    with open_log(obj.log_path, readonly=False) as log:
        record_labels(log, [labelled], now=system_now)
    click.echo(f"labelled {conversation} {verdict}" + (f" ({', '.join(criteria)})" if criteria else ""))


@click.group()
def labels() -> None:
    """Human labels of calls, beside their verdicts (`polygon calibrate` compares them)."""


@labels.command("import")
@click.argument("file", type=click.Path(path_type=Path))
@click.option(
    "--run",
    "run_id",
    default=None,
    metavar="RUN",
    help="Only calls of RUN: ids relative to it, imported source ids, full ids of RUN.",
)
@click.option("--by", default="", metavar="NAME", help="Labeller for rows that name none (default: $USER).")
@click.pass_obj
def import_labels(obj: Context, file: Path, run_id: str | None, by: str) -> None:
    """Import labels from CSV (with a header) or JSONL.

    Columns / keys: conversation (a full id, or relative to --run) or source_id (an imported
    transcript's own id, with --run); verdict (pass/fail) and/or reward (0 failed .. 1
    achieved) and/or criterion scores (a column per criterion, e.g. goal_achievement or
    criterion.safety); by; note. With --run every row must be a call of that run. Nothing is
    recorded unless every row is good.
    """
    from polygon.app import open_log, read_label_file, record_labels

    with open_log(obj.log_path, readonly=False) as log:
        rows = read_label_file(log, file, run_id, by or obj.user)
        written = record_labels(log, rows, now=system_now)
    click.echo(f"{len(rows)} labels read, {written} recorded")
