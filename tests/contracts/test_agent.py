"""The Agent contract: the Python adapter, HTTP (a real server on 127.0.0.1), and the model agent.

Every adapter answers a step with an :class:`AgentReply`; passes the agent's tool calls
through as :class:`ToolCall`; answers the same steps the same way; turns every failure of
the agent (a raise, a dead endpoint, garbage, no model answer) into :class:`AgentError`,
which ends the call; and closes without error.
"""

from __future__ import annotations

import asyncio
import json
import threading
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import httpx
import msgspec
import pytest

from polygon import Agent, AgentError, AgentReply, AgentStep, Message, ToolCall, ToolResult
from polygon.models import ModelAnswer, ModelClient
from polygon.models.recorded import RecordedClient
from polygon.recording import ListSink, Sink
from polygon.simulate.agents.http import HttpAgent
from polygon.simulate.agents.model import ModelAgent
from polygon.simulate.agents.python import PythonAgent

STEP = AgentStep(
    conversation_id="r.v1.s.0",
    turn=1,
    heard="I need to book a cleaning",
    history=[Message(role="user", content="I need to book a cleaning")],
    tools=[{"type": "function", "function": {"name": "find_slots", "parameters": {"type": "object"}}}],
)
AFTER_TOOLS = msgspec.structs.replace(STEP, tool_results=[ToolResult(call_id="c1", name="find_slots")])
CALL = ToolCall(id="c1", name="find_slots", arguments={"day": "monday"})
REPLY = "Monday at nine is free."

Pair = tuple[Callable[[], Agent], Callable[[], Agent]]


def answer(step: AgentStep) -> AgentReply:
    """The behaviour every adapter wraps: a tool call first, then a reply."""
    if not step.tool_results:
        return AgentReply(tool_calls=[CALL])
    return AgentReply(reply=REPLY)


def steps(agent: Agent, *asked: AgentStep) -> list[AgentReply]:
    async def go() -> list[AgentReply]:
        try:
            return [await agent.step(s) for s in asked]
        finally:
            await agent.aclose()

    return asyncio.run(go())


class AgentContract(ABC):
    @abstractmethod
    def make(self) -> AbstractContextManager[Pair]:
        """(makes an agent that behaves as :func:`answer`, makes an agent whose every step fails)."""

    @pytest.fixture
    def agents(self) -> Iterator[Pair]:
        with self.make() as pair:
            yield pair

    def test_a_step_is_answered_with_a_tool_call_then_a_reply(self, agents: Pair) -> None:
        first, second = steps(agents[0](), STEP, AFTER_TOOLS)
        assert isinstance(first, AgentReply) and isinstance(second, AgentReply)
        assert first.tool_calls == [CALL] and not first.end
        assert second.reply == REPLY and not second.tool_calls and not second.end

    def test_the_same_steps_get_the_same_answers(self, agents: Pair) -> None:
        assert steps(agents[0](), STEP, AFTER_TOOLS) == steps(agents[0](), STEP, AFTER_TOOLS)

    def test_failure_becomes_agent_error(self, agents: Pair) -> None:
        with pytest.raises(AgentError):
            steps(agents[1](), STEP)


class TestPythonAgent(AgentContract):
    @contextmanager
    def make(self) -> Iterator[Pair]:
        yield (lambda: PythonAgent(answer)), (lambda: PythonAgent(_Raises()))

    def test_an_async_step_and_a_dict_answer_are_accepted(self) -> None:
        async def step(s: AgentStep) -> dict[str, Any]:
            return {"reply": "hi", "end": "hangup"}

        assert steps(PythonAgent(step), STEP) == [AgentReply(reply="hi", end="hangup")]

    def test_an_answer_that_is_no_reply_is_an_agent_error(self) -> None:
        with pytest.raises(AgentError, match="not a reply"):
            steps(PythonAgent(lambda s: 42), STEP)


class _Raises:
    def step(self, step: AgentStep) -> AgentReply:
        raise RuntimeError("boom")


