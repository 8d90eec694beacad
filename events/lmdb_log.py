"""The durable event log on LMDB.

Layout of format 1 (named sub-databases in one environment)::

    events      seq (8-byte big-endian)            → Envelope (msgpack array)
    streams     stream NUL version (8-byte BE)     → seq
    heads       stream                             → last version (8-byte BE)
    identities  identity (16 bytes)                → seq + content hash (16 bytes)
    meta        b"format" / b"map_size"            → values

Format 2 (:mod:`polygon.events.log_v2`, ``docs/log-format.md``) is what new logs are written
in: binary records, interned stream ids and tags (``names``), sparse timestamps (``times``)
and compressed payloads. ``meta``'s ``format`` decides how a log is read and appended to;
format 1 logs stay readable and writable as they are (``polygon log upgrade`` copies one).

Rules (see docs/ARCHITECTURE.md and events/README.md): ``sync=True, metasync=True, writemap=False``; one write
transaction per batch (group commit); ``append=True`` puts are checked; the map size is
persisted and grown on ``MapFullError`` with the whole batch retried; reads run in short
transactions, one page at a time; ``reader_check()`` at open; one writer per log, enforced
with a lock file; handles refuse to work in a forked child. Every transaction holds the
:class:`~polygon.events.map_lock.MapLock` shared and a map resize holds it alone, because
the run's writer commits on its own thread while the engine reads.
"""

from __future__ import annotations

import fcntl
import os
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from contextlib import contextmanager
from functools import partial
from itertools import islice
from pathlib import Path
from typing import Any, TypeVar

import lmdb
import msgspec

from polygon.events.envelope import (
    DECODER,
    Envelope,
    Pending,
    Prepared,
    decode_header,
    encode_record,
    prepare,
)
from polygon.events.errors import (
    DecodeError,
    ForkedUseError,
    LogFormatError,
    StorageError,
    WriterBusyError,
)
from polygon.events.kept import KeptRecords
from polygon.events.keys import (
    pack_u64,
    split_identity_value,
    unpack_u64,
)
from polygon.events.log_v2 import Tables2, format1_rows, rendered
from polygon.events.map_lock import MapLock
from polygon.events.pages import RESTORE, refuse_special_files, walk_pages
from polygon.events.store import AppendResult, LogStats, VerifyReport, conflict

FORMAT_VERSION = 2
"""The format new logs are written in."""
READABLE_FORMATS = (1, 2)
_TREES_OF = {
    1: ("events", "streams", "heads", "identities"),
    2: ("events", "streams", "heads", "identities", "names", "times"),
}
DEFAULT_MAP_SIZE = 64 * 1024 * 1024
# Below this, creating the sub-databases alone can fill the map.
MIN_MAP_SIZE = 256 * 1024
_OPEN_PATHS: set[str] = set()
T = TypeVar("T")


