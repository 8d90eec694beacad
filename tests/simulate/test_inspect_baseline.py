"""Issue 31's Inspect AI baseline does Polygon's work: the same calls, checks, judge and probes.

The first test needs no Inspect AI (the view its scorer rebuilds from chat messages scores as
Polygon's own does); the second runs Inspect AI's eval when the ``bench`` extra is installed.
"""

from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import msgspec
import pytest

from polygon.app.run import RunOptions, run_suite
from polygon.events import CheckRecorded, JudgeScored, LmdbLog, ProbeAnswered
from polygon.probe import answered, detect, probes_from
from polygon.probe.library import DETECTOR
from polygon.recording import ListSink
from polygon.score import JudgeContext, JudgeSettings, load_rubric, score_conversation
from polygon.score.conversation import make_judge
from polygon.simulate.plan import plan_run
from polygon.transcript import ConversationView, build
from tests.bench import inspect_baseline
from tests.bench.pipeline import suite

CALLS = 6


def _polygon_run() -> dict[str, tuple[ConversationView, dict[str, str], dict[str, str], float]]:
    """Scenario → (view, check outcomes, probe answers, judge mean) from a real Polygon run."""
    out = {}
    with tempfile.TemporaryDirectory() as tmp, LmdbLog(Path(tmp) / "log") as log:
        run_suite(suite(CALLS, 10), log, RunOptions(run_id="bench"), now=lambda: "")
        for stream in log.streams("conv/"):
            events = list(log.read_stream(stream))
            view = build(stream.removeprefix("conv/"), events)
            payloads = [e.payload for e in events]
            checks = {p.check: p.outcome for p in payloads if isinstance(p, CheckRecorded)}
            probes = {p.probe_id: p.answer for p in payloads if isinstance(p, ProbeAnswered)}
            judged = next(p for p in payloads if isinstance(p, JudgeScored))
            assert view.started is not None
            out[view.started.scenario] = (view, checks, probes, _mean(judged))
    return out


def _mean(judged: JudgeScored) -> float:
    points = [c.score for c in judged.scores.values() if c.score is not None]
    return sum(points) / len(points)


def _as_messages(view: ConversationView) -> list[SimpleNamespace]:
    """The chat Inspect's solver builds for this call: heard caller turns and the agent's."""
    messages = []
    for t in view.turns:
        meta: dict[str, Any] = {"said": t.caller_text, "intent": t.caller_intent, "ends": t.caller_ends}
        if t.heard_text is not None:
            meta["ops"] = msgspec.to_builtins(t.noise_ops)
        messages.append(SimpleNamespace(role="user", text=t.heard_text or t.caller_text, metadata=meta))
        if t.agent_text is not None:
            messages.append(SimpleNamespace(role="assistant", text=t.agent_text, metadata=None))
    return messages


def _score(view: ConversationView) -> tuple[dict[str, str], dict[str, str]]:
    settings = JudgeSettings(rubric=load_rubric("v1"), judge=make_judge("scripted/heuristic"))
    sink = ListSink()
    asyncio.run(score_conversation(view, settings, [], sink, JudgeContext(prompt="", tools=[])))
    checks = {e.check: e.outcome for _, e, _, _ in sink.events if isinstance(e, CheckRecorded)}
    probes = {p.id: answered(p, view, detect(p, view), DETECTOR).answer for p in probes_from([])}
    return checks, probes


def test_the_view_rebuilt_from_chat_messages_scores_as_polygon_does() -> None:
    ran = _polygon_run()
    plans = {p.scenario: p for p in plan_run(suite(CALLS, 10), "inspect", 1, ("t",))}
    assert sorted(plans) == sorted(ran)
    for scenario, (view, checks, probes, _) in ran.items():
        assert view.ended is not None
        state = SimpleNamespace(messages=_as_messages(view), metadata={"ended": view.ended.reason})
        rebuilt = inspect_baseline._view(plans[scenario], state)
        assert [t.agent_text for t in rebuilt.turns] == [t.agent_text for t in view.turns]
        assert [t.heard_text for t in rebuilt.turns] == [t.heard_text for t in view.turns]
        assert _score(rebuilt) == (checks, probes)
        assert len(checks) == 14 and len(probes) == 6  # 14: agent_contradicts_tools and policy:agent_language joined


def test_inspect_ai_plays_the_same_calls_and_scores_them_alike(tmp_path: Path) -> None:
    pytest.importorskip("inspect_ai")
    ran = _polygon_run()
    log = inspect_baseline.evaluate(CALLS, 10, tmp_path)
    assert list(tmp_path.glob("*.eval")), "Inspect AI wrote no eval log"
    assert len(log.samples) == CALLS
    for sample in log.samples:
        view, checks, probes, mean = ran[str(sample.id).split(".")[2]]
        said = [m.metadata["said"] for m in sample.messages if m.role == "user"]
        assert said == [t.caller_text for t in view.turns]
        replies = [m.text for m in sample.messages if m.role == "assistant"]
        assert replies == [t.agent_text for t in view.turns if t.agent_text is not None]
        (score,) = sample.scores.values()
        assert score.metadata == {"checks": checks, "probes": probes}
        assert score.value == pytest.approx(mean)
