"""``polygon explain``: why one call got its verdict, rebuilt from the log."""

from __future__ import annotations

from dataclasses import dataclass

from polygon.app.replay import load_conversation
from polygon.app.report import load_run, run_of
from polygon.events import EventLog
from polygon.events.families import RubricRecorded
from polygon.projections.explain import explain
from polygon.projections.verdicts import ConversationVerdict
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
    """Everything ``explain`` shows for ``conversation`` (newest rubric and latest pass by default)."""
    state = load_run(log, run_of(log, conversation))
    view = load_conversation(log, conversation)
    row, used = explain(state, conversation, rubric, pass_id=pass_id, judge=judge)
    return Explanation(row, used, view)
