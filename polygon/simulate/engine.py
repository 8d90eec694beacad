"""The conversation engine: one whole simulated call, every step an event.

A conversation is the unit of work: given its plan (suite slice, configuration, scenario,
seed) it writes its events through a sink and nothing else, so it can run in any process
and a resumed or distributed run ends with exactly the events of an uninterrupted one.
"""

from __future__ import annotations

import asyncio
import inspect
import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from polygon.boundary import log_safe, safe_text, shown_url
from polygon.events import (
    AGENT_TURN,
    CALLER_TURN,
    ENDED,
    NOISE,
    PHONE,
    STARTED,
    TOOL,
    ConversationEnded,
    ConversationStarted,
    NoiseApplied,
    PhoneApplied,
    SpokenBesideTools,
    ToolCalled,
    TurnSpoken,
    content_hash,
    keyed,
    to_builtins,
)
from polygon.languages import caller_language
from polygon.recording import Sink
from polygon.similarity import LoopWatch, lost_a_fact, unanswered
from polygon.simulate.agents import Agent, AgentError, AgentReply, AgentStep, Message, ToolCall, ToolResult
from polygon.simulate.callers import Caller, CallerError, HearsCuts, Utterance
from polygon.simulate.callers.scripted import ScriptedCaller
from polygon.simulate.latency import percentile
from polygon.simulate.noise import apply_noise
from polygon.simulate.phone import TurnDraw, cut_reply, draw, self_correct
from polygon.simulate.plan import ConversationPlan, tool_definitions
from polygon.simulate.tools import ToolBox

MAX_TOOL_ROUNDS = 4
MAX_TOOL_CALLS = 32
"""Most tool calls one reply may ask for: past it the reply is a protocol violation, refused
before any call is made or recorded (a reply of thousands would bloat the log and stall scoring)."""
AGENT_ENDINGS = ("", "hangup", "transfer")


