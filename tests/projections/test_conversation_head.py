"""The conversation head: one fold answers ended (and why), scored passes, probe answers, broken policies."""

from __future__ import annotations

import msgspec

from polygon.events import (
    CheckRecorded,
    ConversationEnded,
    ConversationStarted,
    JudgeScored,
    ProbeAnswered,
    TurnSpoken,
)
from polygon.projections import ConversationHead, fold_conversation_head
from tests.golden.event_samples import SAMPLES
from tests.support.views import env

STARTED = next(e for e in SAMPLES if isinstance(e, ConversationStarted))
TURN = next(e for e in SAMPLES if isinstance(e, TurnSpoken))
ENDED = next(e for e in SAMPLES if isinstance(e, ConversationEnded))
SCORED = next(e for e in SAMPLES if isinstance(e, JudgeScored))
ANSWER = next(e for e in SAMPLES if isinstance(e, ProbeAnswered))
CHECK = next(e for e in SAMPLES if isinstance(e, CheckRecorded))


def _fold(*payloads: object) -> ConversationHead | None:
    return fold_conversation_head(env(i, p) for i, p in enumerate(payloads, 1))


def _policy(name: str, outcome: str) -> CheckRecorded:
    return msgspec.structs.replace(CHECK, check=f"policy:{name}", outcome=outcome)


def test_a_started_call_has_a_head_and_no_end_yet() -> None:
    head = _fold(STARTED, TURN)
    assert head is not None
    assert (head.started, head.ended, head.passes, head.probe_answers) == (
        STARTED,
        None,
        frozenset(),
        frozenset(),
    )
    assert head.broken_policies() == []


def test_the_first_end_counts() -> None:
    later = msgspec.structs.replace(ENDED, reason="hangup")
    head = _fold(STARTED, TURN, ENDED, later)
    assert head is not None and head.ended == ENDED


def test_passes_and_probe_answers_are_collected() -> None:
    again = msgspec.structs.replace(SCORED, pass_id="v2/other/k1", repeat=1)
    head = _fold(STARTED, SCORED, again, ANSWER)
    assert head is not None
    assert head.passes == {SCORED.pass_id, "v2/other/k1"}
    assert head.probe_answers == {(ANSWER.probe_id, ANSWER.probe_hash, ANSWER.answered_by)}


def test_each_policy_counts_by_its_latest_check_and_other_checks_are_not_policies() -> None:
    head = _fold(STARTED, _policy("a", "fail"), _policy("b", "fail"), CHECK, _policy("a", "pass"))
    assert head is not None
    assert list(head.policies) == ["policy:a", "policy:b"]
    assert head.broken_policies() == [_policy("b", "fail")]


def test_no_events_or_a_stream_not_opened_by_a_start_have_no_head() -> None:
    assert _fold() is None
    assert _fold(TURN, STARTED) is None
