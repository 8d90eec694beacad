"""Calls made of tool answers and agent lines, for the checks that read the two together."""

from __future__ import annotations

from typing import Any

import msgspec

from polygon.events import ConversationEnded, ConversationStarted, PersonaSnapshot
from polygon.score.tool_facts import agent_contradicts_tools
from polygon.transcript import ConversationView, TurnView
from tests.support.calls import tool

Turn = tuple[str, list[tuple[str, dict[str, Any], Any]], str]
"""What the caller said, the tools the agent called (name, arguments, result), what it said."""


def call(turns: list[Turn], facts: dict[str, str] | None = None, language: str = "en") -> ConversationView:
    persona = PersonaSnapshot(
        persona_id="p",
        type="cooperative",
        outcome="success",
        difficulty=1,
        goal="g",
        facts=facts or {},
        language=language,
    )
    started = ConversationStarted(
        run_id="r", conversation_id="c", config="x", scenario="s", trial=0, seed=1, persona=persona
    )
    views = []
    for n, (caller, tools, agent) in enumerate(turns, start=1):
        made = [
            msgspec.structs.replace(tool(name, args, result), at=10 * n + i, index=i)
            for i, (name, args, result) in enumerate(tools)
        ]
        views.append(TurnView(turn=n, caller_text=caller, tools=made, agent_text=agent, agent_at=10 * n + 9))
    return ConversationView(conversation_id="c", started=started, turns=views)


def outcome(view: ConversationView, prompt: str | None = None) -> str:
    return agent_contradicts_tools(view, prompt).outcome


def with_stores(
    view: ConversationView, before: dict[str, dict[str, str]], after: dict[str, dict[str, str]]
) -> ConversationView:
    """``view`` as a call whose stateful stores began as ``before`` and ended as ``after``."""
    assert view.started is not None
    started = msgspec.structs.replace(view.started, initial_state=before)
    ended = ConversationEnded(
        conversation_id="c", reason="caller_done", by="caller", turns=1, final_state=after
    )
    return msgspec.structs.replace(view, started=started, ended=ended)
