"""The conversation engine: one whole simulated call, every step an event.

A conversation is the unit of work: given its plan (suite slice, configuration, scenario,
seed) it writes its events through a sink and nothing else, so it can run in any process
and a resumed or distributed run ends with exactly the events of an uninterrupted one.
"""

from __future__ import annotations

import hashlib
import inspect
import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Protocol

from polygon.agents import Agent, AgentError, AgentReply, AgentStep, Message, ToolCall, ToolResult
from polygon.caller import ScriptedCaller, Utterance
from polygon.events import content_hash, to_builtins
from polygon.events.families import (
    ConversationEnded,
    ConversationStarted,
    NoiseApplied,
    PersonaSnapshot,
    ToolCalled,
    TurnSpoken,
)
from polygon.loops import is_loop
from polygon.noise import apply_noise
from polygon.recorder import Sink
from polygon.suite import ToolSpec
from polygon.tools import ToolBox

MAX_TOOL_ROUNDS = 4


Monitor = Callable[[int, AgentReply, list[ToolCall]], str | None]
"""Looks at each agent turn; a non-empty answer ends the call (reason ``diverged``)."""


class Caller(Protocol):
    """The simulated caller: scripted (sync) or model-driven (async)."""

    def next(self, agent_text: str | None) -> Utterance | Awaitable[Utterance]:
        """The caller's next turn given what the agent last said."""
        ...


@dataclass(frozen=True)
class ConversationPlan:
    """Everything one call needs; identical plans give identical events."""

    run_id: str
    run_seed: int
    conversation_id: str
    config: str
    scenario: str
    trial: int
    seed: int
    persona: PersonaSnapshot | None
    max_turns: int
    noise_intensity: float
    noise_language: str
    agent_ref: str
    tools: tuple[ToolSpec, ...]
    stores: dict[str, dict[str, str]]
    caller_model: str = "scripted/caller"
    source_conversation: str = ""

    @property
    def noise_key(self) -> str:
        """The noise key: scenario and trial, not configuration.

        So every version under comparison hears the same distortions at the same turn.
        """
        return f"{self.scenario}.{self.trial}"


def conversation_seed(run_seed: int, scenario: str, trial: int) -> int:
    """A conversation's seed; shared by every configuration meeting this scenario."""
    data = f"conversation\x00{run_seed}\x00{scenario}\x00{trial}".encode()
    return int.from_bytes(hashlib.blake2b(data, digest_size=6).digest(), "big")


def tool_definitions(tools: tuple[ToolSpec, ...]) -> list[dict[str, Any]]:
    """The tools as OpenAI function definitions."""
    return [
        {
            "type": "function",
            "function": {"name": t.name, "description": t.description, "parameters": t.parameters},
        }
        for t in tools
    ]


@dataclass(frozen=True)
class _Ending:
    reason: str
    by: str
    detail: str = ""
    loop: bool = False


