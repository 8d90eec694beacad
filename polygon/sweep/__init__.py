"""Sweeps: points (one configuration each) made from a sweep file, and the tokens they cost."""

# The public face: what code outside this package imports (generated from its uses;
# tests/test_faces.py pins it). Each name loads its module on first use.
from typing import TYPE_CHECKING  # noqa: E402

from polygon.lazy import face_getattr  # noqa: E402

if TYPE_CHECKING:
    from polygon.sweep.points import Point as Point
    from polygon.sweep.points import make_points as make_points
    from polygon.sweep.tokens import Usage as Usage
    from polygon.sweep.tokens import estimate as estimate
    from polygon.sweep.tokens import run_usage as run_usage

_FACE = {
    "Point": "polygon.sweep.points",
    "Usage": "polygon.sweep.tokens",
    "estimate": "polygon.sweep.tokens",
    "make_points": "polygon.sweep.points",
    "run_usage": "polygon.sweep.tokens",
}
__getattr__ = face_getattr(__name__, _FACE)

__all__ = sorted(_FACE)
