"""The shipped JSON Schema files, read without their models.

``polygon schema`` prints one and ``polygon init`` writes the suite's: both only read a file
that ``make docs`` generated from the pydantic models (:mod:`polygon.app.editor_schema`), so
neither pays for pydantic and the suite, rubric and sweep models to start (~0.4 CPU s).
"""

from __future__ import annotations

from importlib import resources

from polygon.errors import UserInputError

FILE_KINDS = ("suite", "rubric", "sweep")
"""The file kinds with a shipped schema (``editor_schema.KINDS`` maps each to its model)."""
SCHEMA_FOLDER = "json"


def shipped(kind: str) -> str:
    """The shipped schema file of ``kind`` (a user error for an unknown kind)."""
    if kind not in FILE_KINDS:
        raise UserInputError(f"no schema {kind!r} (have: {', '.join(FILE_KINDS)})")
    return resources.files("polygon.suite").joinpath(SCHEMA_FOLDER, f"{kind}.schema.json").read_text("utf-8")
