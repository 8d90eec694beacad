"""A real llama.cpp OpenAI-compatible server with the packaged gemma model, started here:
one whole simulated call with the model as agent, caller and judge."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from click.testing import CliRunner

from polygon.cli.main import cli
from polygon.events import LmdbLog

SUITE = """
name: llama-call
seed: 3
max_turns: 3
configs:
  gemma:
    agent: model:openai/gemma-3-270m
    prompt: "You are Mia, receptionist of Smile Dental. Help the caller book a cleaning. Be brief."
    params: {temperature: 0.0, max_tokens: 48, seed: 1}
caller: {model: openai/gemma-3-270m}
judge: {model: openai/gemma-3-270m, rubric: v1, repeats: 1}
noise: {intensity: 0.0}
personas:
  - {id: coop, type: cooperative, outcome: success, difficulty: 1, goal: book a cleaning,
     facts: {name: Ana Kovac, preferred_day: Friday}}
"""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def llama_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    if os.environ.get("POLYGON_SKIP_LLAMA") == "1":
        pytest.skip("POLYGON_SKIP_LLAMA=1 was set explicitly")
    from polygon.models.llama import packaged_model_path

    port = _free_port()
    log = tmp_path_factory.mktemp("llama") / "server.log"
    with log.open("w") as out:
        proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "llama_cpp.server",
                "--model",
                str(packaged_model_path()),
                "--host",
                "127.0.0.1",
                "--port",
                str(port),
                "--n_ctx",
                "4096",
                "--chat_format",
                "gemma",
            ],
            stdout=out,
            stderr=subprocess.STDOUT,
            # libgomp's spinning idle threads fight the test run for two cores: passive waiting
            # made a judge-sized completion 4x faster at load ~10 (48 s → 12 s), same arithmetic
            env={**os.environ, "OMP_WAIT_POLICY": os.environ.get("OMP_WAIT_POLICY", "PASSIVE")},
        )
    url = f"http://127.0.0.1:{port}/v1"
    try:
        deadline = time.monotonic() + 180
        while time.monotonic() < deadline:
            try:
                if httpx.get(f"{url}/models", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.5)
            assert proc.poll() is None, log.read_text()[-2000:]
        else:
            raise AssertionError("the llama.cpp server did not start: " + log.read_text()[-2000:])
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:  # busy generating: never leave it running
            proc.kill()
            proc.wait(timeout=30)


@pytest.mark.timeout(2400)  # the hang guard, widened: on one busy core each model call is slow
def test_one_whole_call_with_gemma_as_agent_caller_and_judge(
    llama_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A 270M model judging eight criteria with quotes and reasons takes about a minute on two
    # loaded cores: give each attempt room (the setting users have for slow local servers).
    monkeypatch.setenv("POLYGON_MODEL_TIMEOUT", "400")
    suite = tmp_path / "suite.yaml"
    suite.write_text(SUITE)
    log = tmp_path / "log"
    res = CliRunner().invoke(
        cli,
        [
            "--log",
            str(log),
            "run",
            str(suite),
            "--run-id",
            "g",
            "--base-url",
            llama_url,
            "--no-progress",
            "--json",
        ],
    )
    # How fast a 270M model answers on this machine, and what it writes, are its business; the
    # test holds Polygon's handling of whatever happened: every call recorded, a failed one with
    # its reason; a server too slow to answer stops the run in one line with a resume hint.
    assert res.exit_code in (0, 2), res.output
    with LmdbLog(log, readonly=True) as lg:
        events = list(lg.read_all())
    calls = [e.payload for e in events if e.tag == "model.called"]
    assert {c.role for c in calls} >= {"agent", "caller"}
    silent = [(c.role, c.turn) for c in calls if c.response is None and not c.errors]
    assert not silent, silent
    if res.exit_code == 2:
        assert "--resume g" in res.output and res.output.count("\n") == 1, res.output
        assert any(c.response is None for c in calls)
        return
    scored = [e.payload for e in events if e.tag == "judge.scored"]
    if not scored:  # the call itself failed on a model call: ended as a fault, not judged
        (ended,) = [e.payload for e in events if e.tag == "conversation.ended"]
        assert ended.reason in ("agent_error", "simulator_error"), ended
        return
    (judged,) = scored
    try:  # its grammar-constrained answer can be cut mid-string, or the call can time out
        answer = json.loads(judged.raw or "", strict=False)
    except ValueError:
        answer = None
    if isinstance(answer, dict):
        assert {s.status for s in judged.scores.values()} <= {"scored", "unscored", "missing"}
    else:  # unreadable: every criterion unscored, never a number, so no gate fires by accident
        assert {s.status for s in judged.scores.values()} == {"unscored"}
    assert not judged.heuristic and judged.judge == "openai/gemma-3-270m"
    spoken = [e.payload for e in events if e.tag == "conversation.turn_spoken"]
    assert any(t.speaker == "agent" for t in spoken) and any(t.speaker == "caller" for t in spoken)
    report = CliRunner().invoke(cli, ["--log", str(log), "report", "g"])
    assert report.exit_code == 0 and "openai/gemma-3-270m" in report.output


def test_local_model_in_process_answers_structured_output() -> None:
    import asyncio

    from polygon.models.hub import ModelHub
    from polygon.recording import ListSink

    hub = ModelHub()

    async def go():
        client = hub.client("local/gemma-3-270m", sink=ListSink(), role="probe")
        schema = {
            "type": "object",
            "properties": {"answer": {"type": "string", "enum": ["yes", "no"]}},
            "required": ["answer"],
        }
        return await client.complete(
            {
                "model": "gemma-3-270m",
                "temperature": 0.0,
                "max_tokens": 20,
                "messages": [{"role": "user", "content": "Is the sky blue? Answer in JSON."}],
                "response_format": {"type": "json_schema", "json_schema": {"name": "a", "schema": schema}},
            }
        )

    answer = asyncio.run(go())
    assert answer.text is not None and not answer.errors
    assert json.loads(answer.text, strict=False)["answer"] in ("yes", "no")


def test_the_lint_judge_tier_reads_a_prompt_through_the_llama_server(
    llama_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Plumbing, not quality: a 270M base model's opinion of a prompt is no verdict. The tier
    # must ask in JSON-schema mode, record the call, and end as scores or a recorded fault.
    monkeypatch.setenv("POLYGON_MODEL_TIMEOUT", "400")
    log = tmp_path / "log"
    prompt = Path(__file__).parents[2] / "examples" / "clinic" / "prompt_v1.md"
    args = [
        "--log",
        str(log),
        "lint",
        str(prompt),
        "--tiers",
        "rules,judge",
        "--judge-model",
        "openai/gemma-3-270m",
    ]
    res = CliRunner().invoke(cli, [*args, "--base-url", llama_url, "--format", "json"])
    assert res.exit_code == 0, res.output
    [result] = json.loads(res.stdout)
    [judge] = [t for t in result["tiers"] if t["tier"] == "judge"]
    assert judge["model"] == "openai/gemma-3-270m#j2"
    assert judge["error"] or set(judge["scores"]) == {
        "overload",
        "diluted_attention",
        "contradiction",
        "ambiguity",
        "redundancy",
    }
    with LmdbLog(log, readonly=True) as lg:
        calls = [e.payload for e in lg.read_all() if e.tag == "model.called"]
    assert [c.role for c in calls] == ["lint"] and calls[0].response is not None
    assert calls[0].request["response_format"]["type"] == "json_schema"


SWEEP_SUITE = """
name: llama-sweep
seed: 5
max_turns: 2
configs:
  gemma:
    agent: model:openai/gemma-3-270m
    prompt: "You are Mia, receptionist of Smile Dental. Help the caller book a cleaning. Be brief."
    params: {max_tokens: 32, seed: 1}
