"""Verdicts a CI can trust: each reproduction from the issue, on a pizza suite (not the clinic).

A broken agent is never green, an unreadable judgement neither passes nor fails by accident,
a broken simulator never counts against the agent, and the exit code says so.
"""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from polygon.cli.main import cli
from polygon.events.families import CriterionScore
from polygon.score.rubric import CRITERIA, load_rubric
from polygon.score.verdict import CallState, GateResult, reach_verdict
from tests.support.examples import clinic_suite_path
from tests.support.fault_server import serve
from tests.support.runs import pizza
from tests.support.text import replaced

FIXTURE = Path(__file__).parent / "fixtures" / "pizza"


def polygon(log: Path, *args: str) -> Result:
    return CliRunner().invoke(cli, ["--log", str(log), *args])


def states(log: Path, run_id: str, *more: str) -> dict[str, str]:
    res = polygon(log, "report", run_id, "--json", *more)
    assert res.exit_code == 0, res.output
    rows = json.loads(res.output)["conversations"]
    return {r["record"]["conversation_id"]: r["verdict"]["verdict"] for r in rows}


# 1. A broken agent is an error, and --fail-on fail exits 1.


def test_an_agent_that_raises_on_every_call_is_an_error_and_fails_ci(tmp_path: Path) -> None:
    log, suite = tmp_path / "log", pizza(tmp_path)
    res = polygon(log, "run", str(suite), "--config", "raises", "--run-id", "r", "--fail-on", "fail")
    assert res.exit_code == 1, res.output
    assert "2 error (--fail-on fail)" in res.output
    assert set(states(log, "r").values()) == {"error"}
    text = polygon(log, "report", "r").output
    assert "agent raised RuntimeError: the order database is down" in text
    assert polygon(log, "report", "r", "--fail-on", "fail").exit_code == 1


def test_a_dead_http_agent_is_an_error_and_fails_ci(tmp_path: Path) -> None:
    log = tmp_path / "log"
    suite = pizza(tmp_path, **{"python:pizza_agents:make_good": "http://127.0.0.1:9/step"})
    res = polygon(log, "run", str(suite), "--config", "good", "--run-id", "h", "--fail-on", "fail")
    assert res.exit_code == 1, res.output
    assert set(states(log, "h").values()) == {"error"}


def test_an_unknown_end_value_is_a_protocol_error(tmp_path: Path) -> None:
    log, suite = tmp_path / "log", pizza(tmp_path)
    assert polygon(log, "run", str(suite), "--config", "bad_end", "--run-id", "b").exit_code == 0
    assert set(states(log, "b").values()) == {"error"}
    assert "protocol violation: unknown end 'goodbye'" in polygon(log, "report", "b").output


def test_a_dead_caller_model_is_a_simulator_error_never_the_agents(tmp_path: Path) -> None:
    log = tmp_path / "log"
    suite = pizza(tmp_path, **{"caller: {model: scripted/caller}": "caller: {model: openai/caller}"})
    dead = ["--base-url", "http://127.0.0.1:9/v1"]
    res = polygon(log, "run", str(suite), "--config", "good", "--run-id", "s", "--fail-on", "fail", *dead)
    assert res.exit_code == 1, res.output
    assert "simulator error(s), not the agent's fault" in res.output
    assert set(states(log, "s").values()) == {"simulator_error"}
    card = json.loads(polygon(log, "report", "s", "--json").output)["configs"][0]
    assert (card["simulator_errors"], card["failed"], card["errored"], card["mean_composite"]) == (2, 0, 0, None)
    allowed = polygon(log, "report", "s", "--fail-on", "fail", "--allow-simulator-errors")
    assert allowed.exit_code == 0, allowed.output


def test_a_dead_model_server_stops_the_run_with_one_clear_error(tmp_path: Path) -> None:
    log = tmp_path / "log"
    suite = pizza(
        tmp_path,
        **{"caller: {model: scripted/caller}": "caller: {model: openai/caller}", "trials: 1": "trials: 4"},
    )
    res = polygon(
        log, "run", str(suite), "--config", "good", "--run-id", "d", "--concurrency", "1",
        "--base-url", "http://127.0.0.1:9/v1",
    )  # fmt: skip
    assert res.exit_code == 2, res.output
    assert "is unreachable" in res.output and "calls were not run" in res.output and "--resume d" in res.output



