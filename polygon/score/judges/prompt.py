"""The judge's prompt and output schema.

Built from the rubric, the transcript, the caller's ground truth and the tool trace.
"""

from __future__ import annotations

import json
from typing import Any

from polygon.score.rubric import Rubric
from polygon.transcript import ConversationView

SYSTEM = (
    "You evaluate a whole phone call between a caller and a voice agent. Score each criterion "
    "from 1 to 5 using the level descriptions, judging the AGENT only. Quote the transcript as "
    "evidence for every score. The caller's ground-truth facts tell you what was true. Answer "
    "with JSON only, matching the schema."
)


def output_schema(rubric: Rubric) -> dict[str, Any]:
    """JSON schema of the answer: each criterion an object with an integer score and evidence."""
    item = {
        "type": "object",
        "properties": {
            "score": {"type": "integer", "minimum": 1, "maximum": 5},
            "evidence": {"type": "string"},
        },
        "required": ["score", "evidence"],
        "additionalProperties": False,
    }
    ids = [c.id for c in rubric.criteria]
    return {
        "type": "object",
        "properties": {c: item for c in ids},
        "required": ids,
        "additionalProperties": False,
    }


def transcript_text(view: ConversationView) -> str:
    """The call as the judge reads it: what was said, what the agent heard, tools used."""
    lines = []
    for t in view.turns:
        if t.caller_text:
            lines.append(f"[{t.turn}] CALLER: {t.caller_text}")
            if t.heard_text is not None and t.heard_text != t.caller_text:
                lines.append(f"[{t.turn}]   (agent heard: {t.heard_text})")
        for c in t.tools:
            outcome = f"error: {c.error}" if c.error else f"result: {json.dumps(c.result, sort_keys=True)}"
            valid = "" if c.valid else " INVALID ARGUMENTS"
            lines.append(
                f"[{t.turn}]   TOOL {c.tool}({json.dumps(c.arguments, sort_keys=True)}){valid} → {outcome}"
            )
        if t.agent_text is not None:
            lines.append(f"[{t.turn}] AGENT: {t.agent_text}")
    if view.ended is not None:
        lines.append(f"(call ended: {view.ended.reason} by {view.ended.by})")
    return "\n".join(lines)


def judge_request(view: ConversationView, rubric: Rubric, model: str, repeat: int) -> dict[str, Any]:
    """The chat-completion request for one repeat (temperature near zero, JSON schema)."""
    criteria = "\n".join(
        f"- {c.id} (weight {c.weight}): {c.question}\n"
        + "\n".join(f"    {level}: {text}" for level, text in sorted(c.levels.items()))
        for c in rubric.criteria
    )
    persona = view.started.persona if view.started else None
    truth = (
        "\n".join(f"- {k}: {v}" for k, v in sorted(persona.facts.items()))
        + f"\n- intended outcome: {persona.outcome}\n- goal: {persona.goal}"
        if persona
        else "(none: a real call without ground truth)"
    )
    user = (
        f"Rubric {rubric.version}:\n{criteria}\n\nCaller's ground truth:\n{truth}\n\n"
        f"Transcript:\n{transcript_text(view)}"
    )
    return {
        "model": model.split("/", 1)[-1],
        "messages": [{"role": "system", "content": SYSTEM}, {"role": "user", "content": user}],
        "temperature": 0.0,
        "seed": repeat,
        "response_format": {
            "type": "json_schema",
            "json_schema": {"name": "judgement", "schema": output_schema(rubric), "strict": True},
        },
    }
