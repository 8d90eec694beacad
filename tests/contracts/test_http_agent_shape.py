"""An HTTP agent's answer in the wrong shape is an error, never silence (notes/tester42.md D8).

Fields a reply does not know were dropped, so an agent answering OpenAI's message shape
(``{"role": "assistant", "content": "…"}``) was recorded as an empty reply every turn, and
two calls of an agent the caller never heard passed. Now such an answer ends the call as the
agent's error, naming what came; every answer of the protocol's shape decodes as before.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import msgspec
import pytest
from click.testing import CliRunner, Result

from polygon.cli.main import cli
from polygon.simulate.agents import AgentError, AgentReply, coerce_reply
from polygon.simulate.agents.http import decode_reply
from tests.support.fault_server import serve
from tests.support.runs import pizza

CALL = {"id": "c1", "name": "find_slots", "arguments": {"day": "today", "n": 2}}
OPENAI_CALL = {"id": "c1", "type": "function", "function": {"name": "find_slots", "arguments": '{"day": "today"}'}}
CONFORMING = [
    {"reply": "Hello!"},
    {"reply": "Bye.", "tool_calls": [], "end": "hangup"},
    {"reply": "One moment.", "tool_calls": [CALL]},
    {"reply": "Hello!", "trace_id": "t-1", "content": "ignored beside reply"},  # the agent's own fields
    {"tool_calls": [CALL]},
    {"end": "transfer"},
    {},
]
OPENAI_MESSAGE = {"role": "assistant", "content": "Hello, how can I help?"}


@pytest.mark.parametrize("answer", CONFORMING, ids=lambda a: "+".join(a) or "empty")
def test_an_answer_of_the_protocols_shape_decodes_as_before(answer: dict[str, Any]) -> None:
    body = json.dumps(answer).encode()
    before = msgspec.json.decode(body, type=AgentReply)  # how every answer was decoded until now
    assert decode_reply(body, "http://agent/step") == before
    assert coerce_reply(answer) == before


@pytest.mark.parametrize(
    "answer",
    [
        OPENAI_MESSAGE,
        {**OPENAI_MESSAGE, "tool_calls": [], "end": ""},
        {**OPENAI_MESSAGE, "tool_calls": [OPENAI_CALL]},
    ],
    ids=["message", "message+polygon-fields", "message+openai-calls"],
)
def test_an_openai_message_is_an_error_naming_content(answer: dict[str, Any]) -> None:
    fields = ", ".join(json.dumps(k) for k in answer)
    expected = f"answered {{{fields}}}: no `reply` field (the OpenAI message shape? put the text in `reply`)"
    with pytest.raises(AgentError) as http:
        decode_reply(json.dumps(answer).encode(), "http://agent/step")
    assert str(http.value).startswith("agent endpoint http://agent/step " + expected)
    with pytest.raises(AgentError) as python:
        coerce_reply(answer)
    assert str(python.value).startswith("agent " + expected)


def test_only_unknown_fields_is_an_error_without_the_openai_hint() -> None:
    with pytest.raises(AgentError, match=r'answered \{"text"\}: no `reply` field; a reply is \{reply, tool_calls, end\}'):
        decode_reply(b'{"text": "Hello!"}', "http://agent/step")


def test_an_openai_tool_call_is_named_as_one() -> None:
    body = json.dumps({"reply": "", "tool_calls": [CALL, OPENAI_CALL]}).encode()
    with pytest.raises(AgentError, match=r"answered tool_calls\[1\] in OpenAI's shape .*: a tool call is \{id, name"):
        decode_reply(body, "http://agent/step")


def test_field_names_an_endpoint_chose_are_escaped_and_few() -> None:
    answer = {"\x1b]0;pwned\x07": 1, **{f"f{i}": i for i in range(20)}}
    with pytest.raises(AgentError) as err:
        decode_reply(json.dumps(answer).encode(), "http://agent/step")
    assert "\x1b" not in str(err.value) and '"\\u001b]0;pwned\\u0007"' in str(err.value)
    assert '"f6", ...}' in str(err.value) and '"f7"' not in str(err.value)


# -- end to end: a real endpoint on 127.0.0.1 answering the pizza suite in each shape ---------


def _shaped(shape: str) -> Any:
    """An endpoint that greets, then hangs up on turn 2: in Polygon's shape or OpenAI's."""

    def answer(step: dict[str, Any]) -> dict[str, Any]:
        text, end = ("Hello, what can I get you?", "") if step["turn"] == 1 else ("Thanks, goodbye.", "hangup")
        if shape == "polygon":
            return {"reply": text, "tool_calls": [], "end": end}
        if shape == "openai_message":
            return {"role": "assistant", "content": text, "tool_calls": [], "end": end}
        return {"role": "assistant", "content": text, "tool_calls": [OPENAI_CALL] if step["turn"] == 1 else []}

    return answer


def _polygon(log: Path, *args: str) -> Result:
    return CliRunner().invoke(cli, ["--log", str(log), *args])


def _run(tmp_path: Path, shape: str) -> tuple[Result, dict[str, str], str]:
    """``run --fail-on fail`` against the endpoint: its result, each call's verdict, the replays."""
    log = tmp_path / "log"
    with serve(["smart"]) as (url, server):
        server.smart = _shaped(shape)
        suite = pizza(tmp_path, **{"python:pizza_agents:make_good": url + "/step"})
        res = _polygon(log, "run", str(suite), "--config", "good", "--run-id", "r", "--fail-on", "fail")
    rows = json.loads(_polygon(log, "report", "r", "--json").output)["conversations"]
    verdicts = {r["record"]["conversation_id"]: r["verdict"]["verdict"] for r in rows}
    return res, verdicts, "\n".join(_polygon(log, "replay", cid).output for cid in sorted(verdicts))


@pytest.mark.parametrize("shape", ["openai_message", "openai_full"])
def test_an_endpoint_answering_openai_messages_is_an_agent_error_and_fails_ci(tmp_path: Path, shape: str) -> None:
    res, verdicts, replays = _run(tmp_path, shape)
    assert res.exit_code == 1, res.output
    assert set(verdicts.values()) == {"error"} and len(verdicts) == 2
    assert replays.count("no `reply` field (the OpenAI message shape? put the text in `reply`)") == 2


def test_the_same_endpoint_in_the_protocols_shape_is_heard(tmp_path: Path) -> None:
    _res, verdicts, replays = _run(tmp_path, "polygon")
    assert "error" not in set(verdicts.values()) and len(verdicts) == 2
    assert replays.count("Hello, what can I get you?") == 2 and "no `reply` field" not in replays