def test_a_model_agent_whose_server_is_dead_fails_every_call_as_error_and_the_run_says_so(
    tmp_path: Path,
) -> None:
    # The agent under test not answering is the agent's error (counted against it), not the
    # simulator's; that every call met it alike is said, since a wrong URL looks just the same.
    suite = tmp_path / "dead.yaml"
    suite.write_text(
        "name: dead\ntrials: 2\nconfigs: {v1: {agent: 'model:openai/gpt-x'}}\n"
        "personas: [{id: p, type: busy, goal: check my order}]\nscenarios: [{id: s, persona: p}]\n"
    )
    log = tmp_path / "log"
    dead = ["--no-progress", "--base-url", "http://127.0.0.1:9/v1"]
    res = polygon(log, "run", str(suite), "--run-id", "a", *dead)
    assert res.exit_code == 0, res.output
    assert "2 conversations (2 run now): agent_error 2" in res.output
    # the reason is quoted, both ends of it: what failed, then the client's conclusion
    said = 'warning: every call ended agent_error (the agent gave no answer; most often: "the model gave no answer'
    assert said in res.output, res.output
    assert 'is unreachable: 6 connections in a row failed"): `polygon report a` says why' in res.output, res.output
    report = polygon(log, "report", "a", "--fail-on", "fail")
    assert report.exit_code == 1 and "connection failed" in report.output, report.output
    good = polygon(tmp_path / "good", "run", str(pizza(tmp_path)), "--config", "good", "--no-progress")
    assert good.exit_code == 0 and "every call ended" not in good.output, good.output


def test_the_reason_every_call_ended_agent_error_is_quoted_without_the_urls_credentials(tmp_path: Path) -> None:
    suite = tmp_path / "dead.yaml"
    url = "http://tester:hunter2-secret@127.0.0.1:9/turn?token=tok-0123456789"
    suite.write_text(
        f"name: dead\ntrials: 1\nconfigs: {{v1: {{agent: '{url}'}}}}\n"
        "personas: [{id: p, type: busy, goal: check my order}]\nscenarios: [{id: s, persona: p}]\n"
    )
    res = polygon(tmp_path / "log", "run", str(suite), "--run-id", "a", "--no-progress")
    (warning,) = [line for line in res.output.splitlines() if line.startswith("warning: every call ended")]
    assert "most often: \"agent endpoint http://" in warning, warning
    assert "hunter2-secret" not in res.output and "tok-0123456789" not in res.output, res.output


@pytest.mark.parametrize("command", [("judge", "--judge"), ("probe", "--answerer")])
def test_a_pass_against_a_dead_server_stops_and_leaves_the_run_as_it_was(
    tmp_path: Path, command: tuple[str, str]
) -> None:
    # What a pass records while its server is down is failures, not answers: none of it is
    # kept, so the run's default view (each call's newest pass) does not flip to unreadable.
    log, (verb, flag) = tmp_path / "log", command
    assert polygon(log, "run", str(clinic_suite_path()), "--run-id", "c", "--no-progress").exit_code == 0
    before = polygon(log, "report", "c", "--format", "json").output
    res = polygon(log, verb, "c", flag, "openai/gpt-x", "--base-url", "http://127.0.0.1:9/v1")
    assert res.exit_code == 2, res.output
    assert "is unreachable" in res.output and "stopped after 0 of 24 conversations" in res.output
    assert polygon(log, "report", "c", "--format", "json").output == before
    assert polygon(log, "compare", "c").exit_code == 0
    exported = tmp_path / "events.jsonl"
    assert polygon(log, "log", "export", "-o", str(exported)).exit_code == 0
    events = [json.loads(line) for line in exported.read_text().splitlines()]
    answers = [e for e in events if e["tag"] in {"judge.scored", "probe.answered"}]
    assert answers and not [e for e in answers if "gpt-x" in json.dumps(e["payload"])]


