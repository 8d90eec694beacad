"""Small SVG charts drawn on the server (attributes only: no style, no script).

The numbers are worked out here; the markup is the ``interval_bar`` macro in
templates/charts.html, drawn in the one Jinja environment like every other page.
"""

from __future__ import annotations

from dataclasses import dataclass

WIDTH = 220
HEIGHT = 14


@dataclass(frozen=True)
class BarGeometry:
    """Where an interval bar's parts sit, in pixels on its fixed ``WIDTH``."""

    left: float
    """The interval's low end (the bar's start)."""
    width: float
    """The interval's length, at least one pixel so a point interval still shows."""
    tick: float
    """The mean's tick (its left edge: the tick is two pixels wide, centred on the mean)."""
    label: str
    """What a screen reader says: ``mean [low, high]``."""
    full_width: int = WIDTH
    height: int = HEIGHT


def _x(value: float, low: float, high: float) -> float:
    return round((value - low) / (high - low) * WIDTH, 1) if high > low else 0.0


def bar_geometry(
    mean: float | None, lo: float | None, hi: float | None, *, scale: tuple[float, float] = (0, 100)
) -> BarGeometry | None:
    """A bar from ``lo`` to ``hi`` with a tick at ``mean`` on a fixed scale (None when unknown)."""
    if mean is None:
        return None
    a, b = scale
    left, right = _x(lo if lo is not None else mean, a, b), _x(hi if hi is not None else mean, a, b)
    tick = _x(mean, a, b)
    label = f"{mean:.1f} [{lo if lo is not None else mean:.1f}, {hi if hi is not None else mean:.1f}]"
    return BarGeometry(left=left, width=max(1.0, right - left), tick=max(0.0, tick - 1), label=label)


def heat_class(value: float | None) -> str:
    """A CSS class from heat-0 (worst) to heat-9 (best) for a 0–100 value."""
    if value is None:
        return "heat-none"
    return f"heat-{min(9, max(0, int(value // 10)))}"
