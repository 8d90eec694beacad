"""From real calls to scenario drafts, by rules over the transcript (pure, offline).

For each imported call: the caller's type (from how they talk), their intent and goal (from
what they asked for), the facts they stated (name, phone, e-mail, day, time, and tool
arguments that repeat what they said), the outcome they wanted (a transfer, a callback, a
refusal, or success), and an ``expect:`` built from the tool calls that settled the call.
Drafts are clustered by intent; :func:`coverage` says which real intents a suite has no
scenario for. Rules, not a model: a draft is a starting point for a person to edit.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field, replace
from typing import Any

from polygon.importing.formats import END_CALL_TOOLS, TRANSFER_TOOLS, is_ending_tool
from polygon.suite import OUTCOMES, PERSONA_TYPES
from polygon.transcript import ConversationView, ToolView

INTENTS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("cancel", ("cancel",)),
    ("reschedule", ("reschedule", "change my appointment", "move my appointment", "change the appointment")),
    ("callback", ("call me back", "callback", "call-back", "ring me back")),
    ("billing", ("bill", "invoice", "charge", "payment", "refund", "price", "cost", "how much")),
    ("urgent", ("pain", "emergency", "urgent", "hurts", "bleeding", "broken", "toothache")),
    ("complaint", ("complain", "complaint", "unacceptable", "terrible service")),
    ("book", ("book", "appointment", "schedule", "reserve", "check-up", "checkup", "cleaning", "slot")),
    ("availability", ("anything on", "do you have", "available", "free on", "opening")),
    ("human", ("a person", "a human", "real person", "someone", "talk to", "speak to")),
    ("question", ("?", "info", "do you", "does", "what", "how")),
)
"""Intent → phrases in the caller's words; the first intent that matches wins (so "call me
back about my bill" is a callback, and "book" only when nothing more specific was asked)."""
_TYPES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("aggressive", ("ridiculous", "unacceptable", "i said", "useless", "!!", "are you deaf", "third time")),
    ("distrustful", ("scam", "how do i know", "are you a robot", "are you real", "really?", "is this safe")),
    ("confused", ("i don't understand", "what do you mean", "sorry?", "pardon", "i'm not sure", "nervous")),
    ("busy", ("quick", "hurry", "busy", "no time", "make it fast")),
)
_DECLINES = (
    "maybe later",
    "never mind",
    "forget it",
    "i'll call back",
    "call back later",
    "check my calendar",
    "no thanks",
)
_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_NAME = re.compile(
    r"(?:\bI'm|\bI am|\bmy name is|\bthis is|\bname's|\bname is)\s+([A-Z][a-z]+(?:\s+[A-Z][a-z]+)?)"
    r"|\b([A-Z][a-z]+ [A-Z][a-z]+),\s*\+?\d"
)
_PHONE = re.compile(r"\+?\d[\d ()-]{5,}\d")
_EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
_TIME = re.compile(r"\b(\d{1,2}(?::\d{2})?\s?(?:am|pm)|\d{1,2}:\d{2})\b", re.IGNORECASE)
_WANTS = re.compile(
    r"(I'd like to|I would like to|I want to|I need to|I'd like|I need|can I get|can I|could you|please)"
    r"\s+([^.,!?]+)",
    re.IGNORECASE,
)
_NOUN_LEADS = ("i'd like", "i need", "can i get")
"""Leads followed by a thing, not an act: the caller speaks a goal as "I'd like to <goal>"."""
_LOOKUP = ("find", "get", "list", "search", "check", "lookup", "look_up", "available", "status")
"""Tool-name words of a call that only reads; the others change something and settle a call."""


@dataclass
class Draft:
    """A persona and scenario drafted from one call."""

    call: str
    """The conversation id it came from."""
    source: str
    """Where the call was imported from (file:line, the platform's id)."""
    intent: str
    type: str
    outcome: str
    goal: str
    facts: dict[str, str]
    expect: dict[str, Any] = field(default_factory=dict)
    difficulty: int = 2
    tool_facts: list[str] = field(default_factory=list)
    """Facts taken from the arguments of the call's tool calls, not from the caller's words."""


