"""``polygon compare``: configurations side by side."""

from __future__ import annotations

import click

from polygon.cli.context import RUN, Context


@click.command()
@click.argument("runs", nargs=-1, required=True, metavar="RUN [RUN…]", type=RUN)
@click.option(
    "--rubric",
    default=None,
    help="Rubric version (default: the first run's own if all share it, else the newest shared).",
)
@click.option("--config", "configs", multiple=True, metavar="NAME", help="Only these configurations.")
@click.option(
    "--allow-mixed",
    is_flag=True,
    help="Compare sides that differ in caller, judge, noise or language (said in the header).",
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "json", "markdown"]),
    default="text",
    show_default=True,
    help="markdown: for a pull-request comment or a CI step summary.",
)
@click.option("--json", "as_json", is_flag=True, help="Same as --format json.")
@click.pass_obj
def compare(
    obj: Context,
    runs: tuple[str, ...],
    rubric: str | None,
    configs: tuple[str, ...],
    allow_mixed: bool,
    fmt: str,
    as_json: bool,
) -> None:
    """Compare configurations: scorecards, scenarios by spread, divergence, analysis.

    Give two or more runs, or one run with several configurations. The first configuration
    is the baseline. Scores of different rubric versions are never mixed; sides that differ
    in caller, judge or noise settings are refused unless --allow-mixed.
    """
    from polygon.app import compare_output, open_log
    from polygon.cli.output import write_bytes

    with open_log(obj.log_path, readonly=True) as log:
        chunks = compare_output(
            log, runs, "json" if as_json else fmt, rubric=rubric, configs=configs, allow_mixed=allow_mixed
        )
        write_bytes(chunks)
