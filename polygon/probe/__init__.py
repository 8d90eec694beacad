"""Behaviour probes: the library and its detectors, and answering by a model or offline."""

# The public face: what code outside this package imports (generated from its uses;
# tests/test_faces.py pins it). Each name loads its module on first use.
from typing import TYPE_CHECKING  # noqa: E402

from polygon.lazy import face_getattr  # noqa: E402

if TYPE_CHECKING:
    from polygon.probe.answering import ProbeAnswerer as ProbeAnswerer
    from polygon.probe.answering import answered as answered
    from polygon.probe.answering import answerer_for as answerer_for
    from polygon.probe.answering import parse_answer as parse_answer
    from polygon.probe.answering import probe_request as probe_request
    from polygon.probe.library import DETECTOR as DETECTOR
    from polygon.probe.library import detect as detect
    from polygon.probe.library import probes_from as probes_from
    from polygon.probe.polarity import right_answer as right_answer

_FACE = {
    "DETECTOR": "polygon.probe.library",
    "ProbeAnswerer": "polygon.probe.answering",
    "answered": "polygon.probe.answering",
    "answerer_for": "polygon.probe.answering",
    "detect": "polygon.probe.library",
    "parse_answer": "polygon.probe.answering",
    "probe_request": "polygon.probe.answering",
    "probes_from": "polygon.probe.library",
    "right_answer": "polygon.probe.polarity",
}
__getattr__ = face_getattr(__name__, _FACE)

__all__ = sorted(_FACE)
