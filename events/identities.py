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


@functools.lru_cache(maxsize=512)
def _stream_half(run: str, conversation: str) -> str:
    # Every event of a call shares it: hashed once per call in flight, not once per event.
    # A few hundred cover the calls in flight; more only held ended calls' (4,096 were full
    # from the 4,096th call on, ~1 MB a 1,000-call run never reached).
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


class StreamIdentities:
    """:func:`identity` for the events of one (run, conversation, seed): what they share, once.

    A conversation's recorder names every event it emits: the stream half and the encoded
    (run, conversation) are the same for all of them. The key's array is its fields encoded
    one after another (msgpack), so the shared head is encoded once and the rest, with its own
    one-byte array header cut off, after it: the same bytes, the same identities
    (``tests/events/test_identity.py`` holds them equal). The head is fed to a hasher once,
    and each identity hashes on from a copy of it: copying the state costs less than making a
    new ``blake2b`` (its keyword arguments are parsed at each construction).
    """

    __slots__ = ("_half", "_hashed_head", "_seed")

    def __init__(self, run: str, conversation: str, seed: int) -> None:
        self._half = _stream_half(run, conversation)
        head = b"\x96" + _CANONICAL_ENCODE(run) + _CANONICAL_ENCODE(conversation)
        self._hashed_head = _BLAKE2B(head, digest_size=8)
        self._seed = seed

    def __call__(self, kind: str, turn: int = 0, index: int = 0) -> str:
        """The identity of this stream's event ``(kind, turn, index)``."""
        rest = _CANONICAL_ENCODE((turn, self._seed, kind, index))  # a fixarray: one header byte
        whole = self._hashed_head.copy()
        whole.update(rest[1:])
        return self._half + whole.hexdigest()
