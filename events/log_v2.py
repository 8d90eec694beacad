"""Log format 2: compact records, interned names, sparse timestamps, compressed payloads.

Format 1 stores each event as a msgpack array holding its stream name, hex identity, hex
content hash, tag and time as text; format 2 keeps the same facts in fewer bytes
(``docs/log-format.md`` has the layout byte by byte):

* a record is a fixed 45-byte header — stream id, stream version, tag id, schema version,
  codec, then the identity and content hash as 16 raw bytes each — and the payload;
* stream names and tags are interned in the ``names`` table; the stream index is keyed by
  the 4-byte stream id, the heads map a name to its version and id;
* ``times`` holds a timestamp only at the sequence numbers where it changes (a batch
  shares one);
* a payload is compressed with zstd and a dictionary trained on the log's own first
  :data:`TRAIN_AT` payloads of its tag (stored in ``meta``), kept only where smaller.

Everything above the store sees format-1 records: :meth:`Tables2.render` turns a stored
record back into the format-1 bytes it stands for, so decoding, copying and verifying are
shared by both formats.
"""

from __future__ import annotations

import struct
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import islice
from typing import TYPE_CHECKING, Any

import msgspec

from polygon.events.envelope import Prepared
from polygon.events.errors import DecodeError
from polygon.events.keys import pack_u64, unpack_u64

if TYPE_CHECKING:
    import zstandard

HEADER = struct.Struct(">IIHHB16s16s")
"""stream id, stream version, tag id, schema version, codec, identity, content hash."""
STREAM_KEY = struct.Struct(">II")
"""A stream-index key: stream id, stream version."""
HEAD = struct.Struct(">QI")
"""A heads value: last version (first, so format 1's 8-byte reading still holds), stream id."""
RAW = 0
"""Codec 0: the payload as encoded; codec n > 0: zstd with dictionary n."""
TRAIN_AT = 512
"""Payloads of one tag gathered before its dictionary is trained (``docs/log-format.md``
has the measurements: 1,000 samples and 8 KiB save 6 more bytes an event, but a 1,000-call
run would store most of its payloads uncompressed while it gathers them)."""
DICT_BYTES = 4096
TRAIN_K, TRAIN_D = 1024, 8
"""zstd's cover parameters for training (segment size, d-mer size), given rather than searched
for: the default search tried ~40 pairs, 78 ms for a 1,000-call run's seven tags on the run's
writer thread (a twentieth of its CPU); these two train in 35 ms and compress the bench run's
payloads to 33.5 bytes on average instead of 37.1 (``docs/log-format.md``)."""
TRAIN_F = 16
"""log2 of the trainer's d-mer frequency table (zstd's default, 20, is a 4 MiB table and more:
each tag's training lifted a run's peak memory ~10 MB for a moment, the peak a run is measured
by). A dictionary trains on 512 payloads, ~50-150 KB: 2^16 entries are enough. On a 1,000-call
clinic run: 99.61 bytes a payload against 99.41, the seven tags trained in 21 ms against 121;
2^14 gave 100.95."""
_STREAM, _TAG = b"s", b"t"
_DICT_PREFIX = b"dict/"
_V1_ENCODE = msgspec.msgpack.Encoder().encode
_HEADER_SIZE = HEADER.size
_UNPACK = HEADER.unpack_from
_U64_UNPACK = struct.Struct(">Q").unpack
_U64_PACK = struct.Struct(">Q").pack
_STREAM_KEY_PACK = STREAM_KEY.pack


def _KEEP(data: bytes) -> bytes:
    """Codec 0 (:data:`RAW`) decompressed: the payload as stored."""
    return data


def _prefixed(cursor: Any, prefix: bytes) -> Iterator[tuple[bytes, bytes]]:
    if not cursor.set_range(prefix):
        return
    for key, value in cursor:
        if not bytes(key).startswith(prefix):
            return
        yield bytes(key), bytes(value)


def stream_name_key(stream_id: int) -> bytes:
    """The names-table key of a stream id."""
    return _STREAM + stream_id.to_bytes(4, "big")


def tag_name_key(tag_id: int) -> bytes:
    """The names-table key of a tag id."""
    return _TAG + tag_id.to_bytes(2, "big")


NAMES_KEPT = 8192
"""Stream names one handle keeps decoded. Every call has its own stream, so keeping them all
grew a run's heap with its size (~18 MB at 100,000 calls, the writer's handle interning each
new one and the scoring pass reading each back); 8,192 covers the calls in flight and a
view's working set many times over, and a name not kept is one get in the names table."""


