"""Progress on stderr: a bar on a terminal, a plain line every few seconds without one (CI logs).

The CLI is the edge, so it may read the monotonic clock for the cadence; use cases only
report (done, total) and, for runs, how each call ended.
"""

from __future__ import annotations

import sys
import threading
import time
from collections import Counter
from collections.abc import Callable
from types import TracebackType
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    from rich.progress import Progress, TaskID

ERROR_ENDINGS = ("agent_error", "simulator_error")


class Reporter:
    """Shows (done, total) as a bar (``tty``), as plain lines every ``every_s`` (``lines``), or not."""

    def __init__(
        self,
        label: str,
        mode: str,
        *,
        every_s: float = 5.0,
        stream: TextIO | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.label = label
        self._first = label
        self.mode = mode
        self._every = every_s
        self._stream = stream or sys.stderr
        self._clock = clock
        self._started = clock()
        self._last = self._started
        self._state = (0, 0)
        self.endings: Counter[str] = Counter()
        self._bar: Progress | None = None
        self._task: TaskID | None = None
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._ticker: threading.Thread | None = None

    def __enter__(self) -> Reporter:
        if self.mode == "tty":
            # rich costs a tenth of a second to import: only a terminal's bar pays it.
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

            self._bar = Progress(
                TextColumn("{task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                TimeElapsedColumn(),
                transient=True,
            )
            self._bar.__enter__()
            self._task = self._bar.add_task(self.label, total=None)
        elif self.mode == "lines":
            # A call that hangs reports nothing: the line still comes every few seconds, so a
            # slow run never looks dead (docs/verdicts.md promises it).
            self._ticker = threading.Thread(target=self._tick, name="progress-lines", daemon=True)
            self._ticker.start()
        return self

    def _tick(self) -> None:
        while not self._stop.wait(self._every):
            with self._lock:
                if self._clock() - self._last >= self._every:
                    self._line()

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self._stop.set()
        if self._ticker is not None:
            self._ticker.join()
        if self._bar is not None:
            self._bar.__exit__(kind, exc, tb)
        elif self.mode == "lines" and self._last != self._started:
            self._line()  # the final count, if the job ran long enough to show any line

    def update(self, done: int, total: int) -> None:
        """Progress: ``done`` of ``total``."""
        self._state = (done, total)
        if self._bar is not None and self._task is not None:
            self._bar.update(self._task, completed=done, total=total)
        elif self.mode == "lines":
            with self._lock:
                if self._clock() - self._last >= self._every:
                    self._line()

    def stage(self, label: str) -> None:
        """A new stage of the same job (simulated calls, then scored ones): count anew."""
        with self._lock:
            self.label = label
            self._started = self._last = self._clock()
            self._state = (0, 0)
        if self._bar is not None and self._task is not None:
            self._bar.update(self._task, description=label, completed=0)

    def staged(self, label: str) -> Callable[[int, int], None]:
        """A progress callback that switches to stage ``label`` on its first report."""

        def update(done: int, total: int) -> None:
            if self.label != label:
                self.stage(label)
            self.update(done, total)

        return update

    def note(self, ending: str) -> None:
        """How a call ended (errors are counted on the plain lines)."""
        self.endings[ending] += 1

    def _line(self) -> None:
        now = self._clock()
        self._last = now
        done, total = self._state
        elapsed = max(now - self._started, 1e-9)
        errors = {k: v for k, v in sorted(self.endings.items()) if k in ERROR_ENDINGS}
        said = ", ".join(f"{k} {v}" for k, v in errors.items())
        count = sum(errors.values())
        tail = f", {count} errors ({said})" if count else ", 0 errors"
        tail = tail if self.label == self._first else ""  # call endings belong to the calls' stage
        self._stream.write(f"{self.label}: {done}/{total} ({done / elapsed:.1f}/s){tail}, {elapsed:.0f} s\n")
        self._stream.flush()


def mode(*, quiet: bool = False) -> str:
    """``tty`` on a terminal, ``lines`` elsewhere (CI), ``off`` when asked to be quiet."""
    if quiet:
        return "off"
    return "tty" if sys.stderr.isatty() else "lines"
