"""``polygon``: the command group, global options and error handling.

Every command parses its arguments, calls one use case from :mod:`polygon.app`, and
renders the result. Errors that are the user's (``PolygonError``) print one line and exit
2; ``--debug`` shows the traceback instead.
"""

from __future__ import annotations

import atexit
import gc
import importlib
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import click

from polygon import __version__
from polygon.cli.context import Context
from polygon.errors import PolygonError, WorkInterrupted
from polygon.visible import visible

DEFAULT_LOG_DIR = ".polygon"
"""Where the log lives when neither ``--log`` nor ``POLYGON_LOG`` names one."""


class _OneLineError(click.ClickException):
    """A Polygon error shown as one line on stderr, exit code 2.

    Its control characters are written as escapes (:mod:`polygon.visible`), as in every
    output: an error may quote a suite's name or an agent's words, and a CR or an OSC there
    could overprint or retitle the terminal.
    """

    exit_code = PolygonError.exit_code

    def show(self, file: object = None) -> None:
        click.echo(f"error: {visible(self.message)}", err=True)


class _Interrupted(_OneLineError):
    """Ctrl-C stopped the work: exit 130, as a shell reports an interrupt."""

    exit_code = WorkInterrupted.exit_code


COMMANDS = {
    "demo": "demo_cmd:demo",
    "init": "init_cmd:init",
    "run": "run_cmd:run",
    "judge": "judge_cmd:judge",
    "report": "report_cmd:report",
    "explain": "explain_cmd:explain_cmd",
    "probe": "probe_cmd:probe",
    "trend": "trend_cmd:trend",
    "compare": "compare_cmd:compare",
    "divergence": "divergence_cmd:divergence_cmd",
    "personas": "personas_cmd:personas",
    "scenarios": "scenarios_cmd:scenarios",
    "import": "import_cmd:import_",
    "rerun": "rerun_cmd:rerun",
    "replay": "replay_cmd:replay",
    "noise": "noise_cmd:noise",
    "lint": "lint_cmd:lint",
    "label": "label_cmd:label",
    "labels": "label_cmd:labels",
    "calibrate": "calibrate_cmd:calibrate",
    "callers": "callers_cmd:callers",
    "sweep": "sweep_cmd:sweep",
    "leaderboard": "leaderboard_cmd:leaderboard",
    "log": "log_cmd:log",
    "runs": "runs_cmd:runs",
    "schema": "schema_cmd:schema",
    "serve": "serve_cmd:serve",
}
"""Command → ``module:attribute`` in ``polygon.cli``: one module per command, imported only
when that command runs, so ``polygon --version`` and ``--help`` stay quick."""

SUMMARIES = {
    "callers": "Review the simulated callers by hand: sample turns, mark them, see realism rates.",
    "calibrate": "How far the judge agrees with human labels: κ, accuracy, AUC, ρ, α, best threshold.",
    "compare": "Compare configurations: scorecards, scenarios by spread, divergence, analysis.",
    "demo": "Run a bundled example offline and print what it shows.",
    "divergence": "The first turn at which conversations A and B part, and why.",
    "explain": "Why CONVERSATION got its verdict.",
    "import": "Import production calls as a scored run (JSONL, OpenAI chat, text, voice platforms' exports).",
    "init": "Write a commented starter suite (suite.yaml, prompt.md, my_agent.py) into DIRECTORY.",
    "judge": "(Re)score RUN: checks and the judge.",
    "label": "Label CONVERSATION pass or fail (and criteria 1–5): a label stands beside the verdict.",
    "labels": "Human labels of calls, beside their verdicts (`polygon calibrate` compares them).",
    "leaderboard": "A sweep's points ranked: mean composite, then stability, then speed; ties marked.",
    "lint": "Read a prompt before any call: five axes scored 0–1, offending spans marked.",
    "log": "Inspect the event log itself.",
    "noise": "Show what the agent would hear, and each distortion applied.",
    "personas": "Simulated callers generated from the agent's prompt.",
    "scenarios": "Scenarios drafted from real calls.",
    "probe": "The probe pass over RUN: yes/no behaviour questions, by detectors or a model.",
    "replay": "Show a call turn by turn from the log.",
    "report": "Scorecard and verdicts of RUN, rebuilt from the log.",
    "rerun": "Feed CONVERSATION's caller turns, as heard, to another configuration.",
    "runs": "The runs in the log, newest first: calls, verdicts, rubrics, finished or not.",
    "run": "Simulate every scenario of SUITE against each configuration; print the run id.",
    "schema": "The JSON Schema of a suite, rubric or sweep file (for editors: see docs/reference/).",
    "serve": "The web UI on 127.0.0.1: runs, reports, comparison, replay, explain, prompt editor.",
    "sweep": "Run a sweep: each point a profile and an ordinary run; print the leaderboard.",
    "trend": "A probe's compliance across runs, in log order; a reworded probe starts a new series.",
}
"""What ``polygon --help`` lists for each command, without importing it (a test keeps these
equal to each command's own first help line)."""


class _PolygonGroup(click.Group):
    """Turns Polygon's own errors into one line and exit code 2 (tracebacks with --debug).

    Commands load lazily from :data:`COMMANDS`.
    """

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        limit = formatter.width - 6 - max(len(name) for name in COMMANDS)
        rows = [(name, _shorten(SUMMARIES[name], limit)) for name in self.list_commands(ctx)]
        with formatter.section("Commands"):
            formatter.write_dl(rows)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        ref = COMMANDS.get(cmd_name)
        if ref is None:
            return None
        module, _, attr = ref.partition(":")
        command = getattr(importlib.import_module(f"polygon.cli.{module}"), attr)
        assert isinstance(command, click.Command)
        return command

    def invoke(self, ctx: click.Context) -> object:
        try:
            return super().invoke(ctx)
        except PolygonError as exc:
            if isinstance(ctx.obj, Context) and ctx.obj.debug:
                raise
            shown = _Interrupted if isinstance(exc, WorkInterrupted) else _OneLineError
            raise shown(_named_log(ctx.obj, exc)) from exc
        except Exception as exc:
            if not _from_lmdb(exc) or not isinstance(ctx.obj, Context) or ctx.obj.debug:
                raise
            raise _OneLineError(_lmdb_line(ctx.obj.log_path, exc)) from exc


