from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from polygon.events import LmdbLog, MemoryLog


@pytest.fixture(params=["memory", "lmdb"])
def any_log(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[MemoryLog | LmdbLog]:
    """Every implementation of the log contract."""
    log: MemoryLog | LmdbLog = MemoryLog() if request.param == "memory" else LmdbLog(tmp_path / "log")
    yield log
    log.close()
