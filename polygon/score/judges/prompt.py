"""The judge's prompt and output schema.

Built from the rubric, the agent's prompt and tools (what it was told to do), the caller's
ground truth, and the transcript with its tool trace. Every criterion's answer carries a
score, a quote and a one-sentence reason. The prompt is versioned: each judge pass records
:data:`JUDGE_PROMPT_VERSION`, so passes under an older prompt stay as they were.
"""

from __future__ import annotations

from typing import Any

from polygon.score.judges import JudgeContext
from polygon.score.rubric import Rubric
from polygon.transcript import ConversationView, transcript_text

JUDGE_PROMPT_VERSION = "judge-3"
"""judge-1: rubric, ground truth, transcript. judge-2: + the agent's prompt and tools, + a reason.
judge-3: + a cap on the answer's length (:data:`MAX_ANSWER_TOKENS`)."""

MAX_ANSWER_TOKENS = 1500
"""Eight criteria, each a score, a short quote and one sentence, fit in well under 1,500 tokens.
Without a cap a model that rambles (a small local one does) writes until its context is full,
minutes per call, and the answer is cut anyway; with it the cut comes early and is recorded as
the judge's fault on that call."""

SYSTEM = (
    "You evaluate a whole phone call between a caller and a voice agent. Score each criterion "
    "from 1 to 5 using the level descriptions, judging the AGENT only. The agent's prompt and "
    "tools tell you what it was instructed to do; the caller's ground-truth facts tell you what "
    "was true. For every score, quote the transcript as evidence and give a one-sentence reason. "
    "Answer with JSON only, matching the schema."
)


def output_schema(rubric: Rubric) -> dict[str, Any]:
    """JSON schema of the answer: each criterion an object with an integer score and evidence."""
    item = {
        "type": "object",
        "properties": {
            "score": {"type": "integer", "minimum": 1, "maximum": 5},
            "evidence": {"type": "string"},
            "reason": {"type": "string"},
        },
        "required": ["score", "evidence", "reason"],
        "additionalProperties": False,
    }
    ids = [c.id for c in rubric.criteria]
    return {
        "type": "object",
        "properties": {c: item for c in ids},
        "required": ids,
        "additionalProperties": False,
    }


def agent_brief(context: JudgeContext) -> str:
    """The agent's instructions as the judge reads them: its prompt and its tools."""
    prompt = context.prompt if context.prompt is not None else "(unknown: not recorded for this call)"
    tools = (
        "\n".join(
            f"- {t.get('function', {}).get('name', '?')}: {t.get('function', {}).get('description', '')}"
            for t in context.tools
        )
        or "(none)"
    )
    return f"Agent's prompt:\n---\n{prompt}\n---\nAgent's tools:\n{tools}"


def judge_request(
    view: ConversationView, rubric: Rubric, model: str, repeat: int, context: JudgeContext | None = None
) -> dict[str, Any]:
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
        f"Rubric {rubric.version}:\n{criteria}\n\n{agent_brief(context or JudgeContext())}\n\n"
        f"Caller's ground truth:\n{truth}\n\nTranscript:\n{transcript_text(view)}"
    )
    return {
        "model": model.split("/", 1)[-1],
        "messages": [{"role": "system", "content": SYSTEM}, {"role": "user", "content": user}],
        "temperature": 0.0,
        "seed": repeat,
        "max_tokens": MAX_ANSWER_TOKENS,
        "response_format": {
            "type": "json_schema",
            "json_schema": {"name": "judgement", "schema": output_schema(rubric), "strict": True},
        },
    }
