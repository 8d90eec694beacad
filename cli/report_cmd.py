"""``polygon report``: scorecard and verdicts of a run, rebuilt from the log."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from polygon.app.log import open_log
from polygon.app.report import enforce, load_run
from polygon.cli.context import Context
from polygon.projections.report import (
    make_report,
    render_html,
    render_json,
    render_junit,
    render_text,
)

RENDERERS = {"text": render_text, "json": render_json, "junit": render_junit, "html": render_html}
FAIL_ON = click.Choice(["fail", "warn"])


@click.command()
@click.argument("run_id", metavar="RUN")
@click.option("--format", "fmt", type=click.Choice(sorted(RENDERERS)), default="text", show_default=True)
@click.option("--json", "as_json", is_flag=True, help="Same as --format json.")
@click.option("--junit", "as_junit", is_flag=True, help="Same as --format junit.")
@click.option("--rubric", default=None, help="Rubric version to report (needed if the run has several).")
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), help="Write to a file.")
@click.option(
    "--fail-on",
    type=FAIL_ON,
    default=None,
    help="Exit 1 if any conversation fails (or, with warn, fails or warns).",
)
@click.pass_obj
def report(
    obj: Context,
    run_id: str,
    fmt: str,
    as_json: bool,
    as_junit: bool,
    rubric: str | None,
    output: Path | None,
    fail_on: str | None,
) -> None:
    """Scorecard and verdicts of RUN, rebuilt from the log."""
    fmt = "json" if as_json else "junit" if as_junit else fmt
    with open_log(obj.log_path, readonly=True) as log:
        result = make_report(load_run(log, run_id), rubric)
    text = RENDERERS[fmt](result)
    if output is None:
        click.echo(text, nl=False)
    else:
        output.write_text(text, encoding="utf-8")
        click.echo(f"wrote {output}", err=True)
    if enforce(result, fail_on):
        sys.exit(1)
