"""Scoring end to end: checks point at the right turns, model judges through the seam,
re-judging appends, rubric versions never mix, reports rebuild byte for byte."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from xml.etree import ElementTree as ET

import pytest
from click.testing import CliRunner

from polygon.app.judge import score_run
from polygon.app.queries import load_run
from polygon.app.run import RunOptions, run_suite
from polygon.cli.main import cli
from polygon.errors import UserInputError
from polygon.events import LmdbLog, MemoryLog
from polygon.events.families import CheckRecorded, JudgeScored, ModelCalled
from polygon.events.streams import conversation_stream
from polygon.models import ModelHub
from polygon.models.recorded import Recorder
from polygon.models.scripted import ScriptedModelClient
from polygon.projections.explain import build_explanation
from polygon.projections.report import make_report
from polygon.recording import ListSink
from polygon.render import render_json, render_junit, render_text
from polygon.score.conversation import JudgeSettings, score_conversation
from polygon.score.judges.model import ModelJudge
from polygon.score.rubric import CRITERIA, load_rubric
from polygon.suite.loading import load_suite
from polygon.transcript import build
from tests.support.examples import clinic_suite_path
from tests.support.text import replaced


@pytest.fixture(scope="module")
def clinic() -> MemoryLog:
    log = MemoryLog()
    run_suite(load_suite(clinic_suite_path()), log, RunOptions(run_id="c"), now=lambda: "")
    return log


def checks_of(log: MemoryLog, conv: str) -> dict[str, CheckRecorded]:
    return {
        e.payload.check: e.payload
        for e in log.read_stream(conversation_stream(conv))
        if isinstance(e.payload, CheckRecorded)
    }


def test_v2_regressions_show_as_checks_at_the_right_turns(clinic: MemoryLog) -> None:
    view = build("c.v2.coop-booking.0", clinic.read_stream("conv/c.v2.coop-booking.0"))
    booking_turn = next(t.turn for t in view.turns if any(c.tool == "book_slot" for c in t.tools))
    checks = checks_of(clinic, "c.v2.coop-booking.0")
    assert checks["invalid_tool_answer"].outcome == "fail"
    ev = checks["invalid_tool_answer"].evidence
    assert {e.turn for e in ev} == {booking_turn}
    assert "booked" in ev[-1].quote
    assert checks["goal_reached"].outcome == "fail"  # the calendar was never changed
    forbidden = checks_of(clinic, "c.v2.chatty-refusal.0")["forbidden_phrase"]
    assert forbidden.outcome == "fail" and any("guaranteed" in e.quote for e in forbidden.evidence)
    assert checks_of(clinic, "c.v2.distrustful-booking.0")["loop"].outcome == "fail"  # heard whole, asked again
    # "Tuesday" garbled by the noise twice, then asked a third time: re-asks, not a loop (trial3)
    reasked = checks_of(clinic, "c.v2.busy-booking.0")["loop"]
    assert reasked.outcome == "pass" and "asked again after" in reasked.detail


def test_v1_mostly_reaches_its_goals_and_the_simulator_keeps_to_facts(clinic: MemoryLog) -> None:
    reached = 0
    for stream in clinic.streams("conv/c.v1."):
        checks = checks_of(clinic, stream.removeprefix("conv/"))
        reached += checks["goal_reached"].outcome == "pass"
        assert checks["caller_outside_facts"].outcome == "pass" and checks["caller_outside_facts"].simulator
    assert reached >= 10


def test_ground_truth_catches_a_booking_under_the_wrong_name(clinic: MemoryLog) -> None:
    # v1 heard "Honestly, this is ridiculous" and took "Ridiculous" for a name: the calendar
    # end state shows the slot booked for someone who is not the caller.
    view = build("c.v1.aggressive-booking.0", clinic.read_stream("conv/c.v1.aggressive-booking.0"))
    assert view.ended is not None and "Ridiculous" in view.ended.final_state["calendar"].values()
    assert checks_of(clinic, "c.v1.aggressive-booking.0")["goal_reached"].outcome == "fail"


def test_v2_scores_lower_than_v1_under_both_rubrics(clinic: MemoryLog) -> None:
    report = make_report(load_run(clinic, "c"), "v5")
    by = {c.config: c for c in report.configs}
    assert by["v1"].mean_composite > by["v2"].mean_composite
    assert by["v2"].failed > by["v1"].failed
    assert report.heuristic and report.judges == ["scripted/heuristic"]


def test_explain_accounts_for_every_point(clinic: MemoryLog) -> None:
    from polygon.app.queries import run_events
    from polygon.projections.verdicts import build_run_record

    state = build_run_record("c", run_events(clinic, "c"))  # explain shows every repeat: the whole fold
    for conv in state.conversations:
        row, rubric = build_explanation(state, conv, "v5")
        assert row.verdict is not None
        assert sum(c.contribution for c in row.verdict.criteria) == pytest.approx(
            row.verdict.composite, abs=1e-4
        )
        assert rubric.version == "v5"


def test_checks_without_persona_are_na(clinic: MemoryLog) -> None:
    import msgspec

    from polygon.score.checks import run_checks

    view = build("c.v1.coop-booking.0", clinic.read_stream("conv/c.v1.coop-booking.0"))
    view.started = msgspec.structs.replace(view.started, persona=None)
    results = {c.check: c.outcome for c in run_checks(view, forbidden=[])}
    assert (
        results["goal_reached"]
        == results["agent_contradicts_facts"]
        == results["caller_outside_facts"]
        == "n/a"
    )
    assert results["forbidden_phrase"] == "n/a"


def good_answer(request: dict) -> str:
    return json.dumps({c: {"score": 4, "evidence": "[turn 1] AGENT: hello"} for c in CRITERIA})


def test_model_judge_records_the_call_before_the_score(clinic: MemoryLog) -> None:
    view = build("c.v1.coop-booking.0", clinic.read_stream("conv/c.v1.coop-booking.0"))
    client = ScriptedModelClient(
        [good_answer({}), "Sorry, I can't do JSON", json.dumps({"safety": {"score": 1}})]
    )
    settings = JudgeSettings(
        rubric=load_rubric("v2"),
        judge=ModelJudge(Recorder(client, role="judge", model="openai/test-judge")),
        repeats=3,
    )
    sink = ListSink()
    asyncio.run(score_conversation(view, settings, ["guaranteed"], sink))
    kinds = [type(e).__name__ for _, e, _, _ in sink.events]
    assert kinds[-6:] == ["ModelCalled", "JudgeScored"] * 3
    request = client.requests[0]
    assert request["temperature"] == 0.0 and request["response_format"]["type"] == "json_schema"
    assert "Ana Kovac" in request["messages"][1]["content"]  # ground truth in the prompt
    judged = [e for _, e, _, _ in sink.events if isinstance(e, JudgeScored)]
    assert judged[1].raw == "Sorry, I can't do JSON"
    assert {s.status for s in judged[1].scores.values()} == {"unscored"}
    assert judged[2].scores["safety"].score == 1 and judged[2].scores["goal_achievement"].status == "missing"
    calls = [e for _, e, _, _ in sink.events if isinstance(e, ModelCalled)]
    assert calls[0].request_hash and calls[0].role == "judge" and not judged[0].heuristic


def run_clinic_to(path: Path) -> None:
    with LmdbLog(path) as log:
        run_suite(load_suite(clinic_suite_path()), log, RunOptions(run_id="r"), now=lambda: "")


def invoke(path: Path, *args: str):
    return CliRunner().invoke(cli, ["--log", str(path), *args])


def test_rejudging_with_v2_leaves_the_runs_own_reports_byte_identical(tmp_path: Path) -> None:
    log = tmp_path / "log"
    run_clinic_to(log)
    before = {
        fmt: invoke(log, "report", "r", "--format", fmt).output for fmt in ("text", "json", "junit", "html")
    }
    res = invoke(log, "judge", "r", "--rubric", "v2")
    assert res.exit_code == 0 and "scored 24" in res.output
    after = {
        fmt: invoke(log, "report", "r", "--rubric", "v5", "--format", fmt).output
        for fmt in ("text", "json", "junit", "html")
    }
    assert before == after
    # Without --rubric the run's own version is still shown.
    own = invoke(log, "report", "r")
    assert own.exit_code == 0
    assert own.output == before["text"]  # byte-identical: the v2 pass changed nothing it shows
    shown_v2 = invoke(log, "report", "r", "--rubric", "v2").output
    assert "rubric v2 (the run's own is v5) · pass v2/scripted/heuristic/k1" in shown_v2
    v2 = invoke(log, "report", "r", "--rubric", "v2", "--json")
    data = json.loads(v2.output)
    v2_gates = {g["gate"] for row in data["conversations"] for g in row["verdict"]["gates"] if g["fired"]}
    assert "invalid_tool_answer" in v2_gates
    again = invoke(log, "judge", "r", "--rubric", "v2")
    assert "scored 0, already scored 24" in again.output
    # nothing left to score: how to score them again is said (a user who changed a check met "scored 0")
    assert "start a new one: `polygon judge r --new-pass 1`" in again.output
    fresh = invoke(log, "judge", "r", "--rubric", "v2", "--new-pass", "1")
    assert "scored 24, already scored 0" in fresh.output and "start a new one" not in fresh.output


def test_changed_rubric_under_the_same_version_is_refused(tmp_path: Path) -> None:
    log = tmp_path / "log"
    run_clinic_to(log)
    text = (Path(__file__).parents[2] / "rubrics" / "v5.yaml").read_text()
    changed = tmp_path / "v5.yaml"
    changed.write_text(replaced(replaced(text, "weight: 25", "weight: 20"), "weight: 5\n", "weight: 10\n"))
    res = invoke(log, "judge", "r", "--rubric", str(changed))
    assert res.exit_code == 2 and "differs from the v5 this run was judged with" in res.output


def test_junit_and_fail_on(tmp_path: Path) -> None:
    log = tmp_path / "log"
    run_clinic_to(log)
    xml = invoke(log, "report", "r", "--junit").output
    root = ET.fromstring(xml.encode())
    cases = root.findall(".//testcase")
    assert len(cases) == 24
    failures = root.findall(".//failure")
    assert failures and all(f.get("message") for f in failures)
    assert "heuristic baseline" in xml
    assert invoke(log, "report", "r", "--fail-on", "fail").exit_code == 1
    assert invoke(log, "report", "r").exit_code == 0


def test_reports_rebuild_identically_and_say_heuristic(tmp_path: Path) -> None:
    log = tmp_path / "log"
    run_clinic_to(log)
    with LmdbLog(log, readonly=True) as lg:
        a = render_text(make_report(load_run(lg, "r"), None))
        b = render_text(make_report(load_run(lg, "r"), None))
        j = render_json(make_report(load_run(lg, "r"), None))
        x = render_junit(make_report(load_run(lg, "r"), None))
    assert a == b and "heuristic baseline" in a and "not a model" in a
    assert json.loads(j)["judge_label"].startswith("heuristic baseline") and x


def test_explain_cli_shows_contributions_gates_and_positions(tmp_path: Path) -> None:
    log = tmp_path / "log"
    run_clinic_to(log)
    res = invoke(log, "explain", "r.v2.coop-booking.0")
    assert res.exit_code == 0, res.output
    out = res.output
    assert "rubric v5" in out and "heuristic baseline" in out and "total" in out
    assert "invalid_tool_answer" in out and "#" in out
    assert invoke(log, "explain", "nope").exit_code == 2


def test_model_judge_needs_a_client() -> None:
    from polygon.score.conversation import make_judge

    with pytest.raises(UserInputError, match="needs a model client"):
        make_judge("openai/gpt-4o-mini")


def test_score_run_on_unknown_run_is_a_user_error() -> None:
    with pytest.raises(UserInputError, match="no run 'ghost'"):
        asyncio.run(
            score_run(
                MemoryLog(),
                "ghost",
                rubric=load_rubric("v1"),
                judge_model="scripted/heuristic",
                hub=ModelHub(),
                now=lambda: "",
            )
        )


def test_the_reduced_fold_gives_the_same_reports_as_the_whole_one(tmp_path: Path) -> None:
    """``report`` folds a run one call at a time and keeps only verdicts; every format must
    still be byte-identical to the report of the whole fold (JSON with every repeat)."""
    from polygon.app.queries import run_events
    from polygon.app.report import report_run
    from polygon.projections.verdicts import build_run_record
    from polygon.render import render_html

    log = tmp_path / "log"
    run_clinic_to(log)
    assert invoke(log, "judge", "r", "--rubric", "v2").exit_code == 0  # a second pass, another rubric
    with LmdbLog(log, readonly=True) as lg:
        whole = build_run_record("r", run_events(lg, "r"))
        for rubric in ("v5", "v2"):
            full = make_report(whole, rubric)
            renderers = {"text": render_text, "json": render_json, "junit": render_junit, "html": render_html}
            for fmt, render in renderers.items():
                _, chunks = report_run(lg, "r", fmt, rubric=rubric)
                assert "".join(chunks) == render(full), (rubric, fmt)
    assert json.loads(render_json(full))["conversations"][0]["judged"]  # the repeats are there
