"""Snapshots of a run's fold: views are byte-identical with and without them, a snapshot is
resumed with only the events after it, and one that does not fit (another version, another
log, damaged) is ignored and rebuilt."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import msgspec
import pytest
import zstandard
from click.testing import CliRunner

from polygon.app import snapshots as snap
from polygon.app.compare import compare_runs
from polygon.app.outputs import compare_output, report_output
from polygon.app.report import report_run
from polygon.app.run import RunOptions, run_suite
from polygon.cli.main import cli
from polygon.events import Envelope, EventLog, LmdbLog, MemoryLog, Pending
from polygon.events.snapshots import SNAPSHOT_DIR, LmdbSnapshots, MemorySnapshots, NullSnapshots
from polygon.projections.report import make_report
from polygon.render import RENDERERS, Enforcement, comparison_json, comparison_lines, comparison_markdown
from polygon.suite.loading import load_suite
from tests.support.examples import clinic_suite_path

GOLDEN = Path(__file__).parents[1] / "golden" / "reports" / "clinic.txt"


@pytest.fixture(scope="module")
def source() -> list[Envelope]:
    """A clinic run's events (two configurations, judged and probed) in log order."""
    log = MemoryLog()
    run_suite(load_suite(clinic_suite_path()), log, RunOptions(run_id="g"), now=lambda: "")
    return list(log.read_all())


def _copy(events: list[Envelope], into: EventLog) -> None:
    """Append ``events`` as the source log committed them (one batch per stream run)."""
    batch: list[Pending] = []
    for env in events:
        if batch and batch[-1].stream != env.stream:
            into.append(batch)
            batch = []
        batch.append(Pending(stream=env.stream, identity=env.identity, event=env.payload))
    if batch:
        into.append(batch)


def _views(log: EventLog, monkeypatch: pytest.MonkeyPatch, switch: str) -> list[bytes]:
    """Every report format and the comparison of the run's configurations, as the CLI writes them."""
    monkeypatch.setenv(snap.SWITCH, switch)
    out = []
    for fmt in RENDERERS:
        chunks, _reasons = report_output(log, "g", fmt, asked=Enforcement())
        out.append(b"".join(chunks))
    for fmt in ("text", "markdown", "json"):
        out.append(b"".join(compare_output(log, ["g"], fmt)))
    return out


def _plain_views(log: EventLog, monkeypatch: pytest.MonkeyPatch) -> list[bytes]:
    """The same views made by the use cases themselves, with no snapshot of any kind."""
    monkeypatch.setenv(snap.SWITCH, "0")
    out = []
    for fmt in RENDERERS:
        _report, chunks = report_run(log, "g", fmt)
        out.append("".join(chunks).encode())
    compared = compare_runs(log, ["g"])
    out += [
        "".join(f"{line}\n" for line in comparison_lines(compared)).encode(),
        comparison_markdown(compared).encode(),
        comparison_json(compared).encode(),
    ]
    return out


@pytest.fixture
def lmdb_log(tmp_path: Path, source: list[Envelope]) -> Iterator[LmdbLog]:
    with LmdbLog(tmp_path / "log") as log:
        _copy(source, log)
        yield log


def test_every_view_is_byte_identical_with_and_without_a_snapshot(
    lmdb_log: LmdbLog, monkeypatch: pytest.MonkeyPatch
) -> None:
    plain = _plain_views(lmdb_log, monkeypatch)
    off = _views(lmdb_log, monkeypatch, "0")
    assert not (lmdb_log.path / SNAPSHOT_DIR).exists()  # switched off: nothing written
    cold = _views(lmdb_log, monkeypatch, "1")  # folds and saves the fold and each view
    with monkeypatch.context() as broken:  # each view written from its saved output: nothing is made
        broken.setattr("polygon.app.report.report_run", _broken)
        broken.setattr("polygon.app.compare.compare_runs", _broken)
        served = _views(lmdb_log, monkeypatch, "1")
    assert off == plain and cold == plain and served == plain
    assert plain[0] == GOLDEN.read_bytes()
    store = LmdbSnapshots(lmdb_log.path / SNAPSHOT_DIR)
    # The run's fold, the JSON report's rows (polygon.app.json_rows), each view (polygon.app.views)
    kinds = [k.split("\x00")[:2] for k, _ in store.entries()]
    assert sorted(kinds) == [["json-rows", "g"], ["run", "g"], *[["view", "g"]] * (len(RENDERERS) + 3)]
    store.close()


def _fresh(log: EventLog) -> snap.RunFold:
    return snap.fold_run(log, "g", NullSnapshots())


