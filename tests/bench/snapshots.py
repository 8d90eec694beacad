"""Views of a big run with and without its snapshot, and after more calls are appended.

``python -m tests.bench.snapshots 1000 [20000]``: runs the scaled clinic suite (see
:mod:`tests.bench.scale`) into a source log, copies it into a second log but for its last
100 calls, views the run there once (which saves its snapshot), appends those 100 calls,
then times ``report``, ``report --format json`` and ``compare`` (each its own process,
start-up included): after the append (the snapshot plus 100 calls' events), with an
up-to-date snapshot, and with snapshots switched off (the whole run folded).
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import time
from pathlib import Path

from polygon.events import Envelope, LmdbLog, Pending

from .scale import CALLS_PER_COPY, polygon, scaled_suite

HELD_BACK = 100
VIEWS = {
    "report": ("report", "scale"),
    "report_json": ("report", "scale", "--format", "json"),
    "compare": ("compare", "scale"),
}


def _copy(events: list[Envelope], into: LmdbLog) -> None:
    """Append ``events`` in their order, a batch per run of one stream (as a run commits)."""
    batch: list[Pending] = []
    for env in events:
        if batch and (batch[-1].stream != env.stream or len(batch) >= 5000):
            into.append(batch)
            batch = []
        batch.append(Pending(stream=env.stream, identity=env.identity, event=env.payload))
    if batch:
        into.append(batch)


def _split(source: Path) -> tuple[list[Envelope], list[Envelope]]:
    """The run's events without its last ``HELD_BACK`` calls, and those calls' events."""
    with LmdbLog(source, readonly=True) as log:
        events = list(log.read_all())
    started = [e.stream for e in events if e.tag == "conversation.started"]
    late = set(started[-HELD_BACK:])
    return [e for e in events if e.stream not in late], [e for e in events if e.stream in late]


def _views(log: Path, snapshots: str) -> dict[str, float]:
    os.environ["POLYGON_SNAPSHOTS"] = snapshots
    return {name: polygon(log, *args).wall_s for name, args in VIEWS.items()}


def prepare(calls: int, where: Path) -> dict[str, object]:
    """The run in ``where/source``; ``where/log`` holds it but its last calls (in ``where/late``)."""
    copies = max(1, round(calls / CALLS_PER_COPY))
    suite = scaled_suite(where, copies)
    source = where / "source"
    t0 = time.perf_counter()
    polygon(source, "run", str(suite), "--run-id", "scale", "--json", "--no-progress", "--concurrency", "32")
    ran = time.perf_counter() - t0
    early, late = _split(source)
    with LmdbLog(where / "log") as target:
        _copy(early, target)
    return {"calls": copies * CALLS_PER_COPY, "run_s": round(ran, 1), "events_appended": len(late)}


def measure(where: Path) -> dict[str, object]:
    """Each view's wall time (its own process) in the four states."""
    log = where / "log"
    first = _views(log, "1")  # folds the run without its last calls, saves the snapshot
    _, late = _split(where / "source")
    with LmdbLog(log) as target:
        _copy(late, target)
    appended = _views(log, "1")
    warm = _views(log, "1")
    plain = _views(log, "0")
    snap_mb = sum(f.stat().st_size for f in (log / "snapshots").iterdir()) / 1e6
    return {
        "snapshot_file_mb": round(snap_mb, 1),
        "no_snapshot": plain,
        "first_view_saving": first,
        "after_100_appended": appended,
        "snapshot_up_to_date": warm,
    }


def main() -> None:
    """``N [DIR]``: prepare the run in DIR (kept) unless it is there, then measure."""
    calls = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    with tempfile.TemporaryDirectory(prefix="polygon-snap-") as tmp:
        where = Path(sys.argv[2]) if len(sys.argv) > 2 else Path(tmp)
        where.mkdir(parents=True, exist_ok=True)
        made = prepare(calls, where) if not (where / "source").exists() else {}
        print(json.dumps({**made, **measure(where)}, indent=1), flush=True)


if __name__ == "__main__":
    main()


def _widened(env: Envelope, k: int) -> Pending:
    """``env`` as it would be in copy ``k`` of its run: each call's trial moved by ``k`` runs'
    worth (a new conversation id, stream and identity; the same content otherwise)."""
    import msgspec

    from polygon.events import digest

    payload, stream = env.payload, env.stream
    old = getattr(payload, "conversation_id", None) or stream.removeprefix("conv/")
    if stream.startswith("conv/"):
        head, trial = old.rsplit(".", 1)
        new = f"{head}.{int(trial) + 1000 * k}"
        stream = f"conv/{new}"
        if getattr(payload, "conversation_id", None) == old:
            payload = msgspec.structs.replace(payload, conversation_id=new)
        if hasattr(payload, "trial") and hasattr(payload, "run_id"):
            payload = msgspec.structs.replace(payload, trial=int(trial) + 1000 * k)
    identity = env.identity if k == 0 else digest(f"{env.identity}/{k}".encode())
    return Pending(stream=stream, identity=identity, event=payload)


def synthesize(source: Path, out: Path, copies: int) -> int:
    """A log at ``out`` holding ``copies`` times the calls of the run in ``source`` (one run).

    For measuring views at 20k calls without running 20k calls on a busy machine; the
    events are those of real calls (each copy's own ids), committed one call per batch.
    """
    with LmdbLog(source, readonly=True) as log:
        events = list(log.read_all())
    head = [e for e in events if not e.stream.startswith("conv/")]
    calls = [e for e in events if e.stream.startswith("conv/")]
    with LmdbLog(out) as target:
        _copy_pending([_widened(e, 0) for e in head], target)
        for k in range(copies):
            _copy_pending([_widened(e, k) for e in calls], target)
        return target.last_seq()


def _copy_pending(pending: list[Pending], into: LmdbLog) -> None:
    """Whole calls in batches of about 5,000 events (one durable commit each)."""
    batch: list[Pending] = []
    for p in pending:
        if len(batch) >= 5000 and batch[-1].stream != p.stream:
            into.append(batch)
            batch = []
        batch.append(p)
    if batch:
        into.append(batch)
