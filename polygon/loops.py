"""Loop detection: the agent's last two replies overlap 90% or more.

Overlap is the Dice coefficient of the two replies' word multisets, so a repeated one-word
reply ("Yes." / "Yes.") scores 1.0 — a bigram-only measure would see no bigrams at all.
"""

from __future__ import annotations

import re
from collections import Counter

LOOP_THRESHOLD = 0.9
_WORD = re.compile(r"\w+", re.UNICODE)


def words(text: str) -> list[str]:
    """Lower-cased words of ``text``."""
    return _WORD.findall(text.lower())


def overlap(a: str, b: str) -> float:
    """2·|common words| / (|a| + |b|), on word multisets; 0 when both are empty."""
    wa, wb = Counter(words(a)), Counter(words(b))
    total = sum(wa.values()) + sum(wb.values())
    if total == 0:
        return 0.0
    return 2 * sum((wa & wb).values()) / total


def is_loop(previous: str, latest: str) -> bool:
    """True when two consecutive agent replies overlap at least :data:`LOOP_THRESHOLD`."""
    return overlap(previous, latest) >= LOOP_THRESHOLD
