"""Comparison: where two calls part (one rule set, used by ``compare`` and ``rerun``)."""

# The public face: what code outside this package imports (generated from its uses;
# tests/test_faces.py pins it). Each name loads its module on first use.
from typing import TYPE_CHECKING  # noqa: E402

from polygon.lazy import face_getattr  # noqa: E402

if TYPE_CHECKING:
    from polygon.compare.divergence import Divergence as Divergence
    from polygon.compare.divergence import agent_turn_divergence as agent_turn_divergence
    from polygon.compare.divergence import find_divergence as find_divergence

_FACE = {
    "Divergence": "polygon.compare.divergence",
    "agent_turn_divergence": "polygon.compare.divergence",
    "find_divergence": "polygon.compare.divergence",
}
__getattr__ = face_getattr(__name__, _FACE)

__all__ = sorted(_FACE)
