"""The event contract: payload types, envelopes, identities, codec and the logs.

See ``events/README.md`` for the invariants. Public names are listed in ``__all__`` and
pinned by a test; everything else is private.
"""

from polygon.errors import PolygonError, UserInputError
from polygon.events import families
from polygon.events.codec import canonical, content_hash, digest, to_builtins
from polygon.events.envelope import Envelope, Pending, decode_envelope
from polygon.events.errors import (
    DecodeError,
    ForkedUseError,
    FutureVersionError,
    IdentityConflictError,
    LogError,
    LogFormatError,
    StorageError,
    UnknownTagError,
    WriterBusyError,
)
from polygon.events.identity import EventKey, identity, identity_of
from polygon.events.lmdb_log import LmdbLog
from polygon.events.memory import MemoryLog
from polygon.events.registry import REGISTRY, Event, event_type
from polygon.events.store import AppendResult, EventLog, LogStats, VerifyReport

__all__ = [
    "REGISTRY",
    "AppendResult",
    "DecodeError",
    "Envelope",
    "Event",
    "EventKey",
    "EventLog",
    "ForkedUseError",
    "FutureVersionError",
    "IdentityConflictError",
    "LmdbLog",
    "LogError",
    "LogFormatError",
    "LogStats",
    "MemoryLog",
    "Pending",
    "PolygonError",
    "StorageError",
    "UnknownTagError",
    "UserInputError",
    "VerifyReport",
    "WriterBusyError",
    "canonical",
    "content_hash",
    "decode_envelope",
    "digest",
    "event_type",
    "families",
    "identity",
    "identity_of",
    "to_builtins",
]
