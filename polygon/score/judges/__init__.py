"""Judges: the heuristic baseline and the model judge, behind one protocol."""

from __future__ import annotations

from typing import Protocol

from polygon.events.families import CheckRecorded, CriterionScore
from polygon.recording import Sink
from polygon.score.rubric import Rubric
from polygon.transcript import ConversationView


class Judge(Protocol):
    """Scores one repeat of one conversation."""

    name: str
    heuristic: bool

    async def score(
        self,
        view: ConversationView,
        checks: list[CheckRecorded],
        rubric: Rubric,
        repeat: int,
        sink: Sink,
    ) -> tuple[dict[str, CriterionScore], str]:
        """Criterion → score, and the raw answer."""
        ...