# 2. A partial judgement never passes, an unreadable one never fails.


def _repeats(**scores: int | None) -> dict[str, list[CriterionScore]]:
    out = {}
    for c in CRITERIA:
        value = scores.get(c)
        out[c] = [CriterionScore(status="scored", score=value) if value else CriterionScore(status="unscored")]
    return out


def _verdict(repeats: dict[str, list[CriterionScore]], call: CallState | None = None) -> Any:
    rubric = load_rubric("v1").rubric
    return reach_verdict(
        rubric.weights,
        repeats,
        pass_at=rubric.pass_at,
        warn_at=rubric.warn_at,
        gates_in_force=rubric.gates,
        check_gates={},
        call=call or CallState(),
    )


def test_seven_of_eight_criteria_unreadable_is_inconclusive_not_pass() -> None:
    v = _verdict(_repeats(persona_tone=5))
    assert v.composite == 100.0 and v.partial  # what used to pass
    assert v.verdict == "inconclusive" and "5% of the rubric's weight" in v.state_reason


def test_nothing_readable_is_inconclusive_not_fail() -> None:
    v = _verdict(_repeats())
    assert v.verdict == "inconclusive"


def test_goal_unscored_is_inconclusive_even_with_enough_weight() -> None:
    v = _verdict(_repeats(**{c: 5 for c in CRITERIA if c != "goal_achievement"}))
    assert v.scored_weight == 75.0 and v.verdict == "inconclusive" and "goal_achievement" in v.state_reason


def test_enough_weight_scored_is_judged_normally() -> None:
    v = _verdict(_repeats(**{c: 5 for c in CRITERIA if c != "persona_tone"}))
    assert v.verdict == "pass" and v.partial and v.scored_weight == 95.0


def test_states_take_precedence_in_a_stated_order() -> None:
    full = _repeats(**{c: 5 for c in CRITERIA})
    assert _verdict(full, CallState(agent_error="x")).verdict == "error"
    # An established agent fault outranks the simulator's (issue 27: agent evidence first).
    assert _verdict(full, CallState(agent_error="x", simulator_error="y")).verdict == "error"
    assert _verdict(full, CallState(simulator_error="y")).verdict == "simulator_error"
    assert _verdict(full, CallState(cut_short="z")).verdict == "inconclusive"


def _gated(gate: str, call: CallState) -> Any:
    rubric = load_rubric("v3").rubric
    return reach_verdict(
        rubric.weights,
        _repeats(**{c: 5 for c in CRITERIA}),
        pass_at=rubric.pass_at,
        warn_at=rubric.warn_at,
        gates_in_force=rubric.gates,
        check_gates={gate: GateResult(gate=gate, fired=True, reason="r")},
        call=call,
    )


@pytest.mark.parametrize("gate", ["forbidden_phrase", "invalid_tool_answer", "check:loop"])
def test_a_gate_on_the_agent_outranks_a_simulator_error(gate: str) -> None:
    v = _gated(gate, CallState(simulator_error="the simulated caller left its facts in 2 turns"))
    assert v.verdict == "fail" and v.state_reason == ""


def test_an_outcome_gate_does_not_outrank_a_simulator_error() -> None:
    # The simulator broke the call, so an unmet goal says nothing of the agent.
    v = _gated("check:goal_reached", CallState(simulator_error="the caller's model gave no answer"))
    assert v.verdict == "simulator_error"
    assert _gated("check:goal_reached", CallState()).verdict == "fail"


def test_a_safety_score_of_one_outranks_a_simulator_error() -> None:
    rubric = load_rubric("v1").rubric
    repeats = _repeats(**{c: 5 for c in CRITERIA})
    repeats["safety"] = [CriterionScore(status="scored", score=1)]
    v = reach_verdict(
        rubric.weights,
        repeats,
        pass_at=rubric.pass_at,
        warn_at=rubric.warn_at,
        gates_in_force=rubric.gates,
        check_gates={},
        call=CallState(simulator_error="y"),
    )
    assert v.verdict == "fail"


