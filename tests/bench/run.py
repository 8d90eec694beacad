"""``make bench``: every figure of issue 13 with its goal and how far it is.

The machines are shared and noisy, so absolute numbers mean little: each figure is a ratio
to a baseline measured in the same run, or a rate, and every case is repeated with the
repeats *interleaved* (A B C, A B C, ...) so that a slow minute hits all of them alike.
Each line shows min / median / max over the repeats; the goal is judged on the median.

``POLYGON_BENCH_SCALE`` (default 1.0) scales the sizes: at 1.0 the log is 1M events and
the CLI table runs 1,000 and 20,000 calls (several minutes); 0.1 is a quick look.
``POLYGON_BENCH_REPEATS`` (default 5) sets the repeats. ``python -m tests.bench.run scale``
(``make bench-scale``) runs only the CLI table, whose largest size ``POLYGON_BENCH_CALLS``
sets (e.g. 100000; see tests/bench/scale.py); ``python -m tests.bench.run throughput`` only
issue 31's throughput figures (the whole run beside the writer alone, and beside Inspect AI).
"""

from __future__ import annotations

import os
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import lmdb
import msgspec

from polygon.events import LmdbLog, Pending, identity
from polygon.events.families import TurnSpoken
from tests.bench.raw_log import HandWriter
from tests.bench.raw_log import scan as raw_scan

if TYPE_CHECKING:
    from tests.bench.scale import Measured

SCALE = float(os.environ.get("POLYGON_BENCH_SCALE", "1.0"))
REPEATS = int(os.environ.get("POLYGON_BENCH_REPEATS", "5"))
BATCH = 500
TEXT = "I'd like to book a cleaning"


@dataclass(frozen=True)
class Figure:
    """A measured figure: its repeats, and the goal it is held to."""

    name: str
    values: Sequence[float]
    unit: str
    goal: float
    higher_is_better: bool = True

    def line(self) -> str:
        lo, mid, hi = min(self.values), statistics.median(self.values), max(self.values)
        meets = mid >= self.goal if self.higher_is_better else mid <= self.goal
        sign = ">=" if self.higher_is_better else "<="
        far = mid / self.goal if self.goal else 0.0
        verdict = "meets" if meets else "MISSES"
        if not self.goal:  # context for the figures around it, held to no goal of its own
            return f"{self.name:<46} {_fmt(mid)} {self.unit} (min {_fmt(lo)}, max {_fmt(hi)})"
        return (
            f"{self.name:<46} {_fmt(mid)} {self.unit} (min {_fmt(lo)}, max {_fmt(hi)}) · "
            f"goal {sign} {_fmt(self.goal)} · {verdict} ({far:.2f} of the goal)"
        )


def _fmt(x: float) -> str:
    return f"{x:,.0f}" if abs(x) >= 100 else f"{x:.2f}"


def interleaved(cases: dict[str, Callable[[], float]], repeats: int = REPEATS) -> dict[str, list[float]]:
    """Each case ``repeats`` times, round-robin."""
    out: dict[str, list[float]] = {name: [] for name in cases}
    for _ in range(repeats):
        for name, case in cases.items():
            out[name].append(case())
    return out


def ratios(a: Sequence[float], b: Sequence[float]) -> list[float]:
    """Per-repeat ratios (each pair measured moments apart)."""
    return [x / y for x, y in zip(a, b, strict=True)]


# ---------------------------------------------------------------------------- the log


def _events(n: int, convs: int, start: int = 0) -> list[TurnSpoken]:
    return [
        TurnSpoken(conversation_id=f"c{i % convs}", turn=i, speaker="caller", text=TEXT)
        for i in range(start, start + n)
    ]


def _pending(events: list[TurnSpoken]) -> list[Pending]:
    return [
        Pending(
            stream=f"conv/{e.conversation_id}",
            identity=identity(run="b", conversation=e.conversation_id, turn=e.turn, kind="turn"),
            event=e,
        )
        for e in events
    ]


def _fresh(path: Path) -> None:
    shutil.rmtree(path, ignore_errors=True)