class LmdbLog:
    """A durable, single-writer event log stored in ``path`` (a directory)."""

    def __init__(
        self,
        path: str | Path,
        *,
        map_size: int = DEFAULT_MAP_SIZE,
        readonly: bool = False,
        format_version: int = FORMAT_VERSION,
    ):
        self.path = Path(path).resolve()
        self.readonly = readonly
        self.format = format_version
        """The log's format: ``format_version`` for a new log, what ``meta`` says otherwise."""
        self._v2: Tables2 | None = None
        self._kept: KeptRecords | None = None
        self._map = MapLock()
        self._pid = os.getpid()
        self._lock_fd: int | None = None
        key = str(self.path)
        if key in _OPEN_PATHS:
            raise StorageError(f"log {self.path} is already open in this process")
        refuse_special_files(self.path)  # a FIFO's open() would block for good, deaf to SIGTERM
        if readonly and not (self.path / "data.mdb").exists():
            raise StorageError(f"no event log at {self.path}")
        if not readonly:
            _check_ours(self.path)
        try:
            self.path.mkdir(parents=True, exist_ok=True)
            if not readonly:
                self._lock_fd = _acquire_writer_lock(self.path / "writer.lock")
        except OSError as exc:
            raise StorageError(
                f"cannot write the event log at {self.path}: {exc.strerror or exc} "
                "(it is read-only to you: reading it still works)"
            ) from None
        # LMDB shrinks a map opened too small to exactly the used size, leaving no room even
        # for opening the sub-databases: start from at least twice the file, then apply the
        # persisted size below.
        data = self.path / "data.mdb"
        initial = max(map_size, MIN_MAP_SIZE, 2 * data.stat().st_size if data.exists() else 0)
        try:
            self._env = lmdb.open(
                str(self.path),
                subdir=True,
                map_size=initial,
                max_dbs=8,
                readonly=readonly,
                sync=True,
                metasync=True,
                writemap=False,
                # A log we may not write (a read-only copy, another user's) is read without
                # the lock file: LMDB would need to write lock.mdb to take a reader slot.
                lock=not (readonly and _unwritable(self.path)),
                max_readers=256,
            )
            self._check_not_truncated(data)
            self._env.reader_check()
            self._dbs = {"meta": self._env.open_db(b"meta", create=not readonly)}
            self._check_format_and_map(map_size)
            trees = _TREES_OF[self.format]
            self._dbs.update({name: self._env.open_db(name.encode(), create=not readonly) for name in trees})
            if self.format == 2:
                self._v2 = Tables2(self._dbs)
                with self._env.begin() as txn:
                    self._v2.load(txn)
        except lmdb.NotFoundError:
            self._env.close()
            self._release_lock()
            raise StorageError(f"the event log at {self.path} is still being created") from None
        except lmdb.Error as exc:
            self._release_lock()
            raise StorageError(f"cannot open event log {self.path}: {exc}") from None
        except Exception:
            self._release_lock()
            raise
        _OPEN_PATHS.add(key)

    # ------------------------------------------------------------------ open / close

    def _check_not_truncated(self, data: Path) -> None:
        # Pages past the end of a truncated file are a SIGBUS on first touch: compare the
        # file's size with the last page the meta pages name before reading any tree.
        used = (self._env.info()["last_pgno"] + 1) * self._env.stat()["psize"]
        size = data.stat().st_size if data.exists() else 0
        if size and used > size:
            self._env.close()
            raise StorageError(
                f"the event log {self.path} is damaged: data.mdb is {size} bytes but its pages "
                f"reach {used} bytes (truncated; restore it from a copy)"
            )

    def _check_format_and_map(self, configured: int) -> None:
        with self._env.begin(db=self._dbs["meta"]) as txn:
            fmt = txn.get(b"format")
            persisted = txn.get(b"map_size")
        if fmt is not None:
            self.format = int(fmt)
        if self.format not in READABLE_FORMATS:
            raise LogFormatError(
                f"log {self.path} has format version {self.format}; this Polygon reads versions "
                f"{' and '.join(map(str, READABLE_FORMATS))}"
            )
        # A smaller configured size would shrink the map to what is used: never go below
        # the size we persisted last time.
        want = max(configured, int(persisted) if persisted else 0, self._env.info()["map_size"])
        if want > self._env.info()["map_size"]:
            self._env.set_mapsize(want)
        if not self.readonly and (fmt is None or persisted is None or int(persisted) < want):
            self._put_meta(want)

    def _put_meta(self, map_size: int) -> None:
        with self._env.begin(write=True, db=self._dbs["meta"]) as txn:
            txn.put(b"format", str(self.format).encode())
            txn.put(b"map_size", str(map_size).encode())

    def close(self) -> None:
        """Close the environment and release the writer lock."""
        if os.getpid() != self._pid:
            return  # a forked child must not touch the parent's environment
        if str(self.path) in _OPEN_PATHS:
            self._env.close()
            _OPEN_PATHS.discard(str(self.path))
        self._release_lock()

    def _release_lock(self) -> None:
        if self._lock_fd is not None:
            os.close(self._lock_fd)
            self._lock_fd = None

    def __enter__(self) -> LmdbLog:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _guard(self) -> None:
        if os.getpid() != self._pid:
            raise ForkedUseError(
                f"log {self.path} was opened in process {self._pid}; open it again in "
                f"process {os.getpid()} instead of using it across fork()"
            )
        if str(self.path) not in _OPEN_PATHS:
            raise StorageError(f"log {self.path} is closed")

    # ------------------------------------------------------------------ writing

    def append(self, batch: Sequence[Pending]) -> AppendResult:
        """Append ``batch`` in one durable write transaction, growing the map as needed."""
        self._guard()
        if self.readonly:
            raise StorageError(f"log {self.path} is open read-only")
        return self.append_prepared(prepare(batch))

    def append_prepared(self, prepared: Sequence[Prepared]) -> AppendResult:
        """Append records already encoded (a copy's, byte for byte) in one transaction."""
        self._guard()
        if self.readonly:
            raise StorageError(f"log {self.path} is open read-only")
        if not prepared:
            return AppendResult((), 0)
        while True:
            try:
                with self._map.shared(), self._env.begin(write=True) as txn:
                    result, new = self._append_in(txn, prepared)
            except lmdb.MapFullError:
                self._abandon(grow=True)
            except lmdb.Error as exc:
                self._abandon()
                raise StorageError(f"append to {self.path} failed: {exc}") from None
            except BaseException:
                self._abandon()
                raise
            else:  # committed: only now may a reader be served what it wrote
                if self._kept is not None and new:  # as a read renders them
                    self._kept.wrote(new, encode_record if self._v2 is None else rendered)
                return result

    def _abandon(self, *, grow: bool = False) -> None:
        """After an aborted write: forget what it interned or trained, and grow the map if asked.

        Both with no transaction open: a reader on another thread may be using the old map,
        or the name and dictionary caches being cleared.
        """
        with self._map.alone():
            if self._v2 is not None:
                self._v2.forget()
            if grow:
                self._grow()

    def _append_in(
        self, txn: Any, prepared: Sequence[Prepared]
    ) -> tuple[AppendResult, list[tuple[Prepared, int, int]]]:
        """One batch: look identities up in one call, then write each index in one call.

        Returns what the append did and what it wrote: each new event with its seq and version.
        """
        known = {
            key: split_identity_value(value)
            for key, value in txn.cursor(db=self._dbs["identities"]).getmulti(
                sorted({p.key for p in prepared})
            )
        }
        if self._v2 is not None and known:  # format 2 keeps the content hash in the record only
            v2 = self._v2
            known = {key: (hit[0], v2.content_hash_at(txn, hit[0])) for key, hit in known.items() if hit}
        seq = self._last_seq_in(txn)
        seqs: list[int] = []
        heads: dict[str, int] = {}
        stored: dict[str, bytes | None] = {}  # each stream's head as read, for the put below
        new: list[tuple[Prepared, int, int]] = []
        known_get, heads_get, heads_db, add = known.get, heads.get, self._dbs["heads"], new.append
        for p in prepared:
            hit = known_get(p.key)
            if hit is not None:
                if hit[1] != p.content_hash:
                    raise conflict(p)
                seqs.append(hit[0])
                continue
            seq += 1
            version = heads_get(p.stream)
            if version is None:
                head = stored[p.stream] = txn.get(p.stream.encode(), db=heads_db)
                version = unpack_u64(head[:8]) if head else 0
            version += 1
            heads[p.stream] = version
            add((p, seq, version))
            known[p.key] = (seq, p.content_hash)
            seqs.append(seq)
        if new:
            self._put_all(txn, new, heads, stored)
        return AppendResult(tuple(seqs), len(new)), new

    @contextmanager
    def keeping(self, budget: int) -> Iterator[KeptRecords]:
        """While this holds, streams this handle creates are kept for their first reader.

        ``budget`` bounds the bytes held (:mod:`polygon.events.kept`); whatever is still kept
        when it ends is let go.
        """
        outer, self._kept = self._kept, KeptRecords(budget)
        try:
            yield self._kept
        finally:
            self._kept = outer

    def _put_all(
        self,
        txn: Any,
        new: list[tuple[Prepared, int, int]],
        heads: dict[str, int],
        stored: dict[str, bytes | None],
    ) -> None:
        """Write a batch; ``stored`` holds each stream's head as :meth:`_append_in` read it."""
        v2 = self._v2
        records = v2.put(txn, new, heads, stored) if v2 is not None else self._put_v1(txn, new, heads)
        _, added = txn.cursor(db=self._dbs["events"]).putmulti(records, append=True)
        if added != len(records):
            raise StorageError(f"{self.path}: sequence numbers out of order; nothing written")
        # A record's key is its packed seq: reused for the identity index, not packed again.
        if v2 is None:
            entries = [(p.key, key + p.hash_bytes) for (key, _), (p, _, _) in zip(records, new, strict=True)]
        else:
            entries = [(p.key, key) for (key, _), (p, _, _) in zip(records, new, strict=True)]
        txn.cursor(db=self._dbs["identities"]).putmulti(entries)

    def _put_v1(
        self, txn: Any, new: list[tuple[Prepared, int, int]], heads: dict[str, int]
    ) -> list[tuple[bytes, bytes]]:
        """Format 1's stream index and heads; returns its records."""
        records = [(pack_u64(seq), encode_record(p, seq, version)) for p, seq, version in new]
        txn.cursor(db=self._dbs["streams"]).putmulti(
            [(p.stream_prefix + pack_u64(version), pack_u64(seq)) for p, seq, version in new]
        )
        txn.cursor(db=self._dbs["heads"]).putmulti(
            [(stream.encode(), pack_u64(v)) for stream, v in heads.items()]
        )
        return records

    def _last_seq_in(self, txn: Any) -> int:
        cursor = txn.cursor(db=self._dbs["events"])
        return unpack_u64(cursor.key()) if cursor.last() else 0

    def _grow(self) -> None:
        new_size = self._env.info()["map_size"] * 2
        self._env.set_mapsize(new_size)
        self._put_meta(new_size)

    @contextmanager
    def writers_held_off(self) -> Iterator[None]:
        """While this holds, no process writes to the log; refused if one is writing now.

        For work that must see the whole log and nothing added meanwhile (compaction): it
        takes the writer lock as a writer would, so a run that starts meanwhile is refused.
        """
        if self._lock_fd is not None:  # this handle is the writer
            yield
            return
        try:
            fd = _open_lock(self.path / "writer.lock")
        except OSError:  # cannot even create the lock file: nobody can write here
            yield
            return
        try:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                raise WriterBusyError(
                    f"a process is writing to the log at {self.path}; wait until it ends, then run this again"
                ) from None
            yield
        finally:
            os.close(fd)

    # ------------------------------------------------------------------ reading

    def _read(self, fn: Callable[[Any], T]) -> T:
        """Run ``fn`` in one short read transaction, following a map grown by the writer."""
        self._guard()
        for _ in range(3):
            try:
                with self._map.shared(), self._env.begin() as txn:
                    return fn(txn)
            except lmdb.MapResizedError:
                with self._map.alone():
                    self._env.set_mapsize(0)
            except lmdb.Error as exc:
                raise read_failed(self.path, exc) from None
        raise StorageError(f"read from {self.path} failed: the map kept being resized")

    def last_seq(self) -> int:
        """Highest sequence number, 0 if empty."""
        return self._read(self._last_seq_in)

    def stream_length(self, stream: str) -> int:
        """Events in ``stream``."""
        head = self._read(lambda txn: txn.get(stream.encode(), db=self._dbs["heads"]))
        return unpack_u64(head[:8]) if head else 0

    def read_stream(self, stream: str, *, after_version: int = 0, page_size: int = 512) -> Iterator[Envelope]:
        """One stream's events by prefix scan of the stream index, a page per transaction.

        A stream this handle kept (:meth:`keeping`) is served from memory on its first read.
        """
        decode, fast_page = DECODER.decode, DECODER.fast_page
        kept = self._kept.take(stream) if self._kept is not None else None
        if kept is not None:
            self._guard()
            page = kept[after_version:]
            envs = fast_page(page) if page else []
            yield from (decode(raw) for raw in page) if envs is None else envs
            return
        version = after_version
        while True:
            page = self._read(partial(self._stream_page, stream=stream, start=version + 1, limit=page_size))
            envs = fast_page(page) if page else []
            if envs is None:  # an old, unknown or damaged record: one by one, as before
                for raw in page:
                    yield decode(raw)
            else:
                yield from envs
            if len(page) < page_size:
                return
            version += len(page)

    def stream_records(self, stream: str, *, page_size: int = 512) -> list[bytes]:
        """One stream's events as the records a read decodes (:meth:`decode_records`), not decoded.

        What another process decodes (a run's scoring process): the records carry everything
        an envelope holds.
        """
        records: list[bytes] = []
        while True:
            page = self._read(
                partial(self._stream_page, stream=stream, start=len(records) + 1, limit=page_size)
            )
            records.extend(page)
            if len(page) < page_size:
                return records

    @staticmethod
    def decode_records(records: list[bytes]) -> list[Envelope]:
        """The envelopes of :meth:`stream_records`, as :meth:`read_stream` decodes them."""
        envs = DECODER.fast_page(records) if records else []
        return [DECODER.decode(raw) for raw in records] if envs is None else list(envs)

    def changed_record(self, streams: Iterable[str], *, page_size: int = 512) -> str:
        """Why a record of ``streams`` is damaged, naming its stream ("" when every one is intact).

        Damaged: its payload no longer matches its content hash, or its envelope does not decode.

        Hashing only the streams named keeps it cheap: a resume checks its own run's streams
        before it writes onto them, without the whole log's ``verify``.
        """
        from polygon.events.verify import hash_problem

        for stream in streams:
            version = 0
            while True:
                read = partial(self._stream_page, stream=stream, start=version + 1, limit=page_size)
                page = self._read(read)
                for raw in page:
                    try:
                        problem = hash_problem(raw)
                    except DecodeError as exc:
                        problem = str(exc)
                    if problem:
                        return f"{stream}: {problem}"
                if len(page) < page_size:
                    break
                version += len(page)
        return ""

    def _stream_page(self, txn: Any, stream: str, start: int, limit: int) -> list[bytes]:
        if self._v2 is None:
            prefix = stream.encode() + b"\x00"
            first = prefix + pack_u64(start)
        else:  # format 2's index is keyed by the stream's id, looked up in the same transaction
            stream_id = self._v2.stream_id(txn, stream)
            if stream_id is None:
                return []
            prefix = stream_id.to_bytes(4, "big")
            first = prefix + start.to_bytes(4, "big")
        cursor = txn.cursor(db=self._dbs["streams"])
        seq_keys: list[bytes] = []
        if cursor.set_range(first):
            for key, value in cursor:
                if not key.startswith(prefix) or len(seq_keys) >= limit:
                    break
                seq_keys.append(value)
        found = dict(txn.cursor(db=self._dbs["events"]).getmulti(seq_keys))
        missing = [unpack_u64(k) for k in seq_keys if k not in found]
        if missing:
            raise StorageError(f"{self.path}: stream index points at missing event #{missing[0]}")
        if self._v2 is None:
            return [found[k] for k in seq_keys]
        return self._v2.render_run(txn, [(k, found[k]) for k in seq_keys])

    def read_all(
        self, *, after_seq: int = 0, tags: Collection[str] | None = None, page_size: int = 4096
    ) -> Iterator[Envelope]:
        """All events in sequence order, optionally only those with one of ``tags``."""
        wanted = None if tags is None else frozenset(tags)
        decode_page = DECODER.decode_page
        for page in self.raw_pages(after_seq=after_seq, page_size=page_size):
            if wanted is None:
                yield from decode_page(page)
            else:
                yield from (env for env in decode_page(page) if env.tag in wanted)

    def raw_pages(self, *, after_seq: int = 0, page_size: int = 1000) -> Iterator[list[bytes]]:
        """Stored records in sequence order, a page (one short transaction) at a time."""
        seq = after_seq
        while True:
            page = self._read(partial(self._events_page, start=seq + 1, limit=page_size))
            if page:
                yield page
            if len(page) < page_size:
                return
            seq += len(page)

    def _events_page(self, txn: Any, start: int, limit: int) -> list[bytes]:
        cursor = txn.cursor(db=self._dbs["events"])
        if not cursor.set_range(pack_u64(start)):
            return []
        if self._v2 is None:
            return list(islice(cursor.iternext(keys=False, values=True), limit))
        rows = islice(cursor.iternext(keys=True, values=True), limit)
        return self._v2.render_run(txn, rows)

    def streams(self, prefix: str = "") -> Iterator[str]:
        """Stream names starting with ``prefix``, sorted."""
        start = prefix.encode()
        while True:
            page = self._read(partial(self._heads_page, start=start, limit=1000))
            names = [k.decode() for k in page if k.startswith(prefix.encode())]
            yield from names
            if len(page) < 1000 or len(names) < len(page):
                return
            start = page[-1] + b"\x00"

    def _heads_page(self, txn: Any, start: bytes, limit: int) -> list[bytes]:
        cursor = txn.cursor(db=self._dbs["heads"])
        if not cursor.set_range(start):
            return []
        out: list[bytes] = []
        for key in cursor.iternext(keys=True, values=False):
            out.append(bytes(key))
            if len(out) >= limit:
                break
        return out

    # ------------------------------------------------------------------ maintenance

    def stats(self) -> LogStats:
        """Counts by tag, streams, map and disk sizes, and where the bytes go."""
        tags: Counter[str] = Counter()
        parts: Counter[str] = Counter()
        for page in self.raw_pages():
            for raw in page:
                header = decode_header(raw)
                tags[header.tag] += 1
                if self._v2 is None:
                    _count_parts(parts, raw, header)
        if self._v2 is not None:
            parts = self._read(self._v2.stored_parts)
        heads = self._read(lambda txn: txn.stat(self._dbs["heads"])["entries"])
        data = self.path / "data.mdb"
        return LogStats(
            events=sum(tags.values()),
            streams=int(heads),
            last_seq=self.last_seq(),
            by_tag=dict(sorted(tags.items())),
            map_size=int(self._env.info()["map_size"]),
            bytes_used=data.stat().st_size if data.exists() else 0,
            trees=self._read(self._tree_bytes),
            record_parts=dict(parts),
        )

    def _tree_bytes(self, txn: Any) -> dict[str, int]:
        out = {}
        for name, db in self._dbs.items():
            st = txn.stat(db)
            out[name] = (st["branch_pages"] + st["leaf_pages"] + st["overflow_pages"]) * st["psize"]
        return out

    def verify(self) -> VerifyReport:
        """fsck: gapless sequence, every record decodes, every index agrees with the events."""
        from polygon.events.verify import verify_lmdb

        return verify_lmdb(self)

    @contextmanager
    def snapshot(self) -> Iterator[Callable[[str], Iterator[tuple[bytes, bytes]]]]:
        """Every sub-database as one consistent state (one read transaction), for ``verify``.

        A writer may go on meanwhile: what it commits is simply not in this snapshot, so a
        check never sees half of a batch.
        """
        with self._map.shared(), self._env.begin() as txn:

            def rows(name: str) -> Iterator[tuple[bytes, bytes]]:
                for key, value in txn.cursor(db=self._dbs[name]):
                    yield bytes(key), bytes(value)

            read: Callable[[str], Iterator[tuple[bytes, bytes]]] = (
                rows if self._v2 is None else partial(format1_rows, self._v2, txn, rows)
            )
            yield partial(_named, self.path, read)

    def pages_problem(self) -> str:
        """Why LMDB cannot read every page of this log ("" when it can), found in a child process.

        A damaged page can make LMDB abort the process that reads it; see :mod:`polygon.events.pages`.
        """
        return walk_pages(self.path, lock=not (self.readonly and _unwritable(self.path)))


