"""``polygon explain``: why one call got its verdict, rebuilt from the log."""

from __future__ import annotations

from dataclasses import dataclass

from polygon.app.queries import run_recorded_for
from polygon.app.replay import load_conversation
from polygon.events import EventLog, RubricRecorded, conversation_stream, run_stream
from polygon.projections import ConversationVerdict, build_explanation, build_run_record
from polygon.transcript import ConversationView


@dataclass(frozen=True)
class Explanation:
    """The verdict row, the rubric it was computed with, and the call itself (for quotes)."""

    row: ConversationVerdict
    rubric: RubricRecorded
    view: ConversationView


def explain_conversation(
    log: EventLog,
    conversation: str,
    rubric: str | None,
    *,
    pass_id: str | None = None,
    judge: str | None = None,
) -> Explanation:
    """Everything ``explain`` shows for ``conversation`` (the run's own rubric and latest pass by default)."""
    run_id = run_recorded_for(log, conversation)
    # The run's own stream (rubrics) and this call's stream only: not the whole run.
    events = [*log.read_stream(run_stream(run_id)), *log.read_stream(conversation_stream(conversation))]
    state = build_run_record(run_id, events)
    view = load_conversation(log, conversation)
    row, used = build_explanation(state, conversation, rubric, pass_id=pass_id, judge=judge)
    return Explanation(row, used, view)
