"""The progress callback use cases report through: (done, total)."""

from __future__ import annotations

from collections.abc import Callable

Progress = Callable[[int, int], None]


def no_progress(done: int, total: int) -> None:
    """A progress callback that shows nothing."""
