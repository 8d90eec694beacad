"""Canonical encoding and content hashing.

Identities and conflict detection depend on two equal values always giving the same bytes,
in any process: msgpack with ``order="deterministic"`` sorts map keys and keeps struct
fields in declaration order.
"""

from __future__ import annotations

import hashlib
from typing import Any

import msgspec

CANONICAL_ENCODER = msgspec.msgpack.Encoder(order="deterministic")
_CANONICAL = CANONICAL_ENCODER


def canonical(value: Any) -> bytes:
    """Encode ``value`` to canonical msgpack bytes."""
    return _CANONICAL.encode(value)


def digest(data: bytes, *, size: int = 16) -> str:
    """Hex BLAKE2b digest of ``data`` (``size`` bytes, so ``2 * size`` hex characters)."""
    return hashlib.blake2b(data, digest_size=size).hexdigest()


def content_hash(value: Any, *, size: int = 16) -> str:
    """Hash of the canonical encoding of ``value``."""
    return digest(canonical(value), size=size)


def to_builtins(value: Any) -> Any:
    """Convert structs and other msgspec-known types into plain JSON-able builtins."""
    return msgspec.to_builtins(value, order="deterministic")