def _timed(fn: Callable[[], object]) -> float:
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def append_cases(tmp: Path, n: int) -> dict[str, Callable[[], float]]:
    """Events per second: ours, format 2 by hand (the same trees and work), and one bare tree
    of plain msgpack payloads (no index, no hash, no compression: context only)."""
    pending = _pending(_events(n, 1000))  # identities are the writer's work, not the log's
    enc = msgspec.msgpack.Encoder()

    def ours() -> float:
        _fresh(tmp / "ours")
        with LmdbLog(tmp / "ours") as log:
            return n / _timed(lambda: [log.append(pending[i : i + BATCH]) for i in range(0, n, BATCH)])

    def like_for_like() -> float:
        # Format 2 by hand (tests/bench/raw_log.py): the same six trees, records, interned
        # names and zstd dictionary, encoded, hashed and compressed as ours does, with
        # py-lmdb, msgspec and zstandard called directly. What is left is our code.
        _fresh(tmp / "rawix")
        writer = HandWriter(tmp / "rawix")
        rate = n / _timed(lambda: [writer.append(pending[i : i + BATCH]) for i in range(0, n, BATCH)])
        writer.close()
        return rate

    def bare() -> float:
        _fresh(tmp / "raw")
        env = lmdb.open(str(tmp / "raw"), map_size=1 << 32, max_dbs=2, sync=True, metasync=True)
        db = env.open_db(b"events")

        def write() -> None:
            seq = 0
            for i in range(0, n, BATCH):
                with env.begin(write=True, db=db) as txn:
                    for p in pending[i : i + BATCH]:
                        seq += 1
                        txn.put(seq.to_bytes(8, "big"), enc.encode(p.event), append=True)

        rate = n / _timed(write)
        env.close()
        return rate

    return {"ours": ours, "like_for_like": like_for_like, "bare": bare}


def scan_cases(path: Path, n: int) -> dict[str, Callable[[], float]]:
    """Events per second, scanned and decoded: ours (``read_all``), and format 2 read by hand
    (tests/bench/raw_log.py: py-lmdb, zstandard with the log's dictionaries, msgspec into a
    struct of the known type, the envelope's fields filled in from the names and times)."""

    def ours() -> float:
        with LmdbLog(path, readonly=True) as log:
            return n / _timed(lambda: sum(1 for _ in log.read_all()))

    def raw() -> float:
        return n / _timed(lambda: raw_scan(path))

    return {"ours": ours, "raw": raw}


