"""The SnapshotStore contract: LMDB, memory, and null (snapshots switched off).

A keeping store gives back what was saved under (projection, subject, inputs), one snapshot
per key (saving again replaces it, a new projection version included: the version is inside
the record, and whether it still fits is the folder's decision, not the store's); a key never
saved is a miss; a damaged record is never returned: ``load`` misses and ``entries`` says why;
``drop`` forgets everything and counts it. LMDB keeps all of it across a close and a reopen.
The null store keeps nothing, and every method answers as an empty store does.
"""

from __future__ import annotations

import hashlib
import tracemalloc
from abc import ABC, abstractmethod
from collections.abc import Iterator
from pathlib import Path

import lmdb
import pytest

from polygon.events.errors import StorageError
from polygon.events.snapshots import (
    DIGEST_SIZE,
    LmdbSnapshots,
    MemorySnapshots,
    NullSnapshots,
    Snapshot,
    SnapshotStore,
    seal,
    snapshot_key,
)


def snap(
    subject: str = "run-1", *, projection: str = "run", inputs: str = "", version: str = "1", state: bytes = b"s"
) -> Snapshot:
    return Snapshot(
        projection=projection,
        version=version,
        subject=subject,
        inputs=inputs,
        position=7,
        anchor="ev-7",
        state=state,
    )


