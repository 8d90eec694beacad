"""Polygon's one error hierarchy: the user-facing half, and the root.

Every failure a user can meet is one of these, with one clear line naming the file, field
or id that is wrong. The CLI turns them into exit code 2 (no traceback unless ``--debug``).
This module imports nothing: every layer, the event log included, may raise these.

    PolygonError
    ├── UserInputError          bad input from the user: a file, a flag, an id
    │   ├── SuiteError          a suite / rubric / probe file is malformed
    │   ├── UnknownIdError      a run or conversation id the log does not hold
    │   └── ResumeRefusedError  --resume on a run whose suite, prompt or seed changed
    ├── ModelServerDownError    a model server stopped answering: the run stops, resumable
    ├── InfrastructureError     a worker lacks what a job needs, or Ray failed: stops, resumable
    └── LogError                the event log (``polygon.events.errors``)
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


class ModelServerDownError(PolygonError):
    """A model server failed so many connections in a row that going on would only fail more."""


class InfrastructureError(PolygonError):
    """Where the work runs failed it, not the agent: a worker without a key or a module, Ray.

    The run stops as on a dead server; the calls the fault hit are not recorded (a resume
    runs them again).
    """


class WorkInterrupted(PolygonError):
    """Ctrl-C stopped the work at a safe point; the message says what was kept and how to go on."""

    exit_code = 130
