"""Ctrl-C during long work: the work stops at a safe point, and a second Ctrl-C ends it at once.

Python's own Ctrl-C raises ``KeyboardInterrupt`` at whatever bytecode the main thread runs:
inside a lock the group writer's thread pool holds, or between the steps of an event loop,
and the process can then wait forever on a thread at exit (a stopped run once hung 8
minutes). Within :func:`stoppable` a Ctrl-C never raises there. The first one only asks:
the work's event loop (:func:`run_stoppable`) has its main task cancelled at its next
await, so the calls in flight stop at theirs, the writer finishes the commit in flight and
commits what was handed over, every thread is joined, and ``KeyboardInterrupt`` is raised
then, outside the loop, where the use case says what the log kept. A stretch without a loop
asks :func:`check` between its steps. A second Ctrl-C ends the process at once with one
line (exit 130), as SIGTERM does: a commit is one transaction, so the log stays whole.
"""

from __future__ import annotations

import os
import signal
import threading
from collections.abc import Callable, Coroutine, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

T = TypeVar("T")

AGAIN = (
    "error: interrupted again (Ctrl-C): ended at once; every commit in the log is whole; `polygon runs` "
    "names an unfinished run, `polygon run SUITE --resume RUN` finishes it"
)
"""What a second Ctrl-C says when the work did not name its own way on."""


class _Stop:
    """The process's one stop request (a signal handler is process-wide too)."""

    def __init__(self) -> None:
        self.asked = False
        self.depth = 0
        self.again = ""
        self.wake: Callable[[], None] | None = None


_STOP = _Stop()


@contextmanager
def stoppable(again: str = "", *, until_exit: bool = False) -> Iterator[None]:
    """Within it, Ctrl-C asks the work to stop at its next safe point; a second one ends the process.

    ``again``: the line a second Ctrl-C prints (the first region that names one keeps it: a
    sweep's hint, not that of the run it is in). The handler goes in only from the main
    thread and over Python's own (an embedding program's handler is left alone); regions
    nest, and leaving the outermost puts Python's back and forgets the request, unless
    ``until_exit`` (a command's own process) and a Ctrl-C stopped the work: then the process
    is on its way out, and a second Ctrl-C while it exits still ends it at once, exit 130.
    """
    outer = _STOP.depth == 0
    installed = outer and _install()
    named = bool(again) and not _STOP.again
    if named:
        _STOP.again = again
    _STOP.depth += 1
    try:
        yield
    finally:
        _STOP.depth -= 1
        if named and not _STOP.asked:  # asked: the hint stays for a second Ctrl-C
            _STOP.again = ""
        if outer and not (until_exit and _STOP.asked):
            _forget(installed)


def _forget(installed: bool) -> None:
    if installed:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    _STOP.asked = False
    _STOP.again = ""


def _install() -> bool:
    if threading.current_thread() is not threading.main_thread():
        return False
    if signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        return False
    signal.signal(signal.SIGINT, _interrupted)
    return True


def _interrupted(signum: int, frame: object) -> None:
    """The SIGINT handler: ask (and wake the loop), or, asked already, end now."""
    if _STOP.asked:
        os.write(2, f"{_STOP.again or AGAIN}\n".encode())
        os._exit(128 + signal.SIGINT)
    _STOP.asked = True
    if _STOP.wake is not None:
        _STOP.wake()


def check() -> None:
    """A safe point: raise ``KeyboardInterrupt`` here when a stop was asked."""
    if _STOP.asked:
        raise KeyboardInterrupt


def run_stoppable(main: Coroutine[Any, Any, T]) -> T:
    """``asyncio.run(main)``, stopped when asked (before, or meanwhile).

    Asked meanwhile, ``main`` is cancelled at its next await and winds down (its ``finally``
    blocks all run: the writer commits what was handed over), then ``KeyboardInterrupt``.
    """
    import asyncio  # ~0.025 CPU s, loaded by the work that runs a loop, not at a start (issue 31)

    with stoppable():
        if _STOP.asked:
            main.close()  # never started: nothing to wind down
            raise KeyboardInterrupt
        try:
            return asyncio.run(_wakeable(main))
        except asyncio.CancelledError:
            if _STOP.asked:
                raise KeyboardInterrupt from None
            raise


async def _wakeable(main: Coroutine[Any, Any, T]) -> T:
    import asyncio  # loaded by run_stoppable, which awaits this

    loop = asyncio.get_running_loop()
    task = asyncio.current_task()
    assert task is not None

    def wake() -> None:
        # The handler runs between two bytecodes of the loop itself: it only schedules the
        # cancel, which the loop then does between two steps.
        loop.call_soon_threadsafe(task.cancel)

    previous, _STOP.wake = _STOP.wake, wake
    try:
        if _STOP.asked:  # asked while the loop started
            task.cancel()
        return await main
    finally:
        _STOP.wake = previous