class TestHttpAgent(AgentContract):
    @contextmanager
    def make(self) -> Iterator[Pair]:
        with _server(lambda s: (200, msgspec.json.encode(answer(s)))) as good, _server(lambda s: (200, b"{not")) as bad:
            yield (lambda: HttpAgent(good, httpx.AsyncClient())), (lambda: HttpAgent(bad, httpx.AsyncClient()))

    def test_a_dead_endpoint_is_an_agent_error(self) -> None:
        with pytest.raises(AgentError, match="ConnectError"):
            steps(HttpAgent("http://127.0.0.1:9/step", httpx.AsyncClient()), STEP)

    def test_an_http_error_status_is_an_agent_error(self) -> None:
        with _server(lambda s: (503, b"{}")) as url, pytest.raises(AgentError, match="HTTP 503"):
            steps(HttpAgent(url, httpx.AsyncClient()), STEP)


def _handler(behave: Callable[[AgentStep], tuple[int, bytes]]) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 - the http.server API
            body = self.rfile.read(int(self.headers["content-length"]))
            status, out = behave(msgspec.json.decode(body, type=AgentStep))
            self.send_response(status)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(out)))
            self.end_headers()
            self.wfile.write(out)

        def log_message(self, *args: object) -> None:
            pass

    return Handler


@contextmanager
def _server(behave: Callable[[AgentStep], tuple[int, bytes]]) -> Iterator[str]:
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _handler(behave))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}/step"
    finally:
        httpd.shutdown()
        httpd.server_close()


class _ToolThenTalk:
    """A model that asks for ``find_slots`` on its first call and then talks; or never answers."""

    def __init__(self, *, silent: bool = False) -> None:
        self._silent = silent
        self.requests: list[dict[str, Any]] = []

    async def complete(self, request: dict[str, Any]) -> ModelAnswer:
        self.requests.append(request)
        if self._silent:
            return ModelAnswer(text=None, errors=["server down"])
        if len(self.requests) == 1:
            return ModelAnswer(text="", tool_calls=[{"id": "c1", "name": "find_slots", "arguments": {"day": "monday"}}])
        return ModelAnswer(text=REPLY)

    async def aclose(self) -> None:
        pass


def _recorded(client: ModelClient, sink: Sink) -> RecordedClient:
    return RecordedClient(client, sink, role="agent", model="openai/m")


class TestModelAgent(AgentContract):
    @contextmanager
    def make(self) -> Iterator[Pair]:
        yield (
            (lambda: ModelAgent(_recorded(_ToolThenTalk(), ListSink()), "You are a receptionist.", {})),
            (lambda: ModelAgent(_recorded(_ToolThenTalk(silent=True), ListSink()), "You are a receptionist.", {})),
        )

    def test_records_each_call_through_the_seam(self) -> None:
        sink = ListSink()
        steps(ModelAgent(_recorded(_ToolThenTalk(), sink), "prompt", {}), STEP, AFTER_TOOLS)
        assert [(kind, turn, index) for kind, _e, turn, index in sink.events] == [
            ("agent-call", 1, 0),
            ("agent-call", 1, 1),
        ]
        request = json.loads(json.dumps(sink.events[0][1].request))  # type: ignore[attr-defined]
        assert request["messages"][0] == {"role": "system", "content": "prompt"}

    def test_the_end_call_function_ends_the_call(self) -> None:
        class Ends(_ToolThenTalk):
            async def complete(self, request: dict[str, Any]) -> ModelAnswer:
                return ModelAnswer(text="Bye now.", tool_calls=[{"id": "e", "name": "end_call", "arguments": {}}])

        [reply] = steps(ModelAgent(_recorded(Ends(), ListSink()), "prompt", {}), STEP)
        assert (reply.reply, reply.end, reply.tool_calls) == ("Bye now.", "hangup", [])

    def test_an_ending_function_beside_real_calls_keeps_them_and_ends_after(self) -> None:
        class RefundsThenEnds(_ToolThenTalk):
            async def complete(self, request: dict[str, Any]) -> ModelAnswer:
                calls = [
                    {"id": "t", "name": "transfer_to_human", "arguments": {}},
                    {"id": "r", "name": "refund_payment", "arguments": {"order": "A-1"}},
                    {"id": "e", "name": "end_call", "arguments": {}},
                ]
                return ModelAnswer(text=None, tool_calls=calls)

        [reply] = steps(ModelAgent(_recorded(RefundsThenEnds(), ListSink()), "prompt", {}), STEP)
        # the real call is kept, the first ending named wins, and no farewell is made up
        assert reply.tool_calls == [ToolCall(id="r", name="refund_payment", arguments={"order": "A-1"})]
        assert (reply.reply, reply.end) == ("", "transfer")
