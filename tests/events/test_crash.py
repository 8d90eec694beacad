"""SIGKILL a writer at random moments: acknowledged events survive, nothing duplicates."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

from polygon.events import LmdbLog

KILLS = int(os.environ.get("POLYGON_CRASH_KILLS", "30"))


def test_killed_writer_loses_no_acknowledged_event(tmp_path: Path) -> None:
    seed = int(os.environ.get("POLYGON_TEST_SEED", random.SystemRandom().randrange(2**31)))
    rng = random.Random(seed)
    print(f"crash test seed {seed}")
    path = tmp_path / "log"
    acknowledged: dict[int, list[int]] = {}
    next_batch = 0
    for _ in range(KILLS):
        proc = subprocess.Popen(
            [sys.executable, "-m", "tests.events.crash_writer", str(path), str(next_batch)],
            stdout=subprocess.PIPE,
            text=True,
            cwd=Path(__file__).parents[2],
        )
        # Kill at a random moment once the writer is writing (its first acknowledgement is the
        # step we wait for): how long it takes to start is the machine's business, not the test's.
        assert proc.stdout is not None
        first = proc.stdout.readline()
        time.sleep(rng.uniform(0.0, 0.35))
        proc.send_signal(signal.SIGKILL)
        out, _ = proc.communicate(timeout=30)
        for line in (first + out).splitlines():
            batch, seqs = line.split()
            acknowledged[int(batch)] = [int(s) for s in seqs.split(",")]
        # Restart after the last acknowledged batch; the unacknowledged one may or may not
        # have committed, and replaying it must be a no-op if it did.
        next_batch = max(acknowledged, default=-1) + 1 - rng.randint(0, 1)
    with LmdbLog(path) as log:
        report = log.verify()
        assert report.ok, f"seed {seed}: {report.problem}"
        identities = [e.identity for e in log.read_all()]
        assert len(identities) == len(set(identities)), f"seed {seed}: duplicated events"
        stored = {e.seq: (e.payload.conversation_id, e.payload.turn) for e in log.read_all()}
    assert acknowledged, "the writer never got to acknowledge a batch"
    for batch, seqs in acknowledged.items():
        assert [stored.get(s) for s in seqs] == [(str(batch), i) for i in range(20)], f"seed {seed}"