def test_a_model_judge_reading_one_criterion_makes_every_call_inconclusive(tmp_path: Path) -> None:
    log, suite = tmp_path / "log", pizza(tmp_path)
    assert polygon(log, "run", str(suite), "--config", "good", "--run-id", "j").exit_code == 0
    # Seven criteria unreadable ("four" is no score), one readable: what used to pass at 100.
    answer = {c: {"score": "four", "evidence": ""} for c in CRITERIA}
    answer["persona_tone"] = {"score": 5, "evidence": "[turn 1] AGENT: Pizza Roma"}
    only_tone = json.dumps(answer)
    with serve([f"ok:{only_tone}"]) as (url, _state):
        judged = polygon(log, "judge", "j", "--judge", "openai/judge", "--base-url", url)
    assert judged.exit_code == 0, judged.output
    assert set(states(log, "j", "--judge", "openai/judge").values()) == {"inconclusive"}
    res = polygon(log, "report", "j", "--judge", "openai/judge", "--fail-on", "fail")
    assert res.exit_code == 1 and "inconclusive call(s)" in res.output
    allowed = ["--fail-on", "warn", "--allow-inconclusive"]
    assert polygon(log, "report", "j", "--judge", "openai/judge", *allowed).exit_code == 0


# 3. Deterministic checks can gate.


def test_rubric_v3_gates_on_checks(tmp_path: Path) -> None:
    log, suite = tmp_path / "log", pizza(tmp_path)
    assert polygon(log, "run", str(suite), "--config", "good", "--config", "loops", "--run-id", "g").exit_code == 0
    assert polygon(log, "judge", "g", "--rubric", "v3").exit_code == 0
    report = json.loads(polygon(log, "report", "g", "--rubric", "v3", "--json").output)
    fired = {
        r["record"]["conversation_id"]: sorted(g["gate"] for g in r["verdict"]["gates"] if g["fired"])
        for r in report["conversations"]
    }
    assert fired["g.loops.veggie.0"] == ["check:goal_reached", "check:loop"]
    assert fired["g.good.veggie.0"] == ["check:goal_reached"]  # hung up without placing the order
    assert set(states(log, "g", "--rubric", "v3").values()) == {"fail"}
    assert set(states(log, "g", "--rubric", "v1").values()) == {"warn", "fail"}  # v1 as it was


def test_an_unknown_gate_is_refused_naming_it(tmp_path: Path) -> None:
    rubric = tmp_path / "r.yaml"
    text = resources.files("polygon.rubrics").joinpath("v2.yaml").read_text(encoding="utf-8")
    text = replaced(text, "version: v2", "version: mine")
    rubric.write_text(replaced(text, "invalid_tool_answer]", 'invalid_tool_answer, "check:nope"]'))
    res = polygon(tmp_path / "log", "judge", "x", "--rubric", str(rubric))
    assert res.exit_code == 2 and "unknown gate 'check:nope'" in res.output


# 4. Transcript checks run on imported calls; end-of-call tools end the call.


def _chat(tmp_path: Path, name: str, records: list[dict[str, Any]]) -> Path:
    path = tmp_path / name
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return path


def test_an_imported_call_that_repeats_itself_is_a_loop(tmp_path: Path) -> None:
    messages = [
        {"role": "user", "content": "I want a pizza"},
        {"role": "assistant", "content": "Could you repeat that?"},
        {"role": "user", "content": "A pizza, please"},
        {"role": "assistant", "content": "Could you repeat that?"},
    ]
    path = _chat(tmp_path, "loop.jsonl", [{"id": "c1", "messages": messages}])
    log = tmp_path / "log"
    assert polygon(log, "import", str(path), "--run-id", "i").exit_code == 0
    explained = polygon(log, "explain", "i.imported.c1.0").output
    assert "fail  loop" in explained and "overlapped 90% or more" in explained



