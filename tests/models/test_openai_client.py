"""The OpenAI-compatible client against a real fault server on 127.0.0.1."""

from __future__ import annotations

import asyncio
import json

import pytest

from polygon.models.openai import OpenAIClient, RetryPolicy
from tests.support.fault_server import serve

REQUEST = {"model": "m", "messages": [{"role": "user", "content": "hi"}], "temperature": 0.0}


FAST = RetryPolicy(base_delay_s=0.01, max_delay_s=0.05)


def run(url: str, policy: RetryPolicy = FAST, key: str = "sk-secret"):
    waits: list[float] = []

    async def sleep(seconds: float) -> None:
        waits.append(seconds)

    async def go():
        client = OpenAIClient(url, key, policy=policy, sleep=sleep)
        try:
            return await client.complete(REQUEST)
        finally:
            await client.aclose()

    return asyncio.run(go()), waits


def test_ok_answer_with_usage_and_key_only_in_the_header() -> None:
    with serve(["ok:Hello there"]) as (url, server):
        answer, waits = run(url)
    assert answer.text == "Hello there" and answer.attempts == 1 and not waits
    assert answer.usage["total_tokens"] == 13
    assert server.headers[0]["authorization"] == "Bearer sk-secret"
    assert "sk-secret" not in json.dumps(server.requests) and "sk-secret" not in json.dumps(answer.response)


def test_429_honours_retry_after() -> None:
    with serve(["429:2", "429:0.5", "ok:done"]) as (url, server):
        answer, waits = run(url)
    assert answer.text == "done" and answer.attempts == 3 and waits == [2.0, 0.5]
    assert len(server.requests) == 3 and all("429" in e for e in answer.errors)


def test_500_backs_off_with_capped_jitter() -> None:
    with serve(["500", "500", "500", "ok:fine"]) as (url, _):
        answer, waits = run(url, RetryPolicy(base_delay_s=0.1, max_delay_s=0.15))
    assert answer.text == "fine" and answer.attempts == 4
    assert len(waits) == 3 and all(0 <= w <= 0.15 for w in waits)


def test_slow_answers_time_out_and_retry() -> None:
    with serve(["slow:1.5", "ok:quick"]) as (url, _):
        answer, _waits = run(url, RetryPolicy(attempt_timeout_s=0.3, base_delay_s=0.01))
    assert answer.text == "quick" and answer.attempts == 2 and "timed out" in answer.errors[0]


@pytest.mark.parametrize("fault", ["truncated", "malformed"])
def test_broken_bodies_are_retried_then_reported_not_raised(fault: str) -> None:
    with serve([fault]) as (url, server):
        answer, _ = run(url, RetryPolicy(max_attempts=3, base_delay_s=0.01))
    assert answer.text is None and answer.response is None and answer.attempts == 3
    assert len(server.requests) == 3 and "malformed JSON" in answer.errors[0]


def test_other_4xx_is_not_retried() -> None:
    with serve(["404"]) as (url, server):
        answer, waits = run(url)
    assert answer.text is None and answer.attempts == 1 and len(server.requests) == 1 and not waits
    assert "404" in answer.errors[0]


def test_deadline_stops_retrying() -> None:
    with serve(["429:30"]) as (url, server):
        answer, waits = run(url, RetryPolicy(deadline_s=5))
    assert answer.text is None and len(server.requests) == 1 and not waits
    assert "deadline" in answer.errors[-1]


def test_json_schema_falls_back_to_json_mode() -> None:
    schema = {"type": "object", "properties": {"answer": {"type": "string"}}}
    request = {
        **REQUEST,
        "response_format": {"type": "json_schema", "json_schema": {"name": "x", "schema": schema}},
    }

    async def go():
        client = OpenAIClient(url, policy=RetryPolicy(base_delay_s=0.01))
        try:
            return await client.complete(request)
        finally:
            await client.aclose()

    with serve(["400schema"]) as (url, server):
        answer = asyncio.run(go())
    assert json.loads(answer.text or "")["answer"] == "yes"
    assert [r["response_format"]["type"] for r in server.requests] == ["json_schema", "json_object"]
    assert server.requests[1]["response_format"]["schema"] == schema  # llama.cpp constrains JSON mode by it
    assert "JSON mode" in answer.errors[0]


def test_tool_calls_with_bad_arguments_are_kept_raw() -> None:
    with serve(['tool:book_slot:{"slot": "mon']) as (url, _):
        answer, _ = run(url)
    assert answer.tool_calls == [{"id": "call-1", "name": "book_slot", "arguments": '{"slot": "mon'}]


def test_dead_server_is_an_answer_with_errors() -> None:
    answer, waits = run("http://127.0.0.1:9/v1", RetryPolicy(max_attempts=2, base_delay_s=0.01))
    assert answer.text is None and answer.attempts == 2 and "connection failed" in answer.errors[0]


def test_concurrency_limit_per_client() -> None:
    async def go(url: str) -> None:
        client = OpenAIClient(url, concurrency=2)
        await asyncio.gather(*(client.complete(REQUEST) for _ in range(6)))
        await client.aclose()

    with serve(["delay:0.2"]) as (url, server):
        asyncio.run(go(url))
    assert len(server.requests) == 6 and server.max_inflight == 2


SCHEMA_REQUEST = {
    **REQUEST,
    "response_format": {"type": "json_schema", "json_schema": {"name": "x", "schema": {"type": "object"}}},
}


def test_json_mode_fallback_is_learnt_once_per_server() -> None:
    async def go(url: str) -> list[int]:
        client = OpenAIClient(url, policy=FAST)
        try:
            return [(await client.complete(dict(SCHEMA_REQUEST))).attempts for _ in range(3)]
        finally:
            await client.aclose()

    with serve(["400schema", "ok:{}"]) as (url, server):
        attempts = asyncio.run(go(url))
    assert attempts == [2, 1, 1]  # only the first call meets the refusal
    assert [r["response_format"]["type"] for r in server.requests] == [
        "json_schema",
        "json_object",
        "json_object",
        "json_object",
    ]


def test_a_dead_server_is_given_up_on_after_consecutive_connection_failures() -> None:
    async def go() -> tuple[list[int], str]:
        client = OpenAIClient("http://127.0.0.1:9/v1", policy=RetryPolicy(max_attempts=4, base_delay_s=0.0, dead_after=6))
        try:
            answers = [await client.complete(dict(REQUEST)) for _ in range(3)]
            return [a.attempts for a in answers], client.dead
        finally:
            await client.aclose()

    attempts, dead = asyncio.run(go())
    assert attempts == [4, 2, 0]  # 6 failures in a row, then no more tries
    assert "unreachable: 6 connections in a row failed" in dead


def test_one_good_answer_resets_the_count() -> None:
    with serve(["500", "ok:fine"]) as (url, _server):
        answer, _ = run(url, RetryPolicy(base_delay_s=0.0, dead_after=1))
    assert answer.text == "fine"  # a 500 is an answer, not a failed connection
