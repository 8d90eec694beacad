"""A model server's 200 of the wrong shape, or a 401 that echoes the key: never a crash, never a leak."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import msgspec
import pytest
from click.testing import CliRunner

from polygon.cli.main import cli
from polygon.events import LmdbLog
from polygon.events.families import ModelCalled
from polygon.models import ModelAnswer, answer_from_body
from polygon.models.openai import OpenAIClient, RetryPolicy
from polygon.models.recorded import model_called
from tests.support.fault_server import serve
from tests.support.runs import model_suite

BIG = 2**70
SHAPES = [
    '{"choices": [1]}',
    '{"choices": ["text"]}',
    '{"choices": [{"message": 5}]}',
    '{"choices": [{"message": {"content": 5}}]}',
    '{"choices": [{"message": {"tool_calls": 5}}]}',
    '{"choices": [{"message": {"tool_calls": ["oops", 3]}}]}',
    '{"choices": [{"message": {"tool_calls": [{"function": "find_slots"}]}}]}',
    '{"choices": [{"message": {"tool_calls": [{"function": {"name": 7, "arguments": 5}}]}}]}',
    f'{{"choices": [{{"message": {{"tool_calls": [{{"function": {{"name": "f", "arguments": "{{\\"n\\": {BIG}}}"}}}}]}}}}]}}',
    f'{{"choices": [{{"message": {{"content": "hi"}}}}], "usage": {{"total_tokens": {BIG}}}}}',
    '{"choices": [{"message": {"content": "\\udc80 truncated emoji"}}]}',
    '{"choices": [{"message": {"content": "' + "[" * 0 + 'deep"}}], "x": ' + "[" * 200 + "]" * 200 + "}",
    '{"choices": [{"message": {"content": NaN}}]}',
    '{"choices": [{"message": {"content": null}}]}',
    "[1, 2, 3]",
    '"just a string"',
]


@pytest.mark.parametrize("body", SHAPES)
def test_any_200_body_becomes_an_answer_that_the_log_can_hold(body: str) -> None:
    async def go() -> ModelAnswer:
        with serve([f"raw:{body}"]) as (url, _server):
            client = OpenAIClient(url, policy=RetryPolicy(max_attempts=2, base_delay_s=0.0))
            try:
                return await client.complete({"model": "m", "messages": []})
            finally:
                await client.aclose()

    answer = asyncio.run(go())
    event = model_called("agent", "openai/m", {"model": "m", "messages": []}, answer)
    assert msgspec.msgpack.decode(msgspec.msgpack.encode(event), type=ModelCalled) == event


def test_answer_from_body_reads_what_it_can() -> None:
    answer = answer_from_body(json.loads(SHAPES[8]))
    assert answer.tool_calls == [{"id": "call-0", "name": "f", "arguments": {"n": str(BIG)}}]
    assert answer_from_body(json.loads(SHAPES[9])).usage == {}


def test_a_401_that_echoes_the_key_leaks_it_nowhere(tmp_path: Path) -> None:
    key = "sk-test-very-secret-0123456789"
    log = tmp_path / "log"
    with serve(["401echo"]) as (url, server):
        suite = model_suite(tmp_path, url)
        res = CliRunner(env={"OPENAI_API_KEY": key}).invoke(
            cli, ["--log", str(log), "run", str(suite), "--run-id", "k", "--no-progress"]
        )
        assert server.headers and server.headers[0]["authorization"] == f"Bearer {key}"
    outputs = [res.output]
    runner = CliRunner()
    for args in (
        ["log", "export"],
        ["report", "k"],
        ["report", "k", "--json"],
        ["report", "k", "--junit"],
        ["report", "k", "--format", "html"],
    ):
        outputs.append(runner.invoke(cli, ["--log", str(log), *args]).output)
    with LmdbLog(log, readonly=True) as opened:
        convs = sorted({e.stream.removeprefix("conv/") for e in opened.read_all() if e.stream.startswith("conv/")})
        raw = b"".join(json.dumps(msgspec.to_builtins(e.payload)).encode() for e in opened.read_all())
    for conv in convs[:3]:
        outputs.append(runner.invoke(cli, ["--log", str(log), "replay", conv]).output)
        outputs.append(runner.invoke(cli, ["--log", str(log), "explain", conv]).output)
    assert "invalid key Bearer ***" in raw.decode()  # the error is kept, the key is not
    for text in outputs:
        assert key not in text
    assert key.encode() not in raw
    on_disk = b"".join(p.read_bytes() for p in sorted(log.rglob("*")) if p.is_file())  # log and snapshots
    assert key.encode() not in on_disk
