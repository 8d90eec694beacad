"""A run's labels: one fold of the labels stream answers labelling, calibration, import and caller review."""

from __future__ import annotations

import msgspec

from polygon.events import CallerTurnLabelled, LabelRecorded, RunStarted
from polygon.projections import fold_run_labels
from tests.golden.event_samples import SAMPLES
from tests.support.views import env

LABEL = next(e for e in SAMPLES if isinstance(e, LabelRecorded))
MARK = next(e for e in SAMPLES if isinstance(e, CallerTurnLabelled))
STARTED = next(e for e in SAMPLES if isinstance(e, RunStarted))


def test_no_labels_fold_to_none_of_either_kind() -> None:
    labels = fold_run_labels([])
    assert (labels.calls, labels.caller_turns, labels.latest(), labels.given()) == ((), (), {}, {})


def test_the_latest_label_of_a_call_counts_and_a_labeller_can_be_chosen() -> None:
    later = msgspec.structs.replace(LABEL, verdict="pass")
    bob = msgspec.structs.replace(LABEL, by="bob", verdict="warn")
    other = msgspec.structs.replace(LABEL, conversation_id="r1.v1.s2.0")
    labels = fold_run_labels(env(i, p) for i, p in enumerate([LABEL, other, STARTED, later, bob], 1))
    assert labels.latest() == {LABEL.conversation_id: bob, other.conversation_id: other}
    assert labels.latest("ana") == {LABEL.conversation_id: later, other.conversation_id: other}
    assert labels.given() == {
        (LABEL.conversation_id, "ana"): 2,
        (other.conversation_id, "ana"): 1,
        (LABEL.conversation_id, "bob"): 1,
    }


def test_caller_turn_marks_are_counted_per_person_and_the_latest_counts() -> None:
    again = msgspec.structs.replace(MARK, realistic=True)
    bob = msgspec.structs.replace(MARK, by="bob")
    labels = fold_run_labels(env(i, p) for i, p in enumerate([MARK, LABEL, again, bob], 1))
    assert labels.calls == (LABEL,)
    assert labels.turns_marked("ana") == {(MARK.conversation_id, MARK.turn): 2}
    assert labels.turns_marked("nobody") == {}
    key = (MARK.conversation_id, MARK.turn)
    assert labels.latest_marks() == {(*key, "ana"): again, (*key, "bob"): bob}
