"""Loop detection: the agent's last two replies overlap 90% or more.

Overlap is the Dice coefficient of the two replies' word multisets, so a repeated one-word
reply ("Yes." / "Yes.") scores 1.0 — a bigram-only measure would see no bigrams at all.
"""

from __future__ import annotations

from polygon.similarity import overlap

LOOP_THRESHOLD = 0.9


def is_loop(previous: str, latest: str) -> bool:
    """True when two consecutive agent replies overlap at least :data:`LOOP_THRESHOLD`."""
    return overlap(previous, latest) >= LOOP_THRESHOLD
