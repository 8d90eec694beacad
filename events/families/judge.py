"""Judge events: the scores of one judge repeat under one rubric version."""

from __future__ import annotations

import msgspec

from polygon.events.registry import Event, event_type


class CriterionScore(msgspec.Struct, frozen=True, kw_only=True):
    """One criterion as the judge answered it, after parsing."""

    status: str
    """``scored``, ``missing`` (absent: counts as 1) or ``unscored`` (unreadable)."""
    score: int | None = None
    """1–5 when scored."""
    evidence: str = ""
    """Quote from the transcript."""
    raw: str = ""
    """The raw value when it was unreadable."""
    reason: str = ""
    """The judge's one-sentence reason for the score (model judges from prompt judge-2 on)."""


@event_type(version=1)
class JudgeScored(Event, frozen=True, kw_only=True, tag="judge.scored"):
    """One judge repeat over one conversation."""

    conversation_id: str
    """Conversation id."""
    rubric_version: str
    """Rubric version (``v1``, ``v2`` …)."""
    rubric_hash: str
    """Content hash of the rubric file used."""
    judge: str
    """Judge model reference (``scripted/heuristic`` is a heuristic baseline, not a model)."""
    repeat: int
    """Repeat number, from 0."""
    scores: dict[str, CriterionScore]
    """Criterion id → parsed score."""
    raw: str = ""
    """The judge's raw answer, kept even when it did not parse."""
    heuristic: bool = False
    """True for the offline heuristic judge."""
    pass_id: str = ""
    """Separates judging passes of one run (each ``polygon judge`` is a new pass)."""
    prompt_version: str = ""
    """The judge prompt's version (empty: before versions were recorded); a new prompt is a
    new pass, so passes judged under an older prompt stay as they were."""
