"""``polygon label`` and ``polygon labels import``: human labels recorded beside verdicts.

A label is a ``label.recorded`` event in ``labels/<run>``; it never changes a verdict. The
same labeller labelling a call again adds a newer label (the latest counts); several
labellers may label one call.
"""

from __future__ import annotations

import csv
import io
import json
import math
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from polygon.boundary import read_text
from polygon.errors import UnknownIdError, UserInputError
from polygon.events import EventLog, Pending
from polygon.events.families import LabelRecorded
from polygon.events.streams import (
    LABEL,
    conversation_stream,
    is_conversation_stream,
    keyed,
    labels_stream,
    run_conversations,
    run_stream,
)
from polygon.importing.formats import safe_key
from polygon.recording import StreamRecorder
from polygon.score.rubric import CRITERIA

VERDICTS = {"pass": "pass", "fail": "fail", "good": "pass", "bad": "fail", "1": "pass", "0": "fail"}


@dataclass(frozen=True)
class LabelInput:
    """One label before it is recorded."""

    conversation_id: str
    verdict: str = ""
    criteria: tuple[tuple[str, int], ...] = ()
    reward: float | None = None
    by: str = ""
    note: str = ""
    source: str = "cli"


def run_of(conversation_id: str) -> str:
    """The run a conversation id belongs to."""
    return conversation_id.split(".", 1)[0]


def check_criteria(criteria: dict[str, Any], where: str) -> tuple[tuple[str, int], ...]:
    """Criterion scores as the rubric knows them (names from the rubric, 1..5)."""
    out = []
    for name, value in criteria.items():
        if name not in CRITERIA:
            raise UserInputError(f"{where}: unknown criterion {name!r} (have: {', '.join(CRITERIA)})")
        try:
            score = int(str(value).strip())
        except ValueError:
            raise UserInputError(f"{where}: {name}={value!r}: expected a whole score 1..5") from None
        if not 1 <= score <= 5:
            raise UserInputError(f"{where}: {name}={score}: expected a score 1..5")
        out.append((name, score))
    return tuple(sorted(out))


def record_labels(log: EventLog, labels: list[LabelInput], *, now: Callable[[], str]) -> int:
    """Append every label (each call must exist); returns how many were recorded."""
    pending: list[Pending] = []
    seen: dict[str, Counter[tuple[str, str]]] = {}  # run → (call, labeller) → labels so far
    for lab in labels:
        if not log.stream_length(conversation_stream(lab.conversation_id)):
            raise UnknownIdError(f"no conversation {lab.conversation_id!r} in the log ({lab.source})")
        run_id = run_of(lab.conversation_id)
        if run_id not in seen:
            seen[run_id] = _earlier(log, run_id)
        key = (lab.conversation_id, lab.by)
        recorder = StreamRecorder(
            run_id=run_id, stream=labels_stream(run_id), conversation=lab.conversation_id, seed=0, now=now
        )
        event = LabelRecorded(
            conversation_id=lab.conversation_id,
            verdict=lab.verdict,
            criteria=dict(lab.criteria),
            reward=lab.reward,
            by=lab.by,
            note=lab.note,
            source=lab.source,
        )
        recorder.emit(keyed(LABEL, lab.conversation_id, lab.by), event, index=seen[run_id][key])
        seen[run_id][key] += 1
        pending.extend(recorder.pending)
    return log.append(pending).written if pending else 0


def _earlier(log: EventLog, run_id: str) -> Counter[tuple[str, str]]:
    """How many labels each (call, labeller) of the run has already: one read of its labels."""
    return Counter(
        (env.payload.conversation_id, env.payload.by)
        for env in log.read_stream(labels_stream(run_id))
        if isinstance(env.payload, LabelRecorded)
    )


# ---- labels import ------------------------------------------------------------------------


def read_label_file(log: EventLog, path: Path, run_id: str | None, default_by: str) -> list[LabelInput]:
    """CSV (with a header) or JSONL rows → labels; the first bad row is one error naming FILE:LINE."""
    text = read_text(path, "labels")
    rows = list(_jsonl(path, text) if _looks_jsonl(text) else _csv(path, text))
    if not rows:
        raise UserInputError(f"{path}: no labels in the file")
    if run_id and not log.stream_length(run_stream(run_id)):
        raise UnknownIdError(f"no run {run_id!r} in the log")
    keys = _source_keys(log, run_id) if run_id else {}
    return [_label(log, path, line, row, run_id, keys, default_by) for line, row in rows]