def intent_of(text: str) -> str:
    """The first intent whose phrases occur in ``text`` (lower-cased), or ``other``."""
    low = text.lower()
    return next((name for name, words in INTENTS if any(w in low for w in words)), "other")


def draft(view: ConversationView) -> Draft | None:
    """A draft from one call, or None when the caller said nothing."""
    said = [t.caller_text for t in view.turns if t.caller_text]
    if not said:
        return None
    everything = " ".join(said)
    tools = [tool for t in view.turns for tool in t.tools]
    settled = [t for t in tools if _settles(t)]
    ended = view.ended.reason if view.ended else ""
    intent = intent_of(everything)
    if intent == "other" and settled:
        intent = settled[-1].tool
    facts = _facts(said, tools)
    tool_facts = _tool_facts(tools, facts)
    kind = _type(said)
    outcome = _outcome(everything, said[-1], settled, ended)
    return Draft(
        call=view.conversation_id,
        source=_source(view),
        intent=intent,
        type=kind,
        outcome=outcome,
        goal=_goal(said, intent),
        facts={**facts, **tool_facts},
        expect=_expect(
            outcome, settled, facts
        ),  # conditions on what the caller said, not on the call's own arguments
        difficulty={"cooperative": 1, "chatty": 2, "busy": 3, "confused": 3, "distrustful": 3}.get(kind, 4),
        tool_facts=sorted(tool_facts),
    )


def _source(view: ConversationView) -> str:
    imported = view.imported
    if imported is None:
        return view.conversation_id
    where = f"{imported.source_file}:{imported.line} ({imported.format})"
    return f"{where}, platform id {imported.source_id}" if imported.source_id else where


def _settles(tool: ToolView) -> bool:
    """A call that changed something and worked: what a scenario's ``expect`` can ask for."""
    name = tool.tool.lower()
    failed = bool(tool.error or tool.unpaired == "no call in the export")
    answered_error = isinstance(tool.result, dict) and bool(tool.result.get("error"))
    return not failed and not answered_error and not any(w in name for w in _LOOKUP)


def _type(said: list[str]) -> str:
    low = " ".join(said).lower()
    found = next((name for name, words in _TYPES if any(w in low for w in words)), "")
    if found:
        return found
    words = sum(len(s.split()) for s in said) / len(said)
    return "chatty" if words > 25 else "cooperative"


def _outcome(everything: str, last: str, settled: list[ToolView], ended: str) -> str:
    low = everything.lower()
    if ended == "transfer" or intent_of(low) == "human":
        return "transfer"
    if (
        any("callback" in t.tool.lower() or "call_back" in t.tool.lower() for t in settled)
        or intent_of(low) == "callback"
    ):
        return "callback"
    asked_only = intent_of(low) in ("question", "availability", "billing", "other")
    if not settled and asked_only and any(w in last.lower() for w in _DECLINES):
        return "refusal"  # asked, heard the answer, declined (giving up on a request is a failure)
    return "success"


def _facts(said: list[str], tools: list[ToolView]) -> dict[str, str]:
    text = " ".join(said)
    facts: dict[str, str] = {}
    name = _NAME.search(text)
    if name:
        facts["name"] = (name.group(1) or name.group(2)).strip()
    phone = next((m.group() for m in _PHONE.finditer(text) if len(re.sub(r"\D", "", m.group())) >= 6), "")
    if phone:
        facts["phone"] = phone.strip()
    email = _EMAIL.search(text)
    if email:
        facts["email"] = email.group()
    day = next((d for d in _WEEKDAYS if d in text.lower()), "")
    if day:
        facts["preferred_day"] = day.capitalize()
    time_ = _TIME.search(text)
    if time_:
        facts["preferred_time"] = time_.group(1)
    for tool in tools:  # an argument the caller said in their own words is a fact they stated
        for key, value in sorted(tool.arguments.items()):
            stated = {v.lower() for v in facts.values()}
            said_it = isinstance(value, str) and len(value) > 1 and value.lower() in text.lower()
            if said_it and str(value).lower() not in stated:
                facts.setdefault(key, str(value))
    return facts


