"""``polygon init DIR``: write a commented starter suite."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from polygon.app.schema_files import shipped
from polygon.errors import UserInputError

STARTER_FILES = ("suite.yaml", "prompt.md", "my_agent.py")
SCHEMA_FILE = "suite.schema.json"
SCHEMA_LINE = f"# yaml-language-server: $schema={SCHEMA_FILE}\n"
"""The first line of the starter suite: an editor with the YAML language server validates and
completes the file against the schema written beside it (``polygon schema suite`` refreshes it)."""


def init_suite(target: Path) -> list[Path]:
    """Copy the starter files and the suite's JSON Schema into ``target``; refuse to overwrite anything."""
    existing = [target / name for name in (*STARTER_FILES, SCHEMA_FILE) if (target / name).exists()]
    if existing:
        raise UserInputError(f"{existing[0]} already exists; choose an empty directory")
    target.mkdir(parents=True, exist_ok=True)
    source = resources.files("polygon.examples.starter")
    written = []
    for name in STARTER_FILES:
        path = target / name
        text = source.joinpath(name).read_text(encoding="utf-8")
        path.write_text(SCHEMA_LINE + text if name == "suite.yaml" else text, encoding="utf-8")
        written.append(path)
    schema = target / SCHEMA_FILE
    schema.write_text(shipped("suite"), encoding="utf-8")
    written.append(schema)
    return written
