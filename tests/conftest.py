from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from polygon.events import LmdbLog, MemoryLog


@pytest.fixture(params=["memory", "lmdb-v1", "lmdb-v2"])
def any_log(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[MemoryLog | LmdbLog]:
    """Every implementation of the log contract."""
    log: MemoryLog | LmdbLog = (
        MemoryLog()
        if request.param == "memory"
        else LmdbLog(tmp_path / "log", format_version=int(request.param[-1]))
    )
    yield log
    log.close()
