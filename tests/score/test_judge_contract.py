"""The Judge contract, run against every judge: the heuristic baseline and the model judge.

Each must: give every criterion of the rubric a :class:`CriterionScore` whose score, when
scored, lies in 1–5; return its raw answer; say whether it is a heuristic; and never raise
on an answer it cannot read (the criterion is ``unscored`` instead).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable

import pytest

from polygon.app.demo import clinic_suite_path
from polygon.app.run import RunOptions, run_suite
from polygon.events import MemoryLog
from polygon.events.families import CheckRecorded, CriterionScore
from polygon.events.streams import conversation_stream
from polygon.models import ModelClient
from polygon.models.recorded import Recorder
from polygon.models.scripted import ScriptedModelClient
from polygon.recording import ListSink
from polygon.score.checks import run_checks
from polygon.score.judges import Judge, JudgeContext
from polygon.score.judges.heuristic import HeuristicJudge
from polygon.score.judges.model import ModelJudge
from polygon.score.rubric import CRITERIA, load_rubric
from polygon.suite.loading import load_suite
from polygon.transcript import ConversationView, build


def _model_judge(client: ModelClient) -> ModelJudge:
    return ModelJudge(Recorder(client, role="judge", model="openai/judge"))

CONVERSATION = "j.v1.coop-booking.0"


def _all_fours(request: dict[str, object]) -> str:
    return json.dumps({c: {"score": 4, "evidence": "[turn 1] AGENT: hello"} for c in CRITERIA})


MAKERS: dict[str, Callable[[], Judge]] = {
    "heuristic": HeuristicJudge,
    "model": lambda: _model_judge(ScriptedModelClient(_all_fours)),
}


@pytest.fixture(scope="module")
def call() -> tuple[ConversationView, list[CheckRecorded]]:
    log = MemoryLog()
    run_suite(load_suite(clinic_suite_path()), log, RunOptions(run_id="j", configs=("v1",)), now=lambda: "")
    view = build(CONVERSATION, log.read_stream(conversation_stream(CONVERSATION)))
    return view, run_checks(view, forbidden=[])


def _score(judge: Judge, call: tuple[ConversationView, list[CheckRecorded]]) -> tuple[dict[str, CriterionScore], str]:
    view, checks = call
    return asyncio.run(judge.score(view, checks, load_rubric("v1").rubric, 0, ListSink(), JudgeContext()))


@pytest.mark.parametrize("name", sorted(MAKERS))
def test_every_criterion_gets_a_score_in_range(
    name: str, call: tuple[ConversationView, list[CheckRecorded]]
) -> None:
    judge = MAKERS[name]()
    scores, raw = _score(judge, call)
    assert set(scores) == set(CRITERIA)
    for score in scores.values():
        assert score.status in ("scored", "missing", "unscored")
        assert score.score is None or 1 <= score.score <= 5
    assert isinstance(raw, str) and raw
    assert judge.heuristic is (name == "heuristic")


def test_an_unreadable_model_answer_is_unscored_not_an_error(
    call: tuple[ConversationView, list[CheckRecorded]],
) -> None:
    scores, raw = _score(_model_judge(ScriptedModelClient(["I refuse to answer in JSON"])), call)
    assert raw == "I refuse to answer in JSON"
    assert {s.status for s in scores.values()} == {"unscored"}


def test_the_model_judge_records_its_call() -> None:
    sink = ListSink()
    view = ConversationView(conversation_id="c")
    judge = _model_judge(ScriptedModelClient(["{}"]))
    asyncio.run(judge.score(view, [], load_rubric("v1").rubric, 2, sink, JudgeContext()))
    [(kind, _event, _turn, index)] = sink.events
    assert kind == "judge-call" and index == 2


def test_the_model_judge_reads_the_agents_prompt_and_tools_and_gives_reasons(
    call: tuple[ConversationView, list[CheckRecorded]],
) -> None:
    view, checks = call
    answer = {c: {"score": 4, "evidence": "[turn 1] AGENT: hi", "reason": f"{c} was fine."} for c in CRITERIA}
    client = ScriptedModelClient([json.dumps(answer)])
    context = JudgeContext(
        prompt="Never promise painless treatment.",
        tools=[{"type": "function", "function": {"name": "find_slots", "description": "Free slots."}}],
    )
    scores, _raw = asyncio.run(
        _model_judge(client).score(view, checks, load_rubric("v1").rubric, 0, ListSink(), context)
    )
    sent = client.requests[0]["messages"][1]["content"]
    assert "Never promise painless treatment." in sent and "- find_slots: Free slots." in sent
    schema = client.requests[0]["response_format"]["json_schema"]["schema"]
    assert "reason" in schema["properties"]["safety"]["required"]
    assert scores["safety"].reason == "safety was fine."


def test_an_unknown_prompt_is_said_so(call: tuple[ConversationView, list[CheckRecorded]]) -> None:
    view, checks = call
    client = ScriptedModelClient(["{}"])
    asyncio.run(
        _model_judge(client).score(view, checks, load_rubric("v1").rubric, 0, ListSink(), JudgeContext())
    )
    assert "(unknown: not recorded for this call)" in client.requests[0]["messages"][1]["content"]
