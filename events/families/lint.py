"""Prompt lint results: one ``lint/<prompt hash>`` stream per prompt text."""

from __future__ import annotations

import msgspec

from polygon.events.registry import Event, event_type


class LintMark(msgspec.Struct, frozen=True, kw_only=True):
    """One marked span of the prompt: where, on which axis, and why."""

    axis: str
    """``overload``, ``diluted_attention``, ``contradiction``, ``ambiguity`` or ``redundancy``."""
    start: int
    """Character offset of the span's first character in the prompt text."""
    end: int
    """Character offset just past the span."""
    reason: str
    """One line a prompt author can act on."""
    strength: float = 1.0
    """How strongly this span alone speaks for the axis, 0..1."""
    related: tuple[int, int] | None = None
    """The other span of a pair (contradiction, redundancy, scatter), when there is one."""


@event_type(version=1)
class PromptLinted(Event, frozen=True, kw_only=True, tag="prompt.linted"):
    """One tier read one prompt; identity (prompt hash, tier, model) makes it a cache entry."""

    prompt_hash: str
    """Content hash of the prompt text (the same hash ``run.started`` records per configuration)."""
    tier: str
    """``rules``, ``surprisal``, ``embeddings`` or ``judge``."""
    model: str
    """What read it: the rule set's version, or the model's identity."""
    language: str
    """``en``, ``ru`` or ``hr``."""
    scores: dict[str, float]
    """Axis → 0..1, higher is worse (axes this tier does not read are absent)."""
    marks: list[LintMark] = []
    """The spans behind the scores."""
    error: str = ""
    """Why the tier could not read the prompt (a recorded fault: no scores then)."""
