"""Saved views (polygon.app.views): a view is written from its saved output only while that
is what it would write. Each test plants a lie in the saved output where it can: a view that
shows the lie was served from it, so a missing invalidation shows as the lie."""

from __future__ import annotations

import os
import subprocess
import sys
import tracemalloc
from collections.abc import Iterable, Iterator
from pathlib import Path

import msgspec
import pytest
import zstandard
from click.testing import CliRunner

from polygon.app import views
from polygon.app.run import RunOptions, run_suite
from polygon.app.snapshots import SWITCH
from polygon.cli.main import cli
from polygon.events import Envelope, EventLog, LmdbLog, MemoryLog, Pending
from polygon.events.snapshots import SNAPSHOT_DIR, LmdbSnapshots, Snapshot, snapshot_key
from polygon.suite.loading import load_suite
from tests.support.examples import clinic_suite_path

LIE = b"a saved output that is not the view\n"


@pytest.fixture(scope="module")
def source() -> list[Envelope]:
    """A clinic run's events (two configurations, judged and probed) in log order."""
    log = MemoryLog()
    run_suite(load_suite(clinic_suite_path()), log, RunOptions(run_id="g"), now=lambda: "")
    return list(log.read_all())


def _copy(events: list[Envelope], into: EventLog, rename: tuple[str, str] = ("", "")) -> None:
    """Append ``events`` as the source log committed them (one batch per stream run)."""
    batch: list[Pending] = []
    for env in events:
        if batch and batch[-1].stream != env.stream.replace(*rename):
            into.append(batch)
            batch = []
        identity = env.identity if not rename[0] else f"{int(env.identity, 16) ^ 0x5A5A:032x}"  # a new event
        batch.append(Pending(stream=env.stream.replace(*rename), identity=identity, event=env.payload))
    if batch:
        into.append(batch)


def _calls(source: list[Envelope]) -> list[str]:
    return sorted({e.stream for e in source if e.stream.startswith("conv/")})


