"""The conversation head: what a call's stream says about it besides its words (a pure fold).

The turns are the transcript's (``polygon.transcript.build``); this fold answers the questions
the passes and commands ask of a call — how it ended, which scoring passes and probe answers
it already holds, which policies its latest checks failed — in one read instead of each
scanning the stream for the event it needs.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from polygon.events import (
    CheckRecorded,
    ConversationEnded,
    ConversationStarted,
    Envelope,
    JudgeScored,
    ProbeAnswered,
)

POLICY_CHECK = "policy:"
"""The prefix of a suite policy's check name (``policy:<id>``)."""


@dataclass(frozen=True)
class ConversationHead:
    """A call's start and the facts recorded on its stream since."""

    started: ConversationStarted
    ended: ConversationEnded | None = None
    """The first ``conversation.ended``; None while the call is unfinished."""
    passes: frozenset[str] = frozenset()
    """The scoring passes (``pass_id``) that scored the call."""
    probe_answers: frozenset[tuple[str, str, str]] = frozenset()
    """``(probe_id, probe_hash, answered_by)`` of every probe answer the call holds."""
    policies: Mapping[str, CheckRecorded] = field(default_factory=dict)
    """Each suite policy's latest check (by check name), in the order first checked."""

    def broken_policies(self) -> list[CheckRecorded]:
        """The policies whose latest check failed."""
        return [c for c in self.policies.values() if c.outcome == "fail"]


def fold_conversation_head(events: Iterable[Envelope]) -> ConversationHead | None:
    """Fold a conversation stream; None when it does not open with ``conversation.started``.

    Polygon writes ``conversation.started`` first on every call's stream, so a stream that
    opens otherwise is not a call (or is one an older Polygon left with a hole).
    """
    found = iter(events)
    first = next(found, None)
    if first is None or not isinstance(first.payload, ConversationStarted):
        return None
    ended: ConversationEnded | None = None
    passes: set[str] = set()
    answers: set[tuple[str, str, str]] = set()
    policies: dict[str, CheckRecorded] = {}
    for env in found:
        p = env.payload
        if isinstance(p, JudgeScored):
            passes.add(p.pass_id)
        elif isinstance(p, ProbeAnswered):
            answers.add((p.probe_id, p.probe_hash, p.answered_by))
        elif isinstance(p, CheckRecorded):
            if p.check.startswith(POLICY_CHECK):
                policies[p.check] = p  # in log order: the latest pass's check counts
        elif isinstance(p, ConversationEnded) and ended is None:
            ended = p
    return ConversationHead(first.payload, ended, frozenset(passes), frozenset(answers), policies)
