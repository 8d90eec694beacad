"""Binary key layouts of the LMDB log (shared by the log and its verifier)."""

from __future__ import annotations

import struct

_U64 = struct.Struct(">Q")


def pack_u64(n: int) -> bytes:
    """8-byte big-endian: byte order equals numeric order, so LMDB keeps keys sorted."""
    return _U64.pack(n)


def unpack_u64(data: bytes) -> int:
    """Decode an 8-byte big-endian integer."""
    return int(_U64.unpack(data)[0])


def split_stream_key(key: bytes) -> tuple[str, int]:
    """Split a stream-index key (stream name, NUL, 8-byte version) into its parts."""
    return key[:-9].decode(), unpack_u64(key[-8:])


def split_identity_value(value: bytes | None) -> tuple[int, str] | None:
    """Split an identity-index value (8-byte seq, 16-byte content hash); None passes."""
    if value is None:
        return None
    return unpack_u64(value[:8]), bytes(value[8:]).hex()
