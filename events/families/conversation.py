"""Conversation events: one ``conv/ID`` stream per simulated or imported call."""

from __future__ import annotations

import msgspec

from polygon.events.registry import Event, event_type


class PersonaSnapshot(msgspec.Struct, frozen=True, kw_only=True):
    """The caller as it was when the conversation started (events stay self-contained)."""

    persona_id: str
    """Id of the persona in the suite."""
    type: str
    """cooperative, busy, distrustful, confused, aggressive or chatty."""
    outcome: str
    """Intended outcome: success, refusal, callback or transfer."""
    difficulty: int
    """1 (easy) to 5 (hard)."""
    goal: str
    """What the caller wants, in words."""
    facts: dict[str, str]
    """Ground truth the caller knows (name, numbers, dates, the request)."""
    language: str = "en"
    """Language of the call (selects the noise pack)."""
    prompt_hash: str = ""
    """Hash of the agent prompt the persona was generated from (empty if hand-written)."""


class SaidBefore(msgspec.Struct, frozen=True, kw_only=True):
    """One of ``phrase`` is said in an agent turn before the turn of ``tool``'s first call."""

    phrase: list[str]
    """Alternatives: any one of them (case aside) will do."""
    tool: str
    """The tool whose first call must come after the phrase (the phrase is needed either way)."""


class Expectation(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """What a scenario expects of the call, judged by its end state (``goal_reached``).

    Conditions are those of stub rules, or ``{fact: key}`` (see :mod:`polygon.matching`).
    """

    end: list[str] = []
    """End reasons that count (any, when empty)."""
    state: dict[str, dict[str, object]] = {}
    """Stateful store → key → condition on the key's final value (``{exists: false}``: absent)."""
    calls: dict[str, dict[str, object]] = {}
    """Tool → argument → condition: at least one valid, answered call must meet them all."""
    no_calls: list[str] = []
    """Tools that must not be called."""
    before: list[list[str]] = []
    """Tool orders: the first call of each tool listed comes before the next one's (each must be
    called)."""
    says: list[list[str]] = []
    """Speech the agent must say: each item lists alternative phrases, one of which (case aside)
    is in some agent turn."""
    says_before: list[SaidBefore] = []
    """Speech the agent must say before a tool's first call."""
    fallback_end: list[str] = []
    """End reasons that meet ``end``, ``state`` and ``calls`` when every call of a tool ``calls``
    names answered an error (an injected fault, a 500): the agent handed the caller on."""


@event_type(version=1)
class ConversationStarted(Event, frozen=True, kw_only=True, tag="conversation.started"):
    """A call began."""

    run_id: str
    """Run the conversation belongs to."""
    conversation_id: str
    """Conversation id (also in the stream name)."""
    config: str
    """Name of the agent configuration under test."""
    scenario: str
    """Scenario id."""
    trial: int
    """Trial number, 0-based."""
    seed: int
    """Conversation seed, derived from the run seed."""
    persona: PersonaSnapshot | None = None
    """The simulated caller; None for imported calls."""
    caller_model: str = ""
    """Model reference of the caller (``scripted/caller`` offline)."""
    agent: str = ""
    """How the agent is plugged in (``python:module:factory``, ``http:URL``, ``model:…``)."""
    noise_intensity: float = 0.0
    """ASR noise knob, 0–1."""
    max_turns: int = 0
    """Turn limit (caller + agent turns counted as one exchange)."""
    initial_state: dict[str, dict[str, str]] = {}
    """Stateful stub stores as the call began (outcome checks compare the end state)."""
    source_conversation: str = ""
    """For a re-driven call: the conversation whose caller turns it replayed."""
    expect: Expectation | None = None
    """The scenario's expected outcome, if it declares one."""
    latency_budget_ms: float = 0.0
    """The suite's budget for the p95 of agent turn latency in one call (0: none)."""


@event_type(version=1)
class TurnSpoken(Event, frozen=True, kw_only=True, tag="conversation.turn_spoken"):
    """Someone spoke. Caller turns carry the clean text; ``noise.applied`` has what was heard."""

    conversation_id: str
    """Conversation id."""
    turn: int
    """Exchange number from 1; a caller turn and the agent's answer share it."""
    speaker: str
    """``caller`` or ``agent``."""
    text: str
    """What was said (for the caller: what it meant, before noise). For the agent: all it said
    in the exchange, in order — text it gave beside tool calls (``conversation.spoken_beside_tools``)
    first, then its final reply, joined by a space."""
    intent: str = ""
    """Scripted caller's intent label (``give_fact``, ``complain`` …), for audit."""
    ends_call: str = ""
    """``hangup`` or ``transfer`` if this turn ends the call, else empty."""
    latency_ms: float = 0.0
    """Agent turns: how long the answer took — wall time of an HTTP or model agent, plus the
    simulated latency of the stub tools it called (never slept). A Python agent's own time
    is not counted: it would make identical runs differ."""


@event_type(version=1)
class SpokenBesideTools(Event, frozen=True, kw_only=True, tag="conversation.spoken_beside_tools"):
    """The agent said something in the same reply as tool calls.

    An LLM's ``content`` beside its ``tool_calls``: the caller hears it as the tools run, so
    it is recorded before those calls, and the exchange's agent ``conversation.turn_spoken``
    holds it too (every such text in order, then the final reply): every check reads what
    was heard. Recorded only where an agent gives such text.
    """

    conversation_id: str
    """Conversation id."""
    turn: int
    """The exchange it was said in."""
    index: int
    """``tool.called`` index of the first call it came with: it counts as said before that call."""
    text: str
    """What was said."""


@event_type(version=1)
class ConversationEnded(Event, frozen=True, kw_only=True, tag="conversation.ended"):
    """A call ended, and why."""

    conversation_id: str
    """Conversation id."""
    reason: str
    """hangup, transfer, caller_done, max_turns, loop, agent_error."""
    by: str
    """Who ended it: ``caller``, ``agent`` or ``engine``."""
    turns: int
    """Exchanges completed."""
    loop_detected: bool = False
    """True when loop detection ended the call."""
    detail: str = ""
    """Human-readable detail (the error text, the repeated reply …)."""
    tool_state: dict[str, str] = {}
    """Stateful stub name → hash of its final state."""
    final_state: dict[str, object] = {}
    """Stateful stub name → its final state (for outcome checks)."""
    latency_p50_ms: float = 0.0
    """Median of the agent's turn latencies (``turn_spoken.latency_ms``)."""
    latency_p95_ms: float = 0.0
    """95th percentile (nearest rank) of the agent's turn latencies."""
