"""Polygon's one error hierarchy.

Every failure a user can meet is one of these, with one clear line naming the file, field
or id that is wrong. The CLI turns them into exit code 2 (no traceback unless ``--debug``).

    PolygonError
    ├── UserInputError          bad input from the user: a file, a flag, an id
    │   ├── SuiteError          a suite / rubric / probe file is malformed
    │   ├── UnknownIdError      a run or conversation id the log does not hold
    │   └── ResumeRefusedError  --resume on a run whose suite, prompt or seed changed
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


class PolygonError(Exception):
    """Base of every error Polygon raises on purpose."""

    exit_code = 2


class UserInputError(PolygonError):
    """The user gave us something we cannot use; the message names it."""


class SuiteError(UserInputError):
    """A suite, rubric or probe file is malformed."""


class UnknownIdError(UserInputError):
    """A run, conversation or other id that the log does not hold."""


class ResumeRefusedError(UserInputError):
    """A run cannot be resumed because its inputs changed."""


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
