"""``polygon callers sample`` and ``polygon callers report``: people review the simulated callers.

The method asks that callers be sampled by hand so they stay realistic. ``sample`` draws
caller turns of a run at random (seeded: the same seed draws the same turns), each with
its context — the persona's type and language, what the agent had just said, what the
caller said, what the agent answered — for a person to mark realistic or not; each mark
is a ``label.caller_turn`` event in the run's labels stream. ``report`` gives the realism
rate per caller type and language with its Wilson 95% interval.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from polygon.app.queries import read_run_labels
from polygon.errors import UnknownIdError, UserInputError
from polygon.events import (
    CallerTurnLabelled,
    ConversationStarted,
    EventLog,
    Pending,
    TurnSpoken,
    keyed,
    labels_stream,
    run_conversations,
    run_stream,
)
from polygon.projections import Rate, wilson
from polygon.recording import StreamRecorder

CALLER_LABEL = "caller-label"
"""Identity kind: ``caller-label:<conversation>:<turn>:<by>``, indexed by earlier marks."""


@dataclass(frozen=True)
class SampledTurn:
    """One caller turn with what a person needs to judge it."""

    conversation_id: str
    turn: int
    caller_type: str
    language: str
    caller_model: str
    goal: str
    before: str
    """What the agent said just before (empty at the opening)."""
    said: str
    intent: str
    after: str
    """What the agent answered."""


def _turns_of(log: EventLog, stream: str) -> list[SampledTurn]:
    started: ConversationStarted | None = None
    caller: dict[int, TurnSpoken] = {}
    agent: dict[int, str] = {}
    for env in log.read_stream(stream):
        p = env.payload
        if isinstance(p, ConversationStarted):
            started = p
        elif isinstance(p, TurnSpoken):
            if p.speaker == "caller":
                caller[p.turn] = p
            else:
                agent[p.turn] = p.text
    if started is None or started.persona is None:
        return []  # an imported call has no simulated caller
    persona = started.persona
    return [
        SampledTurn(
            conversation_id=started.conversation_id,
            turn=turn,
            caller_type=persona.type,
            language=persona.language or "en",
            caller_model=started.caller_model,
            goal=persona.goal,
            before=agent.get(turn - 1, ""),
            said=spoken.text,
            intent=spoken.intent,
            after=agent.get(turn, ""),
        )
        for turn, spoken in sorted(caller.items())
        if spoken.text
    ]


def sample_turns(log: EventLog, run_id: str, n: int, seed: int = 0) -> list[SampledTurn]:
    """``n`` caller turns of the run drawn at random (the same seed draws the same turns)."""
    if n < 1:
        raise UserInputError(f"-n {n}: expected at least 1")
    if not log.stream_length(run_stream(run_id)):
        raise UnknownIdError(f"no run {run_id!r} in the log")
    turns = [t for s in log.streams(run_conversations(run_id)) for t in _turns_of(log, s)]
    if not turns:
        raise UserInputError(f"run {run_id!r} has no simulated caller turns to review")
    return random.Random(f"callers\x00{run_id}\x00{seed}").sample(turns, min(n, len(turns)))


def record_marks(
    log: EventLog,
    run_id: str,
    marks: list[tuple[SampledTurn, bool, str]],
    *,
    by: str,
    now: Callable[[], str],
) -> int:
    """Append a ``label.caller_turn`` event per (turn, realistic, note); returns how many."""
    earlier = read_run_labels(log, run_id).turns_marked(by)
    pending: list[Pending] = []
    for turn, realistic, note in marks:
        recorder = StreamRecorder(
            run_id=run_id, stream=labels_stream(run_id), conversation=turn.conversation_id, seed=0, now=now
        )
        event = CallerTurnLabelled(
            conversation_id=turn.conversation_id,
            turn=turn.turn,
            realistic=realistic,
            caller_type=turn.caller_type,
            language=turn.language,
            caller_model=turn.caller_model,
            by=by,
            note=note,
        )
        key = (turn.conversation_id, turn.turn)
        recorder.emit(
            keyed(CALLER_LABEL, turn.conversation_id, str(turn.turn), by), event, index=earlier[key]
        )
        earlier[key] += 1
        pending.extend(recorder.pending)
    return log.append(pending).written if pending else 0


@dataclass(frozen=True)
class RealismRow:
    """Realism of one caller type in one language."""

    caller_type: str
    language: str
    rate: Rate


def realism(log: EventLog, run_id: str) -> list[RealismRow]:
    """Realism rate per (caller type, language), each turn's latest mark per person counted."""
    if not log.stream_length(run_stream(run_id)):
        raise UnknownIdError(f"no run {run_id!r} in the log")
    latest = read_run_labels(log, run_id).latest_marks()  # in log order: the latest counts
    groups: dict[tuple[str, str], list[bool]] = {}
    for mark in latest.values():
        groups.setdefault((mark.caller_type, mark.language), []).append(mark.realistic)
    return [
        RealismRow(kind, language, wilson(sum(marks), len(marks)))
        for (kind, language), marks in sorted(groups.items())
    ]


def realism_lines(rows: list[RealismRow]) -> list[str]:
    """The report, for people."""
    if not rows:
        return ["no caller turns marked yet (polygon callers sample RUN)"]
    out = [f"{'caller type':<14}{'language':<10}{'marked':>7}{'realistic':>11}   95% CI (Wilson)"]
    for r in rows:
        rate, lo, hi = r.rate.rate or 0.0, r.rate.low or 0.0, r.rate.high or 0.0
        out.append(
            f"{r.caller_type:<14}{r.language:<10}{r.rate.applicable:>7}{100 * rate:>10.0f}%   "
            f"[{100 * lo:.0f}%, {100 * hi:.0f}%]"
        )
    return out
