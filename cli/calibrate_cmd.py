"""``polygon calibrate RUN…``."""

from __future__ import annotations

import json
import sys
from typing import Any

import click

from polygon.cli.context import RUN, Context


def _finite(low: float, high: float) -> click.FloatRange:
    """A float range that refuses NaN (which compares false with both ends, so passes a range)."""

    class Finite(click.FloatRange):
        def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> float:
            number = super().convert(value, param, ctx)
            if number != number:
                self.fail(f"{value!r} is not a number in [{low:g}, {high:g}]", param, ctx)
            return number

    return Finite(low, high)


@click.command()
@click.argument("runs", nargs=-1, required=True, metavar="RUN…", type=RUN)
@click.option(
    "--rubric",
    default=None,
    metavar="V",
    help="Rubric version (default: the first run's own if all share it, else the newest shared).",
)
@click.option(
    "--judge",
    "judge_pass",
    default=None,
    metavar="PASS",
    help="One judge pass (default: each call's latest).",
)
@click.option("--by", default=None, metavar="NAME", help="Only this labeller's labels.")
@click.option(
    "--reward-pass-at",
    type=_finite(0, 1),
    default=0.5,
    show_default=True,
    help="A reward at or above counts as pass.",
)
@click.option(
    "--min-kappa",
    type=_finite(-1, 1),
    default=None,
    metavar="X",
    help="Exit 1 when Cohen's κ is below X (or undefined).",
)
@click.option("--json", "as_json", is_flag=True)
@click.pass_obj
def calibrate(
    obj: Context,
    runs: tuple[str, ...],
    rubric: str | None,
    judge_pass: str | None,
    by: str | None,
    reward_pass_at: float,
    min_kappa: float | None,
    as_json: bool,
) -> None:
    """How far the judge agrees with human labels: κ, accuracy, AUC, ρ, α, best threshold."""
    from polygon.app import calibrate_runs, open_log
    from polygon.render import calibration_data, calibration_lines

    with open_log(obj.log_path, readonly=True) as log:
        result = calibrate_runs(
            log, runs, rubric=rubric, judge_pass=judge_pass, by=by, reward_pass_at=reward_pass_at
        )
    if as_json:
        click.echo(json.dumps(calibration_data(result), sort_keys=True))
    else:
        for line in calibration_lines(result):
            click.echo(line)
    if min_kappa is not None:
        kappa = result.kappa.value
        if kappa is None or kappa < min_kappa:
            shown = "undefined" if kappa is None else f"{kappa:.2f}"
            click.echo(f"calibrate: Cohen's κ {shown} is below --min-kappa {min_kappa}", err=True)
            sys.exit(1)