class Tables2:
    """One handle's view of a format-2 log: interned names, dictionaries, samples to train."""

    def __init__(self, dbs: dict[str, Any]) -> None:
        self._dbs = dbs
        self._streams: dict[int, str] = {}
        self._tags: dict[int, str] = {}
        self._tag_ids: dict[str, int] = {}
        self._dicts: dict[int, zstandard.ZstdCompressionDict] = {}
        self._dict_of_tag: dict[int, int] = {}
        self._compressors: dict[int, Callable[[bytes], bytes]] = {}
        self._decompressors: dict[int, Callable[[bytes], bytes]] = {}
        self._samples: dict[int, list[bytes]] = {}
        self._compress_of_tag: dict[int, tuple[int, Callable[[bytes], bytes]]] = {}
        """A tag's dictionary id and compressor: what :meth:`_compress` finds, cached until
        the dictionaries may change (:meth:`load`, :meth:`forget`)."""
        self._stale = False

    def forget(self) -> None:
        """After an aborted write: what it interned or trained was never stored."""
        self._streams.clear()
        self._tags.clear()
        self._tag_ids.clear()
        self._dicts.clear()
        self._dict_of_tag.clear()
        self._compressors.clear()
        self._decompressors.clear()
        self._compress_of_tag.clear()
        self._stale = True

    # ------------------------------------------------------------------ names

    def load(self, txn: Any) -> None:
        """Read the tags and dictionaries another handle may have added."""
        import zstandard  # here, not at the top: a command that reads no log never pays it

        self._compress_of_tag.clear()
        for key, value in _prefixed(txn.cursor(db=self._dbs["names"]), _TAG):
            tag_id = int.from_bytes(key[1:], "big")
            self._tags[tag_id] = bytes(value).decode()
            self._tag_ids[self._tags[tag_id]] = tag_id
        for key, value in _prefixed(txn.cursor(db=self._dbs["meta"]), _DICT_PREFIX):
            dict_id = int(bytes(key[len(_DICT_PREFIX) :]))
            tag_id, data = int.from_bytes(value[:2], "big"), bytes(value[2:])
            if dict_id not in self._dicts:
                self._dicts[dict_id] = zstandard.ZstdCompressionDict(data)
                self._dict_of_tag[tag_id] = dict_id

    def stream_name(self, txn: Any, stream_id: int) -> str:
        """The stream an id stands for."""
        name = self._streams.get(stream_id)
        if name is None:
            raw = txn.get(stream_name_key(stream_id), db=self._dbs["names"])
            if raw is None:
                raise DecodeError(f"stream id {stream_id} is not in the names table")
            name = bytes(raw).decode()
            self._keep(stream_id, name)
        return name

    def _keep(self, stream_id: int, name: str) -> None:
        """Remember a stream's name; once :data:`NAMES_KEPT` are held, forget the others first.

        Cheaper than an LRU on every hit, and a miss only costs a get.
        """
        if len(self._streams) >= NAMES_KEPT:
            self._streams.clear()
        self._streams[stream_id] = name

    def tag_name(self, txn: Any, tag_id: int) -> str:
        """The tag an id stands for."""
        if tag_id not in self._tags:
            self.load(txn)
        name = self._tags.get(tag_id)
        if name is None:
            raise DecodeError(f"tag id {tag_id} is not in the names table")
        return name

    def _tag_id(self, txn: Any, tag: str) -> int:
        tag_id = self._tag_ids.get(tag)
        if tag_id is None:
            self.load(txn)
            tag_id = self._tag_ids.get(tag)
        if tag_id is None:
            tag_id = len(self._tags) + 1
            txn.put(tag_name_key(tag_id), tag.encode(), db=self._dbs["names"])
            self._tags[tag_id], self._tag_ids[tag] = tag, tag_id
        return tag_id

    # ------------------------------------------------------------------ writing

    def put(
        self,
        txn: Any,
        new: Sequence[tuple[Prepared, int, int]],
        heads: dict[str, int],
        stored: dict[str, bytes | None],
    ) -> list[tuple[bytes, bytes]]:
        """Index entries and heads of a batch; returns its records (seq key, stored bytes).

        ``stored`` is each stream's head as the append read it in this transaction.
        """
        if self._stale:
            self.load(txn)
            self._stale = False
        ids = self._stream_ids(txn, heads, stored)
        records = self._records(txn, new, ids)
        pack = _STREAM_KEY_PACK
        txn.cursor(db=self._dbs["streams"]).putmulti(
            [(pack(ids[p.stream], v), key) for (key, _), (p, _, v) in zip(records, new, strict=True)]
        )
        txn.cursor(db=self._dbs["heads"]).putmulti(
            [(stream.encode(), HEAD.pack(v, ids[stream])) for stream, v in heads.items()]
        )
        self._put_times(txn, new)
        return records

    def _records(
        self, txn: Any, new: Sequence[tuple[Prepared, int, int]], ids: dict[str, int]
    ) -> list[tuple[bytes, bytes]]:
        """Each event's (seq key, stored record).

        The writer thread's loop over every event, holding the GIL: a tag's id and
        compressor come from per-handle caches; a miss takes :meth:`_tag_id` and
        :meth:`_compress`, which fill them.
        """
        records: list[tuple[bytes, bytes]] = []
        add, pack_seq, pack_header = records.append, _U64_PACK, HEADER.pack
        tag_ids, by_tag = self._tag_ids, self._compress_of_tag
        for p, seq, version in new:
            tag_id = tag_ids.get(p.tag)
            if tag_id is None:
                tag_id = self._tag_id(txn, p.tag)
            raw = p.payload
            known = by_tag.get(tag_id)
            if known is None:
                codec, payload = self._compress(txn, tag_id, raw)
            else:
                packed = known[1](raw)
                codec, payload = (known[0], packed) if len(packed) < len(raw) else (RAW, raw)
            header = pack_header(ids[p.stream], version, tag_id, p.schema_version, codec, p.key, p.hash_bytes)
            add((pack_seq(seq), header + payload))
        return records

    def _stream_ids(self, txn: Any, heads: dict[str, int], stored: dict[str, bytes | None]) -> dict[str, int]:
        """Each stream's id; a new stream gets the next one (ids are dense: heads only grow)."""
        ids: dict[str, int] = {}
        count = int(txn.stat(self._dbs["heads"])["entries"])
        for stream in heads:
            head = stored[stream]
            if head is not None:
                ids[stream] = HEAD.unpack(head)[1]
                continue
            count += 1
            ids[stream] = count
            txn.put(stream_name_key(count), stream.encode(), db=self._dbs["names"])
            self._keep(count, stream)
        return ids

    def _compress(self, txn: Any, tag_id: int, payload: bytes) -> tuple[int, bytes]:
        dict_id = self._dict_of_tag.get(tag_id)
        if dict_id is None:
            dict_id = self._gather(txn, tag_id, payload)
            if dict_id is None:
                return RAW, payload
        compress = self._compressors.get(dict_id)
        if compress is None:
            import zstandard

            compress = self._compressors[dict_id] = zstandard.ZstdCompressor(
                level=3, dict_data=self._dicts[dict_id], write_checksum=False, write_dict_id=False
            ).compress
        self._compress_of_tag[tag_id] = (dict_id, compress)
        packed = compress(payload)
        return (dict_id, packed) if len(packed) < len(payload) else (RAW, payload)

    def _gather(self, txn: Any, tag_id: int, payload: bytes) -> int | None:
        """Keep a sample; at :data:`TRAIN_AT` of a tag, train and store its dictionary."""
        import zstandard

        samples = self._samples.setdefault(tag_id, [])
        samples.append(payload)
        if len(samples) < TRAIN_AT:
            return None
        del self._samples[tag_id]
        try:
            trained = zstandard.train_dictionary(
                DICT_BYTES, list[bytes | bytearray | memoryview](samples), k=TRAIN_K, d=TRAIN_D, f=TRAIN_F
            )
        except zstandard.ZstdError:
            return None  # too little variety to train on: this tag stays raw until reopened
        self.load(txn)  # a dictionary id is never reused, even one another handle added
        dict_id = max(self._dicts, default=0) + 1
        if dict_id > 255:
            return None
        txn.put(
            _DICT_PREFIX + str(dict_id).encode(),
            tag_id.to_bytes(2, "big") + trained.as_bytes(),
            db=self._dbs["meta"],
        )
        self._dicts[dict_id] = zstandard.ZstdCompressionDict(trained.as_bytes())
        self._dict_of_tag[tag_id] = dict_id
        return dict_id

    def _put_times(self, txn: Any, new: Sequence[tuple[Prepared, int, int]]) -> None:
        cursor = txn.cursor(db=self._dbs["times"])
        last = bytes(cursor.value()) if cursor.last() else b""
        entries = []
        seen = None  # the last time looked at: a batch mostly shares one, encoded once
        for p, seq, _ in new:
            if p.recorded_at == seen:
                continue  # ``last`` is already its encoding
            seen = p.recorded_at
            when = seen.encode()
            if when != last:
                entries.append((_U64_PACK(seq), when))
                last = when
        if entries:
            cursor.putmulti(entries, append=True)

    # ------------------------------------------------------------------ reading

    def render(self, txn: Any, seq: int, stored: bytes, recorded_at: str) -> bytes:
        """The format-1 record a stored format-2 record stands for."""
        if len(stored) < _HEADER_SIZE:
            raise DecodeError(f"event #{seq}: record is {len(stored)} bytes, shorter than its header")
        stream_id, version, tag_id, schema, codec, ident, hashed = _UNPACK(stored)
        stream = self._streams.get(stream_id) or self.stream_name(txn, stream_id)
        tag = self._tags.get(tag_id) or self.tag_name(txn, tag_id)
        payload = stored[_HEADER_SIZE:]
        if codec != RAW:
            payload = self._payload(txn, seq, codec, payload)
        return _V1_ENCODE(
            (seq, stream, version, ident.hex(), tag, schema, recorded_at, hashed.hex(), msgspec.Raw(payload))
        )

    def _payload(self, txn: Any, seq: int, codec: int, data: bytes) -> bytes:
        try:
            return self._decompressor(txn, seq, codec)(data)
        except DecodeError:
            raise
        except Exception as exc:  # zstandard.ZstdError: not imported on this hot path
            raise DecodeError(f"event #{seq}: payload does not decompress ({exc})") from None

    def _decompressor(self, txn: Any, seq: int, codec: int) -> Callable[[bytes], bytes]:
        """Dictionary ``codec``'s bound ``decompress``, made once per handle."""
        decompress = self._decompressors.get(codec)
        if decompress is None:
            import zstandard

            if codec not in self._dicts:
                self.load(txn)  # trained by the writer since this handle looked
            if codec not in self._dicts:
                raise DecodeError(f"event #{seq}: payload names dictionary {codec}, which the log lacks")
            decompress = zstandard.ZstdDecompressor(dict_data=self._dicts[codec]).decompress
            self._decompressors[codec] = decompress
        return decompress

    def render_run(self, txn: Any, rows: Iterable[tuple[bytes, bytes]]) -> list[bytes]:
        """Records in ascending seq order, rendered, walking the times table alongside.

        The read path of every format-2 view, so one loop with everything it touches held
        in locals: a record whose name, tag or dictionary this handle has not cached yet,
        or that is damaged, takes :meth:`render` (the same bytes, looked up the slow way).
        """
        rows = list(rows)
        seqs = [_U64_UNPACK(key)[0] for key, _ in rows]
        times = self._times_of(txn, seqs)
        streams, tags, decompressors = self._streams, self._tags, self._decompressors
        encode, raw, unpack, size = _V1_ENCODE, msgspec.Raw, _UNPACK, _HEADER_SIZE
        out: list[bytes] = []
        for seq, when, (_, stored) in zip(seqs, times, rows, strict=True):
            stream_id, version, tag_id, schema, codec, ident, hashed = (
                unpack(stored) if len(stored) >= size else (0, 0, 0, 0, -1, b"", b"")
            )
            stream, tag = streams.get(stream_id), tags.get(tag_id)
            decompress = decompressors.get(codec) if codec else _KEEP
            if stream is None or tag is None or decompress is None:
                out.append(self.render(txn, seq, bytes(stored), when))
                continue
            try:
                payload = decompress(stored[size:])
            except Exception:  # damage: render raises it as a DecodeError naming the event
                out.append(self.render(txn, seq, bytes(stored), when))
                continue
            record = (seq, stream, version, ident.hex(), tag, schema, when, hashed.hex(), raw(payload))
            out.append(encode(record))
        return out

    def _times_of(self, txn: Any, seqs: list[int]) -> list[str]:
        """The time in force at each of ``seqs`` (ascending), read from the times table.

        A page of the whole log meets the changes one after another (a step forward each);
        a stream's events lie scattered between other calls' (a seek each): both are cheap.
        """
        cursor = txn.cursor(db=self._dbs["times"])
        out: list[str] = []
        when, next_at = "", -1  # next_at: the change after ``when`` (cursor on it); 0: none; -1: unsought
        for seq in seqs:
            if next_at < 0 or 0 < next_at <= seq:
                when, next_at = _time_step(cursor, seq, when, next_at)
            out.append(when)
        return out

    def time_at(self, txn: Any, seq: int) -> str:
        """The time in force at ``seq``: the last change at or before it."""
        cursor = txn.cursor(db=self._dbs["times"])
        key = pack_u64(seq)
        found = cursor.set_range(key)
        if found and bytes(cursor.key()) == key:
            return bytes(cursor.value()).decode()
        moved = cursor.prev() if found else cursor.last()
        return bytes(cursor.value()).decode() if moved else ""

    def stored_parts(self, txn: Any) -> Counter[str]:
        """Bytes of the stored records by part: the fixed header and the (compressed) payload."""
        parts: Counter[str] = Counter()
        for raw in txn.cursor(db=self._dbs["events"]).iternext(keys=False, values=True):
            parts["header"] += HEADER.size
            parts["payload"] += len(raw) - HEADER.size
        return parts

    def content_hash_at(self, txn: Any, seq: int) -> str:
        """The content hash stored in the record at ``seq`` (hex), "" if there is none."""
        stored = txn.get(pack_u64(seq), db=self._dbs["events"])
        return bytes(stored[29:45]).hex() if stored is not None and len(stored) >= HEADER.size else ""

    def stream_id(self, txn: Any, stream: str) -> int | None:
        """A stream's id, None if the log has no such stream."""
        head = txn.get(stream.encode(), db=self._dbs["heads"])
        return None if head is None else HEAD.unpack(head)[1]


