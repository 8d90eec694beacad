"""Progress without a terminal: a plain line every few seconds (CI logs), quiet for short jobs."""

from __future__ import annotations

import io
import time

from polygon.cli.progress import Reporter


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_plain_lines_every_few_seconds_with_errors_so_far() -> None:
    out, clock = io.StringIO(), Clock()
    with Reporter("conversations", "lines", every_s=5, stream=out, clock=clock) as shown:
        shown.update(1, 10)
        clock.now = 6.0
        shown.note("agent_error")
        shown.note("hangup")
        shown.update(4, 10)
        clock.now = 8.0
        shown.update(5, 10)  # within 5 s of the last line: nothing
        clock.now = 12.0
        shown.note("simulator_error")
        shown.update(10, 10)
    lines = out.getvalue().splitlines()
    assert lines[0] == "conversations: 4/10 (0.7/s), 1 errors (agent_error 1), 6 s"
    assert lines[1] == "conversations: 10/10 (0.8/s), 2 errors (agent_error 1, simulator_error 1), 12 s"
    assert lines[-1].startswith("conversations: 10/10")  # the final count on exit
    assert len(lines) == 3


def test_a_short_job_prints_nothing() -> None:
    out, clock = io.StringIO(), Clock()
    with Reporter("judging", "lines", stream=out, clock=clock) as shown:
        shown.update(24, 24)
    assert out.getvalue() == ""


def test_off_prints_nothing() -> None:
    out, clock = io.StringIO(), Clock()
    with Reporter("x", "off", stream=out, clock=clock) as shown:
        clock.now = 100.0
        shown.update(1, 1)
    assert out.getvalue() == ""


def test_a_second_stage_counts_anew_under_its_own_label() -> None:
    out, clock = io.StringIO(), Clock()
    with Reporter("conversations", "lines", every_s=5, stream=out, clock=clock) as shown:
        scoring = shown.staged("scored and probed")
        shown.note("agent_error")
        clock.now = 6.0
        shown.update(10, 10)
        scoring(1, 10)
        clock.now = 12.0
        scoring(8, 10)
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("conversations: 10/10") and "1 errors" in lines[0]
    assert lines[1] == "scored and probed: 8/10 (1.3/s), 6 s"


def test_the_line_keeps_coming_while_a_call_hangs() -> None:
    """trial39 defect 12: a call hung for minutes and stderr's last line stayed put (a run looking dead)."""
    out = io.StringIO()
    with Reporter("conversations", "lines", every_s=0.05, stream=out) as shown:
        shown.update(2, 3)
        time.sleep(0.5)  # no update: one call hangs
        while_hung = out.getvalue().splitlines()
    assert len(while_hung) >= 3, while_hung
    assert all(line.startswith("conversations: 2/3 (") for line in while_hung)