@pytest.fixture
def path(tmp_path: Path, source: list[Envelope], monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv(SWITCH, "1")
    with LmdbLog(tmp_path / "log") as log:
        _copy(source, log)
    return tmp_path / "log"


def _view(path: Path, *args: str, snapshots: str = "1") -> bytes:
    res = CliRunner().invoke(cli, ["--log", str(path), *args], env={SWITCH: snapshots})
    assert res.exit_code in (0, 1), res.output
    return res.stdout_bytes


def _plain(path: Path, *args: str) -> bytes:
    return _view(path, *args, snapshots="0")


def _entries(path: Path) -> Iterator[tuple[str, Snapshot | str]]:
    store = LmdbSnapshots(path / SNAPSHOT_DIR)
    try:
        yield from list(store.entries())
    finally:
        store.close()


def _replace_saved(path: Path, body: bytes, size: int) -> int:
    """Every saved view's output replaced by ``body`` (sealed: only its meaning is wrong)."""
    store, count = LmdbSnapshots(path / SNAPSHOT_DIR), 0
    for _key, found in list(store.entries()):
        if isinstance(found, Snapshot) and found.projection == views.PROJECTION:
            state = views._ENCODER.encode(views.Saved(body=body, size=size, notes=[]))
            store.save(msgspec.structs.replace(found, state=state))
            count += 1
    store.close()
    return count


def _lie(path: Path) -> int:
    packed = zstandard.ZstdCompressor(write_checksum=True).compress(LIE)
    return _replace_saved(path, packed, len(LIE))


def test_a_saved_view_is_written_as_saved_and_only_under_its_own_options(path: Path) -> None:
    asked = ["report", "g"]
    assert _view(path, *asked) == _plain(path, *asked)
    assert _lie(path) == 1
    assert _view(path, *asked) == LIE  # served from the saved output: no fold
    for other in (
        ["report", "g", "--format", "markdown"],
        ["report", "g", "--json"],
        ["report", "g", "--rubric", "v5"],
        ["report", "g", "--judge", "scripted/heuristic"],
        ["report", "g", "--pass", "v5/scripted/heuristic/k1"],
        ["report", "g", "--fail-on", "warn"],
        ["report", "g", "--min-pass-rate", "0.5"],
        ["report", "g", "--allow-inconclusive"],
        ["report", "g", "--allow-simulator-errors"],
        ["compare", "g"],
    ):
        assert _view(path, *other) == _plain(path, *other), other


def test_a_saved_view_is_written_in_pieces_the_output_filter_passes_at_a_glance(
    path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from polygon.cli import output

    asked = ["report", "g", "--json"]
    plain = _plain(path, *asked)
    assert _view(path, *asked) == plain  # saved
    seen: list[int] = []
    filtered = output.visible_bytes

    def noting(chunks: Iterable[bytes]) -> Iterator[bytes]:
        for chunk in chunks:
            seen.append(len(chunk))
            yield chunk

    monkeypatch.setattr(output, "visible_bytes", lambda chunks: filtered(noting(chunks)))
    monkeypatch.setattr(views, "PIECE", 1000)
    assert _view(path, *asked) == plain
    assert len(plain) > 20_000 and len(seen) == -(-len(plain) // 1000) and max(seen) == 1000


def test_compare_is_saved_under_its_runs_rubric_configurations_and_format(path: Path) -> None:
    asked = ["compare", "g"]
    assert _view(path, *asked) == _plain(path, *asked)
    assert _lie(path) == 1 and _view(path, *asked) == LIE
    for other in (
        ["compare", "g", "--format", "markdown"],
        ["compare", "g", "--json"],
        ["compare", "g", "--rubric", "v5"],
        ["compare", "g", "--config", "v1", "--config", "v2"],
        ["compare", "g", "--allow-mixed"],
        ["report", "g"],
    ):
        assert _view(path, *other) == _plain(path, *other), other


def test_a_call_appended_to_the_run_makes_its_saved_view_stale(
    tmp_path: Path, source: list[Envelope], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(SWITCH, "1")
    late = set(_calls(source)[-3:])
    with LmdbLog(tmp_path / "log") as log:
        _copy([e for e in source if e.stream not in late], log)
    before = {args: _view(tmp_path / "log", *args) for args in (("report", "g"), ("compare", "g"))}
    _lie(tmp_path / "log")
    with LmdbLog(tmp_path / "log") as log:
        _copy([e for e in source if e.stream in late], log)
    for args, was in before.items():
        now = _view(tmp_path / "log", *args)
        assert now == _plain(tmp_path / "log", *args) != was
        assert _view(tmp_path / "log", *args) == now  # saved again, and served


def test_a_new_judge_pass_makes_the_saved_view_stale(path: Path) -> None:
    before = _view(path, "report", "g")
    _lie(path)
    assert _view(path, "report", "g") == LIE
    judged = CliRunner().invoke(cli, ["--log", str(path), "judge", "g", "--rubric", "v2"])
    assert judged.exit_code == 0, judged.output
    after = _view(path, "report", "g")
    assert after == _plain(path, "report", "g") != LIE  # folded again, not the saved view
    assert after == before  # still the run's own rubric: the v2 pass changes nothing it shows


def test_other_runs_events_leave_a_saved_view_served_a_lint_only_compare(
    path: Path, source: list[Envelope]
) -> None:
    _view(path, "report", "g")
    _view(path, "compare", "g")
    _lie(path)
    with LmdbLog(path) as log:  # another run's call
        _copy([e for e in source if e.stream == _calls(source)[0]], log, rename=("conv/g.", "conv/h."))
    assert _view(path, "report", "g") == LIE
    assert _view(path, "compare", "g") == LIE
    lints = [e for e in source if e.stream.startswith("lint/")]
    if not lints:
        pytest.skip("the clinic run lints no prompt")
    with LmdbLog(path) as log:  # a prompt's lint: compare shows the sides' lint scores
        _copy(lints[:1], log, rename=("lint/", "lint/"))
    assert _view(path, "report", "g") == LIE
    assert _view(path, "compare", "g") == _plain(path, "compare", "g")


def test_another_code_fingerprint_never_serves_a_saved_view(
    path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _view(path, "report", "g")
    _lie(path)
    assert _view(path, "report", "g") == LIE
    monkeypatch.setattr(views, "fingerprint", lambda: "0" * 24)
    assert _view(path, "report", "g") == _plain(path, "report", "g")


def test_the_fingerprint_hashes_the_bytes_of_every_package_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    names = {name for name, _path in views._code_files()}
    for wanted in (
        "polygon/app/views.py",
        "polygon/render/templates/report/page.html",
        "polygon.events/snapshots.py",
        "polygon.projections/report.py",
        "polygon.cli/report_cmd.py",
        "polygon.rubrics/v1.yaml",
    ):
        assert wanted in names
    assert not any(name.endswith(".pyc") or "__pycache__" in name for name in names)
    code = tmp_path / "module.py"
    code.write_bytes(b"A = 1\n")
    monkeypatch.setattr(views, "_code_files", lambda: [("polygon/module.py", str(code))])
    one = views.fingerprint.__wrapped__()
    stat = code.stat()
    code.write_bytes(b"A = 2\n")  # the same size and time: only the bytes differ
    os.utime(code, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert views.fingerprint.__wrapped__() != one
    code.write_bytes(b"A = 1\n")
    assert views.fingerprint.__wrapped__() == one


def _damage_record(path: Path) -> None:
    """One flipped byte in the saved view's record: its hash no longer matches."""
    store = LmdbSnapshots(path / SNAPSHOT_DIR)
    key = next(k for k, found in store.entries() if k.startswith(f"{views.PROJECTION}\x00"))
    with store._env.begin(write=True) as txn:
        raw = bytearray(txn.get(key.encode()))
        raw[len(raw) // 2] ^= 0xFF
        txn.put(key.encode(), bytes(raw))
    store.close()


@pytest.mark.parametrize("damage", ["hash", "frame", "size", "unfinished", "checksum"])
def test_a_damaged_saved_view_is_reported_passed_over_and_rebuilt(
    path: Path, damage: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(views, "CHECKED_IN", 16)  # the check reads the frame in many pieces
    expected = _view(path, "report", "g")
    packed = zstandard.ZstdCompressor(write_checksum=True).compress(expected)
    if damage == "hash":
        _damage_record(path)
    elif damage == "frame":  # sealed afresh, so only the frame is wrong
        _replace_saved(path, b"\x28\xb5\x2f\xfd not a zstd frame", len(expected))
    elif damage == "size":
        _replace_saved(
            path, zstandard.ZstdCompressor(write_checksum=True).compress(expected[:-1]), len(expected)
        )
    elif damage == "unfinished":  # every byte of the output there, the frame's checksum cut off
        _replace_saved(path, packed[:-4], len(expected))
    else:
        _replace_saved(path, packed[:-1] + bytes([packed[-1] ^ 1]), len(expected))
    verified = CliRunner().invoke(cli, ["--log", str(path), "log", "verify"])
    assert verified.exit_code == 1 and "snapshot of g is damaged" in verified.output
    assert _view(path, "report", "g") == expected  # passed over, rebuilt
    verified = CliRunner().invoke(cli, ["--log", str(path), "log", "verify"])
    assert verified.exit_code == 0, verified.output
    assert _lie(path) == 1 and _view(path, "report", "g") == LIE  # the rebuilt one is served


def _bomb(size: int) -> bytes:
    """A zstd frame of ``size`` zero bytes that does not say its size (written as a stream)."""
    packer = zstandard.ZstdCompressor().compressobj()
    zeros = bytes(1 << 20)
    return b"".join([*(packer.compress(zeros) for _ in range(size >> 20)), packer.flush()])


def test_a_saved_view_that_decompresses_to_more_than_its_size_is_passed_over_without_holding_it(
    path: Path,
) -> None:
    expected = _view(path, "report", "g")
    bomb = _bomb(256 << 20)
    assert len(bomb) < 64 << 10 and _replace_saved(path, bomb, len(expected)) == 1
    tracemalloc.start()
    try:
        shown = _view(path, "report", "g")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert shown == expected  # passed over, the report folded afresh
    assert peak < 40_000_000, peak  # decompressed whole, it held 256 MB; 4 KiB at a time, 134 MB
    _replace_saved(path, bomb, len(expected))
    verified = CliRunner().invoke(cli, ["--log", str(path), "log", "verify"])
    assert verified.exit_code == 1 and f"more than its {len(expected)} bytes" in verified.output


@pytest.mark.parametrize("damage", ["bigger than said", "checksum", "cut short"])
def test_a_big_saved_view_found_damaged_as_it_is_written_stops_with_one_clear_error(
    path: Path, damage: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Written as it is decompressed, it cannot be passed over: it is named, and the output bounded."""
    expected = _view(path, "report", "g")
    packed = zstandard.ZstdCompressor(write_checksum=True).compress(expected)
    frame = {
        "bigger than said": _bomb(256 << 20),
        "checksum": packed[:-1] + bytes([packed[-1] ^ 1]),
        "cut short": packed[: len(packed) // 2],
    }[damage]
    _replace_saved(path, frame, len(expected))
    monkeypatch.setattr(views, "WHOLE_UP_TO", 0)  # every output is big
    res = CliRunner().invoke(cli, ["--log", str(path), "report", "g"], env={SWITCH: "1"})
    assert res.exit_code == 2, (res.exit_code, res.stderr[-300:], len(res.stdout_bytes))
    assert "saved output is damaged" in res.stderr and "POLYGON_SNAPSHOTS=0" in res.stderr, res.stderr[-300:]
    assert "Traceback" not in res.stderr and len(res.stdout_bytes) <= len(expected) + views.PIECE


def test_log_verify_checks_a_big_saved_view_a_piece_at_a_time(path: Path) -> None:
    _view(path, "report", "g")
    big = b"".join(b'{"conversation": %d, "verdict": "pass"},\n' % k for k in range(2_000_000))
    assert _replace_saved(path, zstandard.ZstdCompressor(write_checksum=True).compress(big), len(big)) == 1
    tracemalloc.start()
    try:
        verified = CliRunner().invoke(cli, ["--log", str(path), "log", "verify"])
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert verified.exit_code == 0, verified.output
    assert len(big) > 80_000_000 and peak < 20_000_000  # held whole, the check peaked past 80 MB


def test_one_saved_view_per_key_and_none_when_switched_off(path: Path) -> None:
    for _ in range(3):
        _view(path, "report", "g")
    kinds = [k.split("\x00")[0] for k, _ in _entries(path)]
    assert kinds.count(views.PROJECTION) == 1
    _lie(path)
    assert _view(path, "report", "g", snapshots="0") == _plain(path, "report", "g") != LIE


def test_the_reasons_a_run_misses_a_policy_are_saved_with_its_view(path: Path) -> None:
    args = ("report", "g", "--fail-on", "warn")
    first = CliRunner().invoke(cli, ["--log", str(path), *args])
    served = CliRunner().invoke(cli, ["--log", str(path), *args])
    assert first.exit_code == served.exit_code == 1
    assert "not met" in first.stderr and served.stderr == first.stderr
    assert served.stdout_bytes == first.stdout_bytes


def test_an_output_with_an_escape_character_is_not_saved(path: Path) -> None:
    """click strips ANSI codes from text not written to a terminal: such bytes depend on where."""
    key = views.ViewKey("test", ("g",), (("format", "text"),))
    stored = snapshot_key(views.PROJECTION, "g", key.text)
    with LmdbLog(path, readonly=True) as log:
        assert (
            b"".join(views.saving(log, key, 1, [b"plain ", b"\x1b[31mred\x1b[0m"], []))
            == b"plain \x1b[31mred\x1b[0m"
        )
    assert stored not in dict(_entries(path))
    with LmdbLog(path, readonly=True) as log:
        assert b"".join(views.saving(log, key, 1, [b"plain"], [])) == b"plain"
    assert stored in dict(_entries(path))


def test_the_web_run_pages_report_is_a_saved_view_too(
    tmp_path: Path, source: list[Envelope], monkeypatch: pytest.MonkeyPatch
) -> None:
    from polygon.app import report as report_module
    from polygon.app.queries import load_run
    from polygon.projections import make_report

    monkeypatch.setenv(SWITCH, "1")
    late = set(_calls(source)[-3:])
    with LmdbLog(tmp_path / "log") as log:
        _copy([e for e in source if e.stream not in late], log)
        first = report_module.load_report(log, "g")
        assert first == make_report(load_run(log, "g"), None)
    made: list[object] = []
    with LmdbLog(tmp_path / "log", readonly=True) as log, monkeypatch.context() as counted:
        counted.setattr(report_module, "make_report", lambda *a, **k: made.append(a) or make_report(*a, **k))
        assert report_module.load_report(log, "g") == first and not made  # decoded, not folded
        assert report_module.load_report(log, "g", "v5") == first and len(made) == 1  # another key
    with LmdbLog(tmp_path / "log") as log:
        _copy([e for e in source if e.stream in late], log)
        monkeypatch.setenv(SWITCH, "0")
        fresh = report_module.load_report(log, "g")
        monkeypatch.setenv(SWITCH, "1")
        assert report_module.load_report(log, "g") == fresh != first


def _invoked(path: Path, *args: str) -> tuple[bytes, str, int]:
    res = CliRunner().invoke(cli, ["--log", str(path), *args], env={SWITCH: "1"})
    return res.stdout_bytes, res.stderr, res.exit_code


@pytest.mark.parametrize(
    ("saved", "asked", "code"),
    [
        (["--config", "v1", "--config", "v2"], ["--config", "v1\x1fv2"], 2),
        ([], ["--config="], 2),
        (["--config", "v1", "--config", "v2"], ["--config", "v1", "--config", "v2", "--config="], None),
    ],
)
def test_a_config_list_that_joins_like_another_is_not_served_its_view(
    path: Path, saved: list[str], asked: list[str], code: int | None
) -> None:
    assert _invoked(path, "compare", "g", *saved)[2] == 0
    got = _invoked(path, "compare", "g", *asked)
    res = CliRunner().invoke(cli, ["--log", str(path), "compare", "g", *asked], env={SWITCH: "0"})
    assert got == (res.stdout_bytes, res.stderr, res.exit_code)
    assert code is None or got[2] == code  # refused, as without saved views


def _store_key(key: views.ViewKey) -> str:
    return snapshot_key(views.PROJECTION, key.subject, key.text)


def test_no_two_runs_or_option_lists_share_a_key() -> None:
    def compare(runs: tuple[str, ...], configs: tuple[str, ...] = ()) -> views.ViewKey:
        return views.ViewKey("compare", runs, (("configs", configs), ("rubric", None)))

    keys = [
        compare(("p", "q")),
        compare(("p\x1fq",)),
        compare(("p q",)),
        compare(("p",), ("v1", "v2")),
        compare(("p",), ("v1\x1fv2",)),
        compare(("p",), ("",)),
        compare(("p",)),
        views.ViewKey("compare", ("p",), (("configs", ()), ("rubric", ""))),
    ]
    assert len({_store_key(k) for k in keys}) == len(keys)


def _polygon(path: Path, *args: str) -> subprocess.CompletedProcess[bytes]:
    """The CLI in its own process: a SIGBUS there fails the test instead of killing pytest."""
    code = "from polygon.cli.main import cli; cli()"
    env = {**os.environ, SWITCH: "1"}
    return subprocess.run(
        [sys.executable, "-c", code, "--log", str(path), *args], capture_output=True, env=env
    )


def test_a_truncated_snapshot_file_is_passed_over_by_views_and_named_by_verify(path: Path) -> None:
    expected = _plain(path, "report", "g")
    assert _view(path, "report", "g") == expected
    data = path / SNAPSHOT_DIR / "data.mdb"
    assert data.stat().st_size > 8192
    os.truncate(data, 8192)  # what a full disk or a copy cut short leaves
    for _ in range(2):  # and the fold does not repair it in place
        report = _polygon(path, "report", "g")
        assert (report.returncode, report.stdout) == (0, expected), report.stderr
    verified = _polygon(path, "log", "verify")
    assert verified.returncode == 1, verified
    assert b"truncated" in verified.stdout + verified.stderr


def test_log_verify_reads_the_snapshots_of_a_folder_it_cannot_write(
    path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A read-only disk: the check reads the store without taking a reader slot in lock.mdb."""
    _view(path, "report", "g")
    folder = path / SNAPSHOT_DIR
    (folder / "lock.mdb").unlink()
    access = os.access
    monkeypatch.setattr(
        os,
        "access",
        lambda p, mode: not (mode & os.W_OK and str(p).startswith(str(folder))) and access(p, mode),
    )
    verified = CliRunner().invoke(cli, ["--log", str(path), "log", "verify"])
    assert verified.exit_code == 0, verified.output
    assert not (folder / "lock.mdb").exists()  # nothing written there
    _damage_record(path)
    (folder / "lock.mdb").unlink()
    verified = CliRunner().invoke(cli, ["--log", str(path), "log", "verify"])
    assert verified.exit_code == 1 and "snapshot of g is damaged" in verified.output  # still checked
    assert not (folder / "lock.mdb").exists()


def test_runs_lists_a_runs_verdicts_from_its_saved_summary_until_the_run_changes(
    tmp_path: Path, source: list[Envelope], monkeypatch: pytest.MonkeyPatch
) -> None:
    from polygon.app.runs import VerdictSummary

    monkeypatch.setenv(SWITCH, "1")
    late = set(_calls(source)[-3:])
    log_path = tmp_path / "log"
    with LmdbLog(log_path) as log:
        _copy([e for e in source if e.stream not in late], log)
    asked = ["runs", "--json"]
    assert _view(log_path, *asked) == _plain(log_path, *asked)
    lie = msgspec.msgpack.encode(VerdictSummary(rubrics=["v9"], passes=7, states={"fail": 99}))
    packed = zstandard.ZstdCompressor(write_checksum=True).compress(lie)
    assert _replace_saved(log_path, packed, len(lie)) == 1
    assert b'"v9"' in _view(log_path, *asked)  # listed from the saved summary: no fold
    with LmdbLog(log_path) as log:
        _copy([e for e in source if e.stream in late], log)
    again = _view(log_path, *asked)
    assert b'"v9"' not in again and again == _plain(log_path, *asked)
