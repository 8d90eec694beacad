"""An in-memory event log with the same contract as the LMDB log (for tests and dry runs)."""

from __future__ import annotations

import bisect
from collections import Counter
from collections.abc import Collection, Iterator, Sequence

from polygon.events.envelope import DECODER, Envelope, Pending, encode_record, prepare
from polygon.events.store import AppendResult, LogStats, VerifyReport, conflict


class MemoryLog:
    """Keeps encoded records in lists, so decoding follows the same path as on disk."""

    def __init__(self) -> None:
        self._records: list[bytes] = []
        self._streams: dict[str, list[int]] = {}
        self._identities: dict[str, tuple[int, str]] = {}

    def append(self, batch: Sequence[Pending]) -> AppendResult:
        """Append atomically: validate the whole batch, then write it."""
        prepared = prepare(batch)
        seqs: list[int] = []
        new_ids: dict[str, tuple[int, str]] = {}
        new_records: list[tuple[str, bytes]] = []
        next_seq = len(self._records) + 1
        versions: dict[str, int] = {}
        for p in prepared:
            known = new_ids.get(p.identity) or self._identities.get(p.identity)
            if known is not None:
                if known[1] != p.content_hash:
                    raise conflict(p)
                seqs.append(known[0])
                continue
            version = versions.get(p.stream, len(self._streams.get(p.stream, ()))) + 1
            versions[p.stream] = version
            new_records.append((p.stream, encode_record(p, next_seq, version)))
            new_ids[p.identity] = (next_seq, p.content_hash)
            seqs.append(next_seq)
            next_seq += 1
        for stream, record in new_records:
            self._records.append(record)
            self._streams.setdefault(stream, []).append(len(self._records))
        self._identities.update(new_ids)
        return AppendResult(tuple(seqs), len(new_records))

    def read_stream(self, stream: str, *, after_version: int = 0) -> Iterator[Envelope]:
        """One stream's events in order."""
        for seq in self._streams.get(stream, [])[after_version:]:
            yield DECODER.decode(self._records[seq - 1], seq=seq)

    def read_all(
        self, *, after_seq: int = 0, tags: Collection[str] | None = None, page_size: int = 1000
    ) -> Iterator[Envelope]:
        """All events in sequence order."""
        wanted = None if tags is None else set(tags)
        for seq in range(after_seq + 1, len(self._records) + 1):
            env = DECODER.decode(self._records[seq - 1], seq=seq)
            if wanted is None or env.tag in wanted:
                yield env

    def streams(self, prefix: str = "") -> Iterator[str]:
        """Stream names with ``prefix``, sorted."""
        names = sorted(self._streams)
        start = bisect.bisect_left(names, prefix)
        for name in names[start:]:
            if not name.startswith(prefix):
                break
            yield name

    def stream_length(self, stream: str) -> int:
        """Events in ``stream``."""
        return len(self._streams.get(stream, ()))

    def last_seq(self) -> int:
        """Highest sequence number."""
        return len(self._records)

    def stats(self) -> LogStats:
        """Counts by tag."""
        tags = Counter(env.tag for env in self.read_all())
        return LogStats(
            events=len(self._records),
            streams=len(self._streams),
            last_seq=len(self._records),
            by_tag=dict(sorted(tags.items())),
        )

    def verify(self) -> VerifyReport:
        """Decode every record; the in-memory indexes agree by construction."""
        for seq in range(1, len(self._records) + 1):
            try:
                DECODER.decode(self._records[seq - 1], seq=seq)
            except Exception as exc:
                return VerifyReport(events=seq - 1, streams=len(self._streams), problem=str(exc))
        return VerifyReport(events=len(self._records), streams=len(self._streams))

    def close(self) -> None:
        """Nothing to release."""
