"""Rendering a conversation view as the replay: the call turn by turn, from the log only.

The fold is ``polygon.projections.conversation``; this module only writes what it folded
(``polygon replay`` as text and ``--json``; ``polygon explain`` shows the call's policies).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from polygon.boundary import shown_url
from polygon.events import CheckRecorded, to_builtins
from polygon.render.explain import POSITIONS
from polygon.transcript import ConversationView, ToolView, TurnView, agent_reply_rest, silent_reply

BASELINE_CALLER = "scripted/caller"


def replay_header_lines(view: ConversationView) -> Iterator[str]:
    """Who called whom, and under which settings."""
    s = view.started
    yield f"conversation {view.conversation_id}"
    yield f"  {POSITIONS}"
    if s is not None and view.imported is not None:
        yield f"  run {s.run_id} · config {s.config} · scenario {s.scenario}"
        yield "  an imported real call: no simulated caller, no ground truth"
    elif s is not None:
        yield f"  run {s.run_id} · config {s.config} · scenario {s.scenario} · trial {s.trial}"
        # shown masked even when recorded whole (a run an older Polygon wrote)
        yield f"  agent {shown_url(s.agent)} · noise {s.noise_intensity:g} · max turns {s.max_turns}"
        yield f"  seed {s.seed}"
        caller = s.caller_model + (
            " (scripted baseline, not a model)" if s.caller_model == BASELINE_CALLER else ""
        )
        yield f"  caller {caller}"
        if s.source_conversation:
            yield f"  re-driven from {s.source_conversation}"
        if s.persona is not None:
            p = s.persona
            facts = ", ".join(f"{k}={v}" for k, v in sorted(p.facts.items()))
            yield f"  persona {p.persona_id}: {p.type}, wants {p.outcome}, level {p.difficulty}"
            yield f"    goal: {p.goal}"
            yield f"    facts: {facts}"
    if view.imported is not None:
        i = view.imported
        yield f"  imported from {i.source_file}:{i.line} ({i.format})"
        if i.source_id:
            yield f"  platform call id: {i.source_id}"


def replay_turn_lines(t: TurnView) -> Iterator[str]:
    """One exchange."""
    yield f"── turn {t.turn} " + "─" * 40
    for phone in t.phone:
        if phone.kind == "barge_in":
            yield f"  BARGE-IN: the caller {phone.detail}, hearing only: {phone.heard!r}"
    if t.caller_text:
        intent = f"  [{t.caller_intent}]" if t.caller_intent else ""
        yield f"  CALLER said   #{t.caller_at}: {t.caller_text}{intent}"
    elif t.caller_intent == "silence":
        yield f"  CALLER said   #{t.caller_at}: (silence — nothing)"
    for phone in t.phone:
        if phone.kind == "self_correction":
            yield f"    self-correction: {phone.detail}"
    for op in t.noise_ops:
        if op.kind == "filler":
            yield f"    noise filler: + {op.after!r}"
        elif op.kind == "drop":
            yield f"    noise drop @{op.position}: - {op.before!r}"
        else:
            yield f"    noise {op.kind} @{op.position}: {op.before!r} → {op.after!r}"
    if t.heard_text is not None and t.heard_text != t.caller_text:
        yield f"  AGENT heard  #{t.noise_at}: {t.heard_text}"
    beside = {x.index: x for x in t.beside_tools}
    for tool in t.tools:
        if (spoken := beside.pop(tool.index, None)) is not None:
            yield f"  AGENT said   #{spoken.at}, calling tools: {spoken.text}"
        yield from _tool_lines(tool)
    for spoken in beside.values():
        yield f"  AGENT said   #{spoken.at}, calling tools: {spoken.text}"
    if t.agent_text is not None:
        end = f"  [ends call: {t.agent_end}]" if t.agent_end else ""
        took = f"  ({t.agent_latency_ms:.0f} ms)" if t.agent_latency_ms else ""
        text = (agent_reply_rest(t) or "(nothing more)") if t.beside_tools else t.agent_text
        if silent_reply(t):  # an empty model reply: the caller heard nothing (check agent_silent)
            text = f"(silence — said nothing: {t.agent_text!r})"
        yield f"  AGENT said   #{t.agent_at}: {text}{end}{took}"


def _tool_lines(tool: ToolView) -> Iterator[str]:
    args = json.dumps(tool.arguments, ensure_ascii=False, sort_keys=True)
    validity = "valid" if tool.valid else "INVALID: " + "; ".join(tool.validation_errors)
    yield f"    tool #{tool.at} {tool.tool}({args}) — {validity}, {tool.latency_ms:.0f} ms"
    if tool.unpaired:
        yield f"      UNPAIRED: {tool.unpaired}"
    if tool.fault:
        yield f"      injected fault: {tool.fault}"
    if tool.error:
        yield f"      error: {tool.error}"
    else:
        yield f"      result: {json.dumps(tool.result, ensure_ascii=False, sort_keys=True)}"


def replay_ending_lines(view: ConversationView) -> Iterator[str]:
    """How and why the call ended."""
    e = view.ended
    if e is None:
        yield "── the call has no end in the log (still running, or the run was killed)"
        return
    loop = " (loop detected)" if e.loop_detected else ""
    detail = f": {e.detail}" if e.detail else ""
    yield f"── ended #{view.ended_at}: {e.reason} by {e.by} after {e.turns} turns{loop}{detail}"
    if view.imported is not None and view.imported.source_end_reason:
        yield f"  the platform said: {view.imported.source_end_reason}"
    for store, state in sorted(e.final_state.items()):
        yield f"  final {store}: {json.dumps(state, ensure_ascii=False, sort_keys=True)}"


def replay_policy_lines(broken: list[CheckRecorded]) -> Iterator[str]:
    """Each suite policy the call broke: the rule, and the turn and tool call or words that broke it."""
    for check in broken:
        yield f"── policy {check.check.removeprefix('policy:')} BROKEN: {check.detail}"
        for ev in check.evidence:
            yield f"  turn {ev.turn} #{ev.at}: {ev.quote}"


def replay_data(view: ConversationView, broken: list[CheckRecorded]) -> dict[str, Any]:
    """The same content as plain data (``--json``), with the policies the call broke if any."""
    data: dict[str, Any] = to_builtins(view)
    if broken:
        data["broken_policies"] = to_builtins(broken)
    return data
