"""``polygon report``: scorecard and verdicts of a run, rebuilt from the log."""

from __future__ import annotations

from pathlib import Path

import click

from polygon.cli.choices import REPORT_FORMATS
from polygon.cli.context import RUN, Context
from polygon.cli.enforce_opts import enforcement_options, exit_if_missed, policy
from polygon.cli.output import write_bytes
from polygon.visible import visible_bytes


@click.command()
@click.argument("run_id", metavar="RUN", type=RUN)
@click.option("--format", "fmt", type=click.Choice(REPORT_FORMATS), default="text", show_default=True)
@click.option("--json", "as_json", is_flag=True, help="Same as --format json.")
@click.option("--junit", "as_junit", is_flag=True, help="Same as --format junit.")
@click.option(
    "--rubric", default=None, help="Rubric version (default: the run's own, the one its suite named)."
)
@click.option("--judge", "judge_name", default=None, help="Report the latest pass by this judge.")
@click.option("--pass", "pass_id", default=None, help="Report this pass (its id, as the report prints it).")
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), help="Write to a file.")
@enforcement_options
@click.pass_obj
def report(
    obj: Context,
    run_id: str,
    fmt: str,
    as_json: bool,
    as_junit: bool,
    rubric: str | None,
    judge_name: str | None,
    pass_id: str | None,
    output: Path | None,
    fail_on: str | None,
    min_pass_rate: float | None,
    allow_inconclusive: bool,
    allow_simulator_errors: bool,
) -> None:
    """Scorecard and verdicts of RUN, rebuilt from the log."""
    from polygon.app import open_log, report_output

    fmt = "json" if as_json else "junit" if as_junit else fmt
    asked = policy(fail_on, min_pass_rate, allow_inconclusive, allow_simulator_errors)
    with open_log(obj.log_path, readonly=True) as log:
        chunks, reasons = report_output(
            log, run_id, fmt, rubric=rubric, pass_id=pass_id, judge=judge_name, asked=asked
        )
        if output is None:
            write_bytes(chunks)
        else:
            with output.open("wb") as out:
                out.writelines(visible_bytes(chunks))  # JUnit stays well-formed XML
    if output is not None:
        click.echo(f"wrote {output}", err=True)
    exit_if_missed(reasons)
