"""Decoding: any bytes give an event or a typed error; upcasting; future versions; unknown tags."""

from __future__ import annotations

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polygon.events import DecodeError, Event, FutureVersionError, UnknownTagError, decode_envelope
from polygon.events.envelope import _RawRecord
from polygon.events.registry import REGISTRY, Registry


@settings(max_examples=400)
@given(st.binary(max_size=300))
def test_arbitrary_bytes_decode_or_raise_typed_error(data: bytes) -> None:
    try:
        env = decode_envelope(data)
    except DecodeError:
        return
    assert isinstance(env.payload, Event)


_tags = st.sampled_from(sorted(REGISTRY.tags()) + ["no.such_tag"])


@settings(max_examples=300)
@given(
    tag=_tags,
    version=st.integers(-2, 4),
    payload=st.binary(max_size=120),
    seq=st.integers(1, 10**6),
)
def test_wellformed_records_with_garbage_payloads(tag: str, version: int, payload: bytes, seq: int) -> None:
    record = _RawRecord(seq, "s", 1, "id", tag, version, "", "h", msgspec.Raw(payload))
    raw = msgspec.msgpack.encode(record)
    try:
        decode_envelope(raw, seq=seq)
    except DecodeError as exc:
        assert f"#{seq}" in str(exc)


class Old(Event, frozen=True, kw_only=True, tag="test.renamed"):
    full_name: str
    age: int = 0


def _v1_to_v2(d: dict) -> dict:
    d = dict(d)
    d["full_name"] = d.pop("name")
    return d


def _v2_to_v3(d: dict) -> dict:
    return {**d, "age": int(d.get("years", 0))}


@pytest.fixture
def registry() -> Registry:
    reg = Registry()
    reg.register(Old, version=3, upcasters={1: _v1_to_v2, 2: _v2_to_v3})
    return reg


def test_upcasting_runs_one_step_at_a_time(registry: Registry) -> None:
    v1 = msgspec.msgpack.encode({"type": "test.renamed", "name": "Ana", "years": "41"})
    assert registry.decode("test.renamed", 1, v1) == Old(full_name="Ana", age=41)
    v2 = msgspec.msgpack.encode({"type": "test.renamed", "full_name": "Ana", "years": 3})
    assert registry.decode("test.renamed", 2, v2) == Old(full_name="Ana", age=3)


def test_future_version_refused_with_seq(registry: Registry) -> None:
    with pytest.raises(FutureVersionError, match="event #12: .*version 4.*upgrade"):
        registry.decode("test.renamed", 4, b"\x80", seq=12)


def test_unknown_tag_refused_with_seq(registry: Registry) -> None:
    with pytest.raises(UnknownTagError, match="event #5: unknown event tag 'nope.x'"):
        registry.decode("nope.x", 1, b"\x80", seq=5)


def test_broken_upcaster_input_is_a_decode_error(registry: Registry) -> None:
    v1 = msgspec.msgpack.encode({"type": "test.renamed"})  # no "name": the upcaster fails
    with pytest.raises(DecodeError, match="upcasting v1"):
        registry.decode("test.renamed", 1, v1, seq=1)


def test_registration_demands_upcasters_and_dotted_tags() -> None:
    reg = Registry()
    with pytest.raises(ValueError, match="no upcaster"):
        reg.register(Old, version=2)

    class Bad(Event, frozen=True, kw_only=True, tag="nodots"):
        x: int = 0

    with pytest.raises(ValueError, match="dotted tag"):
        reg.register(Bad)
