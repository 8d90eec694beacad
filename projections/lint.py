"""The lint of one prompt, folded from its ``prompt.linted`` events (polygon.render writes it).

Combining tiers: an axis's score is the highest any tier gave it (each tier's scores are
calibrated so that 0.5 means "worth fixing"); marks of every tier are kept, each naming its
tier, and sorted by position. A tier that failed (a recorded fault) adds nothing and is
listed with its error.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable, Sequence

import msgspec

from polygon.events import LintMark, PromptLinted
from polygon.lint import AXES, TIERS

TIER_ORDER = TIERS


class Marked(msgspec.Struct, frozen=True, kw_only=True):
    """A mark with its tier and its place as line:col (1-based)."""

    axis: str
    tier: str
    start: int
    end: int
    line: int
    column: int
    end_line: int
    end_column: int
    text: str
    reason: str
    strength: float
    related: tuple[int, int] | None = None


class TierSummary(msgspec.Struct, frozen=True, kw_only=True):
    """What one tier said (or why it said nothing)."""

    tier: str
    model: str
    scores: dict[str, float]
    error: str = ""
    cached: bool = False


class PromptLint(msgspec.Struct, frozen=True, kw_only=True):
    """Everything ``polygon lint`` shows for one prompt."""

    name: str
    """The configuration, or the file's name."""
    path: str
    prompt_hash: str
    language: str
    scores: dict[str, float]
    """Axis → the highest score any tier gave (0..1, higher is worse); absent: no tier read it."""
    tiers: list[TierSummary]
    skipped: dict[str, str]
    """Tier → why it did not run (not asked, not installed: how to add it)."""
    marks: list[Marked]
    words: int


def fold_lint(
    name: str,
    path: str,
    text: str,
    events: Sequence[PromptLinted],
    *,
    skipped: dict[str, str] | None = None,
    cached: frozenset[str] = frozenset(),
) -> PromptLint:
    """Combine the tiers' readings of ``text`` (pure: the same events give the same view)."""
    ordered = sorted(events, key=lambda e: (TIER_ORDER.index(e.tier) if e.tier in TIER_ORDER else 9, e.model))
    scores: dict[str, float] = {}
    marks: list[Marked] = []
    starts = line_starts(text)
    for e in ordered:
        if e.error:
            continue
        for axis, value in e.scores.items():
            scores[axis] = max(scores.get(axis, 0.0), value)
        marks.extend(_marked(text, starts, e.tier, m) for m in e.marks)
    marks.sort(key=lambda m: (m.start, AXES.index(m.axis) if m.axis in AXES else 9, m.tier, m.end))
    return PromptLint(
        name=name,
        path=path,
        prompt_hash=ordered[0].prompt_hash if ordered else "",
        language=ordered[0].language if ordered else "",
        scores={a: scores[a] for a in AXES if a in scores},
        tiers=[
            TierSummary(
                tier=e.tier, model=e.model, scores=dict(e.scores), error=e.error, cached=e.tier in cached
            )
            for e in ordered
        ],
        skipped=dict(skipped or {}),
        marks=marks,
        words=len(text.split()),
    )


def lint_scores(events: Iterable[PromptLinted]) -> dict[str, float]:
    """Axis → the highest score any tier's latest good reading gave (for ``compare``)."""
    latest: dict[tuple[str, str, str], PromptLinted] = {}
    for e in events:
        if not e.error:
            latest[(e.tier, e.model, e.language)] = e
    scores: dict[str, float] = {}
    for e in latest.values():
        for axis, value in e.scores.items():
            scores[axis] = max(scores.get(axis, 0.0), value)
    return {a: scores[a] for a in AXES if a in scores}


def line_starts(text: str) -> list[int]:
    """Offsets at which each line begins."""
    starts = [0]
    at = text.find("\n")
    while at >= 0:
        starts.append(at + 1)
        at = text.find("\n", at + 1)
    return starts


def _line_col(starts: list[int], offset: int) -> tuple[int, int]:
    line = bisect.bisect_right(starts, offset) - 1
    return line + 1, offset - starts[line] + 1


def _marked(text: str, starts: list[int], tier: str, m: LintMark) -> Marked:
    line, col = _line_col(starts, m.start)
    end_line, end_col = _line_col(starts, max(m.start, m.end))
    return Marked(
        axis=m.axis,
        tier=tier,
        start=m.start,
        end=m.end,
        line=line,
        column=col,
        end_line=end_line,
        end_column=end_col,
        text=text[m.start : m.end],
        reason=m.reason,
        strength=m.strength,
        related=m.related,
    )


def worst(lints: Iterable[PromptLint]) -> float:
    """The highest axis score over several prompts (0 when none was read)."""
    return max((v for lint in lints for v in lint.scores.values()), default=0.0)


# ---- text ---------------------------------------------------------------------------------
