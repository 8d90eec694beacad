"""Rendering the explain projection (:mod:`polygon.projections.explain`) for people and tools."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from polygon.events import CriterionScore, Evidence, RubricRecorded, to_builtins
from polygon.projections import ConversationVerdict
from polygon.render.phrases import HEURISTIC_LABEL, verdict_reasons
from polygon.render.report import row_data
from polygon.score import GRADED
from polygon.texttable import LEFT, RIGHT, table
from polygon.transcript import ConversationView

_TURN = re.compile(r"\[turn (\d+)\]")
POSITIONS = "#N: an event's place in the call's stream (its stream_version in `polygon log export`)"


def _repeat(score: CriterionScore) -> str:
    if score.status == "scored":
        return str(score.score)
    return "missing" if score.status == "missing" else f"unreadable({score.raw[:12]})"


def _evidence(ev: Evidence) -> str:
    return f"turn {ev.turn} #{ev.at}: {ev.quote}"


def explain_lines(row: ConversationVerdict, rubric: RubricRecorded, view: ConversationView) -> Iterator[str]:
    """The explanation for people."""
    v = row.verdict
    assert v is not None
    rec = row.record
    yield f"conversation {rec.conversation_id} · config {rec.config} · scenario {rec.scenario}"
    judge = HEURISTIC_LABEL if row.heuristic else f"{row.judge} (model judge)"
    yield f"rubric {rubric.version} (hash {rubric.rubric_hash}) · pass {row.pass_id}"
    yield f"judge {judge}; judge events " + ", ".join(f"#{s.at}" for s in row.judged)
    prompt = row.judged[0].event.prompt_version if row.judged else ""
    yield f"judge prompt {prompt or 'judge-1 (before versions were recorded)'}"
    lines = f"pass ≥ {rubric.pass_at:g}, warn ≥ {rubric.warn_at:g}"
    unused = "" if v.verdict in GRADED else f"; not used: the call is {v.verdict}"
    yield f"verdict {v.verdict.upper()} · composite {v.composite:.2f} ({lines}{unused})"
    if v.state_reason:
        yield f"why {v.verdict}: {v.state_reason}"
    yield f"scored weight {v.scored_weight:.0f}% (inconclusive below {rubric.min_scored_weight:g}%)"
    yield POSITIONS
    yield ""
    counted = sum(c.weight for c in v.criteria if c.value is not None)
    rows = []
    for cr in v.criteria:
        reps = ", ".join(_repeat(s) for s in cr.repeats)
        median = f"{cr.value:g}" if cr.value is not None else "—"
        how = (
            f"= 100×{cr.weight}×({median}−1)/4/{counted}" if cr.value is not None else "(unscored: left out)"
        )
        rows.append([cr.criterion, str(cr.weight), reps, median, f"{cr.contribution:.2f}", how])
    rows.append(["", "", "", "total", f"{v.composite:.2f}", ""])
    columns = [
        ("criterion", LEFT),
        ("weight", RIGHT),
        ("repeats", LEFT),
        ("median", RIGHT),
        ("points", RIGHT),
        ("", LEFT),
    ]
    yield from table(columns, rows)
    yield f"unscored: {', '.join(v.unscored) or 'none'}"
    yield f"missing (counted as 1): {', '.join(v.missing) or 'none'}"
    if v.partial:
        yield "PARTIAL: the composite is over the scored weights only"
    yield ""
    yield "gates"
    for g in v.gates:
        yield f"  {g.gate:<21} {'FIRED: ' + g.reason if g.fired else 'not fired'}"
        for ev in g.evidence if g.fired else []:
            yield f"      {_evidence(ev)}"
    yield ""
    yield f"checks (pass {row.pass_id})"
    for c in row.checks:
        tag = " [simulator]" if c.event.simulator else ""
        yield f"  {c.event.outcome:<5} {c.event.check:<24} #{c.at} {c.event.detail}{tag}"
        for ev in c.event.evidence:
            yield f"      {_evidence(ev)}"
    yield ""
    yield "judge evidence"
    said_at = {t.turn: t.agent_at for t in view.turns}
    for s in row.judged:
        for criterion, score in sorted(s.event.scores.items()):
            turn = _TURN.search(score.evidence)
            where = f" (turn {turn.group(1)}, #{said_at.get(int(turn.group(1)), 0)})" if turn else ""
            yield f"  repeat {s.event.repeat} #{s.at} {criterion}: {score.evidence or '(none)'}{where}"
            if score.reason:
                yield f"      reason: {score.reason}"


def explain_data(row: ConversationVerdict, rubric: RubricRecorded) -> dict[str, Any]:
    """The same as data."""
    data: dict[str, Any] = {"verdict": row_data(row), "rubric": to_builtins(rubric)}
    data["reasons"] = verdict_reasons(row)
    return data