@pytest.mark.parametrize("pairs", [1, 2, 3, 4])
def test_an_agent_cycling_between_two_replies_is_a_loop(tmp_path: Path, pairs: int) -> None:
    # Consecutive replies differ, so the two-reply rule alone passed this call as clean.
    messages = []
    for _ in range(pairs):
        messages += [
            {"role": "user", "content": "I need my refill"},
            {"role": "assistant", "content": "Hello, thank you for calling the pharmacy, how can I help?"},
            {"role": "user", "content": "My refill, please"},
            {"role": "assistant", "content": "Your refill has been submitted and will be ready tomorrow."},
        ]
    path = _chat(tmp_path, "cycle.jsonl", [{"id": "c1", "messages": messages}])
    log = tmp_path / "log"
    assert polygon(log, "import", str(path), "--run-id", "i").exit_code == 0
    explained = polygon(log, "explain", "i.imported.c1.0").output
    if pairs <= 2:  # twice is a patient re-ask in two wordings, not a loop
        assert "pass  loop" in explained, explained
    else:
        assert "fail  loop" in explained and "cycled between two replies from turn 1" in explained, explained


def _ending_call(tool: str) -> dict[str, Any]:
    call = {"id": "t1", "type": "function", "function": {"name": tool, "arguments": "{}"}}
    return {
        "id": "c1",
        "messages": [
            {"role": "user", "content": "Put me through to a person"},
            {"role": "assistant", "content": "Sure, transferring you now.", "tool_calls": [call]},
        ],
    }


@pytest.mark.parametrize(("tool", "reason"), [("transferCall", "transfer"), ("end_call", "hangup")])
def test_an_imported_end_of_call_tool_ends_the_call(tmp_path: Path, tool: str, reason: str) -> None:
    log = tmp_path / "log"
    assert polygon(log, "import", str(_chat(tmp_path, "a.jsonl", [_ending_call(tool)])), "--run-id", "a").exit_code == 0
    replay = json.loads(polygon(log, "replay", "a.imported.c1.0", "--json").output)
    assert replay["ended"]["reason"] == reason and replay["ended"]["by"] == "agent"
    assert replay["turns"][0]["tools"] == []  # the ending is not a stub call


def test_a_custom_end_tool_name_is_recognised(tmp_path: Path) -> None:
    log = tmp_path / "log"
    path = _chat(tmp_path, "a.jsonl", [_ending_call("goodbyeCaller")])
    assert polygon(log, "import", str(path), "--run-id", "a", "--end-tool", "goodbye_caller").exit_code == 0
    replay = json.loads(polygon(log, "replay", "a.imported.c1.0", "--json").output)
    assert replay["ended"]["reason"] == "hangup"


def test_divergence_says_ending_when_only_one_imported_call_hangs_up(tmp_path: Path) -> None:
    log = tmp_path / "log"
    ends = _ending_call("end_call")
    goes_on = {"id": "c1", "messages": [m for m in ends["messages"]]}
    goes_on["messages"][1] = {"role": "assistant", "content": "Sure, transferring you now."}
    polygon(log, "import", str(_chat(tmp_path, "a.jsonl", [ends])), "--run-id", "a")
    polygon(log, "import", str(_chat(tmp_path, "b.jsonl", [goes_on])), "--run-id", "b")
    found = json.loads(polygon(log, "divergence", "a.imported.c1.0", "b.imported.c1.0", "--json").output)
    assert found["divergence"]["reason"] == "ending"


# 5. A re-driven call cut off at its divergence is not judged as a whole call.


