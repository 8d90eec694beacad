"""Log format 2 written and read by hand: the baselines of ``make bench``'s log figures.

``docs/log-format.md`` lays the format out; this module does the same work with nothing of
ours but the event types (py-lmdb, msgspec, hashlib and zstandard, each called directly),
so that "ours ÷ raw" measures what our log code costs on top of storing the same bytes.
It writes the same six trees (records with a 45-byte binary header, stream index keyed by
interned stream id, heads, identity index, interned names, sparse times) and compresses
payloads with a zstd dictionary trained per tag on the first :data:`TRAIN_AT` payloads,
exactly as the log does: ``tests/bench/test_raw_log.py`` checks that a log written here
holds the same bytes as ours and that ``LmdbLog`` reads it back (so this cannot rot while
the format moves on).

What it may skip, being the only writer of a fresh log with one event type: our log looks
stream heads and tags up in the transaction (another handle may have written since), checks
identity conflicts by content hash and validates stream names; a hand writer keeps stream
ids and versions in memory and trusts its input.
"""

from __future__ import annotations

import hashlib
import struct
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import lmdb
import msgspec
import zstandard

from polygon.events import Pending
from polygon.events.families import TurnSpoken

TAG, SCHEMA_VERSION, TAG_ID = "conversation.turn_spoken", 1, 1
"""The one event type written here, and the id the first tag a log meets is given."""
TRAIN_AT, DICT_BYTES, LEVEL = 512, 4096, 3
TRAIN_K, TRAIN_D, TRAIN_F = 1024, 8, 16
HEADER = struct.Struct(">IIHHB16s16s")
"""stream id, stream version, tag id, schema version, codec, identity, content hash."""
STREAM_KEY = struct.Struct(">II")
HEAD = struct.Struct(">QI")
U64 = struct.Struct(">Q")
TREES = ("events", "streams", "heads", "identities", "names", "times")
MAP_SIZE = 1 << 32


class RawEnvelope(msgspec.Struct, array_like=True):
    """What a scan by hand yields for each record: the envelope, its payload decoded."""

    seq: int
    stream: str
    stream_version: int
    identity: str
    tag: str
    schema_version: int
    recorded_at: str
    content_hash: str
    payload: TurnSpoken


def _open(path: Path, *, readonly: bool) -> tuple[Any, dict[str, Any]]:
    env = lmdb.open(str(path), map_size=MAP_SIZE, max_dbs=8, readonly=readonly, lock=not readonly)
    dbs = {name: env.open_db(name.encode(), create=not readonly) for name in ("meta", *TREES)}
    return env, dbs