def _named(path: Path, read: Callable[[str], Iterator[T]], name: str) -> Iterator[T]:
    """``read(name)``'s rows, an LMDB error among them named as damage to the log at ``path``."""
    try:
        yield from read(name)
    except lmdb.Error as exc:
        raise read_failed(path, exc) from None


# What LMDB raises for a page that is not what its tree says (damage on disk, not our misuse).
_DAMAGE = (lmdb.CorruptedError, lmdb.PageNotFoundError, lmdb.InvalidError, lmdb.PanicError)


def read_failed(path: Path, exc: Exception) -> StorageError:
    """One line for an LMDB error met while reading the log at ``path``."""
    if isinstance(exc, _DAMAGE):
        return StorageError(f"the event log {path} is damaged: {exc}; {RESTORE}")
    return StorageError(f"read from {path} failed: {exc}")


_ENVELOPE_FIELDS = ("seq", "stream", "stream_version", "identity", "tag", "schema_version", "recorded_at")


def _count_parts(parts: Counter[str], raw: bytes, header: Any) -> None:
    """Add one record's bytes by part (msgpack sizes of each envelope field, the payload)."""
    payload = len(bytes(header.payload))
    parts["payload"] += payload
    sized = 0
    for name in _ENVELOPE_FIELDS:
        size = len(_SIZER.encode(getattr(header, name)))
        parts[name] += size
        sized += size
    parts["content_hash"] += len(raw) - payload - sized  # and the array header's byte or three


