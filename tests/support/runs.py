"""Whole offline runs and what a test reads back from their logs.

- :func:`run_clinic`: the bundled clinic suite run into an LMDB log, in process.
- :func:`contents`: a log's (stream, identity, content hash) set, for event-identity comparisons.
- :func:`wait_for_conversations`: poll a log written by another process until it has N calls.
- :func:`pizza`: the pizza suite (tests/app/fixtures/pizza) copied beside its agents.
- :func:`model_suite`: the clinic suite with every model role pointed at an OpenAI-compatible URL.
"""

from __future__ import annotations

import shutil
import time
from pathlib import Path

from polygon.app.run import RunOptions, run_suite
from polygon.events import LmdbLog
from polygon.events.errors import StorageError
from polygon.suite.loading import load_suite
from tests.support.examples import clinic_suite_path
from tests.support.text import replaced

PIZZA = Path(__file__).parents[1] / "app" / "fixtures" / "pizza"


def contents(path: Path, prefix: str = "") -> set[tuple[str, str, str]]:
    with LmdbLog(path, readonly=True) as log:
        return {(e.stream, e.identity, e.content_hash) for e in log.read_all() if e.stream.startswith(prefix)}


def run_clinic(path: Path, **opts: object) -> str:
    with LmdbLog(path) as log:
        return run_suite(load_suite(clinic_suite_path()), log, RunOptions(**opts), now=lambda: "t").run_id  # type: ignore[arg-type]


def wait_for_conversations(path: Path, count: int, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with LmdbLog(path, readonly=True) as log:
                if len(list(log.streams("conv/"))) >= count:
                    return
        except StorageError:  # not created yet
            pass
        time.sleep(0.05)
    raise AssertionError("the run never got going")


def pizza(tmp_path: Path, **replace: str) -> Path:
    """The pizza suite copied beside its agents, with text replaced (e.g. an agent reference)."""
    folder = tmp_path / "pizza"
    shutil.copytree(PIZZA, folder)
    path = folder / "suite.yaml"
    text = path.read_text()
    for old, new in replace.items():
        text = replaced(text, old, new, -1)
    path.write_text(text)
    return path


def model_suite(tmp_path: Path, url: str) -> Path:
    """The clinic suite with agent, caller, judge and probes on ``openai/test-*`` models at ``url``."""
    text = clinic_suite_path().read_text()
    text = replaced(text, "python:polygon.examples.clinic.agents:make_v1", "model:openai/test-agent")
    text = replaced(text, "model: scripted/caller", "model: openai/test-caller")
    text = replaced(text, "model: scripted/heuristic", "model: openai/test-judge")
    text = replaced(
        text, "forbidden_phrases:", f"probe_model: openai/test-probe\nopenai_base_url: {url}\nforbidden_phrases:"
    )
    for f in ("prompt_v1.md", "prompt_v2.md"):
        (tmp_path / f).write_text((clinic_suite_path().parent / f).read_text())
    path = tmp_path / "suite.yaml"
    path.write_text(text)
    return path