caller: {model: scripted/caller}
judge: {model: scripted/heuristic, rubric: v1}
noise: {intensity: 0.0}
personas:
  - {id: coop, type: cooperative, outcome: success, difficulty: 1, goal: book a cleaning,
     facts: {name: Ana Kovac, preferred_day: Friday}}
"""


def test_a_temperature_sweep_of_a_model_agent_against_the_llama_server(
    llama_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Plumbing: each point is a run of the model agent at its temperature; tokens come from
    # the usage the server reports, and the leaderboard ranks what was measured.
    monkeypatch.setenv("POLYGON_MODEL_TIMEOUT", "400")
    (tmp_path / "suite.yaml").write_text(SWEEP_SUITE)
    sweep = tmp_path / "sweep.yaml"
    sweep.write_text(
        "name: temp\nsuite: suite.yaml\nbase: gemma\nmode: grid\nparameters: {temperature: [0.0, 0.9]}\n"
    )
    log = tmp_path / "log"
    res = CliRunner().invoke(cli, ["--log", str(log), "sweep", str(sweep), "--base-url", llama_url, "--json"])
    assert res.exit_code == 0, res.output
    board = json.loads(res.stdout)["leaderboard"]
    assert sorted(r["values"]["temperature"] for r in board["rows"]) == [0.0, 0.9]
    assert all(r["status"] == "ran" and r["tokens"] > 0 for r in board["rows"])
    with LmdbLog(log, readonly=True) as lg:
        temps = {
            e.payload.request.get("temperature")
            for e in lg.read_all()
            if e.tag == "model.called" and e.payload.role == "agent"
        }
    assert temps == {0.0, 0.9}
