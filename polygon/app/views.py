"""Saved views: a view's rendered bytes, kept with the log position they were rendered from.

A view (``report`` in any format, ``compare``) is a pure function of the run's events, the
view's options and the code. So its output is saved in the snapshot store, keyed by the
view's kind, its run(s) and every option that changes a byte, and versioned by a
fingerprint of the code (:func:`fingerprint`). The next view asks, before folding anything:
is there a saved output under this key, of this code, from this log (the event at its
position is the one it names), with no event of its runs (their streams and their calls'
streams, and any other stream the view reads) after its position? Then the saved bytes
are written and nothing is folded. Otherwise the view is rendered as before and saved.

The bytes are one zstd frame with its checksum; a record whose hash does not match is never
returned by the store, one that does not decompress is passed over (``log verify`` says
so). One entry per key, replaced: repeated views do not grow the store. An output that
holds an escape character is not saved (click strips those when the output is not a
terminal: its bytes depend on where it is written). ``POLYGON_SNAPSHOTS=0`` switches them
off with the other snapshots.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import importlib.util
import json
import os
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

import msgspec
import zstandard

from polygon.app.snapshots import RESAVE_AFTER, anchor, snapshots_for, why_off_log
from polygon.events import EventLog, Snapshot, SnapshotStore, StorageError, run_conversations, run_stream

PROJECTION = "view"
FORMAT = 2
"""This module's encoding: bump on a change (the code fingerprint changes with it anyway)."""
LEVEL = 3
"""zstd level: the 20k-call JSON report (292 MB) compresses to 2.8 MB in 0.35 CPU s."""
WHOLE_UP_TO = 64 << 20
"""Outputs up to this size are decompressed (so checked) whole before their first byte is written."""
PIECE = 1 << 20
"""Bytes written at a time for a bigger output."""
CODE_PACKAGES = ("polygon", "polygon.events", "polygon.projections", "polygon.cli", "polygon.rubrics")
"""Every folder the package's own files lie in (package-dir maps several top-level folders)."""


Option = str | None | tuple[str, ...]
"""An option's value in a key: unset (None) is not the empty string, a list is not joined."""


@dataclass(frozen=True)
class ViewKey:
    """What a saved view is saved under, and what makes it stale."""

    kind: str
    """The view (``report``, ``compare``)."""
    runs: tuple[str, ...]
    """The runs it shows, in the order asked (an event of any of them makes it stale)."""
    inputs: tuple[tuple[str, Option], ...]
    """Every option that changes its bytes, by name (a list option as its values, in order)."""
    also: tuple[str, ...] = ()
    """Prefixes of other streams it reads (an event in any of them makes it stale)."""

    @property
    def subject(self) -> str:
        """The runs, as the store names its subject: a label only (:attr:`text` holds them exactly)."""
        return " ".join(self.runs)

    @property
    def text(self) -> str:
        """The kind, runs and inputs, as the store names a snapshot's inputs.

        One JSON document, so no two keys meet: a run id or a value holding any separator
        (a unit separator, a space, an empty ``--config=``) is quoted, never joined. It holds no
        NUL (``ensure_ascii``), so the store's key ends with it whole.
        """
        pairs = [[name, list(value) if isinstance(value, tuple) else value] for name, value in self.inputs]
        return json.dumps([self.kind, list(self.runs), pairs], ensure_ascii=True)


class Saved(msgspec.Struct, array_like=True):
    """A view's output: its bytes (one zstd frame), their size, and what it says beside them."""

    body: bytes
    size: int
    notes: list[str]
    """Lines the command writes after the output (``report``: why the run misses ``--fail-on``)."""


_ENCODER = msgspec.msgpack.Encoder()
_DECODER = msgspec.msgpack.Decoder(Saved)


@functools.cache
def fingerprint() -> str:
    """A hash of the code a view's bytes may depend on.

    The package's own files (code, templates, data, bundled rubrics), the installed
    distributions beside its dependencies, and the interpreter's version. Any change to the
    code invalidates every saved view, whether or not the version was bumped. Computed once
    per process: ~5 ms on an idle machine (260 files, 1.5 MB; 15-20 ms under a load of 9 on 2 cores).
    """
    digest = hashlib.blake2b(digest_size=12)
    for name, path in _code_files():
        digest.update(name.encode(errors="surrogateescape") + b"\x00")
        digest.update(hashlib.blake2b(_read(path), digest_size=16).digest())
    digest.update(sys.version.encode())
    beside = os.path.dirname(os.path.dirname(msgspec.__file__))  # where the dependencies are installed
    with contextlib.suppress(OSError):
        digest.update("\x00".join(sorted(n for n in os.listdir(beside) if n.endswith(".dist-info"))).encode())
    return digest.hexdigest()