def _looks_jsonl(text: str) -> bool:
    return text.lstrip().startswith("{")


def _jsonl(path: Path, text: str) -> Iterator[tuple[int, dict[str, Any]]]:
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except ValueError as exc:
            raise UserInputError(f"{path}:{number}: not valid JSON ({getattr(exc, 'msg', exc)})") from None
        if not isinstance(row, dict):
            raise UserInputError(f"{path}:{number}: expected a JSON object")
        yield number, row


def _csv(path: Path, text: str) -> Iterator[tuple[int, dict[str, Any]]]:
    reader = csv.DictReader(io.StringIO(text))
    if not reader.fieldnames:
        raise UserInputError(f"{path}: expected a header row (conversation, verdict, …)")
    for row in reader:
        yield reader.line_num, {k.strip(): (v or "").strip() for k, v in row.items() if k}


def _label(
    log: EventLog,
    path: Path,
    line: int,
    row: dict[str, Any],
    run_id: str | None,
    keys: dict[str, str],
    default_by: str,
) -> LabelInput:
    where = f"{path}:{line}"
    cid = _conversation(log, where, row, run_id, keys)
    raw_verdict = str(row.get("verdict", row.get("label", "")) or "").strip().lower()
    if raw_verdict and raw_verdict not in VERDICTS:
        raise UserInputError(f"{where}: verdict {raw_verdict!r}: expected pass or fail")
    reward = _reward(where, row.get("reward"))
    named = {
        k.removeprefix("criterion."): v
        for k, v in row.items()
        if k.removeprefix("criterion.") in CRITERIA and v not in ("", None)
    }
    unknown = [k for k in row if k.startswith("criterion.") and k.removeprefix("criterion.") not in CRITERIA]
    if unknown:
        raise UserInputError(
            f"{where}: unknown criterion {unknown[0].removeprefix('criterion.')!r} "
            f"(have: {', '.join(CRITERIA)})"
        )
    criteria = check_criteria(named, where)
    if not raw_verdict and reward is None and not criteria:
        raise UserInputError(f"{where}: a row needs a verdict, a reward or criterion scores")
    by = str(row.get("by") or row.get("labeller") or default_by)
    return LabelInput(
        cid, VERDICTS.get(raw_verdict, ""), criteria, reward, by, str(row.get("note") or ""), where
    )


def _reward(where: str, value: Any) -> float | None:
    if value in (None, ""):
        return None
    try:
        reward = float(value)
    except (TypeError, ValueError):
        raise UserInputError(f"{where}: reward {value!r}: expected a number") from None
    if isinstance(value, bool) or not math.isfinite(reward):
        raise UserInputError(f"{where}: reward {value!r}: expected a finite number")
    return reward


def _conversation(
    log: EventLog, where: str, row: dict[str, Any], run_id: str | None, keys: dict[str, str]
) -> str:
    given = str(row.get("conversation") or row.get("conversation_id") or "").strip()
    source = str(row.get("source_id") or row.get("id") or "").strip()
    if given:
        for candidate in (given, f"{run_id}.{given}" if run_id else ""):
            if candidate and log.stream_length(conversation_stream(candidate)):
                return candidate
        raise UnknownIdError(
            f"{where}: no conversation {given!r} in the log"
            + ("" if run_id else " (give --run RUN for ids relative to a run)")
        )
    if source:
        if not run_id:
            raise UserInputError(f"{where}: a source id ({source!r}) needs --run RUN (the imported run)")
        found = keys.get(safe_key(source))
        if found is None:
            raise UnknownIdError(f"{where}: no call imported from source id {source!r} in run {run_id}")
        return found
    raise UserInputError(f"{where}: a row needs a conversation (or a source_id with --run)")


def _source_keys(log: EventLog, run_id: str) -> dict[str, str]:
    """Scenario part of each conversation id of the run → the id (imported calls: the source id)."""
    out = {}
    for stream in log.streams(run_conversations(run_id)):
        if is_conversation_stream(stream):
            cid = stream.split("/", 1)[1]
            parts = cid.split(".")
            if len(parts) >= 4:
                out[".".join(parts[2:-1])] = cid
    return out
