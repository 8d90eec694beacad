"""Suites: the file schema, loading with clear errors, persona coverage, and the names of built-ins."""

# The public face: what code outside this package imports (generated from its uses;
# tests/test_faces.py pins it). Each name loads its module on first use.
from typing import TYPE_CHECKING  # noqa: E402

from polygon.lazy import face_getattr  # noqa: E402

if TYPE_CHECKING:
    from polygon.suite.loading import LoadedSuite as LoadedSuite
    from polygon.suite.loading import derive_suite as derive_suite
    from polygon.suite.loading import inside as inside
    from polygon.suite.loading import load_suite as load_suite
    from polygon.suite.loading import resolve_factory as resolve_factory
    from polygon.suite.names import DETECTOR_PREFIX as DETECTOR_PREFIX
    from polygon.suite.names import FALLBACK_ENDS as FALLBACK_ENDS
    from polygon.suite.names import NEWEST_GATING as NEWEST_GATING
    from polygon.suite.names import POLICY_KINDS as POLICY_KINDS
    from polygon.suite.personas import OFFLINE_GENERATOR as OFFLINE_GENERATOR
    from polygon.suite.personas import Slot as Slot
    from polygon.suite.personas import coverage as coverage
    from polygon.suite.personas import offline_persona as offline_persona
    from polygon.suite.probes import ProbeSpec as ProbeSpec
    from polygon.suite.schema import OUTCOMES as OUTCOMES
    from polygon.suite.schema import PERSONA_TYPES as PERSONA_TYPES
    from polygon.suite.schema import ConfigSpec as ConfigSpec
    from polygon.suite.schema import PersonaSpec as PersonaSpec
    from polygon.suite.schema import Rule as Rule
    from polygon.suite.schema import ScenarioSpec as ScenarioSpec
    from polygon.suite.schema import StubSpec as StubSpec
    from polygon.suite.schema import Suite as Suite
    from polygon.suite.schema import ToolSpec as ToolSpec
    from polygon.suite.sweep import NAMED as NAMED
    from polygon.suite.sweep import LoadedSweep as LoadedSweep
    from polygon.suite.sweep import Range as Range
    from polygon.suite.sweep import SweepSpec as SweepSpec
    from polygon.suite.sweep import load_sweep as load_sweep

_FACE = {
    "ConfigSpec": "polygon.suite.schema",
    "DETECTOR_PREFIX": "polygon.suite.names",
    "LoadedSuite": "polygon.suite.loading",
    "LoadedSweep": "polygon.suite.sweep",
    "NAMED": "polygon.suite.sweep",
    "NEWEST_GATING": "polygon.suite.names",
    "OFFLINE_GENERATOR": "polygon.suite.personas",
    "OUTCOMES": "polygon.suite.schema",
    "PERSONA_TYPES": "polygon.suite.schema",
    "FALLBACK_ENDS": "polygon.suite.names",
    "POLICY_KINDS": "polygon.suite.names",
    "PersonaSpec": "polygon.suite.schema",
    "ProbeSpec": "polygon.suite.probes",
    "Range": "polygon.suite.sweep",
    "Rule": "polygon.suite.schema",
    "ScenarioSpec": "polygon.suite.schema",
    "Slot": "polygon.suite.personas",
    "StubSpec": "polygon.suite.schema",
    "Suite": "polygon.suite.schema",
    "SweepSpec": "polygon.suite.sweep",
    "ToolSpec": "polygon.suite.schema",
    "coverage": "polygon.suite.personas",
    "derive_suite": "polygon.suite.loading",
    "inside": "polygon.suite.loading",
    "load_suite": "polygon.suite.loading",
    "load_sweep": "polygon.suite.sweep",
    "offline_persona": "polygon.suite.personas",
    "resolve_factory": "polygon.suite.loading",
}
__getattr__ = face_getattr(__name__, _FACE)

__all__ = sorted(_FACE)
