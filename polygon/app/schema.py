"""``polygon schema suite|rubric|sweep``: the JSON Schema an editor validates a file against."""

from __future__ import annotations

from polygon.app.editor_schema import KINDS, shipped

__all__ = ["KINDS", "schema_text"]


def schema_text(kind: str) -> str:
    """The shipped JSON Schema of a suite, rubric or sweep file."""
    return shipped(kind)
