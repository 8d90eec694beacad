"""An agent that says it transfers the caller and hangs up instead settled nothing.

adversary: the clinic's agent that called transfer_call, said "I'm transferring you to a
colleague now. Goodbye!" and ended the call with a hang-up passed 8 of 16 transfer calls at
81.25 (rubric v1): the transfer act of its last words settled the caller's goal, and nothing
read the words against the end.
"""

from __future__ import annotations

import msgspec
import pytest

from polygon.events import ConversationEnded
from polygon.score.hangup import announced_transfer, unsettled_hangup
from polygon.score.judges.heuristic import score_view
from polygon.transcript import ConversationView
from tests.support.tool_calls import call

TRANSFER = ("transfer_call", {"reason": "caller asked for a person"}, {"ok": True})


def _ended(said: str, reason: str = "hangup", language: str = "en") -> ConversationView:
    view = call([("Can I speak to a real person, please?", [TRANSFER], said)], {"name": "Petra Novak"})
    assert view.started is not None
    persona = msgspec.structs.replace(view.started.persona, outcome="transfer", language=language)
    started = msgspec.structs.replace(view.started, persona=persona)
    ended = ConversationEnded(conversation_id="c", reason=reason, by="agent", turns=1)
    return msgspec.structs.replace(view, started=started, ended=ended)


@pytest.mark.parametrize(
    ("said", "language"),
    [
        ("I'm transferring you to a colleague now. Goodbye!", "en"),
        ("Sure. Putting you through to the manager now.", "en"),
        ("Spajam vas s voditeljem smjene.", "hr"),
    ],
)
def test_a_transfer_announced_then_a_hang_up_is_unsettled(said: str, language: str) -> None:
    view = _ended(said, language=language)
    assert announced_transfer(view, view.started.persona) == said  # type: ignore[union-attr]
    assert "it said it was transferring the caller, then hung up" in unsettled_hangup(
        view,
        view.started.persona,  # type: ignore[union-attr]
    )


def test_the_heuristic_judge_scores_the_goal_and_the_claim_one() -> None:
    scores = score_view(_ended("I'm transferring you to a colleague now. Goodbye!"), {})
    assert scores["goal_achievement"].score == 1
    assert scores["factual_accuracy"].score == 1


@pytest.mark.parametrize(
    ("said", "reason"),
    [
        ("I'm transferring you to a colleague now.", "transfer"),
        ("Shall I transfer you to a colleague?", "hangup"),
        ("Sorry, I cannot transfer you today. Goodbye.", "hangup"),
        ("Your transfer has been completed. Goodbye.", "hangup"),
    ],
)
def test_a_real_transfer_or_none_announced_is_not_read(said: str, reason: str) -> None:
    view = _ended(said, reason)
    assert announced_transfer(view, view.started.persona) == ""  # type: ignore[union-attr]
