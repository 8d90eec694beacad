"""Phone behaviour in text: barge-in, silence, self-corrections — seeded, recorded, replayed."""

from __future__ import annotations

import shutil
from pathlib import Path

from click.testing import CliRunner

from polygon.cli.main import cli
from polygon.events import LmdbLog
from polygon.events.families import PhoneApplied, TurnSpoken
from polygon.simulate.phone import PhoneSettings, cut_reply, draw, self_correct

FIXTURE = Path(__file__).parents[1] / "app" / "fixtures" / "pizza"


def test_a_barge_in_cuts_at_a_word_boundary() -> None:
    assert cut_reply("Which day would you like us to come?", 3) == "Which day would"


def test_a_self_correction_says_a_wrong_value_first_and_only_its_own() -> None:
    assert self_correct("Tuesday would be best.", 0.0) == (
        "Monday — no, Tuesday would be best.",
        "Monday",
        "Tuesday",
    )
    said, wrong, right = self_correct("My preferred time is 18:30.", 0.5)
    assert said == f"My preferred time is {wrong} — no, 18:30." and right == "18:30" and wrong != right
    assert self_correct("My name is Ana Horvat.", 0.3) == ("My name is Ana Horvat.", "", "")


def test_draws_are_seeded_by_conversation_and_turn_and_spare_the_first_turn() -> None:
    every = PhoneSettings(barge_in=1.0, silence=1.0, self_correction=1.0)
    assert draw(every, 1, "s.0", 3, 10) == draw(every, 1, "s.0", 3, 10)
    first = draw(every, 1, "s.0", 1, 10)
    assert first.barge_in_at == 0 and not first.silent
    assert draw(PhoneSettings(), 1, "s.0", 3, 10) == draw(PhoneSettings(), 1, "s.0", 3, 10)
    assert not draw(PhoneSettings(), 1, "s.0", 3, 10).silent


def _run(tmp_path: Path, run_id: str) -> Path:
    folder = tmp_path / f"pizza-{run_id}"
    shutil.copytree(FIXTURE, folder)
    log = tmp_path / "log"
    res = CliRunner().invoke(cli, ["--log", str(log), "run", str(folder / "phone.yaml"), "--run-id", run_id])
    assert res.exit_code == 0, res.output
    return log


def test_barge_in_and_silence_are_recorded_and_shown_in_replay(tmp_path: Path) -> None:
    log = _run(tmp_path, "p")
    with LmdbLog(log, readonly=True) as opened:
        events = [e.payload for e in opened.read_all() if e.stream.startswith("conv/p.careful.")]
    phone = [p for p in events if isinstance(p, PhoneApplied)]
    kinds = {p.kind for p in phone}
    assert kinds == {"barge_in", "silence", "self_correction"}
    agent = {
        (p.conversation_id, p.turn): p.text
        for p in events
        if isinstance(p, TurnSpoken) and p.speaker == "agent"
    }
    for cut in (p for p in phone if p.kind == "barge_in"):
        reply = agent[(cut.conversation_id, cut.turn - 1)]  # what the agent said just before
        assert reply.startswith(cut.heard) and len(cut.heard.split()) == cut.at_word < len(reply.split())
    silent = next(p for p in phone if p.kind == "silence")
    caller = next(
        p
        for p in events
        if isinstance(p, TurnSpoken)
        and p.speaker == "caller"
        and p.conversation_id == silent.conversation_id
        and p.turn == silent.turn
    )
    assert caller.text == "" and caller.intent == "silence"
    assert (silent.conversation_id, silent.turn) in agent  # the agent had to answer the silence
    shown = {
        c: CliRunner().invoke(cli, ["--log", str(log), "replay", c]).output
        for c in {p.conversation_id for p in phone}
    }
    text = "\n".join(shown.values())
    assert "BARGE-IN: the caller cut in after" in text and "(silence — nothing)" in text
    assert "self-correction: said" in text


def test_every_configuration_meets_the_same_silences_and_runs_repeat_exactly(tmp_path: Path) -> None:
    log = _run(tmp_path, "a")
    _run(tmp_path, "b")
    with LmdbLog(log, readonly=True) as opened:
        phone = [e.payload for e in opened.read_all() if isinstance(e.payload, PhoneApplied)]

    def silences(run: str, config: str) -> set[tuple[str, int]]:
        prefix = f"{run}.{config}."
        return {
            (p.conversation_id.removeprefix(prefix), p.turn)
            for p in phone
            if p.kind == "silence" and p.conversation_id.startswith(prefix)
        }

    # Silence is drawn by (scenario, trial, turn): where both calls were still going, both met it.
    careful, loops = silences("a", "careful"), silences("a", "loops")
    assert careful and loops and careful & loops
    assert silences("a", "careful") == silences("b", "careful")


def test_noise_previews_the_phone_knobs() -> None:
    res = CliRunner().invoke(
        cli,
        [
            "noise",
            "I'd like Tuesday at 18:30.",
            "--turn",
            "5",
            "--self-correction",
            "1",
            "--reply",
            "Which day would you like?",
        ],
    )
    assert res.exit_code == 0 and "phone: self-correction:" in res.output and "— no, Tuesday" in res.output
