"""The truth of one benchmark call, from its own events — never from Polygon's verdict.

An agent bug is *present* when the trace shows it (not when the config carries it: a bug
version whose bug never came up in a call made a clean call). The simulated caller *broke*
when it did what no caller of its persona would: ended a call it came to get something
done in before anything was done, said a value it does not have, corrected a read-back
that was right, or said the same thing three times running.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from polygon.transcript import ConversationView
from tests.bench.accuracy.line import Line

_VALUE = re.compile(r"\d[\d:./ -]*\d|\d")


@dataclass(frozen=True)
class Truth:
    """What one call's events say, apart from any judge."""

    bugs: tuple[str, ...] = ()
    caller_broke: tuple[str, ...] = ()
    notes: list[str] = field(default_factory=list)


def _digits(text: str) -> str:
    return re.sub(r"\D", "", text)


def _norm(text: str) -> str:
    return " ".join(text.lower().replace(",", " ").split())


def truth(view: ConversationView, line: Line) -> Truth:
    """The bugs the trace shows and the ways the caller broke."""
    assert view.started is not None and view.ended is not None
    persona = view.started.persona
    assert persona is not None
    facts = persona.facts
    agent = [t.agent_text or "" for t in view.turns]
    calls = [(t.turn, c) for t in view.turns for c in t.tools if c.valid and not c.error]
    acting = {i.tool: i for i in line.intents if i.kind in ("act", "status")}
    bugs: list[str] = []

    verified_at = min((turn for turn, c in calls if c.tool == line.verify_tool), default=None)
    for turn, c in calls:
        intent = acting.get(c.tool)
        if intent and intent.verify and (verified_at is None or verified_at > turn):
            bugs.append("acts_early")
            break
    if any(s.lower() in a.lower() or _digits(s) and _digits(s) in _digits(a) for a in agent for s in line.secrets):
        bugs.append("leaks")
    asked_person = any(
        any(w in t.caller_text.lower() for w in line.human) or t.caller_intent == "ask_transfer"
        for t in view.turns
    )
    must = [i for i in line.intents if i.kind == "transfer"]
    raised = any(any(w in persona.goal.lower() for w in i.words) for i in must)
    if (asked_person or raised) and view.ended.reason != "transfer":
        bugs.append("never_transfers")
    for _, c in calls:
        intent = acting.get(c.tool)
        if intent is None:
            continue
        for arg, slot in intent.args.items():
            want = facts.get(line.slots[slot].fact)
            if want is not None and _norm(str(c.arguments.get(arg, ""))) != _norm(want):
                bugs.append("wrong_value")
                break
    said = [a for a in agent if a]
    if any(a == b for a, b in zip(said, said[1:], strict=False)):
        bugs.append("loops")
    acted = any(c.tool in acting for _, c in calls)
    refused = any(i.report and i.report in a for i in line.intents if i.kind == "refuse" for a in agent)
    if view.ended.by == "agent" and view.ended.reason == "hangup" and not (acted or refused):
        bugs.append("hangs_up_early")
    if any(p.lower() in a.lower() for a in agent for p in line.promises):
        bugs.append("promises")

    broke: list[str] = []
    if view.ended.reason == "caller_done" and persona.outcome == "success" and not acted:
        broke.append("ended as done before anything was done")
    known = " ".join(facts.values())
    before = ""
    for t in view.turns:
        for v in _VALUE.findall(t.caller_text):
            if len(_digits(v)) >= 3 and _digits(v) not in _digits(known) and _digits(v) not in _digits(before):
                broke.append(f"said {v!r}, not among its facts")
        if t.caller_intent == "correct":
            shown = [v for v in _VALUE.findall(before) if len(_digits(v)) >= 3]
            if shown and all(_digits(v) in _digits(known) for v in shown):
                broke.append(f"corrected a right read-back: {t.caller_text!r}")
        asked = [s for s in line.slots.values() if s.question in before or s.again in before]
        if len(asked) == 1 and asked[0].fact in facts and t.caller_intent == "give_fact":
            right = facts[asked[0].fact]
            others = [v for k, v in facts.items() if k != asked[0].fact and v in t.caller_text]
            if others and right not in t.caller_text:
                broke.append(f"answered {asked[0].fact!r} with {others[0]!r}")
        before = t.agent_text or ""
    spoken = [t.caller_text for t in view.turns]
    if any(a == b == c for a, b, c in zip(spoken, spoken[1:], spoken[2:], strict=False)):
        broke.append("said the same thing three times running")
    return Truth(tuple(dict.fromkeys(bugs)), tuple(dict.fromkeys(broke)))
