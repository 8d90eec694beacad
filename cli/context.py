"""The object every command receives: global options, resolved once at the CLI edge."""

from __future__ import annotations

import functools
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

if TYPE_CHECKING:  # the hub (and what it imports) loads only when a command asks for a model
    from polygon.models import ModelSettings


@dataclass(frozen=True)
class Context:
    """Options shared by every command (the environment is read here, once)."""

    log_path: Path
    debug: bool
    openai_base_url: str = ""
    openai_api_key: str = field(default="", repr=False)
    model_timeout_s: float = 60.0
    user: str = "someone"
    """Who labels by default (``$USER``)."""

    def model_settings(self, base_url: str = "", cache: bool = False) -> ModelSettings:
        """Flags win over the suite's setting, which wins over the environment."""
        from polygon.models import ModelSettings

        return ModelSettings(
            base_url=base_url or self.openai_base_url,
            api_key=self.openai_api_key,
            cache=cache,
            timeout_s=self.model_timeout_s,
        )


_SHOWN: list[tuple[int, str]] = [(-1, "")]


def system_now() -> str:
    """UTC now, ISO-8601 to the second: the one clock, read at the CLI edge for display.

    Every event reads it, so a second's text is formatted once.
    """
    second = int(time.time())
    if _SHOWN[0][0] != second:
        _SHOWN[0] = (second, time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(second)))
    return _SHOWN[0][1]


pass_concurrency = click.option(
    "--concurrency",
    type=click.IntRange(1, 256),
    default=8,
    show_default=True,
    help="Conversations in flight at once (a model judge or answerer waits on its server).",
)
"""The ``--concurrency`` of the model passes (``judge``, ``probe``)."""


def executor_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """``--executor local|ray`` and ``--ray-address``: the command gets the executor, made once.

    The executor is made before the command runs and closed after it (a local Ray started
    here stops with the command), so no use case chooses or closes one itself.

    These are the commands that do long work (run, judge, probe, sweep, rerun): from start
    to end a Ctrl-C never raises where it lands (``polygon.app.stopping``). The work stops
    at its next safe point and says what the log kept, exit 130; a second Ctrl-C ends the
    process at once, even as it exits. One landing after the work (while the result prints)
    lets it finish; one as the process then exits is Python's own (every commit made).
    """

    @functools.wraps(command)
    def chosen(*args: Any, executor: str, ray_address: str, **kwargs: Any) -> Any:
        from polygon.app import stoppable
        from polygon.execute import make_executor  # loads only when a command runs

        with stoppable(until_exit=True):
            made = make_executor(executor, ray_address)
            try:
                return command(*args, executor=made, **kwargs)
            finally:
                made.close()

    with_address = click.option(
        "--ray-address",
        default="",
        metavar="ADDRESS",
        help="With --executor ray: a cluster (auto, or host:port); default: a local Ray started here.",
    )(chosen)
    return click.option(
        "--executor",
        type=click.Choice(["local", "ray"]),
        default="local",
        show_default=True,
        help="Where calls run: this process, or Ray tasks (this process still writes the log).",
    )(with_address)


class _LogRef(click.ParamType[str, Any]):
    """An id resolved against the log at the CLI edge: ``latest``, ``latest~N``, a prefix."""

    def __init__(self, kind: str) -> None:
        self.name = kind
        self._kind = kind

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> str:
        from polygon.app import open_log, resolve_conversation, resolve_run

        text = str(value)
        obj = ctx.find_object(Context) if ctx is not None else None
        if obj is None or not (obj.log_path / "data.mdb").exists():
            return text  # no log yet: the command names the problem itself
        with open_log(obj.log_path, readonly=True) as log:
            return resolve_run(log, text) if self._kind == "run" else resolve_conversation(log, text)


RUN = _LogRef("run")
"""A run id (``latest``, ``latest~1``, a unique prefix)."""
CONVERSATION = _LogRef("conversation")
"""A conversation id (a unique prefix; ``latest.CONFIG.SCENARIO.TRIAL``)."""