def _tool_facts(tools: list[ToolView], facts: dict[str, str]) -> dict[str, str]:
    """Arguments of the call's tool calls (failed ones too) that the caller's words did not give.

    The caller gave them somehow (spelled out, in pieces): without them a drafted caller
    cannot answer "what's your booking reference?" and loops where the real one did not.
    """
    stated = {v.lower() for v in facts.values()}
    found: dict[str, str] = {}
    ending = END_CALL_TOOLS | TRANSFER_TOOLS  # a hang-up's or transfer's reason is no caller's fact
    for tool in (t for t in tools if not is_ending_tool(t.tool, ending)):
        for key, value in sorted(tool.arguments.items()):
            if isinstance(value, bool) or not isinstance(value, str | int) or len(str(value)) < 2:
                continue
            if key not in facts and key not in found and str(value).lower() not in stated:
                found[key] = str(value)
    return found


def _goal(said: list[str], intent: str) -> str:
    for line in said:
        wants = _WANTS.search(line)
        if wants:
            return _wanted(line, wants)[:120]
    first = re.split(r"(?<=[.!?])\s", said[0].strip())[0]
    return first[:120] or intent


def _wanted(line: str, wants: re.Match[str]) -> str:
    """What the caller asked for as an act, with the clause that says why.

    "My rental broke down on the M6 hard shoulder, I need a tow." was drafted as goal
    "a tow": spoken back as "I'd like to a tow" and without the danger that makes it urgent.
    """
    asked = " ".join(wants.group(2).split())
    if wants.group(1).lower() in _NOUN_LEADS:
        asked = f"get {asked}"
    # the same sentence's words before the request: the situation the caller is in
    before = re.split(r"(?<=[.!?])\s", line[: wants.start()].strip())[-1].strip(" ,;:-")
    if len(before.split()) < 3:  # "Hi," or "So": no situation said
        return asked
    if before[:1].isupper() and before[1:2].islower() and not before.startswith("I "):
        before = before[0].lower() + before[1:]  # "My rental…" inside the sentence, not "I" or "M6"
    return f"{asked}, {before}"


def _expect(outcome: str, settled: list[ToolView], facts: dict[str, str]) -> dict[str, Any]:
    """What the call's settling tool calls say a good call does, conditions on stated facts."""
    if outcome == "transfer":
        return {"end": ["transfer"]}
    calls: dict[str, dict[str, Any]] = {}
    by_value = {v.lower(): k for k, v in facts.items()}
    for tool in settled:
        conditions = calls.setdefault(tool.tool, {})
        for arg, value in sorted(tool.arguments.items()):
            key = by_value.get(value.lower()) if isinstance(value, str) else None
            if key:
                conditions[arg] = {"fact": key}
    return {"calls": calls} if calls else {}


def clusters(drafts: list[Draft]) -> dict[str, list[Draft]]:
    """Drafts by intent, the most frequent intent first."""
    grouped: dict[str, list[Draft]] = {}
    for d in drafts:
        grouped.setdefault(d.intent, []).append(d)
    return dict(sorted(grouped.items(), key=lambda kv: (-len(kv[1]), kv[0])))


def suite_intents(personas: list[dict[str, Any]]) -> dict[str, list[str]]:
    """Intent → the suite's persona ids whose goal (and request) ask for it."""
    out: dict[str, list[str]] = {}
    for p in personas:
        facts = p.get("facts") or {}
        text = f"{p.get('goal', '')} {facts.get('request', '') if isinstance(facts, dict) else ''}"
        intent = intent_of(text)
        if intent == "other":
            intent = {"callback": "callback", "transfer": "human"}.get(str(p.get("outcome")), "other")
        out.setdefault(intent, []).append(str(p.get("id", "")))
    return out


