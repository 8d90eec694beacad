"""Deterministic event identities.

An identity is derived from what an event *is about* — (run, conversation, turn, seed,
kind, index) — never from when it was written. A retried or resumed writer therefore
produces the same identity again, and the log turns the repeat into a no-op.
"""

from __future__ import annotations

import functools
import hashlib

import msgspec

from polygon.events.codec import CANONICAL_ENCODER, canonical, digest

_CANONICAL_ENCODE = CANONICAL_ENCODER.encode
_BLAKE2B = hashlib.blake2b


class EventKey(msgspec.Struct, frozen=True, kw_only=True, array_like=True):
    """The coordinates of one event.

    ``kind`` names the sort of event (usually its tag); ``index`` separates several events
    of one kind at one turn (the second tool call, the third judge repeat).
    """

    run: str
    conversation: str = ""
    turn: int = 0
    seed: int = 0
    kind: str
    index: int = 0


def identity_of(key: EventKey) -> str:
    """The 32-hex-character identity of ``key``.

    The first half hashes (run, conversation) alone, so one conversation's identities sort
    next to each other: its events land in a few neighbouring leaves of the identity index
    instead of one random page each (an append dirties far fewer pages). The second half
    hashes the whole key, so identities stay unique.
    """
    return _stream_half(key.run, key.conversation) + digest(canonical(key), size=8)


@functools.lru_cache(maxsize=4096)
def _stream_half(run: str, conversation: str) -> str:
    # Every event of a call shares it: hashed once per call in flight, not once per event.
    return digest(canonical([run, conversation]), size=8)


def identity(
    *,
    run: str,
    kind: str,
    conversation: str = "",
    turn: int = 0,
    seed: int = 0,
    index: int = 0,
) -> str:
    """Shorthand for ``identity_of(EventKey(...))``, without making the key.

    Every event of a run takes this path, so the key's fields go to the encoder as a tuple:
    an array-like struct encodes as the array of its fields in declaration order, the same
    bytes (``tests/events/test_identity.py`` holds the two equal).
    """
    whole = _BLAKE2B(_CANONICAL_ENCODE((run, conversation, turn, seed, kind, index)), digest_size=8)
    return _stream_half(run, conversation) + whole.hexdigest()
