"""Ctrl-C within long work: asked, never raised where it lands; the loop winds down, then it raises.

Real SIGINTs sent to this process (the first one only asks, so none ends the test run); the
second Ctrl-C, which ends its process, is sent to a child.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import textwrap
import threading

import pytest

from polygon.app.stopping import check, run_stoppable, stoppable


def _ctrl_c() -> None:
    os.kill(os.getpid(), signal.SIGINT)


def test_a_ctrl_c_within_only_asks_and_the_next_safe_point_raises() -> None:
    reached = []
    with stoppable():
        _ctrl_c()
        reached.append("after the signal")  # it did not raise where it landed
        with pytest.raises(KeyboardInterrupt):
            check()
    assert reached == ["after the signal"]
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    check()  # leaving the region forgot the request


def test_the_loop_is_cancelled_at_its_next_await_and_its_finally_blocks_run() -> None:
    wound_down = []

    async def work() -> None:
        try:
            _ctrl_c()
            wound_down.append("the signal landed")  # the handler only scheduled the cancel
            await asyncio.sleep(60)
        finally:
            await asyncio.sleep(0)  # a wind-down may await (the writer's pump, the hub's close)
            wound_down.append("finally")

    with pytest.raises(KeyboardInterrupt):
        run_stoppable(work())
    assert wound_down == ["the signal landed", "finally"]
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_asked_before_the_loop_starts_nothing_runs() -> None:
    ran = []

    async def work() -> None:
        ran.append("ran")

    with stoppable(), pytest.raises(KeyboardInterrupt):
        _ctrl_c()
        run_stoppable(work())
    assert ran == []


def test_work_that_ends_without_a_ctrl_c_returns_its_result() -> None:
    async def work() -> int:
        await asyncio.sleep(0)
        return 7

    assert run_stoppable(work()) == 7


def test_an_embedding_programs_own_handler_is_left_alone() -> None:
    heard = []
    previous = signal.signal(signal.SIGINT, lambda signum, frame: heard.append(signum))
    try:
        with stoppable():
            _ctrl_c()
            check()  # not asked: the program's handler heard it
        assert heard == [signal.SIGINT]
    finally:
        signal.signal(signal.SIGINT, previous)


def test_off_the_main_thread_nothing_is_installed() -> None:
    seen = []

    def body() -> None:
        with stoppable():
            seen.append(signal.getsignal(signal.SIGINT))

    thread = threading.Thread(target=body)
    thread.start()
    thread.join()
    assert seen == [signal.default_int_handler]


SECOND = textwrap.dedent(
    """
    import os, signal, time
    from polygon.app.stopping import stoppable

    with stoppable(again="error: again, the outer one's hint"):
        with stoppable(again="error: the inner one's hint"):
            os.kill(os.getpid(), signal.SIGINT)
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(60)
    print("never reached")
    """
)


def test_a_second_ctrl_c_ends_the_process_at_once_with_one_line() -> None:
    done = subprocess.run(
        [sys.executable, "-c", SECOND], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 130, done.stderr
    assert done.stdout == ""
    assert done.stderr == "error: again, the outer one's hint\n"


EXITING = textwrap.dedent(
    """
    import os, signal, time
    from polygon.app.stopping import check, stoppable

    try:
        with stoppable(until_exit=True):
            os.kill(os.getpid(), signal.SIGINT)
            check()
    except KeyboardInterrupt:
        print("stopped", flush=True)
    os.kill(os.getpid(), signal.SIGINT)  # the process is on its way out
    time.sleep(60)
    print("never reached")
    """
)


def test_a_command_stopped_by_ctrl_c_still_ends_at_once_on_a_second_one_as_it_exits() -> None:
    done = subprocess.run(
        [sys.executable, "-c", EXITING], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 130, done.stderr
    assert done.stdout == "stopped\n"
    assert done.stderr.startswith("error: interrupted again (Ctrl-C): ended at once;"), done.stderr
