"""The transcript: one call, turn by turn, folded from its stream (the conversation view).

It lives in the domain because checks and judges read it; the projections re-export it.

A pure fold: ``apply(view, envelope)`` with no clock, randomness or I/O. Tags that belong
to other projections (checks, judge, probes, model calls) are passed over on purpose;
a tag this projection has never heard of stops the fold with its sequence number.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from typing import Any

import msgspec

from polygon.events import (
    ConversationEnded,
    ConversationStarted,
    Envelope,
    NoiseApplied,
    NoiseOp,
    PhoneApplied,
    SpokenBesideTools,
    ToolCalled,
    TranscriptImported,
    TurnSpoken,
)

VERSION = 1
PASSED_OVER = frozenset(
    {"check.recorded", "judge.scored", "probe.answered", "model.called", "rubric.recorded"}
)


class ProjectionError(Exception):
    """A projection met an event it cannot fold."""


class ToolView(msgspec.Struct, kw_only=True):
    """One tool call as the replay shows it."""

    at: int
    """Its position in the call's stream (``at`` everywhere in a view): unlike the log's
    sequence number, the same in every run of the call, which commits calls in no fixed
    order when it scores beside its simulation or runs on Ray."""
    index: int
    tool: str
    arguments: dict[str, Any]
    valid: bool
    validation_errors: list[str]
    result: Any
    error: str
    fault: str
    latency_ms: float
    validated: bool = True
    stub_broken: bool = False
    unpaired: str = ""
    """An imported call without its partner in the export (see ``tool.called``)."""


class SpokenView(msgspec.Struct, kw_only=True):
    """What the agent said beside tool calls (``conversation.spoken_beside_tools``)."""

    at: int
    index: int
    """The index of the first tool call it came with (it was heard as that call ran)."""
    text: str


class TurnView(msgspec.Struct, kw_only=True):
    """One exchange: the caller, the noise, the tools, the agent."""

    turn: int
    caller_text: str = ""
    caller_intent: str = ""
    caller_ends: str = ""
    caller_at: int = 0
    heard_text: str | None = None
    noise_ops: list[NoiseOp] = msgspec.field(default_factory=list)
    noise_at: int = 0
    tools: list[ToolView] = msgspec.field(default_factory=list)
    agent_text: str | None = None
    agent_end: str = ""
    agent_at: int = 0
    agent_latency_ms: float = 0.0
    phone: list[PhoneApplied] = msgspec.field(default_factory=list)
    """Barge-in, silence, self-correction at this caller turn."""
    beside_tools: list[SpokenView] = msgspec.field(default_factory=list)
    """What the agent said with tool calls, before them; ``agent_text`` holds it too."""


class ConversationView(msgspec.Struct, kw_only=True):
    """Everything the log says about one call's course."""

    conversation_id: str
    started: ConversationStarted | None = None
    imported: TranscriptImported | None = None
    turns: list[TurnView] = msgspec.field(default_factory=list)
    ended: ConversationEnded | None = None
    ended_at: int = 0

    @property
    def language(self) -> str:
        """The language the call was held in: its persona's (English for an imported call without one)."""
        persona = self.started.persona if self.started else None
        return persona.language if persona else "en"

    def turn(self, n: int) -> TurnView:
        """The view of exchange ``n``, created on first use (turns arrive in order)."""
        if not self.turns or self.turns[-1].turn != n:
            for t in self.turns:
                if t.turn == n:
                    return t
            self.turns.append(TurnView(turn=n))
        return self.turns[-1]


def apply(view: ConversationView, env: Envelope) -> ConversationView:
    """Fold one event into the view."""
    p = env.payload
    if isinstance(p, ConversationStarted):
        view.started = p
    elif isinstance(p, TranscriptImported):
        view.imported = p
    elif isinstance(p, TurnSpoken):
        _spoken(view.turn(p.turn), p, env.stream_version)
    elif isinstance(p, NoiseApplied):
        t = view.turn(p.turn)
        t.heard_text, t.noise_ops, t.noise_at = p.heard_text, list(p.ops), env.stream_version
    elif isinstance(p, ToolCalled):
        view.turn(p.turn).tools.append(
            ToolView(
                at=env.stream_version,
                index=p.index,
                tool=p.tool,
                arguments=p.arguments,
                valid=p.valid,
                validation_errors=list(p.validation_errors),
                result=p.result,
                error=p.error,
                fault=p.fault,
                latency_ms=p.latency_ms,
                validated=p.validated,
                stub_broken=p.stub_broken,
                unpaired=p.unpaired,
            )
        )
    elif isinstance(p, PhoneApplied):
        view.turn(p.turn).phone.append(p)
    elif isinstance(p, SpokenBesideTools):
        _beside_tools(view.turn(p.turn), p, env.stream_version)
    elif isinstance(p, ConversationEnded):
        view.ended, view.ended_at = p, env.stream_version
    elif env.tag not in PASSED_OVER:
        raise ProjectionError(f"event #{env.seq}: the conversation view does not know {env.tag!r}")
    return view


