"""The ModelClient contract: scripted, cached, recorded, and OpenAI-compatible over HTTP.

Every client answers a chat request with the text and the response body it got; turns a
model-side failure into an answer that says why (never an exception); leaves the request as
it was; gives the same answer to the same request; serves concurrent requests; closes
without error. The OpenAI-compatible client runs against a real server on 127.0.0.1 that the
test starts (tests/support/fault_server.py).
"""

from __future__ import annotations

import asyncio
import copy
from abc import ABC, abstractmethod
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from typing import Any

import pytest

from polygon.models import ModelAnswer, ModelClient, request_hash
from polygon.models.cache import CachedClient
from polygon.models.openai import OpenAIClient, RetryPolicy
from polygon.models.recorded import RecordedClient
from polygon.models.scripted import ScriptedModelClient
from polygon.recording import ListSink
from tests.support.fault_server import completion, serve

REQUEST: dict[str, Any] = {"model": "m", "messages": [{"role": "user", "content": "Say hello."}]}
FAST = RetryPolicy(max_attempts=2, base_delay_s=0.01)

Pair = tuple[ModelClient, ModelClient]


def ask(client: ModelClient, *requests: dict[str, Any]) -> list[ModelAnswer]:
    """Each request in turn on one event loop, then close the client."""

    async def go() -> list[ModelAnswer]:
        try:
            return [await client.complete(r) for r in requests]
        finally:
            await client.aclose()

    return asyncio.run(go())


class ModelClientContract(ABC):
    @abstractmethod
    def make(self) -> AbstractContextManager[Pair]:
        """(a client that answers "hello" to :data:`REQUEST`, a client whose every call fails)."""

    @pytest.fixture
    def clients(self) -> Iterator[Pair]:
        with self.make() as pair:
            yield pair

    def test_answers_with_text_and_body(self, clients: Pair) -> None:
        [answer] = ask(clients[0], dict(REQUEST))
        assert answer.text == "hello"
        assert isinstance(answer.response, dict) and answer.response["choices"][0]["message"]["content"] == "hello"
        assert not answer.errors and not answer.tool_calls
        assert all(isinstance(v, int) for v in answer.usage.values())

    def test_failure_is_an_answer_not_an_exception(self, clients: Pair) -> None:
        [answer] = ask(clients[1], dict(REQUEST))
        assert answer.text is None
        assert answer.errors and all(isinstance(e, str) and e for e in answer.errors), "a failed call says why"

    def test_the_request_is_left_as_it_was(self, clients: Pair) -> None:
        request = copy.deepcopy(REQUEST)
        ask(clients[0], request)
        assert request == REQUEST

    def test_the_same_request_gets_the_same_answer(self, clients: Pair) -> None:
        first, second = ask(clients[0], dict(REQUEST), dict(REQUEST))
        assert (first.text, first.tool_calls) == (second.text, second.tool_calls) == ("hello", [])

    def test_concurrent_requests_are_each_answered(self, clients: Pair) -> None:
        client = clients[0]

        async def go() -> list[ModelAnswer]:
            try:
                return list(await asyncio.gather(*(client.complete(dict(REQUEST)) for _ in range(4))))
            finally:
                await client.aclose()

        assert [a.text for a in asyncio.run(go())] == ["hello"] * 4


class TestScriptedClient(ModelClientContract):
    @contextmanager
    def make(self) -> Iterator[Pair]:
        yield ScriptedModelClient(["hello"]), CachedClient(None, {})

    def test_answers_in_order_and_keeps_what_it_was_asked(self) -> None:
        client = ScriptedModelClient(["one", "two"])
        answers = ask(client, {"n": 1}, {"n": 2}, {"n": 3})
        assert [a.text for a in answers] == ["one", "two", "one"]
        assert client.requests == [{"n": 1}, {"n": 2}, {"n": 3}]


class TestCachedClient(ModelClientContract):
    @contextmanager
    def make(self) -> Iterator[Pair]:
        yield CachedClient(None, {request_hash(REQUEST): completion("hello")}), CachedClient(None, {})

    def test_a_hit_is_marked_and_a_miss_goes_to_the_inner_client(self) -> None:
        inner = ScriptedModelClient(["fresh"])
        client = CachedClient(inner, {request_hash(REQUEST): completion("hello")})
        other = {"model": "m", "messages": [{"role": "user", "content": "Something else."}]}
        hit, miss = ask(client, dict(REQUEST), other)
        assert (hit.text, hit.cached, hit.attempts) == ("hello", True, 0)
        assert (miss.text, miss.cached) == ("fresh", False)
        assert client.hits == 1 and inner.requests == [other]


class TestRecordedClient(ModelClientContract):
    @contextmanager
    def make(self) -> Iterator[Pair]:
        self.sink = ListSink()
        ok = RecordedClient(ScriptedModelClient(["hello"]), self.sink, role="judge", model="scripted/x")
        bad = RecordedClient(CachedClient(None, {}), self.sink, role="judge", model="scripted/x")
        yield ok, bad

    def test_every_call_is_recorded_failures_too(self, clients: Pair) -> None:
        ask(clients[0], dict(REQUEST))
        ask(clients[1], dict(REQUEST))
        recorded = [event for _kind, event, _turn, _index in self.sink.events]
        assert [e.role for e in recorded] == ["judge", "judge"]  # type: ignore[attr-defined]
        assert [e.request_hash for e in recorded] == [request_hash(REQUEST)] * 2  # type: ignore[attr-defined]

    def test_writes_model_called_before_returning(self) -> None:
        sink = ListSink()
        client = RecordedClient(ScriptedModelClient(["hi"]), sink, role="probe", model="scripted/p")
        answer = asyncio.run(client.complete(dict(REQUEST), key="p1:abc:scripted/p", conversation_id="c1"))
        assert answer.text == "hi"
        [(kind, event, turn, index)] = sink.events
        assert kind == "probe-call:p1:abc:scripted/p" and (turn, index) == (0, 0)
        assert event.role == "probe" and event.conversation_id == "c1"  # type: ignore[attr-defined]
        assert event.request_hash == request_hash(REQUEST)  # type: ignore[attr-defined]


class TestOpenAICompatibleClient(ModelClientContract):
    @contextmanager
    def make(self) -> Iterator[Pair]:
        with serve(["ok:hello"]) as (url, _state):
            yield OpenAIClient(url, "k", policy=FAST), OpenAIClient("http://127.0.0.1:9/v1", "k", policy=FAST)

    def test_a_server_error_is_retried_then_answered(self) -> None:
        with serve(["500", "ok:hello"]) as (url, state):
            [answer] = ask(OpenAIClient(url, "k", policy=FAST), dict(REQUEST))
        assert (answer.text, answer.attempts) == ("hello", 2)
        assert len(state.requests) == 2

    def test_tool_calls_come_back_parsed(self) -> None:
        with serve(['tool:find_slots:{"day": "monday"}']) as (url, _state):
            [answer] = ask(OpenAIClient(url, "k", policy=FAST), dict(REQUEST))
        assert [(c["name"], c["arguments"]) for c in answer.tool_calls] == [("find_slots", {"day": "monday"})]
