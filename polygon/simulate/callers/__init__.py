"""The simulated caller: the :class:`Caller` port and what a caller says (:class:`Utterance`).

Implementations: ``scripted`` (offline, deterministic), ``model`` (a model plays the persona),
``replay`` (a logged call's caller turns, as heard).
"""

from __future__ import annotations

from collections.abc import Awaitable
from dataclasses import dataclass
from typing import Protocol, runtime_checkable


@dataclass(frozen=True)
class Utterance:
    """One caller turn."""

    text: str
    intent: str
    ends_call: str = ""
    """``hangup`` (the caller hangs up) or ``done`` (caller says goodbye, goal settled)."""


class CallerError(Exception):
    """The simulated caller cannot go on (its model is unreachable): the simulator's fault.

    The engine ends the call as ``simulator_error``, which never counts against the agent.
    """


class Caller(Protocol):
    """The simulated caller: scripted (sync) or model-driven (async)."""

    def next(self, agent_text: str | None) -> Utterance | Awaitable[Utterance]:
        """The caller's next turn given what the agent last said; raises :class:`CallerError`."""
        ...


@runtime_checkable
class HearsCuts(Protocol):
    """A caller told when it cut in on the agent (a phone barge-in) and heard only a fragment.

    The engine tells it before asking for the turn; a caller without it just gets the fragment.
    """

    def heard_cut(self) -> None:
        """The next ``agent_text`` is only the start of what the agent said."""
        ...