def test_a_rerun_stopped_at_its_divergence_is_inconclusive(tmp_path: Path) -> None:
    log = tmp_path / "log"
    clinic = str(clinic_suite_path())
    assert polygon(log, "run", clinic, "--config", "v1", "--run-id", "s").exit_code == 0
    res = polygon(log, "rerun", "s.v1.coop-booking.0", "--suite", clinic, "--config", "v2", "--run-id", "x")
    assert res.exit_code == 0, res.output
    # v2 answered the caller after an invalid tool call before the stop: under the clinic's
    # rubric (v5) that gate is evidence against the agent, and it outranks an unfinished call
    assert set(states(log, "x").values()) == {"fail"}
    # where no gate on the agent fired (v1 gates only on phrases and safety), the cut-off call
    # carries no verdict
    assert polygon(log, "judge", "x", "--rubric", "v1").exit_code == 0
    assert set(states(log, "x", "--rubric", "v1").values()) == {"inconclusive"}
    assert "stopped at its divergence" in polygon(log, "report", "x", "--rubric", "v1").output


# 6. One stated default; compare never mixes settings silently.


def test_after_a_v2_pass_compare_and_report_keep_the_runs_own_rubric(tmp_path: Path) -> None:
    # A later judge pass under another rubric must not change what CI reads by default.
    log = tmp_path / "log"
    assert polygon(log, "run", str(clinic_suite_path()), "--run-id", "c").exit_code == 0
    assert polygon(log, "judge", "c", "--rubric", "v2").exit_code == 0
    res = polygon(log, "compare", "c", "--json")
    assert res.exit_code == 0, res.output
    assert json.loads(res.output)["rubric_version"] == "v5"
    assert json.loads(polygon(log, "compare", "c", "--json", "--rubric", "v2").output)["rubric_version"] == "v2"
    assert "Shown: rubric v5 · pass" in polygon(log, "report", "c").output


def test_compare_refuses_a_heuristic_judge_beside_a_model_judge(tmp_path: Path) -> None:
    log, suite = tmp_path / "log", pizza(tmp_path)
    polygon(log, "run", str(suite), "--config", "good", "--run-id", "a")
    polygon(log, "run", str(suite), "--config", "good", "--run-id", "b")
    full = json.dumps({c: {"score": 4, "evidence": "[turn 1] AGENT: Pizza Roma"} for c in CRITERIA})
    with serve([f"ok:{full}"]) as (url, _state):
        assert polygon(log, "judge", "b", "--judge", "openai/judge", "--base-url", url).exit_code == 0
    refused = polygon(log, "compare", "a", "b")
    assert refused.exit_code == 2 and "differ in judge" in refused.output
    allowed = polygon(log, "compare", "a", "b", "--allow-mixed")
    assert allowed.exit_code == 0 and "MIXED SETTINGS (--allow-mixed): judge:" in allowed.output


# Trials: pass rate, pass^k, flip rate, and --min-pass-rate.


def test_trials_show_pass_rate_and_min_pass_rate_gates_ci(tmp_path: Path) -> None:
    log, suite = tmp_path / "log", pizza(tmp_path, **{"trials: 1": "trials: 3"})
    assert polygon(log, "run", str(suite), "--config", "good", "--config", "raises", "--run-id", "t").exit_code == 0
    report = json.loads(polygon(log, "report", "t", "--json").output)
    rates = {(s["config"], s["scenario"]): s for s in report["scenarios"]}
    assert rates[("raises", "veggie")]["pass_rate"] == 0.0 and rates[("raises", "veggie")]["trials"] == 3
    assert "pass rate" in polygon(log, "report", "t").output
    res = polygon(log, "report", "t", "--min-pass-rate", "0.5")
    assert res.exit_code == 1 and "raises/veggie: pass rate 0% over 3 trials" in res.output


# 8. Errors before work, naming file and field; the HTTP agent hears its configuration.


def _nothing_written(log: Path) -> bool:
    res = polygon(log, "log", "stats", "--json")
    return res.exit_code != 0 or json.loads(res.output)["events"] == 0


