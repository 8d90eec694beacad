"""``polygon probe``: the probe pass over a run."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from polygon.cli.context import RUN, Context, executor_options, pass_concurrency, system_now
from polygon.cli.progress import Reporter, mode

if TYPE_CHECKING:
    from polygon.execute import Executor


@click.command()
@click.argument("run_id", metavar="RUN", type=RUN)
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
@pass_concurrency
@click.option("--base-url", default="", metavar="URL", help="OpenAI-compatible server for openai/… models.")
@executor_options
@click.pass_obj
def probe(
    obj: Context,
    run_id: str,
    probes_file: Path | None,
    answerer: str,
    concurrency: int,
    base_url: str,
    executor: Executor,
) -> None:
    """The probe pass over RUN: yes/no behaviour questions, by detectors or a model.

    Probes never change a composite or a verdict.
    """
    from polygon.app import load_probes, open_log, probe_with
    from polygon.models import ModelHub

    extra = load_probes(probes_file) if probes_file else []
    with open_log(obj.log_path, readonly=False) as log, Reporter("probing", mode()) as shown:
        summary = probe_with(
            log,
            run_id,
            extra=extra,
            answerer_model=answerer,
            hub=ModelHub(obj.model_settings(base_url)),
            now=system_now,
            concurrency=concurrency,
            progress=shown.update,
            executor=executor,
        )
    click.echo(
        f"{summary.probes} probes: {summary.answered} answers recorded, {summary.already} already there"
    )