def rendered(p: Prepared, seq: int, stream_version: int) -> bytes:
    """The format-1 record :meth:`Tables2.render` gives for ``p`` once stored at ``seq``.

    As the stored header spells them: the identity and content hash from their 16 bytes
    (lowercase hex), the time as written (the times table gives it back unchanged).
    """
    return _V1_ENCODE(
        (
            seq,
            p.stream,
            stream_version,
            p.key.hex(),
            p.tag,
            p.schema_version,
            p.recorded_at,
            p.hash_bytes.hex(),
            msgspec.Raw(p.payload),
        )
    )


def format1_rows(
    tables: Tables2, txn: Any, rows: Callable[[str], Iterator[tuple[bytes, bytes]]], name: str
) -> Iterator[tuple[bytes, bytes]]:
    """A format-2 snapshot's rows as format 1 would hold them, for the shared verifier.

    Records are rendered (their payloads decompressed), stream-index keys and heads spelled
    with the names their ids stand for; an id the names table lacks, or a head whose id
    names another stream, is raised as damage.
    """
    if name == "events":
        for page in _pages(rows("events"), 1000):
            yield from zip((key for key, _ in page), tables.render_run(txn, page), strict=True)
    elif name == "streams":
        for key, seq in rows("streams"):
            if len(key) != STREAM_KEY.size:
                raise DecodeError(f"stream index key {key.hex()} is not {STREAM_KEY.size} bytes")
            stream_id, version = STREAM_KEY.unpack(key)
            yield tables.stream_name(txn, stream_id).encode() + b"\x00" + pack_u64(version), seq
    elif name == "heads":
        for stream, head in rows("heads"):
            version, stream_id = HEAD.unpack(head) if len(head) == HEAD.size else (0, 0)
            if tables.stream_name(txn, stream_id).encode() != stream:
                raise DecodeError(f"the head of {stream.decode()} names stream id {stream_id}: another's")
            yield stream, pack_u64(version)
    elif name == "identities":  # format 1 keeps the content hash here too: add the record's
        for key, value in rows("identities"):
            hashed = tables.content_hash_at(txn, unpack_u64(value)) if len(value) == 8 else ""
            yield key, value + (bytes.fromhex(hashed) if hashed else b"")
    else:
        yield from rows(name)


def _time_step(cursor: Any, seq: int, when: str, next_at: int) -> tuple[str, int]:
    """The time in force at ``seq`` and the next change after it, the cursor left on that.

    The cursor stands on the change at ``next_at`` (≤ ``seq``): a few steps forward reach
    ``seq`` when the changes are dense, otherwise one seek.
    """
    for _ in range(4 if next_at > 0 else 0):
        when = bytes(cursor.value()).decode()
        if not cursor.next():
            return when, 0
        next_at = _U64_UNPACK(cursor.key())[0]
        if next_at > seq:
            return when, next_at
    after = pack_u64(seq + 1)
    if not cursor.set_range(after):
        return (bytes(cursor.value()).decode() if cursor.last() else ""), 0
    next_at = _U64_UNPACK(cursor.key())[0]
    when = bytes(cursor.value()).decode() if cursor.prev() else ""
    cursor.set_range(after)
    return when, next_at


def _pages(rows: Iterator[tuple[bytes, bytes]], size: int) -> Iterator[list[tuple[bytes, bytes]]]:
    while page := list(islice(rows, size)):
        yield page