def _code_files() -> list[tuple[str, str]]:
    """Each file of :data:`CODE_PACKAGES` as (package/relative path, path), in name order."""
    found: list[tuple[str, str]] = []
    for package in CODE_PACKAGES:
        spec = importlib.util.find_spec(package)
        for root in (spec.submodule_search_locations or []) if spec else []:
            paths: list[str] = []
            _walk(root, paths)
            found += [(f"{package}/{p[len(root) + 1 :]}", p) for p in paths]
    return sorted(found)


def _read(path: str) -> bytes:
    """A file's bytes (``os.read``: half the time of ``open().read()`` over 260 small files)."""
    fd = os.open(path, os.O_RDONLY)
    try:
        chunks = [os.read(fd, 1 << 20)]
        while chunks[-1]:
            chunks.append(os.read(fd, 1 << 20))
        return b"".join(chunks)
    finally:
        os.close(fd)


def _walk(folder: str, found: list[str]) -> None:
    for entry in os.scandir(folder):
        if entry.is_dir():
            if entry.name != "__pycache__":
                _walk(entry.path, found)
        elif not entry.name.endswith((".pyc", ".pyo")):
            found.append(entry.path)


def version() -> str:
    """A saved view of another code or encoding never fits."""
    return f"{FORMAT}.{fingerprint()}"


def saved_view(log: EventLog, key: ViewKey) -> tuple[Iterator[bytes], list[str]] | None:
    """The saved output under ``key`` and its notes, when it still is what the view would write."""
    with snapshots_for(log, create=False) as store:
        snapshot = store.load(PROJECTION, key.subject, key.text)
        if snapshot is None or snapshot.version != version():
            return None
        position = log.last_seq()
        if why_off_log(log, snapshot, position) or _touched(log, key, snapshot.position, position):
            return None
        try:
            saved = _DECODER.decode(snapshot.state)
        except (msgspec.DecodeError, msgspec.ValidationError):
            return None
        body = _body(saved)
        if body is not None and position - snapshot.position >= RESAVE_AFTER:
            _resave(log, store, snapshot, position)  # others' events: not read again next time
    return (body, saved.notes) if body is not None else None


def _touched(log: EventLog, key: ViewKey, after: int, position: int) -> bool:
    """Whether any event in ``(after, position]`` lies in a stream the view reads."""
    streams = {run_stream(r) for r in key.runs}
    prefixes = (*(run_conversations(r) for r in key.runs), *key.also)
    for env in log.read_all(after_seq=after):
        if env.seq > position:
            return False
        if env.stream in streams or env.stream.startswith(prefixes):
            return True
    return False


def _body(saved: Saved) -> Iterator[bytes] | None:
    """The output's bytes; None when they do not decompress to their size.

    A big output is written as it is decompressed: its record's hash matched, so its
    frame is the one written (its own checksum is checked at the end, and by ``log verify``).
    """
    if saved.size > WHOLE_UP_TO:
        return _streamed(saved)
    whole = _decompressed(saved, keep=True)
    return _pieces(whole) if isinstance(whole, bytes) else None


def _streamed(saved: Saved) -> Iterator[bytes]:
    """A big output as it is decompressed, stopped with one error where it proves damaged.

    Never more than its size is written: a frame of a few KB can stand for gigabytes.
    """
    size = 0
    try:
        for piece in zstandard.ZstdDecompressor().read_to_iter(saved.body, write_size=PIECE):
            size += len(piece)
            if size > saved.size:
                raise _damaged(f"it decompresses to more than its {saved.size} bytes")
            yield piece
    except zstandard.ZstdError as exc:
        raise _damaged(f"it does not decompress ({exc})") from None
    if size != saved.size:
        raise _damaged(f"it decompresses to {size} bytes, not {saved.size}")


