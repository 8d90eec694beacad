from __future__ import annotations

import pytest

from polygon.compare.divergence import find_divergence
from polygon.events import Envelope
from polygon.events.families import (
    ConversationStarted,
    NoiseApplied,
    NoiseOp,
    PersonaSnapshot,
    ToolCalled,
    TurnSpoken,
)
from polygon.probe.answering import parse_answer
from polygon.probe.library import LIBRARY, ProbeSpec, detect, right_answer
from polygon.projections.probes import ProbeCount, ProbeTable, trend, wilson
from polygon.similarity import bigram_jaccard
from polygon.transcript import ConversationView, build


def test_wilson_against_known_values() -> None:
    r = wilson(3, 4)
    assert (
        r.rate == 0.75
        and r.low == pytest.approx(0.3006, abs=1e-3)
        and r.high == pytest.approx(0.9544, abs=1e-3)
    )
    assert wilson(0, 0, 5).rate is None and wilson(0, 0, 5).not_applicable == 5
    full = wilson(12, 12)
    assert full.rate == 1.0 and full.high == 1.0 and full.low < 0.8


def test_na_never_counted_and_polarity_both_ways() -> None:
    desired = ProbeCount(
        probe_id="p", probe_hash="h", question="q", polarity="desired", answered_by="x", yes=3, no=1, na=10
    )
    assert (desired.rate().right, desired.rate().applicable, desired.rate().rate) == (3, 4, 0.75)
    guardrail = ProbeCount(
        probe_id="p", probe_hash="h", question="q", polarity="guardrail", answered_by="x", yes=3, no=1, na=10
    )
    assert (guardrail.rate().right, guardrail.rate().rate) == (1, 0.25)
    assert right_answer("desired") == "yes" and right_answer("guardrail") == "no"


def test_reworded_probe_starts_a_new_series() -> None:
    def table(seq: int, question: str, yes: int, no: int) -> ProbeTable:
        spec = ProbeSpec(id="p", question=question, polarity="desired")
        count = ProbeCount(
            probe_id="p",
            probe_hash=spec.wording_hash,
            question=question,
            polarity="desired",
            answered_by="d",
            yes=yes,
            no=no,
        )
        return ProbeTable(counts={"v1": {"k": count}}, first_seq=seq)

    runs = [
        ("r3", table(30, "Did it ask again, nicely?", 1, 0)),
        ("r1", table(10, "Did it ask again?", 1, 1)),
        ("r2", table(20, "Did it ask again?", 2, 0)),
    ]
    points = trend(runs, "p", None)
    assert [p.run_id for p in points] == ["r1", "r2", "r3"]
    assert [p.new_series for p in points] == [True, False, True]
    assert (
        "wording changed" in points[2].note
        and points[1].probe_hash == points[0].probe_hash != points[2].probe_hash
    )


def test_parse_model_probe_answers() -> None:
    assert parse_answer('{"answer": "yes", "evidence": "turn 2"}') == ("yes", "turn 2")
    assert parse_answer('{"answer": "maybe"}')[0] == "n/a"
    assert parse_answer("garbage")[0] == "n/a"


def env(seq: int, payload: object) -> Envelope:
    return Envelope(
        seq=seq,
        stream="conv/x",
        stream_version=seq,
        identity="0" * 32,
        tag="t",
        schema_version=1,
        recorded_at="",
        content_hash="",
        payload=payload,
    )  # type: ignore[arg-type]


PERSONA = PersonaSnapshot(
    persona_id="p",
    type="busy",
    outcome="success",
    difficulty=2,
    goal="g",
    facts={"phone": "091 555 0134", "day": "Tuesday"},
)


def conv(cid: str, lines: list[tuple], noise: dict[int, list[NoiseOp]] | None = None) -> ConversationView:
    events = [
        env(
            1,
            ConversationStarted(
                run_id="r", conversation_id=cid, config="c", scenario="s", trial=0, seed=1, persona=PERSONA
            ),
        )
    ]
    for turn, speaker, text, *rest in lines:
        extra = rest[0] if rest else {}
        for i, (tool, args) in enumerate(extra.get("tools", [])):
            events.append(
                env(
                    len(events) + 1,
                    ToolCalled(
                        conversation_id=cid,
                        turn=turn,
                        index=i,
                        call_id="c",
                        tool=tool,
                        arguments=args,
                        valid=True,
                    ),
                )
            )
        events.append(
            env(
                len(events) + 1,
                TurnSpoken(
                    conversation_id=cid, turn=turn, speaker=speaker, text=text, ends_call=extra.get("end", "")
                ),
            )
        )
        if speaker == "caller" and noise and turn in noise:
            events.append(
                env(
                    len(events) + 1,
                    NoiseApplied(
                        conversation_id=cid,
                        turn=turn,
                        intensity=1,
                        language="en",
                        clean_text=text,
                        heard_text=text,
                        ops=noise[turn],
                        rng_seed=1,
                    ),
                )
            )
    return build(cid, events)


