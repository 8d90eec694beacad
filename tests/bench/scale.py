"""The run at scale, through the CLI: wall, CPU and peak RSS of each command at N calls.

The bundled clinic suite with its twelve personas copied ``m`` times and 42 trials, so
N ≈ 1,008 · m calls; every command runs in its own process (peak RSS is that process's, plus
what its children held privately: a run's scoring process), as a user would run it. ``python -m tests.bench.scale 1000 5000 20000`` prints the table.

``POLYGON_BENCH_CALLS`` sets the largest size of ``make bench``'s table (default 20,000 ×
``POLYGON_BENCH_SCALE``); ``POLYGON_BENCH_CALLS=100000 make bench-scale`` is the 100,000-call
run of issue 31 alone (about 7 minutes on 2 cores: 230 CPU s for the run, as much for its views).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "clinic"
TRIALS = 42
CALLS_PER_COPY = 12 * 2 * TRIALS  # personas × configurations × trials
CALLS_ENV = "POLYGON_BENCH_CALLS"


def big_calls(scale: float) -> int:
    """The largest size of the bench's table: ``$POLYGON_BENCH_CALLS``, else 20,000 × scale."""
    given = os.environ.get(CALLS_ENV, "").replace(",", "").replace("_", "")
    return max(1000, int(given) if given else int(20_000 * scale))