_SIZER = msgspec.msgpack.Encoder()


def _unwritable(path: Path) -> bool:
    lock = path / "lock.mdb"
    return not os.access(path, os.W_OK) or (lock.exists() and not os.access(lock, os.W_OK))


_OURS = frozenset({"data.mdb", "lock.mdb", "writer.lock"})
_NOT_OURS = "; Polygon writes only into a new or empty folder or its own log (point --log elsewhere)"


def _check_ours(path: Path) -> None:
    """Refuse, before anything is written, a path that is not a Polygon log (or new, or empty).

    Another program's LMDB, a plain file, a device: each would be written into or fail with
    a traceback. A Polygon log is one whose ``meta`` database holds the format record.
    """
    if not path.exists():
        return
    if not path.is_dir():
        what = "a file" if path.is_file() else "not a folder (a device or a pipe)"
        raise StorageError(f"{path} is {what}, not an event log folder{_NOT_OURS}")
    try:
        names = {p.name for p in path.iterdir()}
    except OSError as exc:
        raise StorageError(f"cannot read the folder {path}: {exc.strerror or exc}") from None
    if "data.mdb" not in names:
        if names - _OURS:
            raise StorageError(f"{path} holds other files and no event log{_NOT_OURS}")
        return
    if not _holds_format(path):
        raise StorageError(
            f"{path} holds an LMDB database that is not a Polygon event log (no Polygon meta "
            f"record){_NOT_OURS}"
        )