Monitor = Callable[[int, AgentReply, list[ToolCall]], str | None]
"""Looks at each agent turn; a non-empty answer ends the call (reason ``diverged``)."""


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
        # Wall time is measured where the agent is elsewhere (HTTP, a model); a Python
        # agent's own time would make identical runs differ.
        self.timed = not plan.agent_ref.startswith("python:")
        self.latencies: list[float] = []
        self.turn_latency = 0.0
        self.heard_ops: list[str] = []
        """Kinds of noise on the caller's latest turn: a repeat after garbling is a re-ask."""
        self.heard_lost = False
        """The noise lost a word of a caller's fact in its latest turn: a repeat is a re-ask."""

    async def run(self) -> str:
        """Play the call to its end; returns the end reason."""
        p = self.plan
        self.sink.emit(
            STARTED,
            ConversationStarted(
                run_id=p.run_id,
                conversation_id=p.conversation_id,
                config=p.config,
                scenario=p.scenario,
                trial=p.trial,
                seed=p.seed,
                persona=p.persona,
                caller_model=p.caller_model,
                agent=shown_url(p.agent_ref),
                noise_intensity=p.noise_intensity,
                max_turns=p.max_turns,
                initial_state={name: dict(state) for name, state in sorted(p.stores.items())},
                source_conversation=p.source_conversation,
                expect=p.expect,
                latency_budget_ms=p.latency_budget_ms,
            ),
        )
        ending, turns = await self._turns()
        self.sink.emit(
            ENDED,
            ConversationEnded(
                conversation_id=p.conversation_id,
                reason=ending.reason,
                by=ending.by,
                turns=turns,
                loop_detected=ending.loop,
                detail=ending.detail,
                tool_state={name: _hash_state(s) for name, s in sorted(self.toolbox.stores.items())},
                final_state=dict(self.toolbox.final_state()),
                latency_p50_ms=percentile(self.latencies, 50),
                latency_p95_ms=percentile(self.latencies, 95),
            ),
            turn=turns,
        )
        self.sink.flush()
        return ending.reason

    async def _turns(self) -> tuple[_Ending, int]:
        agent_said: str | None = None
        loops = LoopWatch()
        silent = False
        for turn in range(1, self.plan.max_turns + 1):
            drawn = self._phone_draw(turn, agent_said)
            cut_at = drawn.barge_in_at if drawn is not None else 0
            cut = bool(cut_at and agent_said)  # the caller barged into the agent's last reply
            if cut and agent_said:
                agent_said = self._barge_in(turn, agent_said, cut_at)
            # Silence: never twice running, never on top of a barge-in.
            silent = drawn is not None and drawn.silent and not silent and not cut
            try:
                utterance = await self._utterance(turn, agent_said, drawn, silent)
            except CallerError as exc:
                return _Ending("simulator_error", "simulator", str(exc)), turn - 1
            self._emit_caller(turn, utterance)
            if utterance.ends_call:
                reason = "hangup" if utterance.ends_call == "hangup" else "caller_done"
                return _Ending(reason, "caller"), turn
            heard = self._hear(turn, utterance.text)
            try:
                reply = await self._agent_turn(turn, heard)
            except AgentError as exc:
                return _Ending("agent_error", "agent", str(exc)), turn
            self._emit_agent(turn, reply)
            # Yield to the event loop: a Python or scripted agent never awaits anything, and
            # without this one call would run to its end before the others in flight move.
            await asyncio.sleep(0)
            if reply.end:
                return _Ending(reply.end, "agent"), turn
            stop = self.monitor(turn, reply, self.turn_tools) if self.monitor else None
            if stop:
                return _Ending("diverged", "engine", stop), turn
            agent_said = reply.reply
            # A re-prompt after silence, a re-ask after a barge-in, or one re-ask after the agent
            # heard no answer (noise garbled it, or the caller gave none): not a loop.
            missed = unanswered(self.heard_ops, utterance.intent)
            lost = self.heard_lost
            if loops.see(reply.reply, silent=silent, noisy=missed, cut=cut, heard=heard, lost=lost) == "loop":
                return _Ending("loop", "engine", reply.reply, loop=True), turn
        return _Ending("max_turns", "engine"), self.plan.max_turns

    def _emit_agent(self, turn: int, reply: AgentReply) -> None:
        self.sink.emit(
            AGENT_TURN,
            TurnSpoken(
                conversation_id=self.plan.conversation_id,
                turn=turn,
                speaker="agent",
                text=reply.reply,
                ends_call=reply.end,
                latency_ms=round(self.turn_latency, 3),
            ),
            turn=turn,
        )
        self.latencies.append(self.turn_latency)
        self.sink.flush()  # an exchange is over: a durable sink commits it now

    async def _utterance(
        self, turn: int, agent_said: str | None, drawn: TurnDraw | None, silent: bool
    ) -> Utterance:
        """What the caller says this turn: nothing, or its next utterance (perhaps corrected).

        Raises :class:`CallerError` when the caller cannot go on.
        """
        if silent:
            self._emit_phone(turn, "silence", "the caller said nothing")
            return Utterance("", "silence")
        said = self.caller.next(agent_said)
        # A plain Utterance (every built-in caller) skips isawaitable's ABC check, once a turn.
        utterance = said if type(said) is Utterance else await said if inspect.isawaitable(said) else said
        if drawn is not None and drawn.self_correction and not utterance.ends_call:
            utterance = self._self_correct(turn, utterance, drawn.pick)
        return utterance

    def _phone_draw(self, turn: int, agent_said: str | None) -> TurnDraw | None:
        p = self.plan
        if not p.phone.active:
            return None
        words = len(agent_said.split()) if agent_said else 0
        return draw(p.phone, p.run_seed, p.noise_key, turn, words)

    def _barge_in(self, turn: int, reply: str, words: int) -> str:
        """The caller cut in: it answers only what it heard of the reply."""
        heard = cut_reply(reply, words)
        total = len(reply.split())
        self._emit_phone(turn, "barge_in", f"cut in after {words} of {total} words", heard=heard, at=words)
        if isinstance(self.caller, HearsCuts):
            self.caller.heard_cut()  # so it asks again rather than answer a half-heard question
        return heard

    def _self_correct(self, turn: int, utterance: Utterance, pick: float) -> Utterance:
        """A day, time or number said wrong first ("Tuesday — no, Wednesday"), if it has one."""
        p = self.plan
        pack = caller_language(p.persona.language if p.persona is not None else p.noise_language)
        text, wrong, right = self_correct(utterance.text, pick, pack.say.self_correct)
        if not wrong:
            return utterance
        self._emit_phone(turn, "self_correction", f"said {wrong} first, then {right}")
        return Utterance(text, utterance.intent, utterance.ends_call)

    def _emit_phone(self, turn: int, kind: str, detail: str, *, heard: str = "", at: int = 0) -> None:
        event = PhoneApplied(
            conversation_id=self.plan.conversation_id,
            turn=turn,
            kind=kind,
            detail=detail,
            heard=heard,
            at_word=at,
        )
        self.sink.emit(keyed(PHONE, kind), event, turn=turn)

    def _emit_caller(self, turn: int, utterance: Utterance) -> None:
        self.sink.emit(
            CALLER_TURN,
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
            NOISE,
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
        self.heard_ops = [op.kind for op in ops]
        facts = p.persona.facts.values() if p.persona is not None else ()
        self.heard_lost = bool(ops) and lost_a_fact(((op.kind, op.before) for op in ops), facts)
        return heard

    async def _agent_turn(self, turn: int, heard: str) -> AgentReply:
        self.history.append(Message(role="user", content=heard))
        self.turn_tools = []
        self.turn_latency = 0.0
        results: list[ToolResult] = []
        calls_made = 0
        spoken: list[str] = []  # text said beside tool calls: heard while the tools run
        for _ in range(MAX_TOOL_ROUNDS + 1):
            started = time.perf_counter()
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
            if self.timed:
                self.turn_latency += (time.perf_counter() - started) * 1000
            reply = checked_reply(reply)
            if not reply.tool_calls:
                self.history.append(Message(role="assistant", content=reply.reply))
                return _said_in_full(spoken, reply)
            self.history.append(Message(role="assistant", content=reply.reply, tool_calls=reply.tool_calls))
            if reply.reply.strip():
                spoken.append(self._emit_beside_tools(turn, calls_made, reply.reply))
            results = [self._call_tool(turn, calls_made + i, call) for i, call in enumerate(reply.tool_calls)]
            calls_made += len(reply.tool_calls)
            if reply.end:  # "do these, then hang up": the calls ran (recorded, checked); now the call ends
                return _said_in_full(spoken, AgentReply(end=reply.end))
        raise AgentError(f"agent asked for tools more than {MAX_TOOL_ROUNDS} times in one turn")

    def _emit_beside_tools(self, turn: int, index: int, text: str) -> str:
        """Record text said with tool calls, before them: the caller hears it as they run."""
        cid = self.plan.conversation_id
        event = SpokenBesideTools(conversation_id=cid, turn=turn, index=index, text=text)
        self.sink.emit(keyed(AGENT_TURN, "beside_tools"), event, turn=turn, index=index)
        return text

    def _call_tool(self, turn: int, index: int, call: ToolCall) -> ToolResult:
        self.turn_tools.append(call)
        out = self.toolbox.call(call.name, call.arguments, turn=turn, index=index)
        self.turn_latency += out.latency_ms  # simulated: drawn from the stub's range, never slept
        self.sink.emit(
            TOOL,
            ToolCalled(
                conversation_id=self.plan.conversation_id,
                turn=turn,
                index=index,
                call_id=call.id,
                tool=call.name,
                arguments=log_safe(to_builtins(out.arguments)),
                valid=out.valid,
                validation_errors=out.validation_errors,
                result=log_safe(to_builtins(out.result)),
                error=out.error,
                fault=out.fault,
                latency_ms=round(out.latency_ms, 3),
                state_hash=out.state_hash,
                stub_broken=out.stub_broken,
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


def checked_reply(reply: object) -> AgentReply:
    """The agent's reply at the boundary: the protocol's shape, values the log can hold.

    A reply of the wrong shape is the agent's protocol violation (the call ends as ``error``),
    never a crash of the run.
    """
    if not isinstance(reply, AgentReply):
        raise AgentError(f"protocol violation: the agent answered a {type(reply).__name__}, not a reply")
    if not isinstance(reply.reply, str) or not isinstance(reply.end, str):
        raise AgentError("protocol violation: reply and end must be text")
    if reply.end not in AGENT_ENDINGS:
        raise AgentError(f"protocol violation: unknown end {reply.end!r} (hangup or transfer)")
    if not isinstance(reply.tool_calls, list) or not all(isinstance(c, ToolCall) for c in reply.tool_calls):
        raise AgentError("protocol violation: tool_calls must be a list of tool calls")
    if len(reply.tool_calls) > MAX_TOOL_CALLS:
        raise AgentError(
            f"protocol violation: {len(reply.tool_calls)} tool calls in one reply (at most {MAX_TOOL_CALLS})"
        )
    calls = [
        ToolCall(id=safe_text(str(c.id)), name=safe_text(str(c.name)), arguments=log_safe(c.arguments))
        for c in reply.tool_calls
    ]
    return AgentReply(reply=safe_text(reply.reply), tool_calls=calls, end=reply.end)


def _said_in_full(spoken: list[str], reply: AgentReply) -> AgentReply:
    """The exchange's reply as the caller heard it: text said beside tool calls, then the reply.

    Without such text the reply is returned as it is (the same object, the same events).
    """
    if not spoken:
        return reply
    text = " ".join(part.strip() for part in [*spoken, reply.reply] if part.strip())
    # One cap per agent answer, the reply's: each part is already cut at it, but five rounds of
    # text beside tools would make the turn five times as long, and every check reads the turn.
    return AgentReply(reply=safe_text(text), tool_calls=reply.tool_calls, end=reply.end)


def _hash_state(state: dict[str, str]) -> str:
    return content_hash(state, size=8)


def _as_text(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, sort_keys=True, ensure_ascii=False)
