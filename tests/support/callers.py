"""A scripted caller for one persona, as the caller tests build it."""

from __future__ import annotations

from polygon.events.families import PersonaSnapshot
from polygon.simulate.callers.scripted import ScriptedCaller


def scripted(
    goal: str, facts: dict[str, str], language: str = "en", *, kind: str = "cooperative", seed: int = 7
) -> ScriptedCaller:
    """A caller of ``kind`` that wants success, at difficulty 1, having said nothing yet."""
    persona = PersonaSnapshot(
        persona_id="p", type=kind, outcome="success", difficulty=1, goal=goal, facts=facts, language=language
    )
    return ScriptedCaller(persona, seed)