def coverage(
    found: dict[str, list[Draft]], covered: dict[str, list[str]]
) -> list[tuple[str, int, list[str]]]:
    """(intent, calls, the suite's personas for it) for every intent found in the calls."""
    return [(intent, len(drafts), covered.get(intent, [])) for intent, drafts in found.items()]


# -- with a model ------------------------------------------------------------------------------


def transcript_text(view: ConversationView, limit: int = 12_000) -> str:
    """The call as a model reads it: speakers, tool calls and their results."""
    lines = []
    for t in view.turns:
        if t.caller_text:
            lines.append(f"CALLER: {t.caller_text}")
        for tool in t.tools:
            result = json.dumps(tool.result, ensure_ascii=False)[:200]
            lines.append(f"  TOOL {tool.tool}({json.dumps(tool.arguments, ensure_ascii=False)}) -> {result}")
        if t.agent_text is not None:
            lines.append(f"AGENT: {t.agent_text}")
    if view.ended is not None:
        lines.append(f"(call ended: {view.ended.reason} by {view.ended.by})")
    return "\n".join(lines)[:limit]


def refine_request(rules: Draft, transcript: str, model: str) -> dict[str, Any]:
    """One model request: read the call, correct the rules' draft of its caller."""
    schema = {
        "type": "object",
        "additionalProperties": False,
        "required": ["intent", "type", "outcome", "goal", "facts"],
        "properties": {
            "intent": {"type": "string"},
            "type": {"type": "string", "enum": list(PERSONA_TYPES)},
            "outcome": {"type": "string", "enum": list(OUTCOMES)},
            "goal": {"type": "string"},
            "facts": {"type": "object", "additionalProperties": {"type": "string"}},
        },
    }
    draft_json = json.dumps(
        {
            "intent": rules.intent,
            "type": rules.type,
            "outcome": rules.outcome,
            "goal": rules.goal,
            "facts": rules.facts,
        },
        ensure_ascii=False,
    )
    user = (
        "Here is a real phone call to an agent:\n---\n"
        f"{transcript}\n---\n"
        "Describe its caller so the call can be re-enacted as a test: the intent in one or two words "
        "(snake_case), the caller type, the outcome the caller wanted (not what happened), their goal "
        "in a few words, and the facts they stated, as strings. A draft made by rules, to correct:\n"
        f"{draft_json}"
    )
    return {
        "model": model.split("/", 1)[-1],
        "temperature": 0,
        "seed": 0,
        "messages": [{"role": "user", "content": user}],
        "response_format": {"type": "json_schema", "json_schema": {"name": "caller", "schema": schema}},
    }


def refined(rules: Draft, answer: str | None) -> Draft | str:
    """The rules' draft corrected by a model's answer, or why the answer is unusable.

    The facts the rules found stay (the ``expect`` conditions name them); the model adds to them.
    """
    try:
        data = json.loads(answer or "")
        kind, outcome, goal = str(data["type"]), str(data["outcome"]), " ".join(str(data["goal"]).split())
        facts = {str(k): str(v) for k, v in dict(data["facts"]).items()}
        intent = re.sub(r"[^a-z0-9_]+", "_", str(data["intent"]).lower()).strip("_")[:40]
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        return f"{rules.call}: unusable answer ({type(exc).__name__}): {(answer or '')[:120]}"
    if kind not in PERSONA_TYPES or outcome not in OUTCOMES or not goal or not intent:
        return f"{rules.call}: unusable answer (type {kind!r}, outcome {outcome!r}, goal {goal!r})"
    expect = (
        {"end": ["transfer"]}
        if outcome == "transfer"
        else ({} if rules.outcome == "transfer" else rules.expect)
    )
    return replace(
        rules,
        intent=intent,
        type=kind,
        outcome=outcome,
        goal=goal[:120],
        facts={**facts, **rules.facts},
        expect=expect,
    )
