"""Envelopes: what the store and projections need without decoding the payload.

On disk a record is a msgpack array — the envelope fields, then the payload map — and the
envelope *is* that array (``array_like``). Reading takes one of two paths:

* fast: one ``msgspec`` decode into a struct whose payload is the tagged union of every
  registered event type (what a raw reader of a known type would pay);
* slow, when the fast one fails or the payload's schema version is old: decode the header
  with the payload left as raw bytes, then upcast through the registry. Unknown tags and
  future versions are refused there, naming the sequence number.

``recorded_at`` is for display only: order comes from ``seq``.
"""

from __future__ import annotations

import hashlib
import operator
from collections.abc import Sequence
from typing import Any, Union

import msgspec

from polygon.events.codec import CANONICAL_ENCODER
from polygon.events.errors import DecodeError
from polygon.events.registry import REGISTRY, Event, Registry

MAX_STREAM_BYTES = 400


class Pending(msgspec.Struct, frozen=True, kw_only=True):
    """An event on its way into the log."""

    stream: str
    """One stream per conversation (``conv/ID``) and one per run (``run/ID``)."""
    identity: str
    """Deterministic identity, 32 hex characters (see :mod:`polygon.events.identities`)."""
    event: Event
    """The payload."""
    recorded_at: str = ""
    """ISO-8601 UTC time, for display only."""


class Envelope(msgspec.Struct, frozen=True, kw_only=True, array_like=True):
    """An event as stored in and read back from the log."""

    seq: int
    """Global sequence number, gapless from 1: commit order."""
    stream: str
    """The stream the event belongs to."""
    stream_version: int
    """Position within the stream, gapless from 1."""
    identity: str
    """Deterministic identity."""
    tag: str
    """Stable dotted type tag."""
    schema_version: int
    """Schema version the payload was written with (before upcasting)."""
    recorded_at: str
    """Display-only write time."""
    content_hash: str
    """Hash of (stream, tag, schema version, payload): what conflict detection compares."""
    payload: Event
    """The decoded (and, if old, upcast) payload."""


class _RawRecord(msgspec.Struct, frozen=True, array_like=True):
    """The same array as :class:`Envelope`, payload kept as undecoded msgpack."""

    seq: int
    stream: str
    stream_version: int
    identity: str
    tag: str
    schema_version: int
    recorded_at: str
    content_hash: str
    payload: msgspec.Raw


class Prepared(msgspec.Struct, frozen=True):
    """A pending event, encoded and hashed once before any transaction opens."""

    stream: str
    identity: str
    tag: str
    schema_version: int
    recorded_at: str
    content_hash: str
    payload: bytes
    key: bytes
    """The identity as 16 raw bytes (the identity-index key)."""
    hash_bytes: bytes
    """The content hash as 16 raw bytes."""
    stream_prefix: bytes
    """The stream name and NUL: the stream-index key before the version."""


_ENCODER = msgspec.msgpack.Encoder()
_CANONICAL_ENCODE = CANONICAL_ENCODER.encode
_TAG_AND_VERSION = operator.attrgetter("tag", "schema_version")
_RAW_DECODER = msgspec.msgpack.Decoder(_RawRecord)


def prepare(batch: Sequence[Pending], registry: Registry = REGISTRY) -> list[Prepared]:
    """Validate, encode and hash a batch. Raises before anything touches the store.

    The run's writer thread pays this for every event while holding the GIL, so the loop
    keeps what it touches in locals and looks a stream's prefix and an event type's tag up
    once per batch (the same bytes as one by one).
    """
    out: list[Prepared] = []
    prefixes: dict[str, bytes] = {}
    kinds: dict[type, tuple[str, int, bytes]] = {}
    encode, blake2b, fromhex, add = _CANONICAL_ENCODE, hashlib.blake2b, bytes.fromhex, out.append
    for item in batch:
        stream, event, ident, when = item.stream, item.event, item.identity, item.recorded_at
        prefix = prefixes.get(stream)
        if prefix is None:
            _check_stream(stream)
            prefix = prefixes[stream] = stream.encode() + b"\x00"
        try:  # the identity's checks first, then the type's, as one by one
            key = fromhex(ident)
        except ValueError:
            key = b""
        if len(key) != 16:
            _identity_key(ident)  # raises, naming it
        kind = kinds.get(type(event))
        if kind is None:
            spec = registry.spec_for(event)
            kind = kinds[type(event)] = (spec.tag, spec.version, f"{spec.tag}\x00{spec.version}\x00".encode())
        tag, version, head = kind
        payload = encode(event)
        # Content covers what the event means, not when it was written.
        hashed = blake2b(prefix + head + payload, digest_size=16).digest()
        add(Prepared(stream, ident, tag, version, when, hashed.hex(), payload, key, hashed, prefix))
    return out


def prepare_stored(data: bytes) -> Prepared:
    """A stored record, ready to append elsewhere with its payload bytes as they are.

    For copies (compaction): re-encoding a decoded payload may change its bytes (an int
    written into a float field decodes as a float), hence its content hash, and a resume
    on the copy would then meet an identity conflict.
    """
    header = decode_header(data)
    prefix = header.stream.encode() + b"\x00"
    head = f"{header.tag}\x00{header.schema_version}\x00".encode()
    payload = bytes(header.payload)
    hashed = hashlib.blake2b(prefix + head + payload, digest_size=16).digest()
    return Prepared(
        header.stream,
        header.identity,
        header.tag,
        header.schema_version,
        header.recorded_at,
        hashed.hex(),
        payload,
        _identity_key(header.identity),
        hashed,
        prefix,
    )


def _identity_key(identity: str) -> bytes:
    try:
        key = bytes.fromhex(identity)
    except ValueError:
        key = b""
    if len(key) != 16:
        raise ValueError(f"identity {identity!r} must be 32 hex characters")
    return key


