"""Records a log handle wrote, kept in memory for the first reader of their stream (bounded).

A run writes every call, then its scoring pass reads each call back once. Read from the
log, a call costs a read transaction, its rendering from format 2 (decompressing every
payload) and, while the run's writer thread is busy, a wait for the GIL each time the read
lets go of it. A :class:`KeptRecords` holds the format-1 records of the streams its handle
creates, so that the first read of such a stream is served from memory: the same bytes the
log renders on a read, fed to the same decoder, hence the same envelopes.

What keeps it exact and bounded:

* a stream is kept only from its version 1, written through this handle while keeping, and
  only while each later version follows on: what is kept is always the whole stream as
  committed (records are added after their commit, never before);
* the first read of a kept stream takes it out (a later read goes to the log);
* at most :attr:`budget` bytes are held: a new stream that does not fit is not kept, and a
  kept one that outgrows the room left is dropped whole (its reader goes to the log).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable

from polygon.events.envelope import Prepared

Render = Callable[[Prepared, int, int], bytes]
"""A committed event (with its seq and stream version) as the format-1 record a read gives."""


class KeptRecords:
    """Streams' records as committed, held until their first read (``budget`` bytes at most)."""

    def __init__(self, budget: int) -> None:
        self.budget = budget
        self.held = 0
        """Bytes of records held now."""
        self.served = 0
        """Streams handed to a reader (for tests and measurements)."""
        self._streams: dict[str, list[bytes]] = {}
        # The writer thread adds, the reading thread takes.
        self._lock = threading.Lock()

    def wrote(self, new: Iterable[tuple[Prepared, int, int]], render: Render) -> None:
        """Committed events (each with its seq and stream version), in commit order.

        ``render`` makes the format-1 record a read gives; only a record kept is rendered.
        """
        with self._lock:
            # The writer thread runs this for every event it commits, holding the GIL: the
            # running total stays in a local and is stored once.
            streams, budget, held = self._streams, self.budget, self.held
            try:
                for p, seq, version in new:
                    kept = streams.get(p.stream)
                    if kept is None and version != 1:
                        continue  # not seen from its start (or let go): never kept
                    if kept is not None and version != len(kept) + 1:
                        held -= sum(map(len, streams.pop(p.stream)))
                        continue
                    record = render(p, seq, version)
                    if held + len(record) > budget:
                        if kept is not None:
                            held -= sum(map(len, streams.pop(p.stream)))
                        continue
                    if kept is None:
                        kept = streams[p.stream] = []
                    kept.append(record)
                    held += len(record)
            finally:  # a render that raised leaves the total true to what is held
                self.held = held

    def take(self, stream: str) -> list[bytes] | None:
        """The whole stream's records, now out of the keep; None when it is not kept."""
        with self._lock:
            kept = self._streams.pop(stream, None)
            if kept is None:
                return None
            self.held -= sum(map(len, kept))
            self.served += 1
            return kept

    def __len__(self) -> int:
        """Streams held now."""
        return len(self._streams)
