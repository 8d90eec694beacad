"""Phrases several renderers share: who judged, how latency is read, why a call did not pass.

Kept here, not in the projections: a fold says which judge, how many calls were measured and
which gates fired, and the renderers say it in words.
"""

from __future__ import annotations

from polygon.projections import ConversationVerdict

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


def verdict_reasons(row: ConversationVerdict) -> list[str]:
    """Why a call did not pass: its state's reason, fired gates, failed agent checks, a partial composite."""
    v = row.verdict
    if v is None:
        return ["not judged under this rubric"]
    out = [v.state_reason] if v.state_reason else []
    fired = [g for g in v.gates if g.fired]
    out += [f"gate {g.gate}: {g.reason}" for g in fired]
    # A gate a check decides (``forbidden_phrase``, ``check:loop``) gives that check's detail as
    # its reason: said once, as the gate, not again as the check.
    said = {(g.gate, g.reason) for g in fired}
    out += [
        f"check {c.event.check}: {c.event.detail}"
        for c in row.checks
        if c.event.outcome == "fail"
        and not c.event.simulator
        and not {(c.event.check, c.event.detail), (f"check:{c.event.check}", c.event.detail)} & said
    ]
    if v.partial:
        out.append(f"partial composite (unscored: {', '.join(v.unscored)})")
    return out
