"""The suite layer names built-ins as data; each implementation above it must match."""

from polygon.probe.library import DETECTORS as PROBE_IMPLEMENTATIONS
from polygon.probe.library import LIBRARY
from polygon.score.detectors import DETECTORS as SPEECH_IMPLEMENTATIONS
from polygon.score.disclosure import DISCLOSURE
from polygon.score.policies import Policy
from polygon.suite.names import (
    GROUNDED_DETECTORS,
    POLICY_KINDS,
    PROBE_DETECTORS,
    SPEECH_DETECTORS,
    TEXT_DETECTORS,
)


def test_every_named_speech_detector_is_implemented_in_the_same_order() -> None:
    assert tuple(SPEECH_IMPLEMENTATIONS) == TEXT_DETECTORS
    assert GROUNDED_DETECTORS == (DISCLOSURE,)
    assert SPEECH_DETECTORS == TEXT_DETECTORS + GROUNDED_DETECTORS


def test_every_named_probe_detector_is_implemented_in_the_same_order() -> None:
    assert tuple(PROBE_IMPLEMENTATIONS) == PROBE_DETECTORS
    assert {p.detector for p in LIBRARY} <= set(PROBE_DETECTORS)


def test_every_policy_kind_is_a_field_of_a_policy() -> None:
    assert set(POLICY_KINDS) <= set(Policy.__struct_fields__)