class HandWriter:
    """Appends batches of :data:`TAG` events to a fresh format-2 log, one transaction each."""

    def __init__(self, path: Path) -> None:
        self.env, self.dbs = _open(path, readonly=False)
        with self.env.begin(write=True, db=self.dbs["meta"]) as txn:
            txn.put(b"format", b"2")
            txn.put(b"map_size", str(MAP_SIZE).encode())
            txn.put(b"t" + TAG_ID.to_bytes(2, "big"), TAG.encode(), db=self.dbs["names"])
        self.seq = 0
        self.last_time = b""
        self.streams: dict[str, tuple[int, int]] = {}  # name → (id, last version)
        self.encode = msgspec.msgpack.Encoder(order="deterministic").encode
        self.samples: list[bytes] = []
        self.compress: Callable[[bytes], bytes] | None = None

    def close(self) -> None:
        self.env.close()

    def append(self, batch: Sequence[Pending]) -> None:
        """One durable transaction: identities looked up in one call, each tree in one call."""
        with self.env.begin(write=True) as txn:
            keys = [bytes.fromhex(p.identity) for p in batch]
            known = {k for k, _ in txn.cursor(db=self.dbs["identities"]).getmulti(sorted(set(keys)))}
            rows: dict[str, list[tuple[bytes, bytes]]] = {name: [] for name in TREES}
            heads: dict[str, bytes] = {}
            for p, key in zip(batch, keys, strict=True):
                if key not in known:  # a known identity is a retry: already stored
                    known.add(key)
                    self._row(txn, p, key, rows, heads)
            rows["heads"] = [(name.encode(), head) for name, head in heads.items()]
            txn.cursor(db=self.dbs["events"]).putmulti(rows["events"], append=True)
            txn.cursor(db=self.dbs["times"]).putmulti(rows["times"], append=True)
            for name in ("streams", "heads", "identities", "names"):
                txn.cursor(db=self.dbs[name]).putmulti(rows[name])

    def _row(
        self,
        txn: Any,
        p: Pending,
        key: bytes,
        rows: dict[str, list[tuple[bytes, bytes]]],
        heads: dict[str, bytes],
    ) -> None:
        self.seq += 1
        seq_key = U64.pack(self.seq)
        stream_id, version = self.streams.get(p.stream, (0, 0))
        if not stream_id:
            stream_id = len(self.streams) + 1
            rows["names"].append((b"s" + stream_id.to_bytes(4, "big"), p.stream.encode()))
        self.streams[p.stream] = (stream_id, version + 1)
        payload = self.encode(p.event)
        head = f"{p.stream}\x00{TAG}\x00{SCHEMA_VERSION}\x00".encode()
        hashed = hashlib.blake2b(head + payload, digest_size=16).digest()
        codec, stored = self._compressed(txn, payload)
        header = HEADER.pack(stream_id, version + 1, TAG_ID, SCHEMA_VERSION, codec, key, hashed)
        rows["events"].append((seq_key, header + stored))
        rows["streams"].append((STREAM_KEY.pack(stream_id, version + 1), seq_key))
        rows["identities"].append((key, seq_key))
        heads[p.stream] = HEAD.pack(version + 1, stream_id)
        when = p.recorded_at.encode()
        if when != self.last_time:  # a timestamp only where it changes
            rows["times"].append((seq_key, when))
            self.last_time = when

    def _compressed(self, txn: Any, payload: bytes) -> tuple[int, bytes]:
        """Codec 1 (the tag's dictionary) where it is smaller, else codec 0 (as encoded)."""
        if self.compress is None:
            self.samples.append(payload)
            if len(self.samples) < TRAIN_AT:
                return 0, payload
            trained = zstandard.train_dictionary(
                DICT_BYTES, self.samples, k=TRAIN_K, d=TRAIN_D, f=TRAIN_F
            ).as_bytes()
            txn.put(b"dict/1", TAG_ID.to_bytes(2, "big") + trained, db=self.dbs["meta"])
            self.compress = zstandard.ZstdCompressor(
                level=LEVEL,
                dict_data=zstandard.ZstdCompressionDict(trained),
                write_checksum=False,
                write_dict_id=False,
            ).compress
        packed = self.compress(payload)
        return (1, packed) if len(packed) < len(payload) else (0, payload)


def scan(path: Path) -> int:
    """Every record of the log at ``path`` decoded into a :class:`RawEnvelope`; their count."""
    env, dbs = _open(path, readonly=True)
    decode = msgspec.msgpack.Decoder(TurnSpoken).decode
    count = 0
    with env.begin() as txn:
        names = {bytes(k): bytes(v).decode() for k, v in txn.cursor(db=dbs["names"])}
        streams = {int.from_bytes(k[1:], "big"): v for k, v in names.items() if k[:1] == b"s"}
        tags = {int.from_bytes(k[1:], "big"): v for k, v in names.items() if k[:1] == b"t"}
        codecs = _decompressors(txn, dbs["meta"])
        times = [(U64.unpack(k)[0], bytes(v).decode()) for k, v in txn.cursor(db=dbs["times"])]
        times.append((1 << 64, ""))  # a sentinel: no change after the last
        when, change = "", 0
        for key, stored in txn.cursor(db=dbs["events"]):
            seq = U64.unpack(key)[0]
            while times[change][0] <= seq:
                when, change = times[change][1], change + 1
            stream_id, version, tag_id, schema, codec, ident, hashed = HEADER.unpack_from(stored)
            payload = decode(codecs[codec](stored[HEADER.size :]))
            RawEnvelope(
                seq,
                streams[stream_id],
                version,
                ident.hex(),
                tags[tag_id],
                schema,
                when,
                hashed.hex(),
                payload,
            )
            count += 1
    env.close()
    return count


def _decompressors(txn: Any, meta: Any) -> dict[int, Callable[[bytes], bytes]]:
    """Codec → its decompress: 0 keeps the payload, n uses dictionary n from ``meta``."""
    out: dict[int, Callable[[bytes], bytes]] = {0: bytes}
    for key, value in txn.cursor(db=meta):
        if bytes(key).startswith(b"dict/"):
            data = zstandard.ZstdCompressionDict(bytes(value[2:]))
            out[int(bytes(key[5:]))] = zstandard.ZstdDecompressor(dict_data=data).decompress
    return out