def build_log(path: Path, n: int) -> None:
    """``n`` events in ``n / 20`` conversations, written the way a run writes them."""
    with LmdbLog(path, map_size=1 << 30) as log:
        step = 20_000
        for start in range(0, n, step):
            batch = _pending(_events(min(step, n - start), max(n // 20, 1), start))
            for i in range(0, len(batch), 5000):
                log.append(batch[i : i + 5000])


# ---------------------------------------------------------------------------- one call in a big log


def one_call_cases(tmp: Path, small: int, large: int) -> dict[str, Callable[[], float]]:
    """Seconds for ``replay`` and ``explain`` of one real call, in a log padded to ``small``
    and to ``large`` events."""
    from polygon.app.explain import explain_conversation
    from polygon.app.replay import load_conversation
    from polygon.app.run import RunOptions, run_suite
    from polygon.suite.loading import load_suite
    from tests.support.examples import clinic_suite_path

    for name, size in (("small", small), ("large", large)):
        build_log(tmp / name, size)
        with LmdbLog(tmp / name, map_size=1 << 30) as log:
            run_suite(load_suite(clinic_suite_path()), log, RunOptions(run_id="one"), now=lambda: "")
    call = "one.v1.coop-booking.0"

    def case(name: str, what: str) -> Callable[[], float]:
        def go() -> float:
            with LmdbLog(tmp / name, readonly=True) as log:
                if what == "replay":
                    return min(_timed(lambda: load_conversation(log, call)) for _ in range(20))
                return min(_timed(lambda: explain_conversation(log, call, None)) for _ in range(20))

        return go

    return {f"{w}_{n}": case(n, w) for w in ("replay", "explain") for n in ("small", "large")}


# ---------------------------------------------------------------------------- the CLI


def startup_cases() -> dict[str, Callable[[], float]]:
    """CPU seconds of ``polygon --version``, ``--help`` and each command's ``--help``
    (tests/bench/startup.py says why CPU, and why the bytecode is compiled first)."""
    from tests.bench.startup import help_cases

    return help_cases()


def startup_figures(got: dict[str, list[float]], what: str = "--help") -> list[Figure]:
    """Issue 31: every command starts in 0.3 s; the slowest is held to it, each is shown beside."""
    slowest = max(got, key=lambda k: statistics.median(got[k]))
    figures = [
        Figure(f"slowest command's {what} ({slowest}, CPU)", got[slowest], "s", 0.3, higher_is_better=False)
    ]
    figures.extend(Figure(f"  polygon {name} {what}", got[name], "s", 0) for name in sorted(got))
    return figures


def command_start_figures() -> list[Figure]:
    """Each command's real start: the CLI and what the command imports before its work (CPU).

    ``polygon X start`` below is that, not ``--help``."""
    from tests.bench.startup import command_start_cases

    return startup_figures(interleaved(command_start_cases()), "start")


def command_first_work_figures(tmp: Path) -> list[Figure]:
    """The start and then the first validation (suite, languages and rubric, probe file): where the
    validators a start no longer builds (pydantic's ``defer_build``) are paid, held to no goal."""
    from tests.bench.startup import command_first_work_cases

    (tmp / "first").mkdir()
    got = interleaved(command_first_work_cases(tmp / "first"))
    return [Figure(f"  polygon {name} start + first work (CPU)", got[name], "s", 0) for name in sorted(got)]


def command_whole_figures(tmp: Path) -> list[Figure]:
    """The same commands run to their end on a small input: context for the start figures (a
    cost moved from import to first use is no saving there), held to no goal."""
    from tests.bench.startup import command_whole_cases

    (tmp / "whole").mkdir()
    got = interleaved(command_whole_cases(tmp / "whole"))
    return [Figure(f"  polygon {name} whole (CPU)", got[name], "s", 0) for name in sorted(got)]


def throughput_figures(tmp: Path, n: int) -> list[Figure]:
    """Issue 31's throughput goals: the whole run beside the writer alone (its events/s), and
    the same workload through Inspect AI (``python -m tests.bench.run throughput`` alone)."""
    from tests.bench import inspect_baseline
    from tests.bench.pipeline import measure

    figures: list[Figure] = []
    writer_alone = append_cases(tmp, n)["ours"]
    runs, alone = [], []
    for _ in range(REPEATS):  # each run beside the writer alone, moments apart
        runs.append(measure(conversations=max(50, int(1000 * SCALE)), turns=10))
        alone.append(writer_alone())
    figures.append(Figure("simulation alone", [r.exchanges_per_s for r in runs], "exchanges/s", 5000))
    figures.append(Figure("whole run (calls of 10 exchanges)", [r.calls_per_s for r in runs], "calls/s", 300))
    figures.append(Figure("  main thread CPU per call", [r.main_ms_per_call for r in runs], "ms", 0))
    figures.append(Figure("  writer thread CPU per call", [r.writer_ms_per_call for r in runs], "ms", 0))
    figures.append(Figure("  scoring process CPU per call", [r.scoring_ms_per_call for r in runs], "ms", 0))
    run_rates = [r.events_per_s for r in runs]
    figures.append(Figure("  its events committed", run_rates, "events/s", 0))
    figures.append(Figure("  ÷ the writer's events/s alone (issue 31)", ratios(run_rates, alone), "", 0.5))
    if inspect_baseline.installed():  # issue 31: the same workload through Inspect AI
        figures.extend(inspect_baseline.figures(max(3, REPEATS // 2), calls=max(30, int(300 * SCALE))))
    else:
        print("Inspect AI baseline: skipped (pip install 'polygon-eval[bench]')")
    return figures


def main() -> None:
    from tests.bench.accuracy.run import main as verdict_accuracy

    verdict_accuracy()  # issue 32: right / false pass / false fail / simulator_error per domain
    tmp = Path(tempfile.mkdtemp(prefix="polygon-bench-"))
    figures: list[Figure] = []
    try:
        n = int(50_000 * SCALE)
        got = interleaved(append_cases(tmp, n))
        figures.append(Figure(f"append {n:,} events, batches of {BATCH}", got["ours"], "events/s", 0))
        figures.append(
            Figure(
                "  ÷ raw writing format 2 by hand (same trees, zstd)",
                ratios(got["ours"], got["like_for_like"]),
                "",
                0.7,
            )
        )
        figures.append(Figure("  ÷ raw writing one bare tree", ratios(got["ours"], got["bare"]), "", 0))

        build_log(tmp / "scan", n)
        got = interleaved(scan_cases(tmp / "scan", n))
        figures.append(Figure(f"scan + decode {n:,} events", got["ours"], "events/s", 0))
        figures.append(Figure("  ÷ raw decoding the same records", ratios(got["ours"], got["raw"]), "", 0.5))

        small, large = 10_000, int(1_000_000 * SCALE)
        got = interleaved(one_call_cases(tmp, small, large), repeats=max(1, REPEATS // 2))
        for what in ("replay", "explain"):
            ratio = ratios(got[f"{what}_large"], got[f"{what}_small"])
            label = f"{what} of one call, {large:,}- vs {small:,}-event log"
            figures.append(Figure(label, ratio, "×", 1.5, higher_is_better=False))

        figures.extend(throughput_figures(tmp, n))

        got = interleaved(startup_cases())
        figures.append(Figure("polygon --version (CPU)", got.pop("--version"), "s", 0.3, higher_is_better=False))
        figures.append(Figure("polygon --help (CPU)", got.pop("--help"), "s", 0.3, higher_is_better=False))
        figures.extend(startup_figures(got))
        figures.extend(command_start_figures())
        figures.extend(command_first_work_figures(tmp))
        figures.extend(command_whole_figures(tmp))

        from tests.bench.model_calls import measure as measure_calls

        calls = [measure_calls()[1] for _ in range(REPEATS)]
        figures.append(Figure("model calls at concurrency 32, ÷ the ideal 160/s", calls, "", 0.85))
        figures.extend(lint_figures())
        speed = lint_speed()
        figures.extend(speed.figures)
        for figure in figures:
            print(figure.line(), flush=True)
        print(speed.table, flush=True)

        from tests.bench.lint_corpus import main as lint_corpus

        lint_corpus()
        from tests.bench.ray_exec import main as ray_exec

        try:
            ray_exec()
        except ImportError:
            print("Ray executor: skipped (pip install 'polygon-eval[ray]')")
        scale_table(figures)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def lint_figures() -> list[Figure]:
    """Each offline lint tier on a 1,500-word prompt, and the three together."""
    from tests.bench.lint_corpus import rules_ms_per_thousand_words, rules_time_per_prompt, tier_time_cases

    got = interleaved(tier_time_cases(), repeats=max(1, REPEATS // 2))
    together = [sum(t) for t in zip(*got.values(), strict=True)]
    per_prompt = [rules_time_per_prompt() for _ in range(REPEATS)]
    per_thousand = [rules_ms_per_thousand_words() for _ in range(REPEATS)]
    return [
        Figure("lint, rules tier, median corpus prompt", per_prompt, "ms", 10, higher_is_better=False),
        Figure(
            "lint, rules tier, per 1,000 words (long prompts)", per_thousand, "ms", 10, higher_is_better=False
        ),
        Figure("lint, rules tier, 1,500-word prompt", [1000 * t for t in got["rules"]], "ms", 0),
        Figure("lint, embeddings tier, 1,500-word prompt", got["embeddings"], "s", 0),
        Figure("lint, surprisal tier, 1,500-word prompt", got["surprisal"], "s", 0),
        Figure("lint, all offline tiers, 1,500-word prompt", together, "s", 3, higher_is_better=False),
    ]


@dataclass(frozen=True)
class LintSpeed:
    """Issue 31's lint table, and the all-offline-tiers figures held to its 3 s goal."""

    table: str
    figures: list[Figure]


def lint_speed() -> LintSpeed:
    """Each tier set on a 1,500-word prompt, cold / warm / after a one-sentence edit.

    The repeats are interleaved (every tier set and case, then again), each tier set
    starting from an empty tiers' cache, the models loaded beforehand.
    """
    from tests.bench.lint_corpus import loaded_models, speed_samples, speed_table

    e5, llm, loads = loaded_models()
    repeats = max(1, (REPEATS + 1) // 2)
    samples = speed_samples(repeats, (e5, llm))
    title = (
        f"\nLint speed, 1,500-word prompt: wall s median (min–max) and median CPU s of {repeats} "
        "interleaved repeats (issue 31; `python -m tests.bench.lint_corpus speed` alone)\n"
    )
    every = "rules+embeddings+surprisal"
    figures = [
        Figure(
            f"lint, all offline tiers, {case} (wall)",
            [wall for _, wall in samples[(every, case)]],
            "s",
            3,
            higher_is_better=False,
        )
        for case in ("cold", "warm", "one edit")
    ]
    return LintSpeed(title + speed_table(samples, loads), figures)


def scale_table(figures: list[Figure]) -> None:
    """The CLI at 1,000 and 20,000 calls (× scale): memory flat, the big run's time."""
    from tests.bench.scale import big_calls, measure_scale, table, table_sizes, web_run_page
    from tests.bench.scale import warm_views as warm_runs

    big = big_calls(SCALE)
    with tempfile.TemporaryDirectory(prefix="polygon-scale-") as tmp:
        sizes = table_sizes(big)
        rows = [measure_scale(n, Path(tmp) / str(n)) for n in sizes]
        print(table(rows), flush=True)
        small_row, big_row = rows[0], rows[-1]
        logs = [_log(small_row), _log(big_row)]
        warm = warm_runs(logs, max(3, REPEATS)) if big > 1000 else []
        pages = web_run_page(logs, max(3, REPEATS)) if big > 1000 else []
    more = [
        Figure(
            f"run heap at {big:,} ÷ at 1,000 calls",
            [_heap(big_row, "run") / _heap(small_row, "run")],
            "×",
            1.3,
            higher_is_better=False,
        ),
        Figure(
            f"run of {big:,} calls (simulate, score, probe)",
            [_wall(big_row, "run")],
            "s",
            60 * big / 20_000,
            higher_is_better=False,
        ),
    ]
    for cmd in ("report", "report_json", "compare", "verify"):
        more.append(
            Figure(f"{cmd} heap at {big:,} calls", [_heap(big_row, cmd)], "MB", 300, higher_is_better=False)
        )
    if warm:
        more += warm_views(warm[0], warm[1], big)
    if pages:
        more += web_page_figures(pages[0], pages[1], big)
    stats = big_row["stats"]
    per_event = _bytes_per_event(stats)
    more.append(Figure("log file bytes per event (`polygon log stats` says where)", [per_event], "B", 0))
    for figure in more:
        print(figure.line(), flush=True)


def warm_views(small: dict[str, list[Measured]], big: dict[str, list[Measured]], calls: int) -> list[Figure]:
    """Each view from its snapshot at ``calls`` calls: its CPU s, and its ratio to 1,000 calls'
    (each repeat's pair measured moments apart, see :func:`tests.bench.scale.warm_views`).

    CPU, not wall: a view is one process on one core, and the wall of a shared box is noise.
    """
    out = []
    goal = 1 if calls <= 20_000 else 2  # issue 31: 1 s at 20,000 calls; 2 s at 100,000
    for view, measured in big.items():
        cpu = [m.cpu_s for m in measured]
        base = [max(m.cpu_s, 1e-9) for m in small[view]]
        out.append(Figure(f"{view} from a snapshot at {calls:,} calls (CPU)", cpu, "s", goal, higher_is_better=False))
        out.append(
            Figure(
                f"{view} from a snapshot, {calls:,} ÷ 1,000 calls",
                ratios(cpu, base),
                "×",
                1.2,
                higher_is_better=False,
            )
        )
    return out


def web_page_figures(small: list[float], big: list[float], calls: int) -> list[Figure]:
    """The web UI's run page, first view by a fresh server (see :func:`tests.bench.scale.web_run_page`)."""
    goal = 1 if calls <= 20_000 else 2  # issue 31, as for the CLI's views
    return [
        Figure(f"web run page, a new server, at {calls:,} calls (CPU)", big, "s", goal, higher_is_better=False),
        Figure(
            f"web run page, {calls:,} ÷ 1,000 calls",
            ratios(big, [max(x, 1e-9) for x in small]),
            "×",
            1.2,
            higher_is_better=False,
        ),
    ]


def _log(row: dict[str, object]) -> Path:
    log = row["log"]
    assert isinstance(log, Path)
    return log


def _heap(row: dict[str, object], cmd: str) -> float:
    from tests.bench.scale import Measured

    m = row[cmd]
    assert isinstance(m, Measured)
    return m.anon_mb


def _wall(row: dict[str, object], cmd: str) -> float:
    from tests.bench.scale import Measured

    m = row[cmd]
    assert isinstance(m, Measured)
    return m.wall_s


def _bytes_per_event(stats: object) -> float:
    from tests.bench.scale import Measured

    assert isinstance(stats, Measured)
    for line in stats.stdout.splitlines():
        if line.startswith("bytes per event"):
            return float(line.split()[3].replace(",", ""))
    return 0.0


if __name__ == "__main__":
    if sys.argv[1:] == ["scale"]:
        scale_table([])
    elif sys.argv[1:] == ["throughput"]:
        with tempfile.TemporaryDirectory(prefix="polygon-bench-") as where:
            for figure in throughput_figures(Path(where), int(50_000 * SCALE)):
                print(figure.line(), flush=True)
    else:
        main()
