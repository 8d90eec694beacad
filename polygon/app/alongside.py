"""A run's scoring pass beside its simulation: a forked process scores each call as it ends.

Issue 31: the run's thread and the log's writer share one GIL, so a run that simulates every
call and then scores them pays both in a row, and the scoring pass (checks, judge, probes)
is nearly half of the run's thread. A run whose pass asks no model server (the heuristic
judge, detector probes) on a machine with a second core forks one scoring process as it
starts. The driver sends it each call as it ends, as the records a read of the log decodes:
a call made here comes from memory at once (its sink kept its events, prepared, and the
records are numbered by stream version until the log numbers them), any other (a call
the log held part of before a resume, or one past what the driver may hold) is read back
once durable. The process decodes them, scores and probes the call as every pass does
(``jobs.visit_events``) and sends back the new events. The driver stays the log's single
writer and commits them as one call's whole, after the call's own events (one writer, in
order: if the call's commit fails, nothing after it is written). What the process scored
but the driver never received (Ctrl-C, a fault) is scored by the resume's pass, as before:
a pass skips what a call already holds.

When the calls need no server either (Python agents, the scripted caller) and the run is new,
the process also simulates some of them, a few at a time while its scoring keeps up, so it
takes the share of the calls that keeps both cores busy. It scores such a call from memory
too and sends it back whole with its scores; the driver commits the call as a Ray worker's,
then its scores. A call it was simulating when the run stopped is not in the log at all: a
resume makes it.

The process is forked, not spawned: it starts in milliseconds with the suite, the rubric and
the modules already loaded, and shares their pages (a spawned one would load ~35 MB of its
own). It touches nothing of the driver's but those: not the log (LMDB must not be used
across a fork), the model clients or the event loop, and it ends with ``os._exit``, so no
exit hook of the driver's runs twice.

Scoring a call costs the process more than making one costs the driver, so the driver helps:
past :data:`HELP_ABOVE` calls waiting for the process it scores the newest of them itself
(``scoring_process.score_records``, the process's own unit), and at the end of the simulation
it scores beside the process until nothing waits.

The driver never blocks on the process: what it sends waits in a buffer the event loop
writes as the socket takes it, and answers are read as they arrive, so neither side can
wait for the other for ever whatever the size of a call.
"""

from __future__ import annotations

import functools
import os
import pickle
import signal
import sys
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Iterator
from contextlib import asynccontextmanager, suppress
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from polygon.app import jobs
from polygon.app.scoring_process import LENGTH, Answer, Simulated, read_answer, score_records, serve
from polygon.errors import InfrastructureError
from polygon.events import LmdbLog, Prepared, conversation_stream, unnumbered_records

if TYPE_CHECKING:
    import asyncio
    import socket

    from polygon.app.jobs import PassRecipe, VisitResult
    from polygon.app.progress import Progress
    from polygon.models import ModelHub
    from polygon.recording import GroupWriter
    from polygon.simulate import ConversationPlan
    from polygon.suite import LoadedSuite

Scorer = Callable[[str, list[bytes]], Awaitable[Answer]]
"""A call's stream and records → the call scored and probed (``scoring_process.score_records``)."""

ENABLED = True
"""Whether a run may score beside its simulation (tests compare both ways on one suite)."""
MIN_CALLS = 32
"""Fewer calls are scored after the simulation, in this process: a second process (its start,
the patterns each check compiles on first use) costs more than it saves on a small run."""
IN_FLIGHT = 16
"""Calls sent to the scoring process and not answered yet: the rest wait in the driver (up to
``jobs.KEEP_BYTES`` of records, then read back from the log), so the socket's buffer stays a few calls."""
SIMULATING = 16
"""Calls the process simulates at once (it draws a new plan each time it ends one, while it
has room). It scores its own calls from memory, so this and :data:`TODO_LIMIT` set its share:
on the bench's 2 cores (300 calls, 10 rounds each) 16 and 16 took 0.278 s at the median,
8 and 8 0.304 s (min-max spans overlap: the machine is noisy), 8 and 32 0.277 s."""
GONE = "the scoring process ended before the pass did"
SILENT_S = 300.0
"""The longest the run waits at its end for the process's next answer (an offline call is
scored in milliseconds): past it, the process is taken as stuck and the run stops."""
HELP_ABOVE = 256
"""Calls waiting to be sent to the process past which the driver scores some itself.

Scoring a call costs the process ~3× what making one costs the driver (1.9 vs 0.6 ms on the
bench's machine, most of it the tool-facts check), so on a long run the driver made calls
faster than the process scored them: at 100,000 calls 50,000 waited when the simulation
ended (each an entry here, ~11 MB of the heap, and a tail the process scored alone for a
minute). Past this many the driver scores the newest waiting calls, from memory, without
turning back to its own calls until at most this many wait; then one call each turn of the
event loop while more than :data:`HELP_DOWN_TO` do. At the end of the simulation it scores
beside the process until nothing waits (the tail, halved)."""
HELP_DOWN_TO = 128
"""Where the driver stops helping during the simulation (the process is sent calls all the while)."""
TODO_LIMIT = 16
"""The process takes a call to simulate only while at most this many calls wait to be sent
to it for scoring: a process behind on scoring would leave a tail for it alone at the end
(at 300 calls, with no limit, it had scored a third of them when the simulation ended)."""