def _damaged(why: str) -> StorageError:
    return StorageError(
        f"this view's saved output is damaged, found as it was written: {why}; "
        "`polygon log verify` names it, and POLYGON_SNAPSHOTS=0 writes the view from the log"
    )


def _pieces(whole: bytes) -> Iterator[bytes]:
    """``whole`` in pieces of :data:`PIECE`, as a bigger output is written.

    The terminal-safety filter lets a piece through untouched after a look at its few
    candidate bytes, up to a thousand of them (:mod:`polygon.visible`): the 17 MB JSON report
    of a 1k-call run in one piece holds more, and was decoded and scanned whole (0.1 CPU s).
    """
    for start in range(0, len(whole), PIECE):
        yield whole[start : start + PIECE]


def why_damaged(log: EventLog, snapshot: Snapshot) -> str:
    """Why a saved view that fits ``log`` cannot be written ("" when it can, or does not fit)."""
    if snapshot.version != version() or why_off_log(log, snapshot):
        return ""  # stale: the next view replaces it
    try:
        saved = _DECODER.decode(snapshot.state)
    except (msgspec.DecodeError, msgspec.ValidationError) as exc:
        return f"its state does not decode ({exc})"
    why = _decompressed(saved, keep=False)  # never held whole (a 20k-call JSON report is 342 MB)
    return why if isinstance(why, str) else ""


CHECKED_IN = 256
"""Compressed bytes decompressed at a time (a zstd block of four bytes can stand for 128 KiB:
at most 8 MB held at once for a hostile frame; 4 KiB let one hold 128 MB). As fast as one
call: 2.9 ms for a 1k-call run's 17 MB JSON report either way."""


def _decompressed(saved: Saved, *, keep: bool) -> bytes | str:
    """The output (``b""`` unless ``keep``), or why it cannot be; stops past its size.

    ``log verify`` keeps nothing: checked whole, a 20k-call run's JSON report peaked at 460 MB.
    A frame a few KB long can stand for gigabytes, and its record's hash only says it is the
    frame written: decompressed in one call, a saved view of a few bytes made of one held 256 MB.
    """
    unpacker, body = zstandard.ZstdDecompressor().decompressobj(), memoryview(saved.body)
    size, pieces = 0, []
    try:
        for start in range(0, len(body), CHECKED_IN):
            piece = unpacker.decompress(body[start : start + CHECKED_IN])
            size += len(piece)
            if size > saved.size:
                return f"its output decompresses to more than its {saved.size} bytes"
            if keep:
                pieces.append(piece)
    except zstandard.ZstdError as exc:
        return f"its output does not decompress ({exc})"
    if not unpacker.eof or size != saved.size:
        return f"its output decompresses to {size} bytes, not {saved.size}"
    return b"".join(pieces)


def saving(
    log: EventLog,
    key: ViewKey,
    position: int,
    chunks: Iterable[bytes],
    notes: list[str],
    *,
    text: bool = True,
) -> Iterator[bytes]:
    """``chunks`` as they come, and once the last is through, saved under ``key`` at ``position``.

    ``position`` is the log's end read before the view was folded: what was appended
    meanwhile may be in the output, and makes the saved view stale (never the other way).
    A ``text`` output holding an escape character is not saved (see the module's doc).
    """
    packer = zstandard.ZstdCompressor(level=LEVEL, write_checksum=True).compressobj()
    parts: list[bytes] = []
    size, plain = 0, True
    for data in chunks:
        size += len(data)
        plain = plain and not (text and b"\x1b" in data)
        parts.append(packer.compress(data))
        yield data
    if not plain:
        return
    parts.append(packer.flush())
    state = _ENCODER.encode(Saved(body=b"".join(parts), size=size, notes=notes))
    with snapshots_for(log) as store, contextlib.suppress(StorageError):  # a view works without it
        store.save(
            Snapshot(
                projection=PROJECTION,
                version=version(),
                subject=key.subject,
                inputs=key.text,
                position=position,
                anchor=anchor(log, position),
                state=state,
            )
        )


def _resave(log: EventLog, store: SnapshotStore, snapshot: Snapshot, position: int) -> None:
    moved = msgspec.structs.replace(snapshot, position=position, anchor=anchor(log, position))
    with contextlib.suppress(StorageError):
        store.save(moved)
