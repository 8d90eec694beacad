"""Small SVG charts drawn on the server (attributes only: no style, no script)."""

from __future__ import annotations

from markupsafe import Markup, escape

WIDTH = 220
HEIGHT = 14


def _x(value: float, low: float, high: float) -> float:
    return round((value - low) / (high - low) * WIDTH, 1) if high > low else 0.0


def interval_bar(
    mean: float | None, lo: float | None, hi: float | None, *, scale: tuple[float, float] = (0, 100)
) -> Markup:
    """A bar from ``lo`` to ``hi`` with a tick at ``mean`` on a fixed scale (— when unknown)."""
    if mean is None:
        return Markup("—")
    a, b = scale
    left, right = _x(lo if lo is not None else mean, a, b), _x(hi if hi is not None else mean, a, b)
    tick = _x(mean, a, b)
    label = escape(f"{mean:.1f} [{lo if lo is not None else mean:.1f}, {hi if hi is not None else mean:.1f}]")
    return Markup(
        f'<svg class="bar" width="{WIDTH}" height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" '
        f'role="img" aria-label="{label}">'
        f'<rect x="0" y="6" width="{WIDTH}" height="2" fill="#ddd"/>'
        f'<rect x="{left}" y="3" width="{max(1.0, right - left)}" height="8" fill="#7aa6d8"/>'
        f'<rect x="{max(0.0, tick - 1)}" y="0" width="2" height="{HEIGHT}" fill="#1d3f6e"/></svg>'
    )


def heat_class(value: float | None) -> str:
    """A CSS class from heat-0 (worst) to heat-9 (best) for a 0–100 value."""
    if value is None:
        return "heat-none"
    return f"heat-{min(9, max(0, int(value // 10)))}"