def possible(log: object, *, offline: bool, here: bool, calls: int) -> bool:
    """Whether this run's pass can go beside its simulation.

    ``offline``: the pass asks no model server (a process of its own would need its own
    clients and key). ``here``: the calls run in this process (a Ray run's workers score
    in its pass). The log must be this process's LMDB handle (its records are what is
    sent); one core gains nothing from a second process, nor does a run of fewer than
    :data:`MIN_CALLS` calls. Linux only.
    """
    if not (ENABLED and offline and here and calls >= MIN_CALLS and sys.platform.startswith("linux")):
        return False  # fork() elsewhere (macOS's frameworks) is not safe in a process with threads
    if not isinstance(log, LmdbLog) or log.readonly:
        return False
    return len(os.sched_getaffinity(0)) >= 2


@dataclass
class _Totals:
    scored: int = 0
    scored_before: int = 0
    probed: int = 0
    probed_before: int = 0
    done: int = 0

    def add(self, result: Answer) -> None:
        self.scored += result.scored
        self.scored_before += result.scored_before
        self.probed += result.probed
        self.probed_before += result.probed_before
        self.done += 1


@dataclass
class Simulating:
    """What the driver does with a call the scoring process simulated, as with its own calls."""

    on_end: Callable[[str], None]
    """Why the call ended (the run counts the reasons)."""
    finished: Callable[[], None]
    """One more call ended (the run's progress)."""


