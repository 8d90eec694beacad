"""The event-log contract shared by the LMDB log and the in-memory log.

Invariants (numbered in ``events/README.md``): appends are atomic per batch; sequence
numbers are gapless from 1 in commit order; each stream's versions are gapless from 1;
an identity appears at most once, and appending it again with the same content is a
no-op that returns the original sequence number, while different content raises
:class:`IdentityConflictError` and writes nothing of the batch.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Sequence
from typing import Protocol

import msgspec

from polygon.events.envelope import Envelope, Pending, Prepared
from polygon.events.errors import IdentityConflictError


class AppendResult(msgspec.Struct, frozen=True):
    """What one append did."""

    seqs: tuple[int, ...]
    """Sequence number of each pending event, in order (the original one for no-ops)."""
    written: int
    """How many events were new."""


class LogStats(msgspec.Struct, frozen=True, kw_only=True):
    """Counts for ``polygon log stats``."""

    events: int
    streams: int
    last_seq: int
    by_tag: dict[str, int]
    map_size: int = 0
    bytes_used: int = 0
    trees: dict[str, int] = msgspec.field(default_factory=dict)
    """Bytes of pages per sub-database (events, streams, identities, heads, meta)."""
    record_parts: dict[str, int] = msgspec.field(default_factory=dict)
    """Bytes of the stored records by part: the payload and each envelope field (msgpack)."""


class VerifyReport(msgspec.Struct, frozen=True, kw_only=True):
    """The result of an fsck: ``problem`` is the first thing found wrong, or None."""

    events: int
    streams: int
    problem: str | None = None

    @property
    def ok(self) -> bool:
        """True when nothing was found wrong."""
        return self.problem is None


class EventLog(Protocol):
    """An append-only, single-writer event log."""

    def append(self, batch: Sequence[Pending]) -> AppendResult:
        """Append a batch atomically and durably; see the module invariants."""
        ...

    def read_stream(self, stream: str, *, after_version: int = 0) -> Iterator[Envelope]:
        """One stream's events in stream order, without scanning the log."""
        ...

    def read_all(
        self, *, after_seq: int = 0, tags: Collection[str] | None = None, page_size: int = 1000
    ) -> Iterator[Envelope]:
        """Every event in sequence order, optionally only those with one of ``tags``."""
        ...

    def streams(self, prefix: str = "") -> Iterator[str]:
        """Stream names starting with ``prefix``, sorted."""
        ...

    def stream_length(self, stream: str) -> int:
        """Number of events in ``stream`` (0 if it does not exist)."""
        ...

    def last_seq(self) -> int:
        """The highest sequence number (0 for an empty log)."""
        ...

    def stats(self) -> LogStats:
        """Counts by tag and sizes."""
        ...

    def verify(self) -> VerifyReport:
        """Check every invariant; report the first violation."""
        ...

    def close(self) -> None:
        """Release the log."""
        ...


def conflict(p: Prepared) -> IdentityConflictError:
    """The error for an identity re-appended with different content."""
    return IdentityConflictError(
        f"identity {p.identity} ({p.tag} in stream {p.stream}) was already written with "
        "different content; events are immutable"
    )
