"""``expect.says`` / ``says_before``: speech one scenario requires (trial40 D4).

A motorway caller stranded on the hard shoulder was never told to call emergency services and
the call passed: policies are suite-wide, and ``expect`` had no speech condition.
"""

from __future__ import annotations

import msgspec
import pytest
from pydantic import ValidationError

from polygon.events import ConversationEnded, Expectation, SaidBefore
from polygon.score.checks import goal_reached, unmet
from polygon.suite.schema import ExpectSpec
from polygon.transcript import ConversationView, ToolView, TurnView

EMERGENCY = ["999", "emergency services"]


def tool(name: str) -> ToolView:
    return ToolView(
        at=0, index=0, tool=name, arguments={}, valid=True, validation_errors=[],
        result={"ok": True}, error="", fault="", latency_ms=0.0,
    )  # fmt: skip


def view(*turns: tuple[str, list[ToolView]]) -> ConversationView:
    shown = [TurnView(turn=n, agent_text=text, tools=tools) for n, (text, tools) in enumerate(turns, 1)]
    ended = ConversationEnded(conversation_id="c", reason="caller_done", by="caller", turns=len(shown))
    return ConversationView(conversation_id="c", turns=shown, ended=ended)


FORM = view(
    ("Can I have your booking reference?", []), ("A tow truck is on its way.", [tool("dispatch_tow")])
)
WARNED = view(
    ("Please get behind the barrier and call Emergency Services now.", []),
    ("A tow truck is on its way.", [tool("dispatch_tow")]),
)


def test_an_agent_that_never_says_the_phrase_misses_says() -> None:
    assert unmet(FORM, Expectation(says=[EMERGENCY]), {}) == [
        "the agent never said '999' or 'emergency services'"
    ]


def test_any_alternative_in_any_agent_turn_meets_says_case_aside() -> None:
    assert unmet(WARNED, Expectation(says=[EMERGENCY]), {}) == []
    # matched as the phrase policies match: lower-cased, so a Cyrillic phrase works too
    russian = view(("Позвоните в СЛУЖБУ СПАСЕНИЯ 112.", []))
    assert unmet(russian, Expectation(says=[["службу спасения"]]), {}) == []
    # each item is needed on its own
    assert unmet(WARNED, Expectation(says=[EMERGENCY, ["hazard lights"]]), {}) == [
        "the agent never said 'hazard lights'"
    ]


def test_says_before_needs_the_phrase_in_a_turn_before_the_tools_first_call() -> None:
    order = Expectation(says_before=[SaidBefore(phrase=EMERGENCY, tool="dispatch_tow")])
    assert unmet(WARNED, order, {}) == []
    late = view(("Where are you?", []), ("Dispatched. Also call 999.", [tool("dispatch_tow")]))
    # the reply of a turn follows that turn's tool calls: said too late
    assert unmet(late, order, {}) == [
        "dispatch_tow was called at turn 2 before the agent said '999' or 'emergency services'"
    ]
    assert unmet(FORM, order, {}) == [
        "the agent never said '999' or 'emergency services' (expected before dispatch_tow, called at turn 2)"
    ]
    # the tool not called: the phrase is still needed, nothing more
    assert unmet(view(("Call 999.", [])), order, {}) == []
    assert unmet(view(("Hello.", [])), order, {}) == ["the agent never said '999' or 'emergency services'"]


def test_an_imported_call_without_expect_is_unaffected() -> None:
    """Imported calls record no ``expect``: goal_reached stays as it was, whatever is said."""
    imported = view(("Can I have your booking reference?", []))
    check = goal_reached(imported)
    assert (check.outcome, check.detail) == ("n/a", "no persona or no end: nothing to compare")
    assert unmet(imported, Expectation(), {}) == []


def test_an_expectation_without_speech_is_logged_byte_for_byte_as_before() -> None:
    assert msgspec.json.encode(Expectation(no_calls=["x"])) == b'{"no_calls":["x"]}'
    spoken = Expectation(says=[EMERGENCY], says_before=[SaidBefore(phrase=["999"], tool="t")])
    assert msgspec.json.decode(msgspec.json.encode(spoken), type=Expectation) == spoken


def test_the_schema_takes_a_phrase_a_list_or_a_bare_number() -> None:
    spec = ExpectSpec.model_validate(
        {"says": ["hazard lights", [999, "emergency services"]], "says_before": {"phrase": 999, "tool": "t"}}
    )
    assert spec.says == [["hazard lights"], ["999", "emergency services"]]
    assert [(s.phrase, s.tool) for s in spec.says_before] == [(["999"], "t")]


@pytest.mark.parametrize("says", [[[]], [[" "]], [""]])
def test_a_blank_phrase_is_refused_it_would_be_in_every_turn(says: list[object]) -> None:
    with pytest.raises(ValidationError, match="name at least one phrase"):
        ExpectSpec.model_validate({"says": says})
