"""``polygon serve``: the local web UI."""

from __future__ import annotations

from pathlib import Path

import click

from polygon.cli.context import Context
from polygon.errors import UserInputError


@click.command()
@click.option("--port", type=click.IntRange(1, 65535), default=8765, show_default=True)
@click.option(
    "--suite",
    "suites",
    multiple=True,
    type=click.Path(path_type=Path),
    help="A suite whose prompts the editor may open and save beside (repeatable).",
)
@click.pass_obj
def serve(obj: Context, port: int, suites: tuple[Path, ...]) -> None:
    """The web UI on 127.0.0.1: runs, reports, comparison, replay, explain, prompt editor.

    Reads the log read-only while runs write; the one write is saving a prompt as a new file
    beside a suite given with --suite. Stop with Ctrl-C.
    """
    try:
        import uvicorn

        from polygon.web import make_app
    except ImportError:
        raise UserInputError("the web UI needs the optional extra: pip install 'polygon-eval[web]'") from None
    resolved = []
    for s in suites:
        path = s / "suite.yaml" if s.is_dir() else s
        if not path.is_file():
            raise UserInputError(f"--suite {s}: no suite file there")
        resolved.append(path)
    click.echo(f"Polygon on http://127.0.0.1:{port}/ (log {obj.log_path}); Ctrl-C stops it", err=True)
    uvicorn.run(make_app(obj.log_path, resolved, port=port), host="127.0.0.1", port=port, log_level="warning")
