"""The Agent contract, run against every adapter: Python, HTTP (a real server on 127.0.0.1), model.

Each must: answer a step with an :class:`AgentReply`; pass tool calls through as
:class:`ToolCall`; turn every failure of the agent (a raise, a dead endpoint, garbage, no
model answer) into :class:`AgentError`, which ends the call; close without error.
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import httpx
import msgspec
import pytest

from polygon import Agent, AgentError, AgentReply, AgentStep, Message, ToolCall, ToolResult
from polygon.models import ModelClient
from polygon.models.recorded import RecordedClient
from polygon.models.scripted import ScriptedModelClient
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


def _answer(step: AgentStep) -> AgentReply:
    """The behaviour every adapter wraps: a tool call first, then a reply."""
    if not step.tool_results:
        return AgentReply(tool_calls=[ToolCall(id="c1", name="find_slots", arguments={"day": "monday"})])
    return AgentReply(reply="Monday at nine is free.")


class _Raises:
    def step(self, step: AgentStep) -> AgentReply:
        raise RuntimeError("boom")


def _handler(behave: Callable[[AgentStep], bytes]) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 - the http.server API
            body = self.rfile.read(int(self.headers["content-length"]))
            out = behave(msgspec.json.decode(body, type=AgentStep))
            self.send_response(200)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(out)))
            self.end_headers()
            self.wfile.write(out)

        def log_message(self, *args: object) -> None:
            pass

    return Handler


@contextmanager
def _server(behave: Callable[[AgentStep], bytes]) -> Iterator[str]:
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _handler(behave))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}/step"
    finally:
        httpd.shutdown()
        httpd.server_close()


Pair = tuple[Callable[[], Agent], Callable[[], Agent]]


@contextmanager
def _python() -> Iterator[Pair]:
    yield (lambda: PythonAgent(_answer)), (lambda: PythonAgent(_Raises()))


@contextmanager
def _http() -> Iterator[Pair]:
    with _server(lambda s: msgspec.json.encode(_answer(s))) as good, _server(lambda s: b"{not json") as bad:
        yield (lambda: HttpAgent(good, httpx.AsyncClient())), (lambda: HttpAgent(bad, httpx.AsyncClient()))


def _model_answer(request: dict[str, Any]) -> str:
    return "Monday at nine is free."


def _recorded(client: ModelClient, sink: Sink) -> RecordedClient:
    return RecordedClient(client, sink, role="agent", model="openai/m")


@contextmanager
def _model() -> Iterator[Pair]:
    good = ScriptedModelClient(_model_answer)

    class _Silent(ScriptedModelClient):
        async def complete(self, request: dict[str, Any]) -> Any:
            from polygon.models import ModelAnswer

            return ModelAnswer(text=None, errors=["server down"])

    yield (
        (lambda: ModelAgent(_recorded(good, ListSink()), "You are a receptionist.", {})),
        (lambda: ModelAgent(_recorded(_Silent([]), ListSink()), "You are a receptionist.", {})),
    )


MAKERS: dict[str, Callable[[], AbstractContextManager[Pair]]] = {
    "python": _python,
    "http": _http,
    "model": _model,
}


@pytest.fixture(params=sorted(MAKERS))
def agents(request: pytest.FixtureRequest) -> Iterator[tuple[str, Pair]]:
    with MAKERS[request.param]() as pair:
        yield request.param, pair


def _steps(agent: Agent, *steps: AgentStep) -> list[AgentReply]:
    async def go() -> list[AgentReply]:
        try:
            return [await agent.step(s) for s in steps]
        finally:
            await agent.aclose()

    return asyncio.run(go())


def test_a_step_is_answered_with_a_reply(agents: tuple[str, Pair]) -> None:
    name, (good, _bad) = agents
    after_tools = msgspec.structs.replace(STEP, tool_results=[ToolResult(call_id="c1", name="find_slots")])
    replies = _steps(good(), STEP, after_tools)
    assert all(isinstance(r, AgentReply) for r in replies)
    if name != "model":  # the scripted model only talks; the other two ask for a tool first
        assert replies[0].tool_calls == [ToolCall(id="c1", name="find_slots", arguments={"day": "monday"})]
    assert replies[1].reply == "Monday at nine is free." and not replies[1].tool_calls


def test_failure_becomes_agent_error(agents: tuple[str, Pair]) -> None:
    _name, (_good, bad) = agents
    with pytest.raises(AgentError):
        _steps(bad(), STEP)


def test_dead_http_endpoint_is_an_agent_error() -> None:
    with pytest.raises(AgentError, match="ConnectError"):
        _steps(HttpAgent("http://127.0.0.1:9/step", httpx.AsyncClient()), STEP)


def test_model_agent_records_each_call_through_the_seam() -> None:
    sink = ListSink()
    agent = ModelAgent(_recorded(ScriptedModelClient(["Hello."]), sink), "prompt", {})
    _steps(agent, STEP)
    [(kind, event, turn, index)] = sink.events
    assert kind == "agent-call" and (turn, index) == (1, 0)
    assert json.loads(json.dumps(event.request))["messages"][0] == {  # type: ignore[attr-defined]
        "role": "system",
        "content": "prompt",
    }
