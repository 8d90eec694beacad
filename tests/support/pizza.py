"""The pizza fixture suite run through the CLI, and the goal check one of its calls got."""

from __future__ import annotations

import shutil
from pathlib import Path

from click.testing import CliRunner

from polygon.cli.main import cli
from polygon.events import LmdbLog
from polygon.events.families import CheckRecorded

PIZZA_FIXTURE = Path(__file__).parents[1] / "app" / "fixtures" / "pizza"


def run_pizza(tmp_path: Path, text: str | None = None) -> tuple[Path, object]:
    """Run the pizza suite (``text``: another ``orders.yaml``) as run ``o``; the log and result."""
    folder = tmp_path / "pizza"
    shutil.copytree(PIZZA_FIXTURE, folder)
    if text is not None:
        (folder / "orders.yaml").write_text(text)
    log = tmp_path / "log"
    res = CliRunner().invoke(cli, ["--log", str(log), "run", str(folder / "orders.yaml"), "--run-id", "o"])
    return log, res


def goal_check(log: Path, conversation: str) -> CheckRecorded:
    """The one ``goal_reached`` check recorded on ``conversation``."""
    with LmdbLog(log, readonly=True) as opened:
        found = [
            e.payload
            for e in opened.read_stream(f"conv/{conversation}")
            if isinstance(e.payload, CheckRecorded) and e.payload.check == "goal_reached"
        ]
    assert len(found) == 1
    return found[0]
