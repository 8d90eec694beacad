"""Rubric events: the rubric itself, recorded once per run and version.

So every report can be rebuilt from the log alone.
"""

from __future__ import annotations

from polygon.events.registry import Event, event_type


@event_type(version=1)
class RubricRecorded(Event, frozen=True, kw_only=True, tag="rubric.recorded"):
    """A rubric version used to judge a run."""

    run_id: str
    """The run it was used on."""
    version: str
    """Rubric version (``v1``, ``v2`` …)."""
    rubric_hash: str
    """Content hash of the rubric file."""
    weights: dict[str, int]
    """Criterion id → weight (they sum to 100)."""
    pass_at: float
    """Composite at or above which a conversation passes."""
    warn_at: float
    """Composite at or above which a failing conversation is only a warning."""
    gates: list[str]
    """Hard gates in force under this version (built-in names, or ``check:<check id>``)."""
    min_scored_weight: float = 75.0
    """Below this share of the weight scored (or with goal_achievement unscored) a call is
    ``inconclusive``. Rubrics recorded before the field existed get the default."""
