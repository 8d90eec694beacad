"""``polygon trend``: a probe's compliance across runs."""

from __future__ import annotations

import json

import click

from polygon.cli.context import Context
from polygon.texttable import LEFT, table


@click.command()
@click.argument("probe_id", metavar="PROBE")
@click.option("--config", default=None, help="Only this configuration.")
@click.option("--json", "as_json", is_flag=True)
@click.pass_obj
def trend(obj: Context, probe_id: str, config: str | None, as_json: bool) -> None:
    """A probe's compliance across runs, in log order; a reworded probe starts a new series."""
    from polygon.app import open_log, probe_trend
    from polygon.events import to_builtins

    with open_log(obj.log_path, readonly=True) as log:
        points = probe_trend(log, probe_id, config)
    if as_json:
        click.echo(json.dumps(to_builtins(points), sort_keys=True))
        return
    rows = []
    for p in points:
        r = p.rate
        rate = (
            "n/a"
            if r.rate is None
            else f"{r.rate * 100:.0f}% [{(r.low or 0) * 100:.0f}–{(r.high or 0) * 100:.0f}]"
        )
        rows.append([p.run_id, p.config, rate, f"n={r.applicable} (n/a {r.not_applicable})", p.note])
    columns = [("run", LEFT), ("config", LEFT), ("rate", LEFT), ("calls", LEFT), ("note", LEFT)]
    for line in table(columns, rows):
        click.echo(line)
