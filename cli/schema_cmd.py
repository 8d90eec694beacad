"""``polygon schema KIND``: print (or write) the JSON Schema of a suite, rubric or sweep file."""

from __future__ import annotations

from pathlib import Path

import click

from polygon.cli.choices import SCHEMA_KINDS


@click.command()
@click.argument("kind", type=click.Choice(SCHEMA_KINDS))
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), help="Write to a file.")
def schema(kind: str, output: Path | None) -> None:
    """The JSON Schema of a suite, rubric or sweep file (for editors: see docs/reference/)."""
    from polygon.app import schema_text

    text = schema_text(kind)
    if output is None:
        click.echo(text, nl=False)
        return
    output.write_text(text, encoding="utf-8")
    click.echo(f"wrote {output}", err=True)