def _check_stream(stream: str) -> None:
    raw = stream.encode()
    if not raw or len(raw) > MAX_STREAM_BYTES or b"\x00" in raw:
        raise ValueError(f"stream name {stream!r} must be 1–{MAX_STREAM_BYTES} bytes without NUL")


def encode_record(p: Prepared, seq: int, stream_version: int) -> bytes:
    """Encode a prepared event as the record stored at ``seq``."""
    # A tuple encodes to the same msgpack array as the array-like record struct, cheaper.
    return _ENCODER.encode(
        (
            seq,
            p.stream,
            stream_version,
            p.identity,
            p.tag,
            p.schema_version,
            p.recorded_at,
            p.content_hash,
            msgspec.Raw(p.payload),
        )
    )


def unnumbered_records(prepared: Sequence[Prepared]) -> list[bytes]:
    """A whole new stream's events as the records a read of it gives, before the log numbers them.

    The log gives an event its ``seq`` as it commits it; here each record's ``seq`` is its
    stream version, so the seqs keep the stream's order, as a read's do. For a reader that
    needs a stream before it is durable and reads nothing of a seq but that order (a run's
    scoring process); never stored.
    """
    return [encode_record(p, version, version) for version, p in enumerate(prepared, 1)]


class EnvelopeDecoder:
    """Decodes stored records against one registry (fast path, then upcasting)."""

    def __init__(self, registry: Registry = REGISTRY) -> None:
        self._registry = registry
        self._known = -1
        self._fast: msgspec.msgpack.Decoder[Any] | None = None
        self._fast_page: msgspec.msgpack.Decoder[Any] | None = None
        self._current_pairs: frozenset[tuple[str, int]] = frozenset()
        self._current: dict[str, int] = {}

    def _fast_decoder(self) -> msgspec.msgpack.Decoder[Any]:
        if self._fast is None or self._registry.generation != self._known:
            specs = self._registry.specs()
            types = tuple(spec.type for spec in specs)
            fast = msgspec.defstruct(
                "FastEnvelope",
                [("payload", Union[types])],  # noqa: UP007 - a runtime-built union
                bases=(Envelope,),
                frozen=True,
                kw_only=True,
                array_like=True,
            )
            self._fast = msgspec.msgpack.Decoder(fast)
            self._fast_page = msgspec.msgpack.Decoder(list[fast])  # type: ignore[valid-type]
            self._current = {spec.tag: spec.version for spec in specs}
            self._current_pairs = frozenset(self._current.items())
            self._known = self._registry.generation
        return self._fast

    def decode(self, data: bytes, *, seq: int | None = None) -> Envelope:
        """Bytes → envelope, or a :class:`DecodeError` subclass. Nothing else escapes."""
        fast = self._fast
        if fast is None or self._registry.generation != self._known:
            fast = self._fast_decoder()
        try:
            env: Envelope = fast.decode(data)
        except (msgspec.DecodeError, msgspec.ValidationError):
            return self.decode_slow(data, seq=seq)
        if self._current.get(env.tag) != env.schema_version:
            return self.decode_slow(data, seq=seq)  # an old version: upcast one step at a time
        # A payload whose own tag disagrees with the envelope's can only be corruption;
        # `polygon log verify` decodes every record the strict way and reports it.
        return env

    def decode_page(self, records: list[bytes]) -> list[Envelope]:
        """Many records in one decoder call.

        Each record is a msgpack value, so an array header in front of their concatenation
        is a valid msgpack array. Any record that is old, broken or unknown sends the page
        down the one-by-one path.
        """
        envs = self.fast_page(records)
        return [self.decode(r) for r in records] if envs is None else envs

    def fast_page(self, records: list[bytes]) -> list[Envelope] | None:
        """Many records in one decoder call; None when any of them needs :meth:`decode`.

        For a reader that decodes one by one on that path (as it yields, so a damaged
        record is raised where it lies, after the records before it).
        """
        if self._fast_page is None or self._registry.generation != self._known:
            self._fast_decoder()
        assert self._fast_page is not None
        try:
            envs: list[Envelope] = self._fast_page.decode(
                b"\xdd" + len(records).to_bytes(4, "big") + b"".join(records)
            )
        except (msgspec.DecodeError, msgspec.ValidationError):
            return None
        # Attribute access and set building run in C: no Python loop per record.
        if set(map(_TAG_AND_VERSION, envs)) <= self._current_pairs:
            return envs
        return None

    def decode_slow(self, data: bytes, *, seq: int | None = None) -> Envelope:
        """Header first, then the payload through the registry (upcasting old versions)."""
        record = decode_header(data, seq=seq)
        payload = self._registry.decode(
            record.tag, record.schema_version, bytes(record.payload), seq=record.seq
        )
        return Envelope(
            seq=record.seq,
            stream=record.stream,
            stream_version=record.stream_version,
            identity=record.identity,
            tag=record.tag,
            schema_version=record.schema_version,
            recorded_at=record.recorded_at,
            content_hash=record.content_hash,
            payload=payload,
        )


def decode_header(data: bytes, *, seq: int | None = None) -> _RawRecord:
    """Decode a record's envelope fields, leaving the payload undecoded."""
    try:
        return _RAW_DECODER.decode(data)
    except (msgspec.DecodeError, msgspec.ValidationError) as exc:
        where = "" if seq is None else f"event #{seq}: "
        raise DecodeError(f"{where}record does not decode: {exc}") from None


DECODER = EnvelopeDecoder()


def decode_envelope(data: bytes, *, seq: int | None = None) -> Envelope:
    """Bytes → envelope (default registry), or a :class:`DecodeError` subclass."""
    return DECODER.decode(data, seq=seq)