@dataclass
class Alongside:
    """The driver's side: which calls wait to be durable, which are sent, what came back."""

    sock: socket.socket
    log: LmdbLog
    writer: GroupWriter
    loop: asyncio.AbstractEventLoop
    progress: Progress
    total: int
    simulating: Simulating | None = None
    """Set when the process may simulate calls too."""
    waiting: deque[tuple[int, str]] = field(default_factory=deque)
    """(events handed to the writer when the call ended, its stream): read back once durable."""
    todo: deque[tuple[str, list[bytes] | None, int]] = field(default_factory=deque)
    """(stream, its records when held here, else None: read back, their bytes) to send, in order."""
    held: int = 0
    """Bytes of records in :attr:`todo` (at most ``jobs.KEEP_BYTES``)."""
    in_flight: int = 0
    """Calls sent to be scored, not answered yet."""
    simulated_now: int = 0
    """Calls sent to be simulated, not answered yet."""
    totals: _Totals = field(default_factory=_Totals)
    failed: BaseException | None = None
    showing: bool = False
    """Progress is shown once the simulation is done (its own progress line comes first)."""
    done: bool = False
    """The pass finished: every call scored, nothing in flight."""
    wake: asyncio.Future[None] | None = None
    outgoing: bytearray = field(default_factory=bytearray)
    incoming: bytearray = field(default_factory=bytearray)
    _plans: Iterator[ConversationPlan] | None = None
    """The run's plans while :meth:`shared` draws from them."""
    scorer: Scorer | None = None
    """How the driver scores a call itself when it helps (None: it never does)."""
    helper: asyncio.Task[None] | None = None
    """The driver scoring waiting calls (:meth:`_help`), while it does."""
    helped: int = 0
    """Calls the driver scored itself."""

    def shared(self, plans: Iterable[ConversationPlan]) -> Iterator[ConversationPlan]:
        """The plans this process simulates: each one the scoring process has no room for.

        The process draws from the same plans as it ends a call (:meth:`_draw`), not only when
        this process draws one: at a run's start this process ends no call until its first
        window of calls has all but run (the calls take turns), and the process would idle.
        """
        self._plans = iter(plans)
        for plan in self._plans:
            if self._has_room():
                self._simulate(plan)
                continue
            yield plan
        self._plans = None

    def _simulate(self, plan: ConversationPlan) -> None:
        self.simulated_now += 1
        self._frame((plan, None))
        self._send()

    def _draw(self) -> None:
        """Give the process the next plans while it has room (between this process's draws)."""
        while self._plans is not None and self._has_room():
            plan = next(self._plans, None)
            if plan is None:
                self._plans = None
                return
            self._simulate(plan)

    def _has_room(self) -> bool:
        """Whether the process may take a call to simulate: only while its scoring keeps up."""
        if self.simulating is None or self.failed is not None:
            return False
        return self.simulated_now < SIMULATING and len(self.todo) + len(self.waiting) <= TODO_LIMIT

    def ended(self, conversation_id: str, made: list[Prepared] | None) -> None:
        """A call whose events are all handed to the writer, sent as soon as the window allows.

        ``made`` (its events, kept whole) goes from memory; a call without them, or past what
        the driver may hold, is read back once durable.
        """
        self.raise_if_failed()
        stream = conversation_stream(conversation_id)
        if made is not None:
            records = unnumbered_records(made)
            size = sum(map(len, records))
            if self.held + size <= jobs.KEEP_BYTES:
                self.held += size
                self.todo.append((stream, records, size))
                self.release()
                self._help_if_behind(HELP_ABOVE, HELP_DOWN_TO)
                return
        self.waiting.append((self.writer.handed, stream))
        self.release()
        self._help_if_behind(HELP_ABOVE, HELP_DOWN_TO)

    def _help_if_behind(self, above: int, down_to: int) -> None:
        """Start scoring waiting calls here when more than ``above`` wait (and none is being)."""
        idle = self.helper is None and self.failed is None
        if self.scorer is None or not idle or len(self.todo) <= above:
            return
        self.helper = self.loop.create_task(self._help(above, down_to))

    async def _help(self, above: int, down_to: int) -> None:
        """Score the newest waiting calls here until at most ``down_to`` wait.

        While more than ``above`` wait it does not let the driver's own calls go on (they
        would only add to the wait); it hears the process's answers and sends it more after
        each call all the same, so the process never runs dry meanwhile. The newest calls are
        taken (held here, not yet sent): the process is sent the oldest.
        """
        import asyncio

        assert self.scorer is not None
        try:
            while self.failed is None and len(self.todo) > down_to:
                stream, records, size = self.todo.pop()
                self.held -= size
                if records is None:  # durable: a call read back, as it would be for the process
                    records = self.log.stream_records(stream)
                self._scored(await self.scorer(stream, records))
                self.helped += 1
                self.answered()
                if len(self.todo) <= above:
                    await asyncio.sleep(0)
        except asyncio.CancelledError:
            raise
        except BaseException as exc:  # noqa: BLE001 - raised where the driver can hear it
            self._fail(exc)
        finally:
            self.helper = None
            self._wake()

    def release(self) -> None:
        """Queue the calls now durable; send what the window allows."""
        if self.failed is not None:
            return
        durable = self.writer.durable
        while self.waiting and self.waiting[0][0] <= durable:
            self.todo.append((self.waiting.popleft()[1], None, 0))
        sent = False
        while self.todo and self.in_flight < IN_FLIGHT:
            stream, records, size = self.todo.popleft()
            self.held -= size
            if records is None:
                records = self.log.stream_records(stream)
            self._frame((stream, records))
            self.in_flight += 1
            sent = True
        if sent:
            self._send()

    def _frame(self, message: object) -> None:
        data = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
        self.outgoing += LENGTH.pack(len(data))
        self.outgoing += data

    def _send(self) -> None:
        """Write what the socket takes now; the loop writes the rest when it can."""
        try:
            sent = self.sock.send(self.outgoing) if self.outgoing else 0
        except BlockingIOError:
            sent = 0
        except OSError as exc:
            self._fail(InfrastructureError(f"{GONE} ({exc.strerror or exc})"))
            return
        del self.outgoing[:sent]
        if self.outgoing:
            self.loop.add_writer(self.sock, self._send)
        else:
            self.loop.remove_writer(self.sock)

    def answered(self) -> None:
        """The process's answers that arrived (the loop calls it when the socket is readable)."""
        try:
            self._receive()
            self.release()
        except BaseException as exc:  # noqa: BLE001 - raised where the driver can hear it
            self._fail(exc)
        self._wake()

    async def _next_answer(self) -> None:
        """Wait for the next answer (or a failure); a process silent for too long is a fault."""
        import asyncio

        assert self.wake is not None
        done, _ = await asyncio.wait([self.wake], timeout=SILENT_S)
        if not done:
            self._fail(InfrastructureError(f"the scoring process answered nothing for {SILENT_S:g} s"))

    def _wake(self) -> None:
        """The end of the pass hears of it (an answer, a failure)."""
        if self.wake is not None and not self.wake.done():
            self.wake.set_result(None)

    def _receive(self) -> None:
        while True:
            try:
                data = self.sock.recv(1 << 20)
            except BlockingIOError:
                break
            except ConnectionError:  # it died with what was sent to it unread
                data = b""
            if not data:
                raise InfrastructureError(GONE)
            self.incoming += data
        while len(self.incoming) >= LENGTH.size:
            (size,) = LENGTH.unpack_from(self.incoming)
            if len(self.incoming) < LENGTH.size + size:
                break
            frame = memoryview(self.incoming)[LENGTH.size : LENGTH.size + size]
            try:
                answer = read_answer(frame)
            finally:
                frame.release()
            del self.incoming[: LENGTH.size + size]
            self._take(answer)

    def _take(self, answer: Answer | Simulated) -> None:
        if isinstance(answer, Simulated):
            self._simulated(answer)
            return
        self.in_flight -= 1
        self._scored(answer)

    def _scored(self, answer: Answer) -> None:
        if answer.events:  # a call's new events, whole: never split by a commit
            self.writer.submit_prepared(answer.events)
        self.totals.add(answer)
        if self.showing:
            self.progress(self.totals.done, self.total)

    def _simulated(self, answer: Simulated) -> None:
        assert self.simulating is not None
        self.simulated_now -= 1
        self.writer.submit_prepared(answer.events)  # the whole call, as a worker's
        self.simulating.on_end(answer.end_reason)
        self.simulating.finished()
        self._scored(answer.scored)  # after the call: in the log's order too
        self._draw()

    def _fail(self, exc: BaseException) -> None:
        if self.failed is None:
            self.failed = exc
        self.loop.remove_reader(self.sock)
        self.loop.remove_writer(self.sock)
        self._wake()  # a send that failed (the process gone) wakes the end of the pass too

    def raise_if_failed(self) -> None:
        """Raise what went wrong beside the run (an answer that was an error, a dead process)."""
        if self.failed is not None:
            raise self.failed

    async def finish(self, earlier: Iterable[str]) -> VisitResult:
        """Score what is left (the calls that ended before a resume, the last ones); totals."""
        from polygon.app.jobs import VisitResult

        self.todo.extend((conversation_stream(c), None, 0) for c in earlier)
        self.showing = True
        self.progress(self.totals.done, self.total)
        while True:
            self.raise_if_failed()
            self.writer.commit()  # every call handed over is durable: all of them can go
            self.release()
            self.raise_if_failed()  # a send may have found the process gone
            if not (self.waiting or self.todo or self.in_flight or self.simulated_now or self.helper):
                break
            self._help_if_behind(0, 0)  # the tail: both processes score it
            self.wake = self.loop.create_future()
            await self._next_answer()
        self.done = True
        t = self.totals
        return VisitResult([], t.scored, t.scored_before, t.probed, t.probed_before)