class Conversation:
    """Runs one plan against one agent, emitting events to a sink."""

    def __init__(
        self,
        plan: ConversationPlan,
        agent: Agent,
        sink: Sink,
        caller: Caller | None = None,
        monitor: Monitor | None = None,
    ) -> None:
        self.plan = plan
        self.agent = agent
        self.sink = sink
        if caller is None:
            if plan.persona is None:
                raise ValueError("a conversation without a persona needs an explicit caller")
            caller = ScriptedCaller(plan.persona, plan.seed)
        self.caller: Caller = caller
        self.monitor = monitor
        self.turn_tools: list[ToolCall] = []
        self.toolbox = ToolBox.for_call(list(plan.tools), plan.stores, plan.seed)
        self.history: list[Message] = []
        self.definitions = tool_definitions(plan.tools)

    async def run(self) -> str:
        """Play the call to its end; returns the end reason."""
        p = self.plan
        self.sink.emit(
            "started",
            ConversationStarted(
                run_id=p.run_id,
                conversation_id=p.conversation_id,
                config=p.config,
                scenario=p.scenario,
                trial=p.trial,
                seed=p.seed,
                persona=p.persona,
                caller_model=p.caller_model,
                agent=p.agent_ref,
                noise_intensity=p.noise_intensity,
                max_turns=p.max_turns,
                initial_state={name: dict(state) for name, state in sorted(p.stores.items())},
                source_conversation=p.source_conversation,
            ),
        )
        ending, turns = await self._turns()
        self.sink.emit(
            "ended",
            ConversationEnded(
                conversation_id=p.conversation_id,
                reason=ending.reason,
                by=ending.by,
                turns=turns,
                loop_detected=ending.loop,
                detail=ending.detail,
                tool_state={name: _hash_state(s) for name, s in sorted(self.toolbox.stores.items())},
                final_state=dict(self.toolbox.final_state()),
            ),
            turn=turns,
        )
        self._flush()
        return ending.reason

    def _flush(self) -> None:
        flush = getattr(self.sink, "flush", None)  # durable sinks commit at exchange boundaries
        if flush is not None:
            flush()

    async def _turns(self) -> tuple[_Ending, int]:
        agent_said: str | None = None
        replies: list[str] = []
        for turn in range(1, self.plan.max_turns + 1):
            said = self.caller.next(agent_said)
            utterance = await said if inspect.isawaitable(said) else said
            self._emit_caller(turn, utterance)
            if utterance.ends_call:
                reason = "hangup" if utterance.ends_call == "hangup" else "caller_done"
                return _Ending(reason, "caller"), turn
            heard = self._hear(turn, utterance.text)
            try:
                reply = await self._agent_turn(turn, heard)
            except AgentError as exc:
                return _Ending("agent_error", "agent", str(exc)), turn
            self.sink.emit(
                "agent_turn",
                TurnSpoken(
                    conversation_id=self.plan.conversation_id,
                    turn=turn,
                    speaker="agent",
                    text=reply.reply,
                    ends_call=reply.end,
                ),
                turn=turn,
            )
            self._flush()
            if reply.end:
                return _Ending(reply.end, "agent"), turn
            stop = self.monitor(turn, reply, self.turn_tools) if self.monitor else None
            if stop:
                return _Ending("diverged", "engine", stop), turn
            if replies and is_loop(replies[-1], reply.reply):
                return _Ending("loop", "engine", reply.reply, loop=True), turn
            replies.append(reply.reply)
            agent_said = reply.reply
        return _Ending("max_turns", "engine"), self.plan.max_turns

    def _emit_caller(self, turn: int, utterance: Utterance) -> None:
        self.sink.emit(
            "caller_turn",
            TurnSpoken(
                conversation_id=self.plan.conversation_id,
                turn=turn,
                speaker="caller",
                text=utterance.text,
                intent=utterance.intent,
                ends_call="hangup" if utterance.ends_call == "hangup" else "",
            ),
            turn=turn,
        )

    def _hear(self, turn: int, text: str) -> str:
        p = self.plan
        heard, ops, seed = apply_noise(
            text,
            intensity=p.noise_intensity,
            language=p.noise_language,
            run_seed=p.run_seed,
            conversation=p.noise_key,
            turn=turn,
        )
        self.sink.emit(
            "noise",
            NoiseApplied(
                conversation_id=p.conversation_id,
                turn=turn,
                intensity=p.noise_intensity,
                language=p.noise_language,
                clean_text=text,
                heard_text=heard,
                ops=ops,
                rng_seed=seed,
            ),
            turn=turn,
        )
        return heard

    async def _agent_turn(self, turn: int, heard: str) -> AgentReply:
        self.history.append(Message(role="user", content=heard))
        self.turn_tools = []
        results: list[ToolResult] = []
        calls_made = 0
        for _ in range(MAX_TOOL_ROUNDS + 1):
            reply = await self.agent.step(
                AgentStep(
                    conversation_id=self.plan.conversation_id,
                    turn=turn,
                    heard=heard,
                    history=list(self.history),
                    tool_results=results,
                    tools=self.definitions,
                )
            )
            if not reply.tool_calls:
                self.history.append(Message(role="assistant", content=reply.reply))
                return reply
            self.history.append(Message(role="assistant", content=reply.reply, tool_calls=reply.tool_calls))
            results = [self._call_tool(turn, calls_made + i, call) for i, call in enumerate(reply.tool_calls)]
            calls_made += len(reply.tool_calls)
        raise AgentError(f"agent asked for tools more than {MAX_TOOL_ROUNDS} times in one turn")

    def _call_tool(self, turn: int, index: int, call: ToolCall) -> ToolResult:
        self.turn_tools.append(call)
        out = self.toolbox.call(call.name, call.arguments, turn=turn, index=index)
        self.sink.emit(
            "tool",
            ToolCalled(
                conversation_id=self.plan.conversation_id,
                turn=turn,
                index=index,
                call_id=call.id,
                tool=call.name,
                arguments=to_builtins(out.arguments),
                valid=out.valid,
                validation_errors=out.validation_errors,
                result=to_builtins(out.result),
                error=out.error,
                fault=out.fault,
                latency_ms=round(out.latency_ms, 3),
                state_hash=out.state_hash,
            ),
            turn=turn,
            index=index,
        )
        result = ToolResult(call_id=call.id, name=call.name, result=out.result, error=out.error)
        self.history.append(
            Message(
                role="tool",
                tool_call_id=call.id,
                name=call.name,
                content=out.error or _as_text(out.result),
            )
        )
        return result


def _hash_state(state: dict[str, str]) -> str:
    return content_hash(state, size=8)


def _as_text(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, sort_keys=True, ensure_ascii=False)
