"""``polygon``: the command group, global options and error handling.

Every command parses its arguments, calls one use case from :mod:`polygon.app`, and
renders the result. Errors that are the user's (``PolygonError``) print one line and exit
2; ``--debug`` shows the traceback instead.
"""

from __future__ import annotations

import os
import sys

import click
from polygon.cli.context import Context
from polygon.events.errors import PolygonError

from polygon import __version__
from polygon.app.logs import resolve_log_path


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--log",
    "log_path",
    metavar="PATH",
    default=None,
    help="Event log directory (default: $POLYGON_LOG, else .polygon/ here).",
)
@click.option("--debug", is_flag=True, help="Show tracebacks instead of one-line errors.")
@click.version_option(__version__, prog_name="polygon")
@click.pass_context
def cli(ctx: click.Context, log_path: str | None, debug: bool) -> None:
    """Polygon tests phone (voice) AI agents by simulating whole calls.

    Every turn, noise injection, tool call, judge score and probe answer is an event in an
    append-only log; every report is rebuilt from that log.
    """
    ctx.obj = Context(log_path=resolve_log_path(log_path, os.environ), debug=debug)


def _register() -> None:
    from polygon.cli import demo_cmd, init_cmd, log_cmd, noise_cmd, replay_cmd, run_cmd

    for command in (
        demo_cmd.demo,
        init_cmd.init,
        run_cmd.run,
        replay_cmd.replay,
        noise_cmd.noise,
        log_cmd.log,
    ):
        cli.add_command(command)


_register()


def main(argv: list[str] | None = None) -> None:
    """Entry point: run the CLI, turning Polygon errors into one line and exit code 2."""
    debug = "--debug" in (argv if argv is not None else sys.argv[1:])
    try:
        cli.main(args=argv, prog_name="polygon", standalone_mode=False)
    except PolygonError as exc:
        if debug:
            raise
        click.echo(f"error: {exc}", err=True)
        sys.exit(exc.exit_code)
    except click.exceptions.Abort:
        click.echo("aborted", err=True)
        sys.exit(130)
    except click.ClickException as exc:
        exc.show()
        sys.exit(2)
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
