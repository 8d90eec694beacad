"""Calls built by hand for the ``disclosure`` tests: turns of (caller, agent[, tools]), a persona or none."""

from __future__ import annotations

from typing import Any

from polygon.events import ConversationStarted, PersonaSnapshot
from polygon.score.disclosure import disclosures
from polygon.transcript import ConversationView, ToolView, TurnView


def tool(name: str, arguments: dict[str, Any], result: Any) -> ToolView:
    return ToolView(
        at=0,
        index=0,
        tool=name,
        arguments=arguments,
        valid=True,
        validation_errors=[],
        result=result,
        error="",
        fault="",
        latency_ms=0.0,
    )


def call(
    turns: list[tuple[str, str] | tuple[str, str, list[ToolView]]],
    facts: dict[str, str] | None = None,
    language: str = "en",
) -> ConversationView:
    """A call from (caller, agent[, tools]) per turn; ``facts=None``: an imported call, no persona."""
    persona = (
        PersonaSnapshot(
            persona_id="p",
            type="busy",
            outcome="success",
            difficulty=1,
            goal="g",
            facts=facts,
            language=language,
        )
        if facts is not None
        else None
    )
    started = ConversationStarted(
        run_id="r", conversation_id="c", config="v", scenario="s", trial=0, seed=1, persona=persona
    )
    views = [
        TurnView(turn=i + 1, caller_text=t[0], agent_text=t[1], tools=list(t[2]) if len(t) > 2 else [])
        for i, t in enumerate(turns)
    ]
    return ConversationView(conversation_id="c", started=started, turns=views)


def said(view: ConversationView, prompt: str | None = None) -> list[str]:
    """The words of every disclosure, in the order said."""
    return [h.quote for hits in disclosures(view, prompt).values() for h in hits]
