"""Deterministic event identities.

An identity is derived from what an event *is about* — (run, conversation, turn, seed,
kind, index) — never from when it was written. A retried or resumed writer therefore
produces the same identity again, and the log turns the repeat into a no-op.
"""

from __future__ import annotations

import functools

import msgspec

from polygon.events.codec import canonical, digest


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
    """Shorthand for ``identity_of(EventKey(...))``."""
    return identity_of(
        EventKey(run=run, conversation=conversation, turn=turn, seed=seed, kind=kind, index=index)
    )