def _spoken(t: TurnView, p: TurnSpoken, at: int) -> None:
    if p.speaker == "caller":
        t.caller_text, t.caller_intent, t.caller_at = p.text, p.intent, at
        t.caller_ends = p.ends_call
    else:
        t.agent_text, t.agent_end, t.agent_at = p.text, p.ends_call, at
        t.agent_latency_ms = p.latency_ms


def _beside_tools(t: TurnView, p: SpokenBesideTools, at: int) -> None:
    """Text said beside tool calls joins ``agent_text`` at once.

    It was heard already: checks read it even if the turn never ends in a reply (an agent
    error in a later tool round); the turn's ``turn_spoken`` replaces it with the whole.
    """
    # the turn's own turn_spoken, folded already (an import re-read into an older stream), stays
    whole = t.agent_text is not None and not (t.beside_tools and t.agent_at == t.beside_tools[0].at)
    t.beside_tools.append(SpokenView(at=at, index=p.index, text=p.text))
    if whole:
        return
    if t.agent_text is None:
        t.agent_at = at
    t.agent_text = " ".join(x.text.strip() for x in t.beside_tools if x.text.strip())


def agent_reply_rest(t: TurnView) -> str:
    """The agent's final reply of the turn: ``agent_text`` less what it said beside tools."""
    text = t.agent_text or ""
    before = " ".join(x.text.strip() for x in t.beside_tools if x.text.strip())
    return text[len(before) :].strip() if before and text.startswith(before) else text


def silent_reply(t: TurnView) -> bool:
    """The agent answered this turn with silence: no word, no tool call, and it did not end the call.

    Empty, whitespace or punctuation only ("", " ", "..."): what a model that returns an
    empty reply makes the caller hear. A lookup without words is work, and a wordless
    hang-up or transfer ends the call: neither is silence (``check:agent_silent``).
    """
    return t.agent_text is not None and not _WORD.search(t.agent_text) and not t.tools and not t.agent_end


_WORD = re.compile(r"\w")


def build(conversation_id: str, events: Iterable[Envelope]) -> ConversationView:
    """Fold a whole stream."""
    view = ConversationView(conversation_id=conversation_id)
    for env in events:
        view = apply(view, env)
    return view


def transcript_text(view: ConversationView) -> str:
    """The call as the judge reads it: what was said, what the agent heard, tools used."""
    lines = []
    for t in view.turns:
        if t.caller_text:
            lines.append(f"[{t.turn}] CALLER: {t.caller_text}")
            if t.heard_text is not None and t.heard_text != t.caller_text:
                lines.append(f"[{t.turn}]   (agent heard: {t.heard_text})")
        lines.extend(_tool_and_agent_lines(t))
    if view.ended is not None:
        lines.append(f"(call ended: {view.ended.reason} by {view.ended.by})")
    return "\n".join(lines)


def _tool_and_agent_lines(t: TurnView) -> list[str]:
    """Tools in order, each after what the agent said with it, then the agent's reply."""
    lines = []
    beside = {x.index: x.text for x in t.beside_tools}
    for c in t.tools:
        if c.index in beside:
            lines.append(f"[{t.turn}] AGENT (as it calls tools): {beside.pop(c.index)}")
        outcome = f"error: {c.error}" if c.error else f"result: {json.dumps(c.result, sort_keys=True)}"
        valid = "" if c.valid else " INVALID ARGUMENTS"
        args = json.dumps(c.arguments, sort_keys=True)
        lines.append(f"[{t.turn}]   TOOL {c.tool}({args}){valid} → {outcome}")
    lines.extend(f"[{t.turn}] AGENT (as it calls tools): {text}" for text in beside.values())
    rest = agent_reply_rest(t)
    if t.agent_text is not None and (rest or not t.beside_tools):
        lines.append(f"[{t.turn}] AGENT: {rest}")
    return lines
