"""Snapshots: a projection's state saved with the log position it was folded to.

A snapshot is a cache of a fold, never a source of truth: the log alone rebuilds every
view. So the store only keeps bytes safe from silent damage (each record carries a hash of
itself, and a record whose hash does not match is reported as damaged, never returned);
what the bytes mean, and whether they still fit the log (the projection's version, the
event at the position), is decided by whoever folds (``polygon.app.snapshots``).

Snapshots live beside the log, in ``<log>/snapshots/`` (an LMDB environment of their own),
and name positions through the public log API only, so they do not depend on how the log
lays out its records. Three stores share the :class:`SnapshotStore` port: LMDB, memory
(tests) and null (snapshots switched off, or a log that cannot hold them).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Protocol

import msgspec

from polygon.events.errors import StorageError
from polygon.events.pages import refuse_special_files

DIGEST_SIZE = 16
SNAPSHOT_DIR = "snapshots"
_MAP_SIZE = 1 << 33
"""8 GiB of address space (the file grows only as snapshots are written)."""


class Snapshot(msgspec.Struct, frozen=True, kw_only=True):
    """One projection's state for one subject (a run), under one set of inputs."""

    projection: str
    """The projection's name (e.g. ``run``)."""
    version: str
    """The projection's version when it was saved: another version is never trusted."""
    subject: str
    """What was folded (a run id)."""
    inputs: str = ""
    """What else the state depends on (a rubric, a judge pass), "" for none."""
    position: int
    """The log's last sequence number when the state was folded (events after it are not in it)."""
    anchor: str
    """The identity of the event at ``position``: a snapshot of another log never matches."""
    state: bytes
    """The state, encoded by the projection's owner."""

    @property
    def key(self) -> str:
        """Where it is stored: one snapshot per projection, subject and inputs."""
        return snapshot_key(self.projection, self.subject, self.inputs)


def snapshot_key(projection: str, subject: str, inputs: str = "") -> str:
    """The store key of a snapshot (its version is inside: a new version replaces the old)."""
    return f"{projection}\x00{subject}\x00{inputs}"


_ENCODER = msgspec.msgpack.Encoder()
_DECODER = msgspec.msgpack.Decoder(Snapshot)


def seal(snapshot: Snapshot) -> bytes:
    """The stored form: a hash of the record, then the record."""
    body = _ENCODER.encode(snapshot)
    return hashlib.blake2b(body, digest_size=DIGEST_SIZE).digest() + body


def unseal(raw: bytes | memoryview) -> Snapshot | str:
    """The snapshot, or why it is damaged (its hash does not match, or it does not decode).

    ``raw`` may be a view of the store's pages: the record is hashed and decoded in place
    (a run's snapshot is tens of MB at 20k calls; each copy of it cost ~10 ms).
    """
    view = memoryview(raw)
    sealed, body = view[:DIGEST_SIZE], view[DIGEST_SIZE:]
    if hashlib.blake2b(body, digest_size=DIGEST_SIZE).digest() != bytes(sealed):
        return "its bytes do not match their hash"
    try:
        return _DECODER.decode(body)
    except (msgspec.DecodeError, msgspec.ValidationError) as exc:
        return f"it does not decode ({exc})"


class SnapshotStore(Protocol):
    """Where snapshots are kept; every method is safe to call on a store that holds none."""

    def load(self, projection: str, subject: str, inputs: str = "") -> Snapshot | None:
        """The snapshot under this key, or None (absent or damaged: both mean fold afresh)."""
        ...

    def save(self, snapshot: Snapshot) -> None:
        """Keep ``snapshot``, replacing the one under its key."""
        ...

    def entries(self) -> Iterator[tuple[str, Snapshot | str]]:
        """Every stored key with its snapshot, or why it is damaged (for ``log verify``)."""
        ...

    def drop(self) -> int:
        """Forget every snapshot; how many there were."""
        ...

    def close(self) -> None:
        """Release the store."""
        ...


class NullSnapshots:
    """No snapshots: every view folds the log (``POLYGON_SNAPSHOTS=0``, or no place to keep them)."""

    def load(self, projection: str, subject: str, inputs: str = "") -> Snapshot | None:
        """See :meth:`SnapshotStore.load`."""
        return None

    def save(self, snapshot: Snapshot) -> None:
        """See :meth:`SnapshotStore.save`."""
        return None

    def entries(self) -> Iterator[tuple[str, Snapshot | str]]:
        """See :meth:`SnapshotStore.entries`."""
        return iter(())

    def drop(self) -> int:
        """See :meth:`SnapshotStore.drop`."""
        return 0

    def close(self) -> None:
        """See :meth:`SnapshotStore.close`."""
        return None


