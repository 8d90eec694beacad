"""The HTTP agent's limits against a hostile endpoint: a whole-step deadline, a body cap, no secret shown.

httpx's own timeout restarts on each byte, so a slow drip never tripped it (one step took 346 s
in a trial); a body was read whole whatever its size; a URL's credentials reached the error.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator

import httpx
import msgspec
import pytest

from polygon import AgentError, AgentReply, AgentStep, Message
from polygon.simulate.agents import http as http_agent
from polygon.simulate.agents.http import HttpAgent

STEP = AgentStep(conversation_id="r.v1.s.0", turn=1, heard="hi", history=[Message(role="user", content="hi")])
SECRET_URL = "http://admin:hunter2pass@agent.test:8765/step?token=URLSECRET777"


def _client(stream: httpx.AsyncByteStream | None = None, status: int = 200) -> httpx.AsyncClient:
    def answer(request: httpx.Request) -> httpx.Response:
        return httpx.Response(status, stream=stream) if stream else httpx.Response(status, content=b"{}")

    return httpx.AsyncClient(transport=httpx.MockTransport(answer))


class _Drip(httpx.AsyncByteStream):
    """A valid reply, one byte every ``pause`` seconds (each read well inside httpx's timeout)."""

    def __init__(self, pause: float) -> None:
        self._pause = pause

    async def __aiter__(self) -> AsyncIterator[bytes]:
        for byte in msgspec.json.encode(AgentReply(reply="fine")):
            await asyncio.sleep(self._pause)
            yield bytes([byte])


class _Endless(httpx.AsyncByteStream):
    """A body that never ends, 1 MB at a time; counts what was read from it."""

    def __init__(self) -> None:
        self.sent = 0

    async def __aiter__(self) -> AsyncIterator[bytes]:
        while True:
            self.sent += 1_000_000
            yield b" " * 1_000_000


def _step(agent: HttpAgent) -> AgentReply:
    return asyncio.run(agent.step(STEP))


def test_a_slow_drip_fails_at_the_whole_step_deadline() -> None:
    agent = HttpAgent("http://agent.test/step", _client(_Drip(0.05)), timeout_s=0.3)
    started = time.perf_counter()
    with pytest.raises(AgentError, match=r"ReadTimeout: no whole answer within 0.3 s"):
        _step(agent)
    assert time.perf_counter() - started < 2


def test_a_drip_inside_the_deadline_is_an_answer() -> None:
    assert _step(HttpAgent("http://agent.test/step", _client(_Drip(0.001)), timeout_s=5)).reply == "fine"


def test_a_body_past_the_cap_is_refused_without_reading_it_whole() -> None:
    endless = _Endless()
    with pytest.raises(AgentError, match=f"answered over {http_agent.MAX_BODY_BYTES:,} bytes"):
        _step(HttpAgent("http://agent.test/step", _client(endless), timeout_s=30))
    assert endless.sent <= http_agent.MAX_BODY_BYTES + 1_000_000


def test_credentials_in_the_url_are_never_in_an_error() -> None:
    for agent in (
        HttpAgent(SECRET_URL, _client(status=503)),
        HttpAgent(SECRET_URL.replace("agent.test", "127.0.0.1").replace("8765", "9"), httpx.AsyncClient()),
    ):
        with pytest.raises(AgentError) as caught:
            _step(agent)
        message = str(caught.value)
        assert "hunter2pass" not in message and "URLSECRET777" not in message and "admin" not in message
        assert "://***@" in message and "token=***" in message
