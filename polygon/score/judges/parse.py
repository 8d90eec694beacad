"""Parsing a judge's answer by the SPEC's rules.

* a criterion key that is absent is *missing* (it will count as 1);
* a score that is not an integer from 1 to 5 (null, "four", 7, 2.5, a body that is not
  JSON at all) is *unscored* — kept raw, never turned into a number.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from polygon.events import CriterionScore


def parse_scores(raw: str | None, criteria: Sequence[str]) -> dict[str, CriterionScore]:
    """Criterion id → parsed score, for every criterion of the rubric."""
    try:
        data = json.loads(raw, strict=False) if raw is not None else None  # control chars tolerated
    except (ValueError, RecursionError):  # garbage, or nesting deeper than the parser goes
        data = None
    if not isinstance(data, dict):
        shown = (raw or "")[:200]
        return {c: CriterionScore(status="unscored", raw=shown) for c in criteria}
    return {c: _one(data[c]) if c in data else CriterionScore(status="missing") for c in criteria}


def _one(value: Any) -> CriterionScore:
    evidence = reason = ""
    score = value
    if isinstance(value, dict):
        evidence = str(value.get("evidence", ""))[:500]
        reason = str(value.get("reason", ""))[:300]
        if "score" not in value:
            raw = json.dumps(value)[:200]
            return CriterionScore(status="unscored", raw=raw, evidence=evidence, reason=reason)
        score = value["score"]
    number = _as_score(score)
    if number is None:
        raw = json.dumps(score)[:200]
        return CriterionScore(status="unscored", raw=raw, evidence=evidence, reason=reason)
    return CriterionScore(status="scored", score=number, evidence=evidence, reason=reason)


def _as_score(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int) and 1 <= value <= 5:
        return value
    if isinstance(value, float) and value.is_integer() and 1 <= value <= 5:
        return int(value)
    return None
