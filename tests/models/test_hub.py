"""The model hub hands out recorded clients only, and is the one place that knows offline names."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest

from polygon.errors import UserInputError
from polygon.events.families import ModelCalled
from polygon.models import request_hash
from polygon.models.hub import ModelHub, ModelSettings, is_scripted
from polygon.models.recorded import Recorder
from polygon.probe.answering import answerer_for, make_answerer
from polygon.probe.library import DETECTOR
from polygon.recording import ListSink
from polygon.score.conversation import judge_for
from polygon.score.judges.heuristic import HEURISTIC_JUDGE

REQUEST = {"model": "m", "messages": [{"role": "user", "content": "hi"}]}
BODY = {"choices": [{"message": {"role": "assistant", "content": "hello"}}]}


def _hub() -> ModelHub:
    """A hub whose one answer is already recorded: no server is ever called."""
    settings = ModelSettings(base_url="http://127.0.0.1:9", cache=True)
    return ModelHub(settings, recorded={request_hash(REQUEST): BODY})


def test_a_hub_client_records_every_call_under_its_role() -> None:
    hub, sink = _hub(), ListSink()
    client = hub.client("openai/m", sink=sink, role="lint", conversation_id="c1")
    answer = asyncio.run(client.complete(REQUEST, index=2))
    assert answer.text == "hello"
    [(kind, event, _, index)] = sink.events
    assert isinstance(event, ModelCalled) and event.cached
    assert (event.role, event.model, event.conversation_id) == ("lint", "openai/m", "c1")
    assert (kind, index) == ("lint-call", 2)


def test_a_recorder_cannot_call_unrecorded_and_binds_per_conversation() -> None:
    hub = _hub()
    recorder = hub.recorder("openai/m", role="judge")
    assert not hasattr(recorder, "complete")
    first, second = ListSink(), ListSink()
    asyncio.run(recorder.to(first, "a").complete(REQUEST))
    asyncio.run(recorder.to(second, "b").complete(REQUEST))
    assert [(e[0], _conversation(e[1])) for e in first.events] == [("judge-call", "a")]
    assert [(e[0], _conversation(e[1])) for e in second.events] == [("judge-call", "b")]


def _conversation(event: object) -> str:
    assert isinstance(event, ModelCalled)
    return event.conversation_id


def test_offline_names_resolve_to_no_model_and_models_to_a_recorder() -> None:
    hub = _hub()
    assert hub.resolve("scripted/heuristic", role="judge") is None
    resolved = hub.resolve("openai/m", role="probe")
    assert isinstance(resolved, Recorder) and (resolved.role, resolved.model) == ("probe", "openai/m")
    with pytest.raises(UserInputError, match="offline scripted baseline, not a model"):
        hub.recorder("scripted/caller", role="caller")


def test_check_refuses_a_model_without_a_server_and_lets_baselines_pass() -> None:
    hub = ModelHub()
    hub.check("scripted/caller")
    with pytest.raises(UserInputError, match="openai/… models need a server"):
        hub.check("openai/m")
    with pytest.raises(UserInputError, match="expected provider/model"):
        hub.check("gpt-4")


def test_judge_and_answerer_come_from_the_one_resolver() -> None:
    hub = _hub()
    assert judge_for(HEURISTIC_JUDGE, hub).heuristic
    judge = judge_for("openai/m", hub)
    assert not judge.heuristic and judge.name == "openai/m"
    with pytest.raises(UserInputError, match="needs a model client"):
        judge_for("scripted/detector", hub)
    assert answerer_for(DETECTOR, hub).recorder is None
    answerer = answerer_for("openai/m", hub)
    assert answerer.name == "openai/m" and answerer.recorder is not None
    assert answerer.recorder.role == "probe"
    with pytest.raises(UserInputError, match="offline scripted baseline, not a model"):
        answerer_for("scripted/heuristic", hub)
    with pytest.raises(UserInputError, match="offline scripted baseline"):
        make_answerer("scripted/x", None)


def test_is_scripted_is_the_prefix_and_nothing_else() -> None:
    assert is_scripted("scripted/caller") and not is_scripted("scripted") and not is_scripted("openai/x")


def test_no_scripted_name_check_outside_the_hub() -> None:
    """Only ``polygon/models/hub.py`` tells an offline name from a model by its prefix."""
    root = Path(__file__).resolve().parents[2]
    pattern = re.compile(r"""startswith\(\s*["']scripted/""")
    offenders = [
        str(p.relative_to(root))
        for d in ("polygon", "events", "projections", "cli")
        for p in (root / d).rglob("*.py")
        if pattern.search(p.read_text(encoding="utf-8")) and p != root / "polygon/models/hub.py"
    ]
    assert offenders == []
