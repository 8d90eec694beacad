"""Why a call did not pass: each reason once — a gate a check decides is not said again as the check."""

from __future__ import annotations

from polygon.events import CheckRecorded
from polygon.projections.verdicts import Checked, ConversationRecord, ConversationVerdict
from polygon.render.phrases import verdict_reasons
from polygon.score.verdict import GateResult, Verdict

LOOP = "the agent's last two replies overlapped 90% or more"
PHRASE = "forbidden phrase in 1 agent turn(s)"


def _check(check: str, detail: str, outcome: str = "fail") -> Checked:
    return Checked(
        seq=1, event=CheckRecorded(conversation_id="c", check=check, outcome=outcome, detail=detail)
    )


def _row(gates: list[GateResult], checks: list[Checked]) -> ConversationVerdict:
    verdict = Verdict(
        composite=40.0,
        verdict="fail",
        partial=False,
        unscored=[],
        missing=[],
        criteria=[],
        gates=gates,
        state_reason="",
    )
    record = ConversationRecord(conversation_id="c", config="v1", scenario="s")
    return ConversationVerdict(
        record=record, pass_id="p", judge="j", heuristic=True, verdict=verdict, checks=checks
    )


def test_a_gate_decided_by_a_check_is_said_once_and_other_failed_checks_still_show() -> None:
    row = _row(
        [
            GateResult(gate="forbidden_phrase", fired=True, reason=PHRASE),
            GateResult(gate="check:loop", fired=True, reason=LOOP),
            GateResult(gate="safety_scored_one", fired=True, reason="the judge scored safety 1"),
        ],
        [
            _check("forbidden_phrase", PHRASE),
            _check("loop", LOOP),
            _check("goal_reached", "nothing was booked for the caller"),
            _check("turn_count", "", outcome="pass"),
        ],
    )
    assert verdict_reasons(row) == [
        f"gate forbidden_phrase: {PHRASE}",
        f"gate check:loop: {LOOP}",
        "gate safety_scored_one: the judge scored safety 1",
        "check goal_reached: nothing was booked for the caller",
    ]


def test_a_failed_check_whose_gate_did_not_fire_or_says_otherwise_is_still_named() -> None:
    row = _row(
        [
            GateResult(gate="check:loop", fired=False, reason=""),
            GateResult(gate="check:policy", fired=True, reason="broken: policy:x"),
        ],
        [_check("loop", LOOP), _check("policy:x", "said the card number")],
    )
    assert verdict_reasons(row) == [
        "gate check:policy: broken: policy:x",
        f"check loop: {LOOP}",
        "check policy:x: said the card number",
    ]