@pytest.mark.parametrize("cut", [0.3, 0.5, 0.77, 0.95])
def test_a_snapshot_resumes_with_only_the_events_after_it(
    source: list[Envelope], cut: float, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The run's calls cut at some call: the snapshot holds those before it.
    starts = [i for i, e in enumerate(source) if e.tag == "conversation.started"]
    at = starts[int(len(starts) * cut)]
    log, store = MemoryLog(), MemorySnapshots()
    _copy(source[:at], log)
    snap.fold_run(log, "g", store)
    _copy(source[at:], log)
    expected = _fresh(log)
    rebuilt: list[int] = []
    real = snap._folded
    monkeypatch.setattr(snap, "_folded", lambda *a: rebuilt.append(1) or real(*a))
    assert snap.fold_run(log, "g", store) == expected
    saved = store.load(snap.PROJECTION, "g")
    assert saved is not None and saved.position == log.last_seq()
    # Calls scored in a later batch than they started in make the resume fold afresh
    # (their passes were reduced without those scores): never a different answer.
    assert len(rebuilt) <= 1


def test_appended_whole_calls_are_folded_onto_the_snapshot_alone(
    source: list[Envelope], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Whole calls (each stream committed at once) after the snapshot: no fresh fold.
    streams = sorted({e.stream for e in source if e.stream.startswith("conv/")})
    late = set(streams[len(streams) // 2 :])
    early = [e for e in source if e.stream not in late]
    log, store = MemoryLog(), MemorySnapshots()
    _copy(sorted(early, key=lambda e: (e.stream.startswith("conv/"), e.stream, e.seq)), log)
    snap.fold_run(log, "g", store)
    _copy(sorted((e for e in source if e.stream in late), key=lambda e: (e.stream, e.seq)), log)
    expected = _fresh(log)
    monkeypatch.setattr(snap, "_folded", lambda *a: pytest.fail("folded afresh"))
    resumed = snap.fold_run(log, "g", store)
    assert resumed == expected
    assert make_report(resumed.verdicts, None) == make_report(expected.verdicts, None)


def _saved_then(log: EventLog, store: MemorySnapshots, change: dict[str, object]) -> None:
    saved = store.load(snap.PROJECTION, "g")
    assert saved is not None
    store.save(msgspec.structs.replace(saved, **change))


def _lying_state() -> bytes:
    """A state that is wrong for the run (no calls at all): trusted, it would show."""
    return snap._packed(snap._empty("g"))


_BOMB = b"\x28\xb5\x2f\xfd\xe0" + (1 << 40).to_bytes(8, "little") + (1 | 1 << 1 | 1000 << 3).to_bytes(3, "little") + b"x"
"""A zstd frame that says it holds 1 TB (one block: "x" 1,000 times): its size is allocated at once."""


def test_a_lying_state_would_show_if_trusted(source: list[Envelope]) -> None:
    # what the cases below change is what keeps the lie out, not its encoding
    log, store = MemoryLog(), MemorySnapshots()
    _copy(source, log)
    snap.fold_run(log, "g", store)
    _saved_then(log, store, {"state": _lying_state()})
    assert snap.fold_run(log, "g", store) == snap._empty("g") != _fresh(log)


def test_the_fold_is_saved_compressed(source: list[Envelope]) -> None:
    log, store = MemoryLog(), MemorySnapshots()
    _copy(source, log)
    fold = snap.fold_run(log, "g", store)
    saved = store.load(snap.PROJECTION, "g")
    assert saved is not None and saved.state.startswith(b"\x28\xb5\x2f\xfd")  # a zstd frame
    assert len(saved.state) * 5 < len(msgspec.msgpack.encode(fold))
    assert snap._unpacked(saved.state) == fold


@pytest.mark.parametrize(
    "change",
    [
        {"version": "verdicts-1.probes-1.1", "state": _lying_state()},
        {"anchor": "0" * 32, "state": _lying_state()},  # another log's snapshot
        {"position": 10**9, "state": _lying_state()},
        {"state": b"\xc1 not msgpack"},
        {"state": zstandard.ZstdCompressor().compress(b"\xc1 not msgpack")},
        {"state": _BOMB},
    ],
    ids=["wrong version", "another log", "past the end", "not a zstd frame", "undecodable state", "a bomb"],
)
def test_a_snapshot_that_does_not_fit_is_ignored_and_rebuilt(
    source: list[Envelope], change: dict[str, object]
) -> None:
    log, store = MemoryLog(), MemorySnapshots()
    _copy(source, log)
    snap.fold_run(log, "g", store)
    _saved_then(log, store, change)
    assert snap.fold_run(log, "g", store) == _fresh(log)
    saved = store.load(snap.PROJECTION, "g")
    assert saved is not None and saved.version == snap.VERSION and not snap.why_unfit(log, saved)


def test_a_damaged_snapshot_is_never_returned(source: list[Envelope]) -> None:
    log, store = MemoryLog(), MemorySnapshots()
    _copy(source, log)
    snap.fold_run(log, "g", store)
    key = next(iter(store.raw))
    raw = bytearray(store.raw[key])
    raw[len(raw) // 2] ^= 0xFF  # one flipped byte in the middle of the state
    store.raw[key] = bytes(raw)
    assert store.load(snap.PROJECTION, "g") is None
    assert "damaged" in (snap.verify_snapshots(log, store)[1] or "")
    assert snap.fold_run(log, "g", store) == _fresh(log)
    assert snap.verify_snapshots(log, store) == (1, None)


def test_lmdb_store_keeps_drops_and_reports(tmp_path: Path) -> None:
    store = LmdbSnapshots(tmp_path / "s")
    one = snap.Snapshot(projection="run", version="v", subject="a", position=3, anchor="x", state=b"1")
    store.save(one)
    store.save(msgspec.structs.replace(one, position=4))  # replaces: one per key
    store.save(msgspec.structs.replace(one, subject="b"))
    assert store.load("run", "a") == msgspec.structs.replace(one, position=4)
    assert store.load("run", "c") is None
    assert [k.split("\x00")[1] for k, _ in store.entries()] == ["a", "b"]
    assert store.drop() == 2 and store.load("run", "a") is None
    store.close()


def _cli(path: Path, *args: str) -> tuple[int, str]:
    res = CliRunner().invoke(cli, ["--log", str(path), *args])
    return res.exit_code, res.output


def test_cli_views_share_snapshots_verify_checks_them_compact_leaves_them(
    tmp_path: Path, source: list[Envelope], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(snap.SWITCH, "1")
    path = tmp_path / "log"
    with LmdbLog(path) as log:
        _copy(source, log)
    code, text = _cli(path, "report", "g")
    assert code == 0 and text.startswith(GOLDEN.read_text().splitlines()[0])
    store = LmdbSnapshots(path / SNAPSHOT_DIR)
    assert [k.split("\x00")[:2] for k, _ in store.entries()] == [["run", "g"], ["view", "g"]]
    store.close()  # one process opens an LMDB environment once
    assert _cli(path, "log", "verify")[0] == 0
    store = LmdbSnapshots(path / SNAPSHOT_DIR)
    key, found = next(store.entries())
    assert isinstance(found, snap.Snapshot)
    with store._env.begin(write=True) as txn:
        raw = bytearray(txn.get(key.encode()))
        raw[-3] ^= 0xFF
        txn.put(key.encode(), bytes(raw))
    store.close()
    code, text = _cli(path, "log", "verify")
    assert code == 1 and "snapshot of g is damaged" in text
    rebuilt = _cli(path, "report", "g", "--format", "markdown")[1]  # folds: the damaged one is replaced
    monkeypatch.setenv(snap.SWITCH, "0")
    assert rebuilt == _cli(path, "report", "g", "--format", "markdown")[1]
    monkeypatch.setenv(snap.SWITCH, "1")
    assert _cli(path, "log", "verify")[0] == 0
    code, _ = _cli(path, "log", "compact", "--drop-damaged", "-o", str(tmp_path / "copy"))
    assert code == 0 and not (tmp_path / "copy" / SNAPSHOT_DIR).exists()
    (path / SNAPSHOT_DIR / "data.mdb").write_bytes(b"not an LMDB file" * 64)  # a whole store ruined
    assert _cli(path, "report", "g", "--format", "markdown")[1] == rebuilt  # views pass over it
    code, text = _cli(path, "log", "verify")
    assert code == 1 and "cannot open the snapshots" in text


def test_verify_names_a_file_where_the_snapshots_folder_should_be(
    tmp_path: Path, source: list[Envelope], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(snap.SWITCH, "1")
    path = tmp_path / "log"
    with LmdbLog(path) as log:
        _copy(source, log)
    (path / SNAPSHOT_DIR).write_text("not a folder")
    code, text = _cli(path, "report", "g")
    assert code == 0 and text.startswith(GOLDEN.read_text().splitlines()[0])  # views pass over it
    code, text = _cli(path, "log", "verify")
    assert code == 1
    assert f"{path / SNAPSHOT_DIR} is a file, not the snapshots folder (views fold without them" in text


def test_another_runs_events_after_a_snapshot_change_nothing_and_are_not_saved_for(
    source: list[Envelope],
) -> None:
    log, store = MemoryLog(), MemorySnapshots()
    _copy(source, log)
    before = snap.fold_run(log, "g", store)
    other = [e for e in source if e.stream.startswith("conv/")][:40]
    renamed = [
        Pending(stream=e.stream.replace("conv/g.", "conv/h."), identity=f"{i:032x}", event=e.payload)
        for i, e in enumerate(other)
        if e.stream == other[0].stream
    ]
    log.append(renamed)
    saved = store.load(snap.PROJECTION, "g")
    assert snap.fold_run(log, "g", store) == before == _fresh(log)
    assert store.load(snap.PROJECTION, "g") == saved  # a few events of another run: kept as it was


def _broken(*_args: object) -> snap.RunFold:
    raise RuntimeError("a fold that fails")


def test_the_collector_is_off_while_a_state_is_built_and_back_on_after(
    source: list[Envelope], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Collections walking a big state as it is decoded cost 2.5 of 2.8 CPU s at 20k calls.
    import gc

    log, store = MemoryLog(), MemorySnapshots()
    _copy(source, log)
    seen: list[bool] = []
    real = snap._extend
    monkeypatch.setattr(snap, "_extend", lambda *a: seen.append(gc.isenabled()) or real(*a))
    assert snap.fold_run(log, "g", store) == _fresh(log)
    assert seen and not any(seen) and gc.isenabled()
    monkeypatch.setattr(snap, "_extend", _broken)
    with pytest.raises(RuntimeError):
        snap.fold_run(log, "g", NullSnapshots())
    assert gc.isenabled()
    monkeypatch.setattr(snap, "_extend", real)
    gc.disable()  # a caller that had it off keeps it off
    try:
        snap.fold_run(log, "g", store)
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_what_a_pause_made_is_frozen_after_it_and_unfrozen_by_the_next(source: list[Envelope]) -> None:
    # Frozen, the state is never walked again by collections (1.1 CPU s at 20k calls, twice
    # in a report); the next pause hands it back to the oldest generation (a server's
    # views do not keep cycles frozen for ever).
    import gc

    log = MemoryLog()
    _copy(source, log)
    gc.unfreeze()
    with snap.gc_paused():
        fold = _fresh(log)
        assert gc.get_freeze_count() == 0
    frozen = gc.get_freeze_count()
    assert frozen > len(fold.verdicts.conversations) and gc.isenabled()
    with snap.gc_paused():
        assert gc.get_freeze_count() == 0
    gc.unfreeze()


def test_a_text_report_imports_no_suite_or_rubric_loading(lmdb_log: LmdbLog) -> None:
    """A view folds and renders without pydantic, YAML, Jinja or the probe library (~0.3 CPU s).

    The verdict and probe folds name a criterion order and a polarity's right answer: kept in
    modules of their own (polygon.score.criteria, polygon.probe.polarity), apart from the
    rubric's and the library's loading.
    """
    import json
    import subprocess
    import sys

    heavy = [
        "pydantic",
        "yaml",
        "jinja2",
        "num2words",
        "regex",
        "polygon.score.rubric",
        "polygon.probe.library",
    ]
    code = (
        "import json, sys\nfrom polygon.cli.main import cli\n"
        "try:\n    cli.main(args=['--log', sys.argv[1], 'report', 'g'], prog_name='polygon')\n"
        "except SystemExit as exc:\n    assert not exc.code, exc.code\n"
        "print(json.dumps([m for m in json.loads(sys.argv[2]) if m in sys.modules]))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code, str(lmdb_log.path), json.dumps(heavy)],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    ).stdout
    assert "Run g · rubric" in out  # the report was really made
    assert json.loads(out.strip().splitlines()[-1]) == []


def test_views_leave_the_snapshots_closed_on_a_nearly_full_disk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """LMDB writes its mapped lock file: on a full disk that was a SIGBUS, not an error."""
    import shutil

    monkeypatch.setenv(snap.SWITCH, "1")
    free = snap.MIN_FREE - 1
    monkeypatch.setattr(shutil, "disk_usage", lambda _p: shutil._ntuple_diskusage(1 << 40, (1 << 40) - free, free))  # type: ignore[attr-defined]
    with LmdbLog(tmp_path / "log") as log:
        with snap.snapshots_for(log) as store:
            assert isinstance(store, NullSnapshots)
        assert not (tmp_path / "log" / SNAPSHOT_DIR).exists()
        monkeypatch.setattr(shutil, "disk_usage", lambda _p: shutil._ntuple_diskusage(1 << 40, 0, 1 << 40))  # type: ignore[attr-defined]
        with snap.snapshots_for(log) as store:
            assert isinstance(store, LmdbSnapshots)
