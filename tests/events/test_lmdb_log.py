"""What only the durable log has to get right: locks, fork, map growth, format, fsck."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import lmdb
import pytest

from polygon.events import ForkedUseError, LmdbLog, LogFormatError, WriterBusyError
from polygon.events.keys import pack_u64
from tests.support.log import turn


def test_second_writer_in_another_process_fails_fast(tmp_path: Path) -> None:
    with LmdbLog(tmp_path / "log"):
        code = (
            "import sys\nfrom polygon.events import LmdbLog, WriterBusyError\n"
            f"try:\n    LmdbLog({str(tmp_path / 'log')!r})\nexcept WriterBusyError as e:\n"
            "    print(e); sys.exit(3)\n"
        )
        proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 3, proc.stderr
    assert "one writer at a time" in proc.stdout


def test_writer_lock_is_released_on_close(tmp_path: Path) -> None:
    LmdbLog(tmp_path / "log").close()
    with LmdbLog(tmp_path / "log") as log:
        log.append([turn("a", 1)])


def test_second_writer_lock_detected_even_in_process(tmp_path: Path) -> None:
    from polygon.events.lmdb_log import _acquire_writer_lock

    with LmdbLog(tmp_path / "log"), pytest.raises(WriterBusyError):
        _acquire_writer_lock(tmp_path / "log" / "writer.lock")


def test_use_after_fork_is_refused(tmp_path: Path) -> None:
    log = LmdbLog(tmp_path / "log")
    log.append([turn("a", 1)])
    pid = os.fork()
    if pid == 0:  # child: every operation must refuse
        try:
            log.append([turn("a", 2)])
        except ForkedUseError:
            os._exit(7)
        except BaseException:
            os._exit(8)
        os._exit(9)
    _, status = os.waitpid(pid, 0)
    assert os.WEXITSTATUS(status) == 7
    assert log.last_seq() == 1
    log.close()


def test_tiny_map_grows_and_size_is_persisted(tmp_path: Path) -> None:
    with LmdbLog(tmp_path / "log", map_size=64 * 1024) as log:
        for batch in range(20):
            log.append([turn("a", batch * 100 + n, "x" * 300) for n in range(100)])
        grown = log.stats().map_size
    assert grown > 256 * 1024
    # Reopening with a smaller configured size must not shrink the map: writes still work.
    with LmdbLog(tmp_path / "log", map_size=32 * 1024) as log:
        assert log.stats().map_size >= grown
        log.append([turn("b", n, "y" * 300) for n in range(500)])
        assert log.verify().ok
        assert log.last_seq() == 2500


def test_format_version_guard(tmp_path: Path) -> None:
    LmdbLog(tmp_path / "log").close()
    env = lmdb.open(str(tmp_path / "log"), max_dbs=8)
    with env.begin(write=True, db=env.open_db(b"meta")) as txn:
        txn.put(b"format", b"99")
    env.close()
    with pytest.raises(LogFormatError, match="format version 99"):
        LmdbLog(tmp_path / "log")


def test_failed_open_releases_the_writer_lock(tmp_path: Path) -> None:
    test_format_version_guard(tmp_path)
    from polygon.events.lmdb_log import _acquire_writer_lock

    os.close(_acquire_writer_lock(tmp_path / "log" / "writer.lock"))


def test_readonly_reader_sees_writes(tmp_path: Path) -> None:
    with LmdbLog(tmp_path / "log") as log:
        log.append([turn("a", 1)])
    with LmdbLog(tmp_path / "log", readonly=True) as ro:
        assert ro.last_seq() == 1


@pytest.mark.parametrize("fmt", [1, 2])
@pytest.mark.parametrize("damage", ["events", "streams", "identities", "heads"])
def test_verify_finds_damage(tmp_path: Path, damage: str, fmt: int) -> None:
    with LmdbLog(tmp_path / "log", format_version=fmt) as log:
        log.append([turn("a", n) for n in range(1, 6)])
    env = lmdb.open(str(tmp_path / "log"), max_dbs=8)
    db = env.open_db(damage.encode())
    with env.begin(write=True, db=db) as txn:
        if damage == "events":
            txn.delete(pack_u64(3))
        elif damage == "heads":
            txn.put(b"conv/a", pack_u64(9))
        else:
            key = next(iter(txn.cursor().iternext(values=False)))
            txn.delete(key)
    env.close()
    with LmdbLog(tmp_path / "log") as log:
        report = log.verify()
    assert not report.ok
    assert report.problem


@pytest.mark.parametrize("fmt", [1, 2])
def test_verify_reports_undecodable_record_with_its_seq(tmp_path: Path, fmt: int) -> None:
    with LmdbLog(tmp_path / "log", format_version=fmt) as log:
        log.append([turn("a", n) for n in range(1, 4)])
    env = lmdb.open(str(tmp_path / "log"), max_dbs=8)
    with env.begin(write=True, db=env.open_db(b"events")) as txn:
        txn.put(pack_u64(2), b"\xc1garbage")
    env.close()
    with LmdbLog(tmp_path / "log") as log:
        report = log.verify()
    assert report.problem is not None and "#2" in report.problem


def test_page_reads_refuse_a_future_version_naming_its_seq(tmp_path: Path) -> None:
    import msgspec

    from polygon.events import FutureVersionError
    from polygon.events.envelope import _RawRecord

    with LmdbLog(tmp_path / "log", format_version=1) as log:  # a format-1 record written by hand
        log.append([turn("a", n) for n in range(1, 5)])
        (third,) = [e for e in log.read_all() if e.seq == 3]
    record = _RawRecord(
        3,
        third.stream,
        third.stream_version,
        third.identity,
        third.tag,
        99,
        "",
        third.content_hash,
        msgspec.Raw(msgspec.msgpack.encode(third.payload)),
    )
    env = lmdb.open(str(tmp_path / "log"), max_dbs=8)
    with env.begin(write=True, db=env.open_db(b"events")) as txn:
        txn.put(pack_u64(3), msgspec.msgpack.encode(record))
    env.close()
    with LmdbLog(tmp_path / "log", readonly=True) as log:
        with pytest.raises(FutureVersionError, match="event #3"):
            list(log.read_all())
        assert [e.seq for e in log.read_all(after_seq=3)] == [4]


def test_format_2_page_reads_refuse_a_future_version_naming_its_seq(tmp_path: Path) -> None:
    from polygon.events import FutureVersionError
    from polygon.events.log_v2 import HEADER

    with LmdbLog(tmp_path / "log") as log:
        assert log.format == 2
        log.append([turn("a", n) for n in range(1, 5)])
    env = lmdb.open(str(tmp_path / "log"), max_dbs=8)
    with env.begin(write=True, db=env.open_db(b"events")) as txn:
        stored = bytes(txn.get(pack_u64(3)))
        fields = list(HEADER.unpack_from(stored))
        fields[3] = 99  # the schema version
        txn.put(pack_u64(3), HEADER.pack(*fields) + stored[HEADER.size :])
    env.close()
    with LmdbLog(tmp_path / "log", readonly=True) as log, pytest.raises(FutureVersionError, match="event #3"):
        list(log.read_all())
