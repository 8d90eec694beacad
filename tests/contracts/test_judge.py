"""The Judge contract: the heuristic baseline, and the model judge with a scripted client.

Every judge names itself and its prompt version; gives every criterion of the rubric a
:class:`CriterionScore` whose score, when scored, lies in 1–5; returns its raw answer; says
whether it is a heuristic; and scores the same call the same way. The model judge records
its call and never raises on an answer it cannot read (the criterion is ``unscored``).
"""

from __future__ import annotations

import asyncio
import json
from abc import ABC, abstractmethod

import pytest

from polygon.app.run import RunOptions, run_suite
from polygon.events import MemoryLog
from polygon.events.families import CheckRecorded, CriterionScore
from polygon.events.streams import conversation_stream
from polygon.models import ModelClient
from polygon.models.recorded import Recorder
from polygon.models.scripted import ScriptedModelClient
from polygon.recording import ListSink, Sink
from polygon.score.checks import run_checks
from polygon.score.judges import Judge, JudgeContext
from polygon.score.judges.heuristic import HeuristicJudge
from polygon.score.judges.model import ModelJudge
from polygon.score.rubric import CRITERIA, load_rubric
from polygon.suite.loading import load_suite
from polygon.transcript import ConversationView, build
from tests.support.examples import clinic_suite_path

CONVERSATION = "j.v1.coop-booking.0"


def _all_fours(request: dict[str, object]) -> str:
    return json.dumps({c: {"score": 4, "evidence": "[turn 1] AGENT: hello"} for c in CRITERIA})


Call = tuple[ConversationView, list[CheckRecorded]]


@pytest.fixture(scope="module")
def call() -> Call:
    log = MemoryLog()
    run_suite(load_suite(clinic_suite_path()), log, RunOptions(run_id="j", configs=("v1",)), now=lambda: "")
    view = build(CONVERSATION, log.read_stream(conversation_stream(CONVERSATION)))
    return view, run_checks(view, forbidden=[])


def score(judge: Judge, call: Call, sink: Sink | None = None, repeat: int = 0) -> tuple[dict[str, CriterionScore], str]:
    view, checks = call
    rubric = load_rubric("v1").rubric
    return asyncio.run(judge.score(view, checks, rubric, repeat, sink or ListSink(), JudgeContext()))


class JudgeContract(ABC):
    heuristic: bool

    @abstractmethod
    def make(self) -> Judge:
        """A judge whose every criterion scores 4 when it reads the call (the heuristic: its own reading)."""

    def test_names_itself_and_its_prompt_version(self) -> None:
        judge = self.make()
        assert judge.name and judge.prompt_version
        assert judge.heuristic is self.heuristic

    def test_every_criterion_gets_a_score_in_range(self, call: Call) -> None:
        scores, raw = score(self.make(), call)
        assert set(scores) == set(CRITERIA)
        for criterion in scores.values():
            assert criterion.status in ("scored", "missing", "unscored")
            assert criterion.score is None or 1 <= criterion.score <= 5
            assert criterion.status != "scored" or criterion.score is not None
        assert isinstance(raw, str) and raw

    def test_the_same_call_gets_the_same_scores(self, call: Call) -> None:
        assert score(self.make(), call) == score(self.make(), call)


class TestHeuristicJudge(JudgeContract):
    heuristic = True

    def make(self) -> Judge:
        return HeuristicJudge()

    def test_calls_no_model(self, call: Call) -> None:
        sink = ListSink()
        score(HeuristicJudge(), call, sink)
        assert sink.events == []


def _model_judge(client: ModelClient) -> ModelJudge:
    return ModelJudge(Recorder(client, role="judge", model="openai/judge"))


class TestModelJudge(JudgeContract):
    heuristic = False

    def make(self) -> Judge:
        return _model_judge(ScriptedModelClient(_all_fours))

    def test_reads_the_models_scores(self, call: Call) -> None:
        scores, _raw = score(self.make(), call)
        assert {(s.status, s.score) for s in scores.values()} == {("scored", 4)}

    def test_an_unreadable_model_answer_is_unscored_not_an_error(self, call: Call) -> None:
        scores, raw = score(_model_judge(ScriptedModelClient(["I refuse to answer in JSON"])), call)
        assert raw == "I refuse to answer in JSON"
        assert {s.status for s in scores.values()} == {"unscored"}

    def test_records_its_call_at_the_repeat(self, call: Call) -> None:
        sink = ListSink()
        score(self.make(), call, sink, repeat=2)
        [(kind, event, _turn, index)] = sink.events
        assert kind == "judge-call" and index == 2
        assert event.role == "judge" and event.model == "openai/judge"  # type: ignore[attr-defined]

    def test_reads_the_agents_prompt_and_tools_and_gives_reasons(self, call: Call) -> None:
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

    def test_an_unknown_prompt_is_said_so(self, call: Call) -> None:
        client = ScriptedModelClient(["{}"])
        score(_model_judge(client), call)
        assert "(unknown: not recorded for this call)" in client.requests[0]["messages"][1]["content"]
