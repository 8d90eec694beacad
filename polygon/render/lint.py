"""Rendering the lint projection (:mod:`polygon.projections.lint`) for people and tools."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence

import msgspec

from polygon.lint import AXES
from polygon.projections import PromptLint


def lint_lines(
    lint: PromptLint,
    text: str,
    *,
    threshold: float = 0.5,
    forbids: Sequence[tuple[str, str]] | None = None,
) -> Iterator[str]:
    """The prompt with its marked spans, the five scores and what each tier did.

    Then the promises the prompt forbids (``forbids``: objects and sentence; None: not shown).
    """
    ran = ", ".join(f"{t.tier}{' (cached)' if t.cached else ''}" for t in lint.tiers if not t.error)
    about = f"{lint.words} words · language {lint.language}"
    yield f"{lint.name} · {lint.path} · {about} · tiers: {ran or 'none'}"
    for t in lint.tiers:
        if t.error:
            yield f"  tier {t.tier} ({t.model}) FAILED: {t.error}"
    for tier, why in lint.skipped.items():
        yield f"  tier {tier} skipped: {why}"
    yield ""
    lines = text.splitlines()
    shown = 0
    for number, line in enumerate(lines, start=1):
        here = [m for m in lint.marks if m.line == number]
        if not here:
            continue
        shown += 1
        yield f"{number:>4} | {line}"
        for m in here:
            width = max(1, (m.end_column - m.column) if m.end_line == m.line else len(line) - m.column + 1)
            yield f"     | {' ' * (m.column - 1)}{'^' * width}"
            through = f" (to line {m.end_line})" if m.end_line > m.line else ""
            yield f"     | {m.line}:{m.column}{through} {m.axis} [{m.tier}, {m.strength:.2f}] {m.reason}"
    if not shown:
        yield "  no marks"
    yield ""
    yield "Scores (0 = fine, 1 = severe; ≥ 0.50 is worth fixing)"
    for axis in AXES:
        if axis not in lint.scores:
            yield f"  {axis:<18}  —    (no tier read it)"
            continue
        value = lint.scores[axis]
        by = ", ".join(f"{t.tier} {t.scores[axis]:.2f}" for t in lint.tiers if axis in t.scores)
        flag = "  ← worth fixing" if value >= threshold else ""
        yield f"  {axis:<18} {value:.2f} {_bar(value)}  ({by}){flag}"
    if forbids is not None:
        yield from _forbids_lines(forbids)


def _forbids_lines(forbids: Sequence[tuple[str, str]]) -> Iterator[str]:
    yield ""
    if not forbids:
        yield "Promises it forbids: none read (docs/policies.md: the phrasings policy:prompt_forbids reads)"
        return
    yield "Promises it forbids (each simulated call is checked against them: policy:prompt_forbids)"
    for objects, sentence in forbids:
        yield f"  {objects}: {sentence!r}"


def _bar(value: float) -> str:
    full = round(value * 10)
    return "█" * full + "·" * (10 - full)


def lint_json(lints: Sequence[PromptLint]) -> str:
    """The full result: one object per prompt (sorted keys, byte-stable)."""
    return json.dumps(msgspec.to_builtins(list(lints)), sort_keys=True, ensure_ascii=False, indent=1) + "\n"
