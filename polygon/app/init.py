"""``polygon init DIR``: write a commented starter suite."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from polygon.errors import UserInputError

STARTER_FILES = ("suite.yaml", "prompt.md", "my_agent.py")


def init_suite(target: Path) -> list[Path]:
    """Copy the starter files into ``target``; refuse to overwrite anything."""
    existing = [target / name for name in STARTER_FILES if (target / name).exists()]
    if existing:
        raise UserInputError(f"{existing[0]} already exists; choose an empty directory")
    target.mkdir(parents=True, exist_ok=True)
    source = resources.files("polygon.examples.starter")
    written = []
    for name in STARTER_FILES:
        path = target / name
        path.write_text(source.joinpath(name).read_text(encoding="utf-8"), encoding="utf-8")
        written.append(path)
    return written
