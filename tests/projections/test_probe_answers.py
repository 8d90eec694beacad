"""Each call's latest answer to one probe: the fold the run page filters calls with."""

from __future__ import annotations

from polygon.events import Envelope
from polygon.events.families import ProbeAnswered
from polygon.projections.probes import latest_answers


def _answered(seq: int, conversation: str, probe: str, answer: str) -> Envelope:
    event = ProbeAnswered(
        conversation_id=conversation,
        probe_id=probe,
        probe_hash="h",
        question="q?",
        polarity="desired",
        answer=answer,
    )
    return Envelope(
        seq=seq,
        stream=f"conv/{conversation}",
        stream_version=seq,
        identity=f"{seq:032x}",
        tag="probe.answered",
        schema_version=1,
        recorded_at="",
        content_hash="",
        payload=event,
    )


def test_the_latest_answer_to_the_probe_counts_and_others_are_ignored() -> None:
    events = [
        _answered(1, "r.a.s.0", "kind", "no"),
        _answered(2, "r.b.s.0", "kind", "n/a"),
        _answered(3, "r.a.s.0", "other", "yes"),
        _answered(4, "r.a.s.0", "kind", "yes"),  # answered again (another answerer): the later wins
        _answered(5, "r.c.s.0", "other", "no"),
    ]
    assert latest_answers(events, "kind") == {"r.a.s.0": "yes", "r.b.s.0": "n/a"}
    assert latest_answers(events, "other") == {"r.a.s.0": "yes", "r.c.s.0": "no"}
    assert latest_answers(events, "never") == {}
    assert latest_answers(iter(events[:1]), "kind") == {"r.a.s.0": "no"}
