"""The conversation view projection.

The fold lives in :mod:`polygon.transcript`, since checks and judges read it too.
"""

from __future__ import annotations

from polygon.transcript import (
    VERSION,
    ConversationView,
    ProjectionError,
    ToolView,
    TurnView,
    apply,
    build,
)

__all__ = [
    "VERSION",
    "ConversationView",
    "ProjectionError",
    "ToolView",
    "TurnView",
    "apply",
    "build",
]
