"""Judges: the heuristic baseline and the model judge, behind one protocol."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from polygon.events import CheckRecorded, CriterionScore
from polygon.recording import Sink
from polygon.score.rubric import Rubric
from polygon.transcript import ConversationView


@dataclass(frozen=True)
class JudgeContext:
    """What the call was judged against, beyond the transcript: the agent's prompt and tools."""

    prompt: str | None = None
    """The configuration's prompt as recorded for the run (None: unknown, and the judge is told)."""
    tools: list[dict[str, Any]] = field(default_factory=list)
    """The tool definitions the agent was given."""


class Judge(Protocol):
    """Scores one repeat of one conversation."""

    name: str
    heuristic: bool
    prompt_version: str
    """Recorded with every pass; a new judge prompt is a new pass."""

    async def score(
        self,
        view: ConversationView,
        checks: list[CheckRecorded],
        rubric: Rubric,
        repeat: int,
        sink: Sink,
        context: JudgeContext,
    ) -> tuple[dict[str, CriterionScore], str]:
        """Criterion → score, and the raw answer."""
        ...
