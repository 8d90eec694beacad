"""``polygon log stats | verify | export | compact | upgrade``."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

if TYPE_CHECKING:
    from polygon.events import LogStats


from polygon.cli.context import RUN, Context


@click.group()
def log() -> None:
    """Inspect the event log itself."""


@log.command()
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@click.pass_obj
def stats(obj: Context, as_json: bool) -> None:
    """Event counts by tag, streams, sizes."""
    import msgspec

    from polygon.app import log_stats, open_log
    from polygon.events import to_builtins

    with open_log(obj.log_path, readonly=True) as lg:
        result = log_stats(lg)
    if as_json:
        click.echo(msgspec.json.encode(to_builtins(result)).decode())
        return
    click.echo(f"log        {lg.path}")
    click.echo(f"events     {result.events}  (last seq {result.last_seq})")
    click.echo(f"streams    {result.streams}")
    click.echo(f"map size   {result.map_size:,} bytes; file {result.bytes_used:,} bytes")
    for tag, count in result.by_tag.items():
        click.echo(f"  {tag:<32} {count}")
    for line in bytes_lines(result):
        click.echo(line)


def bytes_lines(result: LogStats) -> list[str]:
    """Where the bytes go, per event: each tree's pages, then the records by part."""
    if not result.events or not result.trees:
        return []
    n = result.events
    lines = [f"bytes per event  {result.bytes_used / n:,.0f} in the file; pages of each tree:"]
    trees = sorted(result.trees.items(), key=lambda kv: -kv[1])
    lines += [f"  {name:<32} {size / n:,.0f}" for name, size in trees]
    stored = sum(result.record_parts.values())
    lines.append(f"records          {stored / n:,.0f} per event; by part:")
    parts = sorted(result.record_parts.items(), key=lambda kv: -kv[1])
    lines += [f"  {name:<32} {size / n:,.0f}" for name, size in parts]
    return lines


@log.command()
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@click.pass_obj
def verify(obj: Context, as_json: bool) -> None:
    """Check the log: gapless sequence, every record decodes, indexes agree, calls are whole.

    Exits 1 with the first problem found.
    """
    import msgspec

    from polygon.app import open_log, verify_log
    from polygon.events import to_builtins

    with open_log(obj.log_path, readonly=True) as lg:
        report = verify_log(lg)
    if as_json:
        click.echo(msgspec.json.encode({**to_builtins(report), "ok": report.ok}).decode())
    elif report.ok:
        click.echo(f"ok: {report.events} events in {report.streams} streams")
    else:
        click.echo(f"problem: {report.problem}")
    if not report.ok:
        sys.exit(1)


@log.command()
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Write to this file instead of standard output.",
)
@click.option("--stream-prefix", default="", help="Only streams starting with this (e.g. conv/RUN).")
@click.pass_obj
def export(obj: Context, output: Path | None, stream_prefix: str) -> None:
    """Write events as JSON lines, one event per line (readable by `polygon import`)."""
    from polygon.app import export_jsonl, open_log

    with open_log(obj.log_path, readonly=True) as lg:
        if output is None:
            count = export_jsonl(lg, sys.stdout.buffer, stream_prefix=stream_prefix)
        else:
            with output.open("wb") as fh:
                count = export_jsonl(lg, fh, stream_prefix=stream_prefix)
            click.echo(f"wrote {count} events to {output}", err=True)


@log.command()
@click.option(
    "--drop",
    "drop",
    multiple=True,
    metavar="RUN",
    type=RUN,
    help="A run to leave out (repeatable).",
)
@click.option(
    "--drop-damaged",
    is_flag=True,
    help="Leave out calls that are not whole (`log verify` names them); `run --resume` reruns them.",
)
@click.option(
    "-o", "--output", "output", required=True, type=click.Path(path_type=Path), help="Folder of the new log."
)
@click.pass_obj
def compact(obj: Context, drop: tuple[str, ...], drop_damaged: bool, output: Path) -> None:
    """Write a new, verified log without the dropped runs (the log itself stays append-only)."""
    from polygon.app import compact_log, open_log

    if not drop and not drop_damaged:
        raise click.UsageError("name a run to --drop, or --drop-damaged")
    with open_log(obj.log_path, readonly=True) as log:
        done = compact_log(log, list(drop), output, drop_damaged=drop_damaged)
    what = ", ".join([*drop, *(["damaged calls"] if drop_damaged else [])])
    click.echo(f"{output}: {done.kept} events kept, {done.dropped} dropped ({what}); verified")
    for call in done.damaged:
        click.echo(f"{call} left out: it was not whole (run --resume runs it again)", err=True)
    for sweep in done.sweeps:
        click.echo(f"sweep {sweep} dropped too: one of its points is a dropped run", err=True)
    click.echo(f"use it with --log {output} (or POLYGON_LOG); the old log is untouched", err=True)


@log.command()
@click.argument("source", type=click.Path(path_type=Path))
@click.option(
    "-o", "--output", "output", required=True, type=click.Path(path_type=Path), help="Folder of the new log."
)
def upgrade(source: Path, output: Path) -> None:
    """Copy a format-1 log into a new format-2 log, then check every event reads back equal.

    Format 2 is what new logs are written in (smaller: binary hashes, interned streams,
    compressed payloads). SOURCE is only read.
    """
    from polygon.app import upgrade_log

    done = upgrade_log(source, output)
    click.echo(
        f"{output}: {done.events} events in format 2, every one read back equal; "
        f"{done.bytes_before:,} → {done.bytes_after:,} bytes"
    )
    click.echo(f"use it with --log {output} (or POLYGON_LOG); the old log is untouched", err=True)
