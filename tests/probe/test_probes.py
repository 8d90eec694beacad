from __future__ import annotations

import pytest

from polygon.events.families import NoiseOp
from polygon.probe.answering import parse_answer
from polygon.probe.library import LIBRARY, detect
from polygon.probe.polarity import right_answer
from polygon.projections.probes import ProbeCount, ProbeTable, trend, wilson
from polygon.suite.schema import ProbeSpec
from tests.support.views import BASE, conv


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


@pytest.mark.parametrize("probe", LIBRARY, ids=[p.id for p in LIBRARY])
def test_each_library_probe_is_what_validating_it_gives(probe: ProbeSpec) -> None:
    """The library is made without validation (issue 31: no validator built on import)."""
    validated = ProbeSpec.model_validate(probe.model_dump(exclude_unset=True))
    assert validated == probe and validated.model_fields_set == probe.model_fields_set
