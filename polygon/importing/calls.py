"""What every platform's export comes down to: who said what when, tool calls, their results.

Each platform reader turns its own shape into a flat list of :data:`Item` and how the call
ended; :func:`assemble` makes the turns Polygon records from that list, the same way for
every platform: tool calls paired with results by id (the unpaired ones kept and flagged),
the agent's response latency from the timing the export carries.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from polygon.importing.formats import ImportedTool, ImportedTurn


@dataclass
class Said:
    """An utterance. Times are seconds on one clock per call (from its start, or epoch)."""

    role: str
    """``caller`` or ``agent``."""
    text: str
    start: float | None = None
    end: float | None = None
    latency_ms: float | None = None
    """The platform's own measure of this reply's latency, when it records one."""


@dataclass
class Call:
    """The agent called a tool."""

    call_id: str
    name: str
    arguments: Any


@dataclass
class Result:
    """A tool's answer, linked to its call by id."""

    call_id: str
    name: str
    result: Any
    error: str = ""


Item = Said | Call | Result


@dataclass(frozen=True)
class Ending:
    """How a call ended, mapped onto Polygon's end reasons, with the platform's own value."""

    reason: str
    """caller_done, hangup, transfer, timeout, max_turns, agent_error (or empty: unknown)."""
    by: str
    """caller, agent, engine (the platform) or unknown."""
    source: str
    """The platform's value as exported (``endedReason=customer-ended-call``)."""
    detail: str = ""
    """Transfer destination, error text."""


NO_RESULT = "no result in the export"
NO_CALL = "no call in the export"


def assemble(items: list[Item]) -> list[ImportedTurn]:
    """Turns from a flat list: a caller utterance opens a turn; tools and replies join it."""
    turns: list[ImportedTurn] = []
    pending: dict[str, ImportedTool] = {}
    heard_at: float | None = None  # when the caller last stopped speaking, awaiting a reply
    unplaced: list[str] = []  # the agent's words since its last call: said before the next one
    for item in items:
        if isinstance(item, Said) and item.role == "caller":
            if turns and turns[-1].agent is None and not turns[-1].tools and turns[-1].caller:
                turns[-1].caller = f"{turns[-1].caller} {item.text}"  # one turn said in pieces
            else:
                turns.append(ImportedTurn(caller=item.text))
                unplaced = []
            heard_at = item.end if item.end is not None else item.start
            continue
        if not turns:
            turns.append(ImportedTurn())  # the agent speaks first: its greeting
        turn = turns[-1]
        if isinstance(item, Said):
            if turn.agent is None:
                turn.agent = item.text
                turn.latency_ms = _latency(item, heard_at)
            else:
                turn.agent = f"{turn.agent} {item.text}"
            unplaced.append(item.text)
            heard_at = None
        elif isinstance(item, Call):
            if unplaced:  # said as the agent made this call: heard before it ran
                turn.beside.append((len(turn.tools), " ".join(unplaced)))
                unplaced = []
            tool = ImportedTool(call_id=item.call_id, name=item.name, arguments=item.arguments)
            turn.tools.append(tool)
            pending[item.call_id] = tool
        else:
            answered = pending.pop(item.call_id, None)
            if answered is None:
                turn.tools.append(
                    ImportedTool(
                        call_id=item.call_id,
                        name=item.name,
                        arguments={},
                        result=item.result,
                        error=item.error,
                        unpaired=NO_CALL,
                    )
                )
            else:
                answered.result, answered.error = item.result, item.error
    for tool in pending.values():
        tool.unpaired = NO_RESULT
    return turns


def _latency(said: Said, heard_at: float | None) -> float | None:
    if said.latency_ms is not None:
        return max(0.0, said.latency_ms)
    if heard_at is None or said.start is None:
        return None
    gap = (said.start - heard_at) * 1000
    return round(gap, 3) if gap >= 0 else None  # overlapping speech (a barge-in) is no latency


def text_of(value: Any) -> str:
    """A message's text: a string, or the text parts of a list of parts."""
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        parts = [
            p if isinstance(p, str) else p.get("text", p.get("content", ""))
            for p in value
            if isinstance(p, str | dict)
        ]
        return " ".join(str(p) for p in parts if p)
    return "" if value is None else str(value)


def number(value: Any) -> float | None:
    """A finite number, or None (a bool, a string, NaN are not times)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    as_float = float(value)
    return as_float if as_float == as_float and abs(as_float) != float("inf") else None