_TREES = (b"events", b"streams", b"heads", b"identities", b"meta", b"names", b"times")


def holds_polygon_log(path: Path) -> bool:
    """``path`` is a folder holding a Polygon log (read without writing anything there)."""
    return path.is_dir() and (path / "data.mdb").exists() and _holds_format(path)


def _holds_format(path: Path) -> bool:
    """The LMDB at ``path`` is ours: its meta holds ``format``, or it is a creation cut short.

    Read without the lock file, so nothing is written into a foreign folder. A creation
    killed before its meta record has only our (empty) sub-databases.
    """
    try:
        refuse_special_files(path)
        env = lmdb.open(str(path), subdir=True, readonly=True, lock=False, max_dbs=8)
    except (lmdb.Error, StorageError):
        return True  # not readable as LMDB at all: the open that follows names what is wrong
    try:
        used = (env.info()["last_pgno"] + 1) * env.stat()["psize"]
        if used > (path / "data.mdb").stat().st_size:
            return True  # truncated: never touch its pages (SIGBUS); the open names the damage
        with env.begin() as txn:
            names = [bytes(k) for k in txn.cursor().iternext(keys=True, values=False)]
        if any(name not in _TREES for name in names):
            return False
        trees = {name: env.open_db(name, create=False) for name in names}
        with env.begin() as txn:
            if b"meta" in trees and txn.get(b"format", db=trees[b"meta"]) is not None:
                return True
            return all(txn.stat(db)["entries"] == 0 for db in trees.values())
    except lmdb.Error:
        return False
    finally:
        env.close()


def _open_lock(path: Path) -> int:
    try:
        return os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    except PermissionError:
        return os.open(path, os.O_RDONLY)  # flock needs no write access


def _acquire_writer_lock(path: Path) -> int:
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        raise WriterBusyError(
            f"another process is writing to the log at {path.parent}; Polygon allows one "
            "writer at a time (wait for it, or use --log to pick another log)"
        ) from None
    return fd
