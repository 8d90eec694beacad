"""The ModelClient contract, run against every client: scripted, cached, recorded, OpenAI over HTTP.

Each implementation must: answer a chat request with the text and the response body it
got; turn a model-side failure into an answer with errors (never an exception); leave the
usage as integers; and close without error.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from typing import Any

import pytest

from polygon.models import ModelAnswer, ModelClient, request_hash
from polygon.models.cache import CachedClient
from polygon.models.openai import OpenAIClient, RetryPolicy
from polygon.models.recorded import RecordedClient
from polygon.models.scripted import ScriptedModelClient
from polygon.recording import ListSink
from tests.models.fault_server import completion, serve

REQUEST: dict[str, Any] = {"model": "m", "messages": [{"role": "user", "content": "Say hello."}]}
FAST = RetryPolicy(max_attempts=2, base_delay_s=0.01)

# Each maker gives (a client that answers "hello", a client that fails); both as context managers
# because the HTTP client needs a live server for as long as the test runs.
Maker = Callable[[], AbstractContextManager[tuple[ModelClient, ModelClient]]]


@contextmanager
def _scripted() -> Iterator[tuple[ModelClient, ModelClient]]:
    yield ScriptedModelClient(["hello"]), CachedClient(None, {})


@contextmanager
def _cached() -> Iterator[tuple[ModelClient, ModelClient]]:
    recorded = {request_hash(REQUEST): completion("hello")}
    yield CachedClient(None, recorded), CachedClient(None, {})


@contextmanager
def _recorded() -> Iterator[tuple[ModelClient, ModelClient]]:
    sink = ListSink()
    ok = RecordedClient(ScriptedModelClient(["hello"]), sink, role="judge", model="scripted/x")
    bad = RecordedClient(CachedClient(None, {}), sink, role="judge", model="scripted/x")
    yield ok, bad


@contextmanager
def _openai() -> Iterator[tuple[ModelClient, ModelClient]]:
    with serve(["ok:hello"]) as (url, _state):
        yield OpenAIClient(url, "k", policy=FAST), OpenAIClient("http://127.0.0.1:9/v1", "k", policy=FAST)


MAKERS: dict[str, Maker] = {"scripted": _scripted, "cached": _cached, "recorded": _recorded, "openai": _openai}


@pytest.fixture(params=sorted(MAKERS))
def clients(request: pytest.FixtureRequest) -> Iterator[tuple[ModelClient, ModelClient]]:
    with MAKERS[request.param]() as pair:
        yield pair


def _ask(client: ModelClient) -> ModelAnswer:
    async def go() -> ModelAnswer:
        try:
            return await client.complete(dict(REQUEST))
        finally:
            await client.aclose()

    return asyncio.run(go())


def test_answers_with_text_and_body(clients: tuple[ModelClient, ModelClient]) -> None:
    answer = _ask(clients[0])
    assert answer.text == "hello"
    assert isinstance(answer.response, dict) and answer.response["choices"][0]["message"]["content"] == "hello"
    assert not answer.errors
    assert all(isinstance(v, int) for v in answer.usage.values())


def test_failure_is_an_answer_not_an_exception(clients: tuple[ModelClient, ModelClient]) -> None:
    answer = _ask(clients[1])
    assert answer.text is None
    assert answer.errors, "a failed call must say why"


def test_recorded_client_writes_model_called_before_returning() -> None:
    sink = ListSink()
    client = RecordedClient(ScriptedModelClient(["hi"]), sink, role="probe", model="scripted/p")
    answer = asyncio.run(client.complete(dict(REQUEST), key="p1:abc:scripted/p", conversation_id="c1"))
    assert answer.text == "hi"
    [(kind, event, turn, index)] = sink.events
    assert kind == "probe-call:p1:abc:scripted/p" and (turn, index) == (0, 0)
    assert event.role == "probe" and event.conversation_id == "c1"  # type: ignore[attr-defined]
    assert event.request_hash == request_hash(REQUEST)  # type: ignore[attr-defined]
