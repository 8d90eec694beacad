"""``polygon``: the command group, global options and error handling.

Every command parses its arguments, calls one use case from :mod:`polygon.app`, and
renders the result. Errors that are the user's (``PolygonError``) print one line and exit
2; ``--debug`` shows the traceback instead.
"""

from __future__ import annotations

import os

import click

from polygon import __version__
from polygon.app.log import resolve_log_path
from polygon.cli.context import Context
from polygon.errors import PolygonError


class _OneLineError(click.ClickException):
    """A Polygon error shown as one line on stderr, exit code 2."""

    exit_code = PolygonError.exit_code

    def show(self, file: object = None) -> None:
        click.echo(f"error: {self.message}", err=True)


class _PolygonGroup(click.Group):
    """Turns Polygon's own errors into one line and exit code 2 (tracebacks with --debug)."""

    def invoke(self, ctx: click.Context) -> object:
        try:
            return super().invoke(ctx)
        except PolygonError as exc:
            if isinstance(ctx.obj, Context) and ctx.obj.debug:
                raise
            raise _OneLineError(str(exc)) from exc


@click.group(cls=_PolygonGroup, context_settings={"help_option_names": ["-h", "--help"]})
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
    ctx.obj = Context(
        log_path=resolve_log_path(log_path, os.environ),
        debug=debug,
        openai_base_url=os.environ.get("OPENAI_BASE_URL", ""),
        openai_api_key=os.environ.get("OPENAI_API_KEY", ""),
    )


def _register() -> None:
    # One module per command, registered in the order `polygon --help` lists them.
    from polygon.cli import (
        compare_cmd,
        demo_cmd,
        divergence_cmd,
        explain_cmd,
        import_cmd,
        init_cmd,
        judge_cmd,
        log_cmd,
        noise_cmd,
        personas_cmd,
        probe_cmd,
        replay_cmd,
        report_cmd,
        rerun_cmd,
        run_cmd,
        trend_cmd,
    )

    for command in (
        demo_cmd.demo,
        init_cmd.init,
        run_cmd.run,
        judge_cmd.judge,
        report_cmd.report,
        explain_cmd.explain_cmd,
        probe_cmd.probe,
        trend_cmd.trend,
        compare_cmd.compare,
        divergence_cmd.divergence_cmd,
        personas_cmd.personas,
        import_cmd.import_,
        rerun_cmd.rerun,
        replay_cmd.replay,
        noise_cmd.noise,
        log_cmd.log,
    ):
        cli.add_command(command)


_register()


def main(argv: list[str] | None = None) -> None:
    """Entry point of the ``polygon`` command."""
    cli.main(args=argv, prog_name="polygon")
