"""A run's labels: what people said of its calls and of its simulated callers (a pure fold).

The ``labels/<run>`` stream holds call labels (``label.recorded``) and caller-turn marks
(``label.caller_turn``), in the order they were given; labelling, calibration, an import and
the callers' review read this one fold instead of each scanning the stream.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from polygon.events import CallerTurnLabelled, Envelope, LabelRecorded


@dataclass(frozen=True)
class RunLabels:
    """Every label of a run, in log order."""

    calls: tuple[LabelRecorded, ...] = ()
    caller_turns: tuple[CallerTurnLabelled, ...] = ()

    def latest(self, by: str | None = None) -> dict[str, LabelRecorded]:
        """Each call's latest label (by ``by`` only, when given), keyed by conversation id."""
        return {lab.conversation_id: lab for lab in self.calls if by is None or lab.by == by}

    def given(self) -> Counter[tuple[str, str]]:
        """How many labels each (call, labeller) has."""
        return Counter((lab.conversation_id, lab.by) for lab in self.calls)

    def turns_marked(self, by: str) -> Counter[tuple[str, int]]:
        """How many marks ``by`` gave each (call, caller turn)."""
        return Counter((m.conversation_id, m.turn) for m in self.caller_turns if m.by == by)

    def latest_marks(self) -> dict[tuple[str, int, str], CallerTurnLabelled]:
        """Each (call, caller turn, person)'s latest mark."""
        return {(m.conversation_id, m.turn, m.by): m for m in self.caller_turns}


def fold_run_labels(events: Iterable[Envelope]) -> RunLabels:
    """Fold a run's labels stream (an empty stream: no labels)."""
    calls: list[LabelRecorded] = []
    turns: list[CallerTurnLabelled] = []
    for env in events:
        p = env.payload
        if isinstance(p, LabelRecorded):
            calls.append(p)
        elif isinstance(p, CallerTurnLabelled):
            turns.append(p)
    return RunLabels(tuple(calls), tuple(turns))
