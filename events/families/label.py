"""Human labels beside verdicts: one ``labels/<run>`` stream per run (a label never changes a verdict)."""

from __future__ import annotations

from polygon.events.registry import Event, event_type


@event_type(version=1)
class LabelRecorded(Event, frozen=True, kw_only=True, tag="label.recorded"):
    """What a person (or a transcript's own field) says about one call."""

    conversation_id: str
    verdict: str = ""
    """``pass``, ``fail`` or empty (criteria only)."""
    criteria: dict[str, int] = {}
    """Criterion → 1..5, as the rubric scores them."""
    reward: float | None = None
    """A numeric outcome carried on an imported transcript (kept as it came)."""
    by: str = ""
    """Who labelled (``transcript`` for a field carried on the transcript)."""
    note: str = ""
    source: str = ""
    """Where the label came from: ``cli``, ``FILE:LINE``, or the transcript's file and line."""


@event_type(version=1)
class CallerTurnLabelled(Event, frozen=True, kw_only=True, tag="label.caller_turn"):
    """What a person says about one simulated caller turn: realistic or not.

    The method's hand review of the callers ("we sample the callers by hand so they stay
    realistic"); recorded in the run's labels stream, beside the call labels.
    """

    conversation_id: str
    turn: int
    realistic: bool
    caller_type: str = ""
    language: str = ""
    caller_model: str = ""
    by: str = ""
    note: str = ""