def _named_log(obj: object, exc: PolygonError) -> str:
    """The error's line, naming the log when a stored record does not decode.

    That is damage, most likely: say which log, and the command that checks it (a record of a
    newer schema says so itself).
    """
    from polygon.events import DecodeError, FutureVersionError  # loaded already if one was raised

    if isinstance(exc, DecodeError) and not isinstance(exc, FutureVersionError) and isinstance(obj, Context):
        return f"{exc} (in the event log {obj.log_path}; `polygon log verify` checks it)"
    return str(exc)


def _from_lmdb(exc: Exception) -> bool:
    """An error LMDB raised that no layer named (``lmdb`` is only looked at if it was imported)."""
    lmdb = sys.modules.get("lmdb")
    return lmdb is not None and isinstance(exc, lmdb.Error)


def _lmdb_line(log: Path, exc: Exception) -> str:
    """One line for an LMDB error that reached the CLI: a backstop, each layer names its own."""
    return f"the event log {log} could not be read: {exc} (it may be damaged: `polygon log verify` checks it)"


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
        log_path=Path(log_path or os.environ.get("POLYGON_LOG") or DEFAULT_LOG_DIR),
        debug=debug,
        openai_base_url=os.environ.get("OPENAI_BASE_URL", ""),
        openai_api_key=os.environ.get("OPENAI_API_KEY", ""),
        model_timeout_s=_timeout(os.environ.get("POLYGON_MODEL_TIMEOUT", "")),
        user=os.environ.get("USER", "") or "someone",
    )


def _shorten(text: str, limit: int) -> str:
    """Click's own shortening of a command's help line (whole words, then "...")."""
    return click.Command(None, help=text).get_short_help_str(limit)


def _timeout(value: str) -> float:
    """``POLYGON_MODEL_TIMEOUT``: seconds per model request attempt (default 60)."""
    if not value:
        return 60.0
    try:
        seconds = float(value)
    except ValueError:
        raise click.UsageError(f"POLYGON_MODEL_TIMEOUT={value!r}: expected seconds, e.g. 120") from None
    if not 1 <= seconds <= 3600:
        raise click.UsageError(f"POLYGON_MODEL_TIMEOUT={value!r}: expected 1 to 3600 seconds")
    return seconds


def main(argv: list[str] | None = None) -> None:
    """Entry point of the ``polygon`` command.

    SIGTERM ends the process at once, as it did, but says so first: a killed run once
    vanished without a word. It is not turned into an exception (a stop at an arbitrary
    bytecode could leave the writer thread waiting forever); ending the process mid-commit is
    what a kill does, and the log keeps every commit whole (``tests/app/test_crash_mid_run.py``).
    Ctrl-C is the long commands' own (``executor_options``, ``polygon.app.stopping``): their
    work stops at a safe point; elsewhere it is Python's ``KeyboardInterrupt``.
    """
    prepare_process()
    cli.main(args=argv, prog_name="polygon")


def prepare_process() -> None:
    """What the ``polygon`` process sets up before its command runs.

    The bench's real starts (``tests/bench/startup.py``) call it too, so that they cost what a
    command's process costs.
    """
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, _terminated)
    # At exit the interpreter's last collections walk every object the command loaded (~0.045 CPU s
    # of a run's ~0.3 s start, issue 31); frozen, they are skipped. What is freed at exit is freed
    # by reference counts as before: the log, its writer and every file are closed by the command
    # itself (context managers), never left to a collection at exit.
    atexit.register(gc.freeze)
    # pydantic looks for plugins when it builds its first validator: it reads the entry points of
    # every installed distribution (~0.005 CPU s with 90 installed, of each command that reads a
    # suite, rubric or probe file, issue 31). Polygon's models need none; whoever wants a plugin in
    # the process (for an agent imported into it) sets the variable, "" keeping every one
    # (docs/commands.md). importlib.metadata itself (~0.02 CPU s) pydantic imports either way.
    os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")


def _terminated(signum: int, frame: object) -> None:
    os.write(2, _SAYS[-1].encode())
    os._exit(128 + signal.SIGTERM)


def terminated_line(way_on: str) -> str:
    """The line SIGTERM writes, ``way_on`` saying how to go on."""
    return f"error: terminated (SIGTERM): every call and score committed is in the log; {way_on}\n"


TERMINATED = terminated_line(
    "if a run had started, `polygon runs` names it unfinished and "
    "`polygon run SUITE --resume RUN` finishes it"
)
"""What SIGTERM says when the command has not said what the way on is (before a run starts, it
cannot know whether one will: a run told to resume one that never started answers "no run")."""
_SAYS = [TERMINATED]


@contextmanager
def on_sigterm_say(way_on: str) -> Iterator[Callable[[str], None]]:
    """While this holds, SIGTERM's line says ``way_on``; the callable it gives changes that.

    ``polygon run`` says "run the suite again" until its ``run.started`` is committed, then the
    resume command with the run's own id.
    """
    _SAYS.append(terminated_line(way_on))

    def say(now: str) -> None:
        _SAYS[-1] = terminated_line(now)

    try:
        yield say
    finally:
        _SAYS.pop()