class SnapshotStoreContract(ABC):
    keeps = True
    """Whether the store keeps what it is given (the null store's whole point is that it does not)."""

    @abstractmethod
    def make(self, path: Path) -> SnapshotStore:
        """A fresh, empty store (``path``: a folder it may create and use)."""

    def reopen(self, store: SnapshotStore) -> SnapshotStore:
        """The store as a later process finds it (one held in memory is the same store)."""
        return store

    @abstractmethod
    def put_raw(self, store: SnapshotStore, key: str, raw: bytes) -> SnapshotStore:
        """Store ``raw`` under ``key`` as the implementation keeps bytes (damage from outside);
        returns the store to go on with."""

    @pytest.fixture
    def store(self, tmp_path: Path) -> Iterator[SnapshotStore]:
        self._opened = [self.make(tmp_path / "snapshots")]
        yield self._opened[0]
        self._opened[-1].close()

    def kept(self, snapshot: Snapshot) -> Snapshot | None:
        """What ``load`` gives back for a saved ``snapshot``."""
        return snapshot if self.keeps else None

    def listed(self, *snapshots: Snapshot) -> list[tuple[str, Snapshot | str]]:
        """What ``entries`` lists once ``snapshots`` are saved: by key, in key order."""
        return sorted((s.key, s) for s in snapshots) if self.keeps else []

    def again(self, store: SnapshotStore) -> SnapshotStore:
        self._opened.append(self.reopen(store))
        return self._opened[-1]

    def test_an_empty_store_misses_lists_nothing_and_drops_nothing(self, store: SnapshotStore) -> None:
        assert store.load("run", "run-1") is None
        assert list(store.entries()) == []
        assert store.drop() == 0

    def test_a_saved_snapshot_loads_back_equal(self, store: SnapshotStore) -> None:
        odd = snap(state=bytes(range(256)) * 40)  # any bytes, of any length
        store.save(odd)
        assert store.load("run", "run-1") == self.kept(odd)
        assert store.load("run", "run-1", "") == self.kept(odd)
        assert list(store.entries()) == self.listed(odd)

    def test_projection_subject_and_inputs_each_tell_snapshots_apart(self, store: SnapshotStore) -> None:
        saved = [
            snap("run-1", state=b"a"),
            snap("run-1", inputs="rubric v2", state=b"b"),
            snap("run-2", state=b"c"),
            snap("run-1", projection="verdicts", state=b"d"),
            snap("прогон", inputs="ž", state=b"e"),  # keys are text, not ASCII only
        ]
        for s in saved:
            store.save(s)
        for s in saved:
            assert store.load(s.projection, s.subject, s.inputs) == self.kept(s)
        assert list(store.entries()) == self.listed(*saved)

    def test_a_key_never_saved_is_a_miss(self, store: SnapshotStore) -> None:
        store.save(snap("run-1", inputs="rubric v2"))
        assert store.load("run", "run-1") is None  # no inputs is another key
        assert store.load("run", "run-1", "rubric v1") is None
        assert store.load("run", "run-2", "rubric v2") is None
        assert store.load("verdicts", "run-1", "rubric v2") is None
        assert store.load("run", "run-", "1\x00rubric v2") is None  # the parts are not glued loosely

    def test_saving_again_replaces_the_snapshot_under_its_key(self, store: SnapshotStore) -> None:
        store.save(snap(state=b"old"))
        newer = snap(version="2", state=b"new")  # a new projection version replaces the old one
        store.save(newer)
        assert store.load("run", "run-1") == self.kept(newer)
        assert list(store.entries()) == self.listed(newer)

    def test_a_record_whose_bytes_do_not_match_their_hash_is_never_returned(self, store: SnapshotStore) -> None:
        good, bad = snap("run-1"), snap("run-2", state=b"trusted")
        store.save(good)
        raw = bytearray(seal(bad))
        raw[-1] ^= 0xFF  # one flipped bit of the state
        store = self.put_raw(store, bad.key, bytes(raw))
        assert store.load("run", "run-2") is None
        assert store.load("run", "run-1") == self.kept(good)  # its neighbour is unharmed
        listed = dict(store.entries())
        if self.keeps:
            assert listed == {good.key: good, bad.key: "its bytes do not match their hash"}
        else:
            assert listed == {}

    def test_a_record_that_does_not_decode_is_reported_not_returned(self, store: SnapshotStore) -> None:
        body = b"not msgpack of a snapshot"
        store = self.put_raw(store, snap().key, _hash_of(body) + body)  # the hash matches, the body is no snapshot
        assert store.load("run", "run-1") is None
        reasons = [why for _, why in store.entries()]
        if self.keeps:
            assert len(reasons) == 1 and str(reasons[0]).startswith("it does not decode (")
        else:
            assert reasons == []
        whole = seal(snap())
        store = self.put_raw(store, snap().key, whole[: len(whole) // 2])  # cut short
        assert store.load("run", "run-1") is None
        assert [why for _, why in store.entries()] == (["its bytes do not match their hash"] if self.keeps else [])

    def test_saving_over_a_damaged_record_heals_it(self, store: SnapshotStore) -> None:
        store = self.put_raw(store, snap().key, b"\x00" * 40)
        fresh = snap(state=b"fresh")
        store.save(fresh)
        assert store.load("run", "run-1") == self.kept(fresh)
        assert list(store.entries()) == self.listed(fresh)

    def test_drop_forgets_every_snapshot_damaged_ones_too_and_counts_them(self, store: SnapshotStore) -> None:
        for subject in ("run-1", "run-2", "run-3"):
            store.save(snap(subject))
        store = self.put_raw(store, snap("run-4").key, b"junk")
        assert store.drop() == (4 if self.keeps else 0)
        assert store.load("run", "run-1") is None
        assert list(store.entries()) == []
        assert store.drop() == 0
        store.save(snap("run-5"))  # the store is usable after a drop
        assert store.load("run", "run-5") == self.kept(snap("run-5"))

    def test_a_reopened_store_sees_what_was_saved_and_dropped(self, store: SnapshotStore) -> None:
        first, second = snap("run-1", state=b"1"), snap("run-2", inputs="x", state=b"2")
        store.save(first)
        store.save(second)
        store = self.again(store)
        assert store.load("run", "run-1") == self.kept(first)
        assert list(store.entries()) == self.listed(first, second)
        store.drop()
        store = self.again(store)
        assert list(store.entries()) == []

    def test_entries_hold_one_snapshot_at_a_time(self, store: SnapshotStore) -> None:
        size = 4 << 20
        for subject in ("run-1", "run-2", "run-3", "run-4"):
            store.save(snap(subject, state=subject.encode() * (size // 5)))
        tracemalloc.start()
        try:
            for _key, found in store.entries():  # a check looks at each, then the next
                assert not isinstance(found, str)
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        assert peak < 2.5 * size  # the one listed and the one before it (all four: 16 MB and more)


def _hash_of(body: bytes) -> bytes:
    return hashlib.blake2b(body, digest_size=DIGEST_SIZE).digest()


class TestMemorySnapshots(SnapshotStoreContract):
    def make(self, path: Path) -> SnapshotStore:
        return MemorySnapshots()

    def put_raw(self, store: SnapshotStore, key: str, raw: bytes) -> SnapshotStore:
        assert isinstance(store, MemorySnapshots)
        store.raw[key] = raw
        return store

    def test_records_are_sealed_as_lmdb_seals_them(self) -> None:
        store = MemorySnapshots()
        store.save(snap())
        assert store.raw == {snapshot_key("run", "run-1"): seal(snap())}


class TestLmdbSnapshots(SnapshotStoreContract):
    def make(self, path: Path) -> SnapshotStore:
        return LmdbSnapshots(path)

    def reopen(self, store: SnapshotStore) -> SnapshotStore:
        assert isinstance(store, LmdbSnapshots)
        store.close()
        return LmdbSnapshots(store.path)

    def put_raw(self, store: SnapshotStore, key: str, raw: bytes) -> SnapshotStore:
        """Written by a plain LMDB handle while the store is closed (one process, one handle)."""
        assert isinstance(store, LmdbSnapshots)
        store.close()
        env = lmdb.open(str(store.path), subdir=True, map_size=1 << 30)
        with env.begin(write=True) as txn:
            txn.put(key.encode(), raw)
        env.close()
        self._opened.append(LmdbSnapshots(store.path))
        return self._opened[-1]

    def test_a_folder_that_cannot_be_made_is_a_storage_error(self, tmp_path: Path) -> None:
        blocker = tmp_path / "snapshots"
        blocker.write_text("a file where the folder should be")
        with pytest.raises(StorageError, match="cannot open the snapshots"):
            LmdbSnapshots(blocker)


class TestNullSnapshots(SnapshotStoreContract):
    """Snapshots switched off: the contract holds with nothing kept, whatever is saved."""

    keeps = False

    def make(self, path: Path) -> SnapshotStore:
        return NullSnapshots()

    def put_raw(self, store: SnapshotStore, key: str, raw: bytes) -> SnapshotStore:
        return store  # it has no bytes to damage

    def test_it_writes_nothing_anywhere(self, tmp_path: Path) -> None:
        store = self.make(tmp_path / "snapshots")
        store.save(snap())
        assert store.load("run", "run-1") is None
        assert not (tmp_path / "snapshots").exists()
