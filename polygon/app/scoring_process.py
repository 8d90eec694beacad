"""The scoring process of ``polygon.app.alongside``: what it is sent, what it answers, its loop.

The driver forks it and talks to it over one socket in length-prefixed frames: the driver
sends a pickle of (stream, records) for a call to score, or (plan, None) for a call to make;
the process answers each with one frame whose first byte says what it is (:data:`ANSWERED`
and :data:`SIMULATED` are msgpack, :data:`FAILED` a pickle of the error). It decodes a call's
records as a read of the log does, scores and probes it with every pass's unit
(``jobs.visit_events``), makes a call with a Ray worker's (``jobs.collect_call``) and scores
it from memory, and prepares (encodes and hashes) the new events, so the driver's writer
thread only stores them.
"""

from __future__ import annotations

import os
import pickle
import signal
import struct
from collections.abc import Callable
from contextlib import suppress
from typing import TYPE_CHECKING, NoReturn

import msgspec

from polygon.errors import InfrastructureError
from polygon.events import LmdbLog, Prepared, conversation_stream, prepare, unnumbered_records

if TYPE_CHECKING:
    import socket

    from polygon.app.jobs import PassRecipe
    from polygon.models import ModelHub
    from polygon.simulate import AgentPool, ConversationPlan
    from polygon.suite import LoadedSuite

LENGTH = struct.Struct(">I")
"""A frame's length before its bytes on the socket."""


class Answer(msgspec.Struct, array_like=True):
    """One call scored: what a ``VisitResult`` says, its events encoded and hashed already.

    The writer's thread then only stores them.
    """

    scored: int
    scored_before: int
    probed: int
    probed_before: int
    events: list[Prepared]


class Simulated(msgspec.Struct, array_like=True):
    """One call simulated: why it ended, its events encoded and hashed already, and its scores."""

    conversation_id: str
    end_reason: str
    events: list[Prepared]
    scored: Answer
    """The call scored and probed there, from memory: committed after the call."""


ANSWERED, SIMULATED, FAILED = b"A", b"S", b"E"
"""A frame's first byte: a call scored, a call simulated (msgpack), or the error either raised (a pickle)."""
_ENCODE = msgspec.msgpack.Encoder().encode
_DECODE_ANSWER = msgspec.msgpack.Decoder(Answer).decode
_DECODE_SIMULATED = msgspec.msgpack.Decoder(Simulated).decode


def read_answer(frame: memoryview) -> Answer | Simulated:
    """An answer, or the error in its place raised here."""
    kind = frame[:1]
    if kind == FAILED:
        raise pickle.loads(frame[1:])
    return _DECODE_SIMULATED(frame[1:]) if kind == SIMULATED else _DECODE_ANSWER(frame[1:])


def serve(
    sock: socket.socket, recipe: PassRecipe, now: Callable[[], str], loaded: LoadedSuite | None
) -> NoReturn:
    """The scoring process: score (or simulate) each call sent, answer, until the driver closes the socket."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the driver's: it stops this process
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    # Every descriptor inherited but its socket and stdio: the log's writer lock (an flock, held
    # by every copy of it) must go with the driver, or a killed run's resume would find the log
    # busy until this process noticed; so must the log's files, a server's sockets, any pipe.
    fd = sock.fileno()
    os.closerange(3, fd)
    os.closerange(fd + 1, os.sysconf("SC_OPEN_MAX"))
    code = 0
    try:
        _answer_each(sock, recipe, now, loaded)
    except BaseException as exc:  # noqa: BLE001 - whatever ends it, the driver hears why, then EOF
        code = 1
        with suppress(BaseException):
            error = exc if isinstance(exc, Exception) else InfrastructureError(repr(exc))
            _write_frame(sock, FAILED + pickle.dumps(_sendable(error)))
    finally:
        os._exit(code)  # nothing of the driver's (its handles, its exit hooks) runs here


def _answer_each(
    sock: socket.socket, recipe: PassRecipe, now: Callable[[], str], loaded: LoadedSuite | None
) -> None:
    work = _Work(recipe, now, loaded)
    reader = sock.makefile("rb")
    while True:
        head = reader.read(LENGTH.size)
        if len(head) < LENGTH.size:
            return  # the driver closed the socket: the pass is over
        (size,) = LENGTH.unpack(head)
        sent, records = pickle.loads(reader.read(size))
        try:
            if records is None:  # a plan: a call to make
                frame = SIMULATED + _ENCODE(work.simulate(sent))
            else:
                frame = ANSWERED + _ENCODE(work.score(sent, records))
        except Exception as exc:  # noqa: BLE001 - the driver raises it, as the pass would
            frame = FAILED + pickle.dumps(_sendable(exc))
        _write_frame(sock, frame)


class _Work:
    """The scoring process's work: a call scored (its records), a call made and scored (its plan)."""

    def __init__(self, recipe: PassRecipe, now: Callable[[], str], loaded: LoadedSuite | None) -> None:
        import asyncio

        from polygon.models import ModelHub

        self.loop = asyncio.new_event_loop()
        self.recipe = recipe
        self.now = now
        self.hub = ModelHub(recipe.settings)  # the offline judge and detectors ask no server: no key here
        self.loaded = loaded
        self._pool: AgentPool | None = None

    def score(self, stream: str, records: list[bytes]) -> Answer:
        """The call's records scored and probed as every pass does; the new events, prepared."""
        return self.loop.run_until_complete(score_records(self.recipe, self.now, self.hub, stream, records))

    def simulate(self, plan: ConversationPlan) -> Simulated:
        """A new run's call made here (one agent pool for all, as the driver's), then scored from memory."""
        from polygon.app.jobs import collect_call, collecting_sink

        assert self.loaded is not None, "a call to simulate was sent to a process that scores only"
        if self._pool is None:
            from polygon.simulate import AgentPool

            self._pool = AgentPool(self.loaded, self.hub)
        pool = self._pool
        sink = collecting_sink(plan, frozenset(), self.now)  # a new run's call: the log holds none of it
        reason = self.loop.run_until_complete(collect_call(plan, pool.make(plan.config, sink), pool, sink))
        made = prepare(sink.collected)
        scored = self.score(conversation_stream(plan.conversation_id), unnumbered_records(made))
        return Simulated(plan.conversation_id, reason, made, scored)


async def score_records(
    recipe: PassRecipe, now: Callable[[], str], hub: ModelHub, stream: str, records: list[bytes]
) -> Answer:
    """One call's records scored and probed as every pass does; the new events, prepared.

    The process's unit of work, and the driver's when it helps (``Alongside._help``).
    """
    from polygon.app import jobs  # looked up at each call: tests stand in for its visit

    events = jobs.checked_call(recipe.started.run_id, stream, LmdbLog.decode_records(records))
    got = await jobs.visit_events(jobs.VisitJob(recipe, events, now), hub)
    return Answer(got.scored, got.scored_before, got.probed, got.probed_before, prepare(got.events))


def _write_frame(sock: socket.socket, frame: bytes) -> None:
    sock.sendall(LENGTH.pack(len(frame)) + frame)


def _sendable(exc: Exception) -> BaseException:
    """The error itself when it survives a pickle, else the same words as an infrastructure fault."""
    try:
        pickle.loads(pickle.dumps(exc))
    except Exception:  # noqa: BLE001 - any error that cannot travel is said in words
        return InfrastructureError(f"scoring a call failed: {type(exc).__name__}: {exc}")
    return exc
