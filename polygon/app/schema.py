"""``polygon schema suite|rubric|sweep``: the JSON Schema an editor validates a file against."""

from __future__ import annotations

# The shipped file, not the models it was generated from: printing it needs no pydantic.
from polygon.app.schema_files import FILE_KINDS as KINDS
from polygon.app.schema_files import shipped

__all__ = ["KINDS", "schema_text"]


def schema_text(kind: str) -> str:
    """The shipped JSON Schema of a suite, rubric or sweep file."""
    return shipped(kind)