@asynccontextmanager
async def scoring_alongside(
    log: LmdbLog,
    recipe: PassRecipe,
    writer: GroupWriter,
    *,
    now: Callable[[], str],
    progress: Progress,
    total: int,
    simulating: Simulating | None = None,
    loaded: LoadedSuite | None = None,
    hub: ModelHub | None = None,
) -> AsyncIterator[Alongside]:
    """Fork the scoring process; leaving stops it (at once when the pass did not finish).

    What it holds unanswered when the pass did not finish is scored again by a resume.
    ``simulating`` (with the suite, ``loaded``): the process simulates calls too. ``hub``:
    the driver's, with which it scores calls itself when the process falls behind.
    """
    import asyncio
    import socket  # loaded by a run that forks, not at every start (tests/test_real_starts.py)

    for stream in (sys.stdout, sys.stderr):  # the child must not write the driver's buffered text again
        stream.flush()
    ours, theirs = socket.socketpair()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child; its coverage is the pass's own tests
        ours.close()
        serve(theirs, recipe, now, loaded if simulating else None)
    theirs.close()
    ours.setblocking(False)
    loop = asyncio.get_running_loop()
    beside = Alongside(ours, log, writer, loop, progress, total, simulating)
    if hub is not None:
        beside.scorer = functools.partial(score_records, recipe, now, hub)
    loop.add_reader(ours, beside.answered)
    try:
        yield beside
    finally:
        if beside.helper is not None:  # the pass failed: what it was scoring is scored by a resume
            beside.helper.cancel()
        loop.remove_reader(ours)
        loop.remove_writer(ours)
        _stop(pid, ours, gently=beside.done)


def _stop(pid: int, sock: socket.socket, *, gently: bool) -> None:
    """End the scoring process: its socket closed (it exits on EOF), or killed; never left behind."""
    if not gently:
        with suppress(ProcessLookupError):  # it ended already
            os.kill(pid, signal.SIGKILL)
    sock.close()
    os.waitpid(pid, 0)