@pytest.mark.parametrize(
    ("replace", "message"),
    [
        ({"make_raising": "make_nothing"}, "configs.raises.agent: module 'pizza_agents' has no 'make_nothing'"),
        ({"python:pizza_agents:make_raising": "python:no_such_module:make"}, "configs.raises.agent: cannot import"),
        ({"language: en}": "language: fr}"}, "noise.language: no noise language pack 'fr'"),
        ({"type: busy": "type: busy\n    language: xx"}, "personas[status].language: the caller and its checks have no language pack 'xx'"),
    ],
)
def test_bad_references_fail_before_any_call(tmp_path: Path, replace: dict[str, str], message: str) -> None:
    log, suite = tmp_path / "log", pizza(tmp_path, **replace)
    res = polygon(log, "run", str(suite))
    assert res.exit_code == 2, res.output
    assert f"{suite}: {message}" in res.output and "Traceback" not in res.output
    assert _nothing_written(log)


def test_errors_name_tools_by_their_name(tmp_path: Path) -> None:
    suite = tmp_path / "suite.yaml"
    suite.write_text(
        FIXTURE.joinpath("suite.yaml").read_text()
        + "tools:\n  - name: place_order\n    parameters: {type: object}\n    stub: {mode: sideways}\n"
    )
    res = polygon(tmp_path / "log", "run", str(suite))
    assert res.exit_code == 2 and "tools[place_order].stub.mode" in res.output, res.output


def test_the_http_agent_receives_configuration_prompt_and_params(tmp_path: Path) -> None:
    import threading
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    seen: list[dict[str, Any]] = []

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 - the http.server API
            seen.append(json.loads(self.rfile.read(int(self.headers["content-length"]))))
            out = json.dumps({"reply": "Bye.", "end": "hangup"}).encode()
            self.send_response(200)
            self.send_header("content-length", str(len(out)))
            self.end_headers()
            self.wfile.write(out)

        def log_message(self, *args: object) -> None:
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        url = f"http://127.0.0.1:{httpd.server_address[1]}/step"
        suite = pizza(tmp_path, **{'"python:pizza_agents:make_good", prompt:': f'"{url}", params: {{temperature: 0.1}}, prompt:'})
        assert polygon(tmp_path / "log", "run", str(suite), "--config", "good").exit_code == 0
    finally:
        httpd.shutdown()
        httpd.server_close()
    assert seen and seen[0]["config"] == "good" and seen[0]["params"] == {"temperature": 0.1}
    assert seen[0]["prompt"].startswith("You take pizza orders") and seen[0]["turn"] == 1


# 9. The judge sees what it judges against, and says why.


def test_the_judge_request_carries_the_recorded_prompt_and_tools_and_explain_shows_reasons(
    tmp_path: Path,
) -> None:
    log = tmp_path / "log"
    assert polygon(log, "run", str(clinic_suite_path()), "--config", "v1", "--run-id", "m").exit_code == 0
    answer = {c: {"score": 4, "evidence": "[turn 1] AGENT: hello", "reason": f"{c}: kept to the rules."} for c in CRITERIA}
    with serve([f"ok:{json.dumps(answer)}"]) as (url, state):
        assert polygon(log, "judge", "m", "--judge", "openai/judge", "--base-url", url).exit_code == 0
    sent = state.requests[0]["messages"][1]["content"]
    prompt = (Path(clinic_suite_path()).parent / "prompt_v1.md").read_text().strip()
    assert prompt.splitlines()[0] in sent and "- find_slots:" in sent
    explained = polygon(log, "explain", "m.v1.coop-booking.0", "--judge", "openai/judge").output
    assert "reason: safety: kept to the rules." in explained and "judge prompt judge-3" in explained
    passes = json.loads(polygon(log, "report", "m", "--judge", "openai/judge", "--json").output)["shown"]
    assert "v5/openai/judge/k1/judge-3" in passes


def test_a_model_judge_pass_runs_conversations_concurrently(tmp_path: Path) -> None:
    log, suite = tmp_path / "log", pizza(tmp_path, **{"trials: 1": "trials: 4"})
    assert polygon(log, "run", str(suite), "--config", "good", "--run-id", "c").exit_code == 0
    with serve(["delay:0.3"]) as (url, state):
        res = polygon(log, "judge", "c", "--judge", "openai/judge", "--base-url", url, "--concurrency", "4")
    assert res.exit_code == 0, res.output
    assert state.max_inflight >= 2 and len(state.requests) == 8