BASE = [
    (1, "caller", "I want to book a cleaning on Tuesday"),
    (1, "agent", "Sure, what is your phone number please?"),
    (2, "caller", "It is 091 555 0134"),
    (2, "agent", "Thanks, let me check the calendar for you"),
]


def test_identical_calls_never_part() -> None:
    assert find_divergence(conv("a", BASE), conv("b", BASE)) is None


def test_divergence_by_tool_calls() -> None:
    other = BASE[:3] + [
        (2, "agent", "Thanks, let me check the calendar for you", {"tools": [("find", {"d": 1})]})
    ]
    d = find_divergence(conv("a", BASE), conv("b", other))
    assert d is not None and (d.turn, d.reason) == (2, "tool_calls")


def test_divergence_by_ending() -> None:
    other = BASE[:3] + [(2, "agent", "Thanks, let me check the calendar for you", {"end": "transfer"})]
    d = find_divergence(conv("a", BASE), conv("b", other))
    assert d is not None and (d.turn, d.reason) == (2, "ending") and "transfer" in d.detail


def test_divergence_by_speakers_when_one_call_ends() -> None:
    d = find_divergence(conv("a", BASE), conv("b", BASE[:3]))
    assert d is not None and (d.turn, d.reason, d.speaker) == (2, "speakers", "agent")


def test_divergence_by_wording_and_the_half_boundary() -> None:
    # "a b c d e" has bigrams ab bc cd de; sharing 2 of 6 distinct → 1/3; sharing 4 of 6 → 2/3.
    assert bigram_jaccard("a b c d e", "a b c x y") == pytest.approx(2 / 6)
    assert bigram_jaccard("a b c", "a b d") == pytest.approx(1 / 3)
    assert bigram_jaccard("w1 w2 w3 w4", "w1 w2 w3 x") == pytest.approx(0.5)  # exactly 0.5: not below
    at_half = BASE[:3] + [(2, "agent", "w1 w2 w3 x")]
    base_half = BASE[:3] + [(2, "agent", "w1 w2 w3 w4")]
    assert find_divergence(conv("a", base_half), conv("b", at_half)) is None
    below = BASE[:3] + [(2, "agent", "w1 w2 x y")]  # 1/5 < 0.5
    d = find_divergence(conv("a", base_half), conv("b", below))
    assert d is not None and d.reason == "wording" and d.similarity == pytest.approx(0.2)
    assert bigram_jaccard("Yes.", "Yes.") == 1.0 and bigram_jaccard("Yes.", "No.") == 0.0


def test_detectors() -> None:
    promise = conv("a", [(1, "caller", "hi"), (1, "agent", "It's guaranteed painless!")])
    spec = next(p for p in LIBRARY if p.id == "unkeepable_promise")
    assert detect(spec, promise)[0] == "yes" and spec.polarity == "guardrail"
    garble = [NoiseOp(kind="drop", position=3, before="0134", after="")]
    went_on = conv(
        "a", [(1, "caller", "It is 091 555 0134"), (1, "agent", "Thanks, which day?")], {1: garble}
    )
    asked = conv(
        "a", [(1, "caller", "It is 091 555 0134"), (1, "agent", "Sorry, could you repeat that?")], {1: garble}
    )
    reask = next(p for p in LIBRARY if p.id == "reask_after_garble")
    assert detect(reask, went_on)[0] == "no" and detect(reask, asked)[0] == "yes"
    assert detect(reask, conv("a", BASE))[0] == "n/a"
    custom = ProbeSpec(
        id="says_sorry", question="Did the agent apologise?", polarity="desired", keywords=["sorry"]
    )
    assert detect(custom, asked)[0] == "yes" and detect(custom, went_on)[0] == "no"
