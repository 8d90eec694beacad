"""Phrases several renderers share: who judged, and how a latency figure is read.

Kept here, not in the projections: a fold says which judge and how many calls were measured,
and the renderers say it in words.
"""

from __future__ import annotations

HEURISTIC_LABEL = "heuristic baseline (scripted/heuristic) — not a model's judgement"

LATENCY_NOTE = (
    "p95 ms: the median of each call's p95 agent turn latency, over the calls where latency was "
    "measured (n/m: over n of m calls; a Python agent's own time is not measured, only its stub tools')"
)


def latency_cell(p95: float | None, measured: int, calls: int) -> str:
    """A p95 with its base: ``320 (4/12)`` when only some calls were measured."""
    if p95 is None:
        return "—"
    return f"{p95:.0f}" if measured == calls else f"{p95:.0f} ({measured}/{calls})"
