"""The loop rule and noise: one re-ask after a caller turn that held no answer as the agent heard
it (garbled by the noise, defect 7c; a number read out as words, or no answer given, D13) is
not a loop; the third identical ask, or the same ask to the same heard answer, is.

The engine and the ``loop`` check share :class:`LoopWatch`, so each case is played by the
engine and then scored from the events it wrote: both must agree.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from polygon.cli.main import cli
from polygon.events import CheckRecorded, Envelope, Event, LmdbLog, NoiseOp
from polygon.recording import ListSink
from polygon.score.checks import loop_flag
from polygon.similarity import LoopWatch, garbled, lost_a_fact, unanswered
from polygon.simulate import engine
from polygon.simulate.agents import AgentReply, AgentStep
from polygon.simulate.callers import Utterance
from polygon.simulate.plan import ConversationPlan
from polygon.transcript import ConversationView, apply

ASK = "Which day would you like to come in?"
LOST = "~"
"""A caller line starting with this loses its content to the noise (a drop) in these tests."""
SPELT = "#"
"""A caller line starting with this has its number read out as words by the noise."""
NO_ANSWER = "?"
"""A caller line starting with this is no answer (intent ``no_fact``: "I don't know")."""


class _Caller:
    def __init__(self, lines: list[str]) -> None:
        self.lines = iter(lines)

    def next(self, agent_text: str | None) -> Utterance:
        line = next(self.lines, "Bye!")
        if line.startswith(NO_ANSWER):
            return Utterance(line.removeprefix(NO_ANSWER), "no_fact")
        return Utterance(line, "goodbye", "done") if line == "Bye!" else Utterance(line, "give_fact")


class _Parrot:
    """An agent that says the same thing whatever it hears (right after noise, a loop otherwise)."""

    async def step(self, request: AgentStep) -> AgentReply:
        return AgentReply(reply=ASK)

    async def aclose(self) -> None:
        return None


def _noise(text: str, **_: Any) -> tuple[str, list[NoiseOp], int]:
    if text.startswith(SPELT):
        said = text.removeprefix(SPELT)
        return "one two three", [NoiseOp(kind="digits", position=0, before=said, after="one two three")], 0
    if not text.startswith(LOST):
        return text, [], 0
    kept, dropped = "Sorry, wait —", text.removeprefix(LOST).removeprefix("Sorry, wait — ")
    return kept, [NoiseOp(kind="drop", position=3, before=dropped, after="")], 0


def _play(monkeypatch: pytest.MonkeyPatch, lines: list[str]) -> tuple[str, ConversationView]:
    monkeypatch.setattr(engine, "apply_noise", _noise)
    plan = ConversationPlan(
        run_id="r1",
        run_seed=1,
        conversation_id="r1.c.s.0",
        config="c",
        scenario="s",
        trial=0,
        seed=1,
        persona=None,
        max_turns=10,
        noise_intensity=0.2,
        noise_language="en",
        agent_ref="python:parrot",
        tools=(),
        stores={},
    )
    sink = ListSink()
    reason = asyncio.run(engine.Conversation(plan, _Parrot(), sink, caller=_Caller(lines)).run())
    return reason, _view(sink.events)


def _view(events: list[tuple[str, Event, int, int]]) -> ConversationView:
    view = ConversationView(conversation_id="r1.c.s.0")
    for seq, (kind, event, _, _) in enumerate(events, start=1):
        env = Envelope(
            seq=seq,
            stream="conv/r1.c.s.0",
            stream_version=seq,
            identity=str(seq),
            tag=kind,
            schema_version=1,
            recorded_at="",
            content_hash="",
            payload=event,
        )
        view = apply(view, env)
    return view


def test_a_re_ask_after_noise_removed_the_answer_goes_on(monkeypatch: pytest.MonkeyPatch) -> None:
    reason, view = _play(monkeypatch, ["Hi.", f"{LOST}Sorry, wait — Thursday.", "Bye!"])
    assert reason == "caller_done"
    assert view.ended is not None and not view.ended.loop_detected
    check = loop_flag(view)
    assert check.outcome == "pass"
    assert "asked again after noise garbled the answer at turn 2" in check.detail


def test_a_re_ask_after_the_number_was_read_out_as_words_goes_on(monkeypatch: pytest.MonkeyPatch) -> None:
    # D13: "Oib mi je 12345678903." heard as number words; the agent listening for digits asks
    # again (a parrot here: the next ask would be a loop).
    reason, view = _play(monkeypatch, ["Hi.", f"{SPELT}123", "Bye!"])
    assert reason == "caller_done" and view.ended is not None and not view.ended.loop_detected
    check = loop_flag(view)
    assert check.outcome == "pass" and "asked again after noise garbled the answer at turn 2" in check.detail


def test_a_re_ask_after_the_caller_gave_no_answer_goes_on(monkeypatch: pytest.MonkeyPatch) -> None:
    # D14: "I don't know" is no answer; asking once more is no loop, a third ask is.
    reason, view = _play(monkeypatch, ["Hi.", f"{NO_ANSWER}I really can't say.", "Monday.", "Bye!"])
    assert reason == "loop" and view.ended is not None and view.ended.turns == 3
    check = loop_flag(view)
    assert check.outcome == "fail" and [e.turn for e in check.evidence] == [2, 3]
    reason, view = _play(monkeypatch, ["Hi.", f"{NO_ANSWER}I really can't say.", "Bye!"])
    assert reason == "caller_done"
    check = loop_flag(view)
    assert check.outcome == "pass" and "asked again after the caller gave no answer at turn 2" in check.detail


def test_the_same_ask_to_the_same_heard_answer_is_a_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    # The agent heard nothing new: no progress, whatever the caller's intent.
    reason, view = _play(monkeypatch, [f"{NO_ANSWER}Not sure.", f"{NO_ANSWER}Not sure.", "Bye!"])
    assert reason == "loop" and view.ended is not None and view.ended.turns == 2
    assert loop_flag(view).outcome == "fail"


def test_a_repeat_after_an_intact_turn_is_still_a_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    reason, view = _play(monkeypatch, ["Hi.", "Thursday.", "Bye!"])
    assert reason == "loop" and view.ended is not None and view.ended.turns == 2
    check = loop_flag(view)
    assert check.outcome == "fail" and [e.turn for e in check.evidence] == [1, 2]


def test_the_repeat_after_the_re_ask_is_a_loop_even_after_noise(monkeypatch: pytest.MonkeyPatch) -> None:
    lines = ["Hi.", f"{LOST}Sorry, wait — Thursday.", f"{LOST}Sorry, wait — Thursday.", "Bye!"]
    reason, view = _play(monkeypatch, lines)
    assert reason == "loop" and view.ended is not None and view.ended.turns == 3
    check = loop_flag(view)
    assert check.outcome == "fail" and [e.turn for e in check.evidence] == [2, 3]


def test_the_repeat_after_the_re_ask_and_an_intact_turn_is_a_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    reason, view = _play(monkeypatch, ["Hi.", f"{LOST}Sorry, wait — Thursday.", "Thursday.", "Bye!"])
    assert reason == "loop" and view.ended is not None and view.ended.turns == 3
    assert loop_flag(view).outcome == "fail"


def test_loop_watch_rules() -> None:
    watch = LoopWatch()
    assert watch.see("A b c.") == ""
    assert watch.see("A b c.", noisy=True) == "reask"
    assert watch.see("Something else.", noisy=True) == ""
    assert watch.see("Something else.", noisy=True) == "reask"
    assert watch.see("Something else.") == "loop"
    silent = LoopWatch()
    assert silent.see("Hello?") == "" and silent.see("Hello?", silent=True) == ""
    assert silent.see("Hello?") == "loop"  # the same words to a silence never reset the comparison
    asked = LoopWatch()  # another reply to a silence does: the answer after it answers a new turn
    assert asked.see("Your order is open.") == "" and asked.see("What's your order number?", silent=True) == ""
    assert asked.see("Your order is open.") == ""
    assert asked.see("Your order is open.") == "loop"
    heard = LoopWatch()
    assert heard.see("A b c.", heard="Hi.") == ""
    assert heard.see("A b c.", noisy=True, heard="Hi.") == "loop"  # same answer heard again
    fresh = LoopWatch()
    assert fresh.see("A b c.", heard="Hi.") == "" and fresh.see("A b c.", noisy=True, heard="Umm.") == "reask"


def test_only_noise_that_changes_the_words_garbles() -> None:
    assert garbled(["drop"]) and garbled(["filler", "soundalike"]) and garbled(["digits", "filler"])
    assert not garbled(["filler"]) and not garbled([])


def test_no_answer_is_a_non_answer_intent_or_a_garbled_turn() -> None:
    assert unanswered([], "no_fact") and unanswered([], "pardon") and unanswered(["drop"], "give_fact")
    assert not unanswered(["filler"], "give_fact") and not unanswered([], "")
    assert not unanswered([], "clarify")  # "what do you need?": the same words explain nothing


CLINIC = Path(__file__).resolve().parents[2] / "examples" / "clinic" / "suite.yaml"


def _run_clinic(tmp_path: Path) -> tuple[dict[str, ConversationView], dict[str, CheckRecorded]]:
    log = tmp_path / "log"
    res = CliRunner().invoke(cli, ["--log", str(log), "run", str(CLINIC), "--run-id", "ln"])
    assert res.exit_code == 0, res.output
    views: dict[str, ConversationView] = {}
    loops: dict[str, CheckRecorded] = {}
    with LmdbLog(log, readonly=True) as opened:
        for env in opened.read_all():
            if isinstance(env.payload, CheckRecorded) and env.payload.check == "loop":
                loops[env.payload.conversation_id] = env.payload
            elif env.stream.startswith("conv/ln."):
                cid = env.stream.removeprefix("conv/")
                views[cid] = apply(views.get(cid) or ConversationView(conversation_id=cid), env)
    return views, loops


def facts(view: ConversationView) -> list[str]:
    persona = view.started.persona if view.started else None
    return list(persona.facts.values()) if persona else []


def test_a_run_lets_re_asks_after_noise_go_on_and_check_and_engine_agree(tmp_path: Path) -> None:
    views, loops = _run_clinic(tmp_path)
    reasked = 0
    for cid, view in views.items():
        assert view.ended is not None
        said = [t for t in view.turns if t.agent_text is not None]
        watch = LoopWatch()
        seen = [
            watch.see(
                t.agent_text or "",
                silent=any(p.kind == "silence" for p in t.phone),
                noisy=unanswered((op.kind for op in t.noise_ops), t.caller_intent),
                heard=t.heard_text,
                lost=lost_a_fact(((op.kind, op.before) for op in t.noise_ops), facts(view)),
            )
            for t in said
        ]
        reasked += seen.count("reask")
        # The engine stops exactly where the rule says "loop", never on a re-ask.
        assert (view.ended.reason == "loop") == ("loop" in seen), cid
        if "loop" in seen:
            assert seen.index("loop") == len(said) - 1 and loops[cid].outcome == "fail", cid
        if "reask" in seen and view.ended.reason != "loop":
            assert "asked again after" in loops[cid].detail, cid
    assert reasked, "the bundled clinic run no longer meets a re-ask after noise: pick another case"


def test_a_repeat_after_the_noise_lost_a_fact_is_a_re_ask_every_time() -> None:
    # trial3, a parcel line: noise garbled the tracking number in two caller turns running and
    # the correct agent's third "What is your tracking number?" ended the call as a loop
    assert lost_a_fact([("drop", "PX-48213.")], ["PX-48213"]) and lost_a_fact([("soundalike", "Tuesday")], ["Tuesday"])
    assert not lost_a_fact([("drop", "Sorry,")], ["PX-48213"]) and not lost_a_fact([("filler", "")], ["um"])
    watch = LoopWatch()
    assert watch.see("Your tracking number?") == ""
    for heard in ("It's PX.", "It's 48213.", "PX, um."):  # each heard differently, each lost the number
        assert watch.see("Your tracking number?", noisy=True, heard=heard, lost=True) == "reask"
    assert watch.see("Your tracking number?", heard="It's PX-48213.") == "loop"  # heard whole, asked again
    # heard alike twice (the noise dropped the number both times): still nothing to go on, no loop
    same = LoopWatch()
    assert same.see("Your tracking number?", heard="My tracking number is") == ""
    assert same.see("Your tracking number?", noisy=True, heard="My tracking number is", lost=True) == "reask"
    assert same.see("Your tracking number?", noisy=True, heard="My tracking number is", lost=True) == "reask"
    assert same.see("Your tracking number?", noisy=True, heard="My tracking number is") == "loop"  # not lost


def test_heard_turns_never_enter_the_word_memos() -> None:
    """Each heard turn is new (noise and all): comparing two keeps nothing, however many calls run.

    Kept, they filled the memos with entries never asked for again and grew a 100,000-call
    run's heap by megabytes (issue 31).
    """
    from polygon.similarity import _bag, overlap, word_tuple

    before = (word_tuple.cache_info().currsize, _bag.cache_info().currsize, overlap.cache_info().currsize)
    for i in range(50):
        watch = LoopWatch()
        assert watch.see("A b c.", heard=f"Heard {i} once.") == ""
        assert watch.see("A b c.", noisy=True, heard=f"Heard {i} twice.") == "reask"
        assert watch.see("A b c.", noisy=True, heard=f"Heard {i} twice.") == "loop"
    after = (word_tuple.cache_info().currsize, _bag.cache_info().currsize, overlap.cache_info().currsize)
    assert after[0] - before[0] <= 1 and after[1] - before[1] <= 1 and after[2] - before[2] <= 1
