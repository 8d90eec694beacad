"""``identity`` (the run's path, no key made) and a recorder's ``StreamIdentities`` equal
``identity_of(EventKey(...))`` for any key."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from polygon.events import EventKey, StreamIdentities, identity, identity_of

_text = st.text(max_size=40)
_int = st.integers(-(2**63), 2**64 - 1)


@settings(max_examples=300)
@given(run=_text, kind=_text, conversation=_text, turn=_int, seed=_int, index=_int)
def test_identity_equals_the_keys_identity(
    run: str, kind: str, conversation: str, turn: int, seed: int, index: int
) -> None:
    key = EventKey(run=run, conversation=conversation, turn=turn, seed=seed, kind=kind, index=index)
    fast = identity(run=run, kind=kind, conversation=conversation, turn=turn, seed=seed, index=index)
    assert fast == identity_of(key)
    assert len(fast) == 32
    assert StreamIdentities(run, conversation, seed)(kind, turn, index) == fast


def test_defaults_are_the_keys_defaults() -> None:
    assert identity(run="r", kind="run.started") == identity_of(EventKey(run="r", kind="run.started"))


def test_a_known_identity_is_unchanged() -> None:
    # made before this path existed: a change of the encoding on both sides is seen too
    got = identity(run="r", kind="run.started", conversation="r.c.s.0", turn=3, seed=7, index=1)
    assert got == "06246ef1771b9587d6a204a1bd37590e"


def test_a_known_identity_is_unchanged_for_a_stream() -> None:
    got = StreamIdentities("r", "r.c.s.0", 7)("run.started", 3, 1)
    assert got == "06246ef1771b9587d6a204a1bd37590e"
