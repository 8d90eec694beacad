"""The tag registry: stable dotted tags → payload types, schema versions and upcasters.

A payload is stored with its tag and schema version. Reading it back:

1. unknown tag → :class:`UnknownTagError`;
2. version newer than the registered one → :class:`FutureVersionError`;
3. current version → typed decode straight from bytes (the fast path);
4. older version → decode to an untyped dict, apply one upcaster per version step, then
   ``msgspec.convert`` into the current type.

Every failure names the sequence number of the record, so ``polygon log verify`` and the
projections can point at it.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, TypeVar

import msgspec

from polygon.events.errors import DecodeError, FutureVersionError, UnknownTagError


class Event(msgspec.Struct, frozen=True, kw_only=True, tag_field="type"):
    """Base of every event payload. Subclasses set a stable dotted ``tag``."""


Upcaster = Callable[[dict[str, Any]], dict[str, Any]]
E = TypeVar("E", bound=type[Event])


@dataclass(frozen=True)
class EventSpec:
    """How one tag is stored: its type, current schema version and upcasters.

    ``upcasters[v]`` turns a version-``v`` dict into a version ``v + 1`` dict.
    """

    tag: str
    type: type[Event]
    version: int
    upcasters: Mapping[int, Upcaster] = field(default_factory=dict)

    @cached_property
    def decoder(self) -> msgspec.msgpack.Decoder[Any]:
        """The typed decoder of the current version, made on the tag's first decode.

        Making one reads the type's annotations (~0.1 ms a type): registering all 32 at import
        cost every process that imports the families ~4 ms, and most decode a few tags.
        """
        return msgspec.msgpack.Decoder(self.type)


class Registry:
    """Maps tags to event specs. One process-wide instance lives in :data:`REGISTRY`.

    ``completed_by`` names the module whose import registers every type (the families):
    it is imported the first time a lookup by tag could miss one, not with the registry,
    so that a process which only writes or opens a log never pays for the other families.
    """

    def __init__(self, completed_by: str | None = None) -> None:
        self._completed_by = completed_by
        self._by_tag: dict[str, EventSpec] = {}
        self._by_type: dict[type[Event], EventSpec] = {}
        self.generation = 0
        """Bumped on every registration, so decoders know when to rebuild."""

    def register(
        self, cls: type[Event], *, version: int = 1, upcasters: Mapping[int, Upcaster] | None = None
    ) -> None:
        """Register ``cls`` under its struct tag at schema ``version``."""
        tag = cls.__struct_config__.tag
        if not isinstance(tag, str) or "." not in tag:
            raise ValueError(f"{cls.__name__} needs an explicit dotted tag, got {tag!r}")
        ups = dict(upcasters or {})
        missing = [v for v in range(1, version) if v not in ups]
        if missing:
            raise ValueError(f"{tag}: no upcaster from version(s) {missing}")
        if tag in self._by_tag and self._by_tag[tag].type is not cls:
            raise ValueError(f"tag {tag!r} is already registered to another type")
        spec = EventSpec(tag=tag, type=cls, version=version, upcasters=ups)
        self._by_tag[tag] = spec
        self._by_type[cls] = spec
        self.generation += 1

    def spec_for(self, event: Event) -> EventSpec:
        """The spec of an event instance's type."""
        try:
            return self._by_type[type(event)]
        except KeyError:
            raise UnknownTagError(f"{type(event).__name__} is not a registered event") from None

    def spec_for_tag(self, tag: str, *, seq: int | None = None) -> EventSpec:
        """The spec of ``tag``, or :class:`UnknownTagError` naming ``seq``."""
        spec = self._by_tag.get(tag)
        if spec is None and self._completed_by is not None:
            self._complete()
            spec = self._by_tag.get(tag)
        if spec is None:
            raise UnknownTagError(f"{_at(seq)}unknown event tag {tag!r}")
        return spec

    def specs(self) -> list[EventSpec]:
        """Every registered spec, by tag."""
        self._complete()
        return [self._by_tag[t] for t in sorted(self._by_tag)]

    def tags(self) -> Iterator[str]:
        """Registered tags, sorted."""
        self._complete()
        return iter(sorted(self._by_tag))

    def _complete(self) -> None:
        if self._completed_by is not None:
            importlib.import_module(self._completed_by)
            self._completed_by = None

    def decode(self, tag: str, version: int, data: bytes, *, seq: int | None = None) -> Event:
        """Decode a stored payload into the current type of ``tag``."""
        spec = self.spec_for_tag(tag, seq=seq)
        if version > spec.version:
            raise FutureVersionError(
                f"{_at(seq)}{tag} has schema version {version}, this Polygon reads up to "
                f"{spec.version}; upgrade Polygon to read this log"
            )
        if version < 1:
            raise DecodeError(f"{_at(seq)}{tag} has invalid schema version {version}")
        try:
            if version == spec.version:
                return spec.decoder.decode(data)  # type: ignore[no-any-return]
            raw = msgspec.msgpack.decode(data)
            if not isinstance(raw, dict):
                raise DecodeError(f"{_at(seq)}{tag} payload is not a map")
            for step in range(version, spec.version):
                raw = _upcast(spec, step, raw, seq)
            return msgspec.convert(raw, spec.type)
        except (msgspec.DecodeError, msgspec.ValidationError) as exc:
            raise DecodeError(f"{_at(seq)}{tag} v{version} does not decode: {exc}") from None


def _upcast(spec: EventSpec, step: int, raw: dict[str, Any], seq: int | None) -> dict[str, Any]:
    try:
        return spec.upcasters[step](raw)
    except Exception as exc:  # an upcaster meeting a malformed old dict
        raise DecodeError(f"{_at(seq)}{spec.tag}: upcasting v{step} failed: {exc!r}") from None


def _at(seq: int | None) -> str:
    return "" if seq is None else f"event #{seq}: "


REGISTRY = Registry(completed_by="polygon.events.families")


def event_type(*, version: int = 1, upcasters: Mapping[int, Upcaster] | None = None) -> Callable[[E], E]:
    """Class decorator that registers an event type in :data:`REGISTRY`."""

    def register(cls: E) -> E:
        REGISTRY.register(cls, version=version, upcasters=upcasters)
        return cls

    return register
