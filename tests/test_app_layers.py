"""app/ is two layers: every module is named either a support module or a command module in the
import-linter contract (which keeps support from importing commands), so a new module picks a side."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CONTRACT = "app: support modules"


def _contract() -> dict[str, list[str]]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))
    return next(c for c in config["tool"]["importlinter"]["contracts"] if c["name"].startswith(CONTRACT))


def test_every_app_module_is_a_support_or_a_command_module() -> None:
    contract = _contract()
    support, commands = set(contract["source_modules"]), set(contract["forbidden_modules"])
    modules = {
        f"polygon.app.{p.stem}" for p in (ROOT / "polygon" / "app").glob("*.py") if p.stem != "__init__"
    }
    assert not support & commands
    assert support | commands == modules