def table_sizes(big: int) -> list[int]:
    """1,000 calls (the baseline every ratio divides by), a middle size, and ``big``.

    The middle is a quarter of ``big`` but never over 5,000: at 100,000 calls a 25,000-call
    row would add a quarter to an hour-long table and no goal reads it.
    """
    return sorted({1000, max(1000, min(big // 4, 5000)), big})


@dataclass(frozen=True)
class Measured:
    """One command's cost: peak RSS, and the peak of its anonymous part (the heap; the rest
    is pages of the mapped log, which the kernel can drop at will)."""

    wall_s: float
    cpu_s: float
    rss_mb: float
    anon_mb: float
    stdout: str


class Peaks:
    """A process tree's peak memory, polled: the process's own peak RSS (the kernel's ``VmHWM``)
    plus the most its children ever held privately (a run's forked scoring process shares the
    run's pages: only what it copied or made is its own), and the peak of the anonymous part."""

    def __init__(self) -> None:
        self.hwm = self.children = self.anon = 0

    def poll(self, pid: int) -> None:
        hwm, heap = _memory_kb(pid)
        children = _children_private_kb(pid)
        self.hwm, self.children = max(self.hwm, hwm), max(self.children, children)
        self.anon = max(self.anon, heap + children)

    @property
    def rss_kb(self) -> int:
        """An upper bound: the two peaks need not have come at the same moment."""
        return self.hwm + self.children


def _children_private_kb(pid: int) -> int:
    """Memory a process's children hold and share with no one (``Private_*`` of smaps_rollup)."""
    total = 0
    for child in _children(pid):
        try:
            text = Path(f"/proc/{child}/smaps_rollup").read_text()
        except OSError:  # it ended meanwhile
            continue
        total += sum(int(m.group(1)) for m in re.finditer(r"^Private_\w+:\s+(\d+) kB", text, re.M))
    return total


def _children(pid: int) -> list[int]:
    found: list[int] = []
    try:
        tasks = list(Path(f"/proc/{pid}/task").iterdir())
    except OSError:
        return found
    for task in tasks:
        try:
            found += [int(c) for c in (task / "children").read_text().split()]
        except OSError:
            continue
    return found


def _memory_kb(pid: int) -> tuple[int, int]:
    """(peak RSS, current anonymous RSS) of a live process, from /proc (ru_maxrss would
    also count the forking parent's pages)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return 0, 0
    found = [re.search(rf"{k}:\s+(\d+) kB", status) for k in ("VmHWM", "RssAnon")]
    hwm, anon = (int(f.group(1)) if f else 0 for f in found)
    return hwm, anon


def polygon(log: Path, *args: str) -> Measured:
    """Run ``polygon ARGS`` in a child process; its wall time, CPU time and peak RSS."""
    cmd = [str(Path(sys.executable).parent / "polygon"), "--log", str(log), *args]
    t0 = time.perf_counter()
    peaks = Peaks()
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        proc = subprocess.Popen(cmd, stdout=out, stderr=err)
        while True:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)  # its CPU includes its children's
            if pid:
                break
            peaks.poll(proc.pid)
            time.sleep(0.005)
        proc.returncode = os.waitstatus_to_exitcode(status)
        wall = time.perf_counter() - t0
        out.seek(0)
        err.seek(0)
        text, problems = out.read(1 << 20).decode(errors="replace"), err.read().decode()
    if proc.returncode not in (0, 1):
        raise RuntimeError(f"polygon {' '.join(args)} failed: {problems[-2000:]}")
    return Measured(wall, usage.ru_utime + usage.ru_stime, peaks.rss_kb / 1024, peaks.anon / 1024, text)


def scaled_suite(where: Path, copies: int) -> Path:
    """The clinic example with its personas copied ``copies`` times (new ids) and 42 trials."""
    suite = where / "clinic"
    shutil.copytree(EXAMPLE, suite, ignore=shutil.ignore_patterns("__pycache__"))
    text = (suite / "suite.yaml").read_text()
    head, personas = text.split("\npersonas:\n", 1)
    lines = [ln for ln in personas.splitlines() if ln.strip()]
    entries: list[str] = []
    for line in lines:
        if line.lstrip().startswith("- "):
            entries.append(line)
        else:
            entries[-1] += "\n" + line
    copied = [re.sub(r"\{id: ([\w-]+)", rf"{{id: \1-{k}", entry) for k in range(copies) for entry in entries]
    head = re.sub(r"\ntrials: \d+", f"\ntrials: {TRIALS}", head)
    (suite / "suite.yaml").write_text(head + "\npersonas:\n" + "\n".join(copied) + "\n")
    return suite


def measure_scale(calls: int, where: Path | None = None) -> dict[str, Measured | float | int | Path]:
    """Every command of the table at about ``calls`` calls (the log under ``where``, kept
    there for :func:`warm_views` when given; in a folder removed after, when not)."""
    if where is None:
        with tempfile.TemporaryDirectory(prefix="polygon-scale-") as tmp:
            return measure_scale(calls, Path(tmp))
    copies = max(1, round(calls / CALLS_PER_COPY))
    where.mkdir(parents=True, exist_ok=True)
    suite = scaled_suite(where, copies)
    log = where / "log"
    run = polygon(log, "run", str(suite), "--run-id", "scale", "--json", "--no-progress", "--concurrency", "32")
    summary = json.loads(run.stdout)
    one = f"scale.v1.coop-booking-0.{TRIALS - 1}"
    return {
        "calls": int(summary["conversations"]),
        "log": log,
        "run": run,
        "log_mb": sum(f.stat().st_size for f in log.iterdir() if f.is_file()) / 1e6,
        "report": polygon(log, "report", "scale"),
        "report_json": polygon(log, "report", "scale", "--format", "json"),
        "compare": polygon(log, "compare", "scale"),
        "explain": polygon(log, "explain", one),
        "replay": polygon(log, "replay", one),
        "verify": polygon(log, "log", "verify"),
        "stats": polygon(log, "log", "stats"),
    }


WARM_VIEWS = {
    "report": ("report", "scale"),
    "report_json": ("report", "scale", "--format", "json"),
    "compare": ("compare", "scale"),
}
"""Views timed again from the snapshots their first time saved (issue 31: <= 1 s at 20k,
<= 1.2x their time at 1k)."""


def warm_views(logs: list[Path], repeats: int) -> list[dict[str, list[Measured]]]:
    """Each of :data:`WARM_VIEWS` on each log, ``repeats`` times round-robin (a log's views
    moments apart from the other's: a ratio of the two is not a ratio of two moments' load).

    Each view writes to a new file, as the table's first views do.
    """
    out: list[dict[str, list[Measured]]] = [{view: [] for view in WARM_VIEWS} for _ in logs]
    for _ in range(repeats):
        for view, args in WARM_VIEWS.items():
            for log, measured in zip(logs, out, strict=True):
                measured[view].append(polygon(log, *args))
    return out


def web_run_page(logs: list[Path], repeats: int) -> list[list[float]]:
    """The run page's first view by a server just started on each log (its CPU seconds),
    ``repeats`` times round-robin, once the page has been saved by a server before them.

    Issue 31: a restart, or a second server, paid the whole fold again (11-18 s at 20k calls).
    CPU is summed over the server's threads from ``/proc/<pid>/task/*/schedstat`` (ns) around
    the one request, so the server's start is not in it.
    """
    for log in logs:
        _page_view(log)  # the first view ever: folds the run and saves the page
    out: list[list[float]] = [[] for _ in logs]
    for _ in range(repeats):
        for log, measured in zip(logs, out, strict=True):
            measured.append(_page_view(log))
    return out


def _page_view(log: Path) -> float:
    import socket

    import httpx

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    binary = str(Path(sys.executable).parent / "polygon")
    proc = subprocess.Popen(
        [binary, "--log", str(log), "serve", "--port", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        _wait_until_up(base, proc)
        before = _cpu_ns(proc.pid)
        page = httpx.get(f"{base}/runs/scale", timeout=600)
        spent = (_cpu_ns(proc.pid) - before) / 1e9
        if page.status_code != 200 or "scale" not in page.text:
            raise RuntimeError(f"the run page answered {page.status_code}")
        return spent
    finally:
        proc.terminate()
        proc.wait(timeout=60)


def _wait_until_up(base: str, proc: subprocess.Popen[bytes]) -> None:
    import httpx

    for _ in range(600):
        try:
            httpx.get(base + "/favicon.ico", timeout=5)
            return
        except httpx.HTTPError:
            if proc.poll() is not None:
                raise RuntimeError("polygon serve ended before it answered") from None
            time.sleep(0.05)
    raise RuntimeError("polygon serve did not answer in 30 s")


def _cpu_ns(pid: int) -> int:
    """The CPU time of every thread of ``pid`` so far, in ns."""
    total = 0
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            total += int((task / "schedstat").read_text().split()[0])
        except (OSError, ValueError, IndexError):
            continue  # a thread that ended meanwhile
    return total


COLUMNS = ("run", "report", "report_json", "compare", "explain", "replay", "verify")


def table(rows: list[dict[str, Measured | float | int | Path]]) -> str:
    """A markdown table: one row per scale, wall / CPU / peak RSS per command."""
    head = "| calls | log MB | " + " | ".join(f"{c} wall/CPU s, RSS/heap MB" for c in COLUMNS) + " |"
    lines = [head, "|" + "---|" * (len(COLUMNS) + 2)]
    for row in rows:
        cells = [f"{row['calls']:,}", f"{row['log_mb']:.0f}"]
        for c in COLUMNS:
            m = row[c]
            assert isinstance(m, Measured)
            cells.append(f"{m.wall_s:.1f}/{m.cpu_s:.1f}, {m.rss_mb:.0f}/{m.anon_mb:.0f}")
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main() -> None:
    sizes = [int(a) for a in sys.argv[1:]] or [1000, 5000]
    rows = []
    for n in sizes:
        row = measure_scale(n)
        rows.append(row)
        print(table([row]).splitlines()[-1], flush=True)
    print(table(rows))


if __name__ == "__main__":
    main()
