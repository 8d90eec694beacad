"""The map lock: LMDB transactions share the memory map; resizing it needs the map alone.

``mdb_env_set_mapsize`` may only run while no transaction of this process is active, and
LMDB does not check it. Since the run's group commit writes on a thread of its own (see
:class:`polygon.recording.GroupWriter`), the writer can grow a full map while the engine
reads a call back on the main thread: every transaction therefore holds the lock shared,
and a resize holds it alone.

Readers are preferred: a shared hold never waits for a resize that is only waiting, so a
thread that already holds the lock (a snapshot, a read inside another) can take it again
without deadlock. A resize waits for the moment no transaction is open; reads are one
short transaction a page, so that moment comes.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager


class MapLock:
    """Shared by transactions, held alone by whoever resizes the map."""

    def __init__(self) -> None:
        self._cond = threading.Condition(threading.Lock())
        self._users = 0
        self._resizing = False

    @contextmanager
    def shared(self) -> Iterator[None]:
        """Hold the map for one transaction (waits only while a resize is under way)."""
        with self._cond:
            while self._resizing:
                self._cond.wait()
            self._users += 1
        try:
            yield
        finally:
            with self._cond:
                self._users -= 1
                if not self._users:
                    self._cond.notify_all()

    @contextmanager
    def alone(self) -> Iterator[None]:
        """Hold the map with no transaction open in this process (to resize it)."""
        with self._cond:
            while self._resizing or self._users:
                self._cond.wait()
            self._resizing = True
        try:
            yield
        finally:
            with self._cond:
                self._resizing = False
                self._cond.notify_all()

    @property
    def users(self) -> int:
        """Transactions holding the map now (for tests)."""
        return self._users
