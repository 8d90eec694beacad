"""Every page of a log read once in a child process, before a command walks the whole log.

A damaged B-tree page can make LMDB itself ``abort()`` (``Assertion 'IS_LEAF(mp)' failed in
mdb_cursor_next``): no ``except`` catches that, so ``log verify``, the very command meant to
diagnose the log, died with SIGABRT and no word. The child walks every sub-database with a
cursor (keys and values, so overflow pages are touched too) and nothing else; its death by a
signal, or an ``lmdb.Error`` it meets, becomes one line naming the log. It imports only
``lmdb`` (a Python start of ~50 ms), and only ``log verify`` and ``log stats`` pay for it:
they read every page anyway.
"""

from __future__ import annotations

import os
import signal
import stat
import sys
from pathlib import Path

from polygon.events.errors import StorageError

# The child: exit 0 when every page read; 3 with LMDB's message when LMDB refused one. With
# the lock file when it may be written (``lock`` is "1"), as the log's own readers: a reader
# without one could be handed pages a live writer is reusing, and report damage that is not there.
_WALK = """
import sys, lmdb
try:
    env = lmdb.open(sys.argv[1], subdir=True, readonly=True, lock=sys.argv[2] == "1", max_dbs=16)
    with env.begin() as txn:
        names = [bytes(k) for k in txn.cursor().iternext(keys=True, values=False)]
        for name in names:
            db = env.open_db(name, txn=txn, create=False)
            for _ in txn.cursor(db=db).iternext(keys=True, values=True):
                pass
except lmdb.Error as exc:
    sys.stderr.write(str(exc))
    sys.exit(3)
"""
_REFUSED = 3
RESTORE = "restore it from a copy"


_KINDS = {
    stat.S_IFIFO: "a FIFO",
    stat.S_IFSOCK: "a socket",
    stat.S_IFCHR: "a device",
    stat.S_IFBLK: "a device",
}
"""What a ``data.mdb`` that is not a regular file is, by its file type."""


def refuse_special_files(path: Path, what: str = "the event log") -> None:
    """:class:`StorageError` when ``data.mdb`` or ``lock.mdb`` in ``path`` is not a regular file.

    LMDB opens them with a plain ``open()``: on a FIFO that blocks until a writer comes, and
    Python retries it after each signal's handler, so the command hung and ignored SIGTERM.
    Checked (through a symlink, which is fine) before anything opens them; a missing file is
    left to the open, which says what it means.
    """
    for name in ("data.mdb", "lock.mdb"):
        try:
            mode = os.stat(path / name).st_mode
        except OSError:
            continue
        if not stat.S_ISREG(mode):
            kind = _KINDS.get(stat.S_IFMT(mode), "a folder" if stat.S_ISDIR(mode) else "not a file")
            raise StorageError(f"cannot open {what} at {path}: its {name} is {kind}, not a regular file")


def walk_pages(path: Path, *, lock: bool = True) -> str:
    """Why LMDB cannot read every page of the log at ``path`` ("" when it can)."""
    import subprocess  # here: every command opens a log, only these two walk it (~0.002 CPU s)

    refuse_special_files(path)
    done = subprocess.run(
        [sys.executable, "-c", _WALK, str(path), "1" if lock else "0"],
        capture_output=True,
        text=True,
        errors="replace",
        check=False,
    )
    said = done.stderr.strip().splitlines()[-1:] or [""]
    said = [said[0][said[0].find("Assertion") :] if "Assertion" in said[0] else said[0]]  # no C path
    if done.returncode == 0:
        return ""
    if done.returncode == _REFUSED:
        return f"the event log {path} is damaged: LMDB refused a page ({said[0]}); {RESTORE}"
    if done.returncode < 0:
        name = _signal_name(-done.returncode)
        why = f": {said[0]}" if said[0] else ""
        return f"the event log {path} is damaged: LMDB aborted reading it ({name}{why}); {RESTORE}"
    exited = f"the checking process exited {done.returncode}"
    return f"the pages of {path} could not be checked ({exited}: {said[0]})"


def _signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"
