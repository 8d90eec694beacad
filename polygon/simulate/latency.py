"""Latency figures: the simulated call's and an import's summaries share one percentile.

A module of its own so that an import (which never simulates) reads it without loading the
call engine and what it pulls in: plan, agents, callers, noise, the suite's models (issue 31).
"""

from __future__ import annotations

import math


def percentile(values: list[float], pct: float) -> float:
    """Nearest-rank percentile (0 for no values), rounded to the microsecond."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(1, math.ceil(pct / 100 * len(ordered)))
    return round(ordered[rank - 1], 3)
