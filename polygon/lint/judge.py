"""Tier 4, judge: a model reads the prompt and answers per axis with quoted spans.

The request asks for JSON matching :data:`ANSWER_SCHEMA`; each quote is found back in the
prompt (exactly, then ignoring case and spacing) and becomes a mark. An answer that is not
that JSON is a recorded fault of the tier (the other tiers still count), never a crash.
"""

from __future__ import annotations

import json
from typing import Any

import regex

from polygon.events import LintMark
from polygon.lint import AXES, TierReading
from polygon.lint.reading import Reading
from polygon.lint.rules import conflict, rule_pairs, same_rule
from polygon.models import ModelClient

JUDGE_VERSION = "2"

_AXIS_ANSWER = {
    "type": "object",
    "properties": {
        "score": {"type": "number", "minimum": 0, "maximum": 1},
        "spans": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {"quote": {"type": "string"}, "reason": {"type": "string"}},
                "required": ["quote", "reason"],
            },
        },
    },
    "required": ["score", "spans"],
}
ANSWER_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {axis: _AXIS_ANSWER for axis in AXES},
    "required": list(AXES),
}

_INSTRUCTIONS = """You review the system prompt of a phone (voice) agent before it is tested.
Score each axis from 0 (no problem) to 1 (severe), and quote the exact words behind it:
- overload: too many hard constraints at once;
- diluted_attention: key rules lost in the middle of a long prompt, related rules scattered;
- contradiction: rules that exclude or weaken each other;
- ambiguity: wording with more than one reading;
- redundancy: the same rule said several ways.
Answer with JSON only: {"overload": {"score": 0.0, "spans": [{"quote": "...", "reason": "..."}]}, ...}
with all five axes. Quote the prompt word for word; leave spans empty when the score is 0."""


MAX_CANDIDATES = 20
"""Rule pairs the judge is asked to confirm, at most (the strongest first)."""


def candidates(reading: Reading) -> list[str]:
    """Rule pairs the rules tier suspects of contradicting or repeating each other, in words.

    Each names both rules' lines and what the rules tier saw; the judge confirms or rejects
    them (and may find others): the cheap tier proposes, the model decides.
    """
    found: list[tuple[float, str]] = []
    for a, b in rule_pairs(reading):
        line_a, line_b = (reading.prompt.line_col(u.unit.start)[0] for u in (a, b))
        quote_a, quote_b = (" ".join(u.unit.text.split())[:160] for u in (a, b))
        both = f"line {line_a} «{quote_a}» vs line {line_b} «{quote_b}»"
        why, sure = conflict(reading, a, b)
        if why:
            found.append((sure, f"contradiction? {both}: {why}"))
        elif same := same_rule(reading, a, b):
            found.append((same, f"redundancy? {both}"))
    found.sort(key=lambda x: -x[0])
    return [text for _, text in found[:MAX_CANDIDATES]]


def judge_request(reading: Reading, params: dict[str, Any]) -> dict[str, Any]:
    """The chat request the judge tier sends (its hash keys the recorded answer)."""
    user = f"The prompt ({reading.language}):\n<<<\n{reading.prompt.text}\n>>>"
    if pairs := candidates(reading):
        user += "\n\nRule pairs a cheaper reader suspects (confirm or reject each; quote both rules):\n"
        user += "\n".join(f"- {p}" for p in pairs)
    return {
        "messages": [
            {"role": "system", "content": _INSTRUCTIONS},
            {"role": "user", "content": user},
        ],
        "response_format": {
            "type": "json_schema",
            "json_schema": {"name": "prompt_lint", "schema": ANSWER_SCHEMA},
        },
        "temperature": 0.0,
        "max_tokens": 800,  # five axes with a few quotes; a model that rambles is cut, not waited on
        **params,
    }


async def read_judge(
    reading: Reading, client: ModelClient, model: str, params: dict[str, Any]
) -> TierReading:
    """Ask once; turn the answer into scores and marks, or a recorded fault."""
    out = TierReading(tier="judge", model=f"{model}#j{JUDGE_VERSION}")
    answer = await client.complete(judge_request(reading, params))
    if answer.text is None:
        out.error = "; ".join(answer.errors) or "the judge gave no answer"
        return out
    parsed = _parse(answer.text)
    if isinstance(parsed, str):
        out.error = parsed
        return out
    for axis in AXES:
        score, marks = _axis(reading, axis, parsed[axis])
        out.add(axis, score, marks)
    return out


def _parse(text: str) -> dict[str, Any] | str:
    body = text.strip()
    fenced = regex.search(r"\{.*\}", body, flags=regex.DOTALL)
    try:
        data = json.loads(fenced.group() if fenced else body)
    except ValueError:
        return f"the judge's answer is not JSON: {text[:80]!r}"
    if not isinstance(data, dict):
        return f"the judge's answer is not a JSON object: {text[:80]!r}"
    missing = [a for a in AXES if not isinstance(data.get(a), dict) or not _is_score(data[a].get("score"))]
    if missing:
        return f"the judge's answer lacks a 0..1 score for: {', '.join(missing)}"
    return data


def _is_score(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and 0 <= value <= 1


def _axis(reading: Reading, axis: str, answer: dict[str, Any]) -> tuple[float, list[LintMark]]:
    marks: list[LintMark] = []
    spans = answer.get("spans") if isinstance(answer.get("spans"), list) else []
    for span in spans or []:
        if not isinstance(span, dict) or not isinstance(span.get("quote"), str):
            continue
        where = locate(reading.prompt.text, span["quote"])
        if where is None:
            continue  # a quote that is not in the prompt marks nothing
        reason = str(span.get("reason") or "the judge marked this")[:200]
        marks.append(
            LintMark(axis=axis, start=where[0], end=where[1], reason=reason, strength=float(answer["score"]))
        )
    return float(answer["score"]), marks


def locate(text: str, quote: str) -> tuple[int, int] | None:
    """Where ``quote`` stands in ``text``: exactly, else ignoring case and runs of spaces."""
    quote = quote.strip().strip("\"'“”«»")
    if len(quote) < 3:
        return None
    at = text.find(quote)
    if at >= 0:
        return at, at + len(quote)
    pattern = r"\s+".join(regex.escape(part) for part in quote.split())
    found = regex.search(pattern, text, flags=regex.IGNORECASE)
    return (found.start(), found.end()) if found else None
