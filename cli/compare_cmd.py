"""``polygon compare``, ``polygon divergence``, ``polygon probe``, ``polygon trend``."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from polygon.app.compare import compare_runs, divergence_of
from polygon.app.log import open_log
from polygon.app.probe import load_probes, probe_with
from polygon.app.report import run_events
from polygon.cli.context import Context, system_now
from polygon.cli.run_cmd import _progress
from polygon.compare.divergence import find_divergence
from polygon.errors import UserInputError
from polygon.events import to_builtins
from polygon.events.streams import RUN_PREFIX, run_of_stream
from polygon.models.hub import ModelHub
from polygon.projections import probes as probe_fold
from polygon.projections.compare_render import comparison_json, comparison_lines


@click.command()
@click.argument("runs", nargs=-1, required=True, metavar="RUN [RUN…]")
@click.option("--rubric", default=None, help="Rubric version (needed if a run was judged under several).")
@click.option("--config", "configs", multiple=True, metavar="NAME", help="Only these configurations.")
@click.option("--json", "as_json", is_flag=True)
@click.pass_obj
def compare(
    obj: Context, runs: tuple[str, ...], rubric: str | None, configs: tuple[str, ...], as_json: bool
) -> None:
    """Compare configurations: scorecards, scenarios by spread, divergence, analysis.

    Give two or more runs, or one run with several configurations. The first configuration
    is the baseline. Runs judged under different rubric versions are refused.
    """
    with open_log(obj.log_path, readonly=True) as log:
        result = compare_runs(log, runs, rubric=rubric, configs=configs)
    if as_json:
        click.echo(comparison_json(result), nl=False)
        return
    for line in comparison_lines(result):
        click.echo(line)


@click.command()
@click.argument("a")
@click.argument("b")
@click.option("--json", "as_json", is_flag=True)
@click.pass_obj
def divergence(obj: Context, a: str, b: str, as_json: bool) -> None:
    """The first turn at which conversations A and B part, and why."""
    with open_log(obj.log_path, readonly=True) as log:
        view_a, view_b = divergence_of(log, a, b)
    found = find_divergence(view_a, view_b)
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


@click.command()
@click.argument("run_id", metavar="RUN")
@click.option(
    "--probes",
    "probes_file",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="A YAML list of extra probes (id, question, polarity, detector or keywords).",
)
@click.option(
    "--answerer",
    default="scripted/detector",
    show_default=True,
    help="scripted/detector (offline detectors) or a model reference.",
)
@click.option("--base-url", default="", metavar="URL", help="OpenAI-compatible server for openai/… models.")
@click.pass_obj
def probe(obj: Context, run_id: str, probes_file: Path | None, answerer: str, base_url: str) -> None:
    """The probe pass over RUN: yes/no behaviour questions, by detectors or a model.

    Probes never change a composite or a verdict.
    """
    extra = load_probes(probes_file) if probes_file else []
    with open_log(obj.log_path, readonly=False) as log, _progress(sys.stderr.isatty()) as bar:
        task = bar.add_task("probing", total=None)
        summary = probe_with(
            log,
            run_id,
            extra=extra,
            answerer_model=answerer,
            hub=ModelHub(obj.model_settings(base_url)),
            now=system_now,
            progress=lambda done, total: bar.update(task, completed=done, total=total),
        )
    click.echo(
        f"{summary.probes} probes: {summary.answered} answers recorded, {summary.already} already there"
    )


@click.command()
@click.argument("probe_id", metavar="PROBE")
@click.option("--config", default=None, help="Only this configuration.")
@click.option("--json", "as_json", is_flag=True)
@click.pass_obj
def trend(obj: Context, probe_id: str, config: str | None, as_json: bool) -> None:
    """A probe's compliance across runs, in log order; a reworded probe starts a new series."""
    with open_log(obj.log_path, readonly=True) as log:
        runs = sorted({run_of_stream(s) for s in log.streams(RUN_PREFIX)})
        tables = [(r, probe_fold.build(run_events(log, r))) for r in runs]
    points = probe_fold.trend(tables, probe_id, config)
    if not points:
        raise UserInputError(f"no answers for probe {probe_id!r} in the log")
    if as_json:
        click.echo(json.dumps(to_builtins(points), sort_keys=True))
        return
    for p in points:
        r = p.rate
        rate = (
            "n/a"
            if r.rate is None
            else f"{r.rate * 100:.0f}% [{(r.low or 0) * 100:.0f}–{(r.high or 0) * 100:.0f}]"
        )
        note = f"  ← {p.note}" if p.note else ""
        click.echo(f"{p.run_id:<12}{p.config:<10}{rate:<18} n={r.applicable} (n/a {r.not_applicable}){note}")
