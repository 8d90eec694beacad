"""A clinic suite whose agent plods (never awaits), for runs stopped mid-way by a signal."""

from __future__ import annotations

import shutil
from pathlib import Path

from polygon.events import LmdbLog
from polygon.events.errors import StorageError
from tests.support.examples import clinic_suite_path
from tests.support.text import replaced

FIXTURES = Path(__file__).parents[1] / "app" / "fixtures"
TRIALS = 8  # 12 personas × 8 trials = 96 calls of one configuration


def dying_suite(tmp: Path, trials: int = TRIALS) -> Path:
    """The clinic suite with a plodding v1 agent and ``trials`` trials, copied under ``tmp``."""
    folder = tmp / "suite"
    shutil.copytree(FIXTURES / "dying", folder)
    text = clinic_suite_path().read_text()
    text = replaced(text, "python:polygon.examples.clinic.agents:make_v1", "python:agents:make_plodding")
    text = replaced(text, "prompt_file: prompt_v1.md", "prompt: v1")
    text = replaced(text, "prompt_file: prompt_v2.md", "prompt: v2")
    text = replaced(text, "trials: 1", f"trials: {trials}")
    (folder / "suite.yaml").write_text(text)
    return folder / "suite.yaml"


def tag_counts(path: Path) -> dict[str, int]:
    """Events per tag in the log at ``path`` (empty while it does not exist yet)."""
    try:
        with LmdbLog(path, readonly=True) as log:
            return dict(log.stats().by_tag)
    except StorageError:  # not created yet
        return {}


def log_contents(path: Path) -> set[tuple[str, str, str]]:
    """What the log at ``path`` holds, whatever the commits it came in: (stream, identity, content)."""
    with LmdbLog(path, readonly=True) as log:
        return {(e.stream, e.identity, e.content_hash) for e in log.read_all()}
