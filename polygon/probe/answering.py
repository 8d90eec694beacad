"""Answering probes: by a model through the model-client seam, or offline by the detectors."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from polygon.errors import UserInputError
from polygon.events import ProbeAnswered
from polygon.models import Recorder
from polygon.probe.library import DETECTOR, Answer
from polygon.suite import ProbeSpec
from polygon.transcript import ConversationView, transcript_text

if TYPE_CHECKING:
    from polygon.models import ModelHub


def probe_request(probe: ProbeSpec, view: ConversationView, model: str) -> dict[str, Any]:
    """The model request for one probe: its own prompt, separate from the judge's."""
    schema = {
        "type": "object",
        "additionalProperties": False,
        "required": ["answer", "evidence"],
        "properties": {
            "answer": {"type": "string", "enum": ["yes", "no", "n/a"]},
            "evidence": {"type": "string"},
        },
    }
    system = (
        "Answer one yes/no question about the AGENT's behaviour in this phone call. Answer n/a "
        "when the situation the question is about never happened. Quote the transcript."
    )
    return {
        "model": model.split("/", 1)[-1],
        "temperature": 0.0,
        "max_tokens": 400,  # a yes/no and one quote; a model that rambles is cut, not waited on
        "messages": [
            {"role": "system", "content": system},
            {
                "role": "user",
                "content": f"Question: {probe.question}\n\nTranscript:\n{transcript_text(view)}",
            },
        ],
        "response_format": {
            "type": "json_schema",
            "json_schema": {"name": "probe", "schema": schema, "strict": True},
        },
    }


def parse_answer(raw: str | None) -> Answer:
    """A model's answer; anything unreadable is n/a with the raw text as evidence (never a no)."""
    try:
        data = json.loads(raw or "", strict=False)
    except (ValueError, RecursionError):  # garbage, or nesting deeper than the parser goes
        return "n/a", f"unreadable answer: {(raw or '')[:120]}"
    answer = data.get("answer") if isinstance(data, dict) else None
    if answer not in ("yes", "no", "n/a"):
        return "n/a", f"unreadable answer: {(raw or '')[:120]}"
    return str(answer), str(data.get("evidence", ""))[:500]


@dataclass(frozen=True)
class ProbeAnswerer:
    """Who answers: the detectors offline, or a model whose calls are recorded."""

    name: str = DETECTOR
    recorder: Recorder | None = None


def answerer_for(model: str, hub: ModelHub) -> ProbeAnswerer:
    """The answerer a reference names, its model calls (if any) recorded as the probe's."""
    return make_answerer(model, hub.resolve(model, role="probe"))


def make_answerer(model: str, recorder: Recorder | None) -> ProbeAnswerer:
    """The detectors for ``scripted/detector``, else a model (None: the hub found another offline name)."""
    if model == DETECTOR:
        return ProbeAnswerer()
    if recorder is None:
        raise UserInputError(f"{model} is an offline scripted baseline, not a model")
    return ProbeAnswerer(name=recorder.model, recorder=recorder)


def answered(probe: ProbeSpec, view: ConversationView, answer: Answer, by: str) -> ProbeAnswered:
    """The event for one answer."""
    return ProbeAnswered(
        conversation_id=view.conversation_id,
        probe_id=probe.id,
        probe_hash=probe.wording_hash,
        question=probe.question,
        polarity=probe.polarity,
        answer=answer[0],
        evidence=answer[1],
        answered_by=by,
        heuristic=by == DETECTOR,
    )
