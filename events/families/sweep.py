"""Sweep events: one ``sweep/<id>`` stream per sweep; each point's calls are an ordinary run."""

from __future__ import annotations

from typing import Any

import msgspec

from polygon.events.registry import Event, event_type


class SweepPoint(msgspec.Struct, frozen=True, kw_only=True):
    """One point: the values it sets, its immutable profile, and the run that holds its calls."""

    index: int
    values: dict[str, Any]
    """Parameter → value (empty: the base configuration as it is)."""
    profile: str
    """Content hash of agent, prompt and parameters."""
    run_id: str
    """Derived from everything the calls depend on: the same point is the same run."""


@event_type(version=1)
class SweepStarted(Event, frozen=True, kw_only=True, tag="sweep.started"):
    """A sweep began; fixes what a resume must find unchanged."""

    sweep_id: str
    name: str
    sweep_hash: str
    """Content hash of the sweep file, its suite and its prompt files."""
    suite_name: str
    mode: str
    base: str
    points: list[SweepPoint]
    scenarios: list[str]
    trials: int
    floor: float | None = None
    token_limit: int = 0


@event_type(version=1)
class PointRan(Event, frozen=True, kw_only=True, tag="sweep.point_ran"):
    """A point's run is complete (run now, resumed, or reused from an earlier sweep)."""

    sweep_id: str
    index: int
    run_id: str
    reused: bool = False
    tokens: int = 0
    """Tokens its calls used: model usage where recorded, else the stated rule (see tokens.py)."""
    mean_composite: float | None = None
    """The mean composite of its graded calls (what the floor is held against)."""


@event_type(version=1)
class PointRefused(Event, frozen=True, kw_only=True, tag="sweep.point_refused"):
    """A point was not started: its estimated tokens exceed the sweep's limit."""

    sweep_id: str
    index: int
    estimated_tokens: int
    limit: int
    basis: str
    """How the estimate was made."""


@event_type(version=1)
class SweepStopped(Event, frozen=True, kw_only=True, tag="sweep.stopped"):
    """The sweep stopped early: the first point is already below the floor."""

    sweep_id: str
    after_index: int
    mean_composite: float
    floor: float


@event_type(version=1)
class SweepFinished(Event, frozen=True, kw_only=True, tag="sweep.finished"):
    """Every point ran, was refused, or the sweep stopped."""

    sweep_id: str
    ran: int
    refused: int
    not_run: int
