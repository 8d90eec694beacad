"""The event log's errors: the ``LogError`` half of Polygon's one hierarchy.

The root and the user-facing half live in :mod:`polygon.errors`, which imports nothing.

    PolygonError                    (polygon.errors)
    └── LogError                the event log
        ├── WriterBusyError     another process holds the writer lock
        ├── ForkedUseError      a log handle used in a child after fork()
        ├── LogFormatError      the log was written by an incompatible format version
        ├── IdentityConflictError  same identity appended with different content
        ├── StorageError        LMDB refused an operation
        └── DecodeError         a stored record cannot be decoded
            ├── UnknownTagError     no event type is registered for the tag
            └── FutureVersionError  the payload's schema version is newer than this code
"""

from __future__ import annotations

from polygon.errors import PolygonError


class LogError(PolygonError):
    """Something about the event log itself."""


class WriterBusyError(LogError):
    """Another process is the log's writer."""


class ForkedUseError(LogError):
    """A log handle was used in a process forked after it was opened."""


class LogFormatError(LogError):
    """The log on disk has a format version this code does not read."""


class IdentityConflictError(LogError):
    """An identity was appended again with different content."""


class StorageError(LogError):
    """The storage engine refused an operation."""


class DecodeError(LogError):
    """A stored record could not be decoded into an event."""


class UnknownTagError(DecodeError):
    """No event type is registered for a tag."""


class FutureVersionError(DecodeError):
    """A payload was written by a newer schema version than this code knows."""