class MemorySnapshots:
    """Snapshots in a dict, sealed as the LMDB store seals them (tests damage them in place)."""

    def __init__(self) -> None:
        self.raw: dict[str, bytes] = {}

    def load(self, projection: str, subject: str, inputs: str = "") -> Snapshot | None:
        """See :meth:`SnapshotStore.load`."""
        raw = self.raw.get(snapshot_key(projection, subject, inputs))
        found = unseal(raw) if raw is not None else None
        return found if isinstance(found, Snapshot) else None

    def save(self, snapshot: Snapshot) -> None:
        """See :meth:`SnapshotStore.save`."""
        self.raw[snapshot.key] = seal(snapshot)

    def entries(self) -> Iterator[tuple[str, Snapshot | str]]:
        """See :meth:`SnapshotStore.entries`."""
        for key, raw in sorted(self.raw.items()):
            yield key, unseal(raw)

    def drop(self) -> int:
        """See :meth:`SnapshotStore.drop`."""
        count = len(self.raw)
        self.raw.clear()
        return count

    def close(self) -> None:
        """See :meth:`SnapshotStore.close`."""
        return None


class LmdbSnapshots:
    """Snapshots in their own LMDB environment at ``path`` (``<log>/snapshots``)."""

    def __init__(self, path: Path, *, readonly: bool = False) -> None:
        """Opened to read and save; ``readonly``: to read a folder that cannot be written.

        Read-only opens take no reader slot in ``lock.mdb`` (LMDB would have to write it):
        for a check of a log on a read-only disk, where nothing writes meanwhile.
        """
        import lmdb

        self.path = path
        refuse_special_files(path, "the snapshots")  # a FIFO's open() would block for good
        try:
            if not readonly:
                path.mkdir(parents=True, exist_ok=True)
            self._env: Any = lmdb.open(
                str(path),
                subdir=True,
                map_size=_MAP_SIZE,
                max_dbs=1,
                sync=True,
                readonly=readonly,
                lock=not readonly,
            )
        except (OSError, lmdb.Error) as exc:
            raise StorageError(f"cannot open the snapshots at {path}: {exc}") from None
        self._check_not_truncated()

    def _check_not_truncated(self) -> None:
        # LMDB maps pages past the end of a short file (a full disk, a copy cut short): the
        # first read of one is a SIGBUS. The meta pages (read at open) name the last page.
        used = (self._env.info()["last_pgno"] + 1) * self._env.stat()["psize"]
        try:
            size = (self.path / "data.mdb").stat().st_size
        except OSError:
            size = 0
        if used > size:
            self._env.close()
            raise StorageError(
                f"the snapshots at {self.path} are damaged: data.mdb is {size} bytes but its "
                f"pages reach {used} bytes (truncated)"
            )

    def load(self, projection: str, subject: str, inputs: str = "") -> Snapshot | None:
        """See :meth:`SnapshotStore.load`."""
        with self._env.begin(buffers=True) as txn:  # decoded before the pages can move
            raw = txn.get(snapshot_key(projection, subject, inputs).encode())
            found = unseal(raw) if raw is not None else None
        return found if isinstance(found, Snapshot) else None

    def save(self, snapshot: Snapshot) -> None:
        """See :meth:`SnapshotStore.save`."""
        import lmdb

        try:
            with self._env.begin(write=True) as txn:
                txn.put(snapshot.key.encode(), seal(snapshot))
        except lmdb.Error as exc:  # full disk, map full: a view still works without its snapshot
            raise StorageError(f"cannot save a snapshot in {self.path}: {exc}") from None

    def entries(self) -> Iterator[tuple[str, Snapshot | str]]:
        """See :meth:`SnapshotStore.entries`."""
        with self._env.begin() as txn:
            keys = list(txn.cursor().iternext(keys=True, values=False))
        for key in keys:  # one at a time: a 20k-call run's snapshots are ~100 MB together
            with self._env.begin(buffers=True) as txn:  # decoded before the pages can move
                raw = txn.get(key)
                found = unseal(raw) if raw is not None else None
            if found is not None:  # dropped meanwhile: nothing to check
                yield bytes(key).decode(), found

    def drop(self) -> int:
        """See :meth:`SnapshotStore.drop`."""
        with self._env.begin(write=True) as txn:
            keys = list(txn.cursor().iternext(keys=True, values=False))
            for key in keys:
                txn.delete(key)
        return len(keys)

    def close(self) -> None:
        """See :meth:`SnapshotStore.close`."""
        self._env.close()
