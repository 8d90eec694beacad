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

from polygon.app.queries import read_run_labels
from polygon.boundary import read_text
from polygon.errors import UnknownIdError, UserInputError
from polygon.events import (
    LABEL,
    EventLog,
    LabelRecorded,
    Pending,
    conversation_stream,
    is_conversation_stream,
    keyed,
    labels_stream,
    run_conversations,
    run_stream,
)
from polygon.importing import safe_key
from polygon.recording import StreamRecorder
from polygon.score import CRITERIA

VERDICTS = {"pass": "pass", "fail": "fail", "good": "pass", "bad": "fail", "1": "pass", "0": "fail"}
REWARD_RANGE = (0.0, 1.0)
"""A label's reward: 0 (failed) to 1 (achieved); it counts as pass at ``--reward-pass-at`` (0.5)."""
FIELD_LIMIT = 128 * 1024
"""Longest CSV field (Python's csv default): a note is a line, not a transcript."""


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


def run_named_in(conversation_id: str) -> str:
    """The run an id names: the part before its first dot (no log read; the call need not exist)."""
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
        run_id = run_named_in(lab.conversation_id)
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
    return read_run_labels(log, run_id).given()


# ---- labels import ------------------------------------------------------------------------


def read_label_file(log: EventLog, path: Path, run_id: str | None, default_by: str) -> list[LabelInput]:
    """CSV (with a header) or JSONL rows → labels; the first bad row is one error naming FILE:LINE."""
    text = read_text(path, "labels").removeprefix("\ufeff")  # Excel's UTF-8 CSV starts with a BOM
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
        except json.JSONDecodeError as exc:  # where, as `import` says it: the file's line, the column
            why = f"{exc.msg.removesuffix(' at')} at line {number} column {exc.colno}"
            raise UserInputError(f"{path}:{number}: not valid JSON ({why})") from None
        except ValueError as exc:
            raise UserInputError(f"{path}:{number}: not valid JSON ({exc})") from None
        except RecursionError:
            why = "JSON nested too deep (a label is one flat object)"
            raise UserInputError(f"{path}:{number}: {why}") from None
        if not isinstance(row, dict):
            raise UserInputError(f"{path}:{number}: expected a JSON object")
        yield number, row


def _csv(path: Path, text: str) -> Iterator[tuple[int, dict[str, Any]]]:
    reader = csv.DictReader(io.StringIO(text))
    try:
        if not reader.fieldnames:
            raise UserInputError(f"{path}: expected a header row (conversation, verdict, …)")
        for row in reader:
            yield reader.line_num, {k.strip(): _cell(v) for k, v in row.items() if k}
    except csv.Error as exc:
        line = reader.line_num + (0 if reader.line_num else 1)
        why = f"a field longer than {FIELD_LIMIT // 1024} KB" if "field limit" in str(exc) else str(exc)
        raise UserInputError(f"{path}:{line}: not a usable CSV row ({why})") from None


def _cell(value: Any) -> str:
    """A CSV cell as text (a row longer than the header puts its extra cells in a list)."""
    return value.strip() if isinstance(value, str) else ""


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
    raw_verdict = _field(where, row, "verdict", "label", numbers=True).lower()
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
    by = _field(where, row, "by", "labeller") or default_by
    note = _field(where, row, "note")
    return LabelInput(cid, VERDICTS.get(raw_verdict, ""), criteria, reward, by, note, where)


def _field(where: str, row: dict[str, Any], *names: str, numbers: bool = False) -> str:
    """The first of ``names`` the row has, as text; a list, an object or a bool is refused.

    With ``numbers``, a whole number is taken as written (a verdict of 1, a source id of 17).
    """
    for name in names:
        value = row.get(name)
        if value in (None, ""):
            continue
        if isinstance(value, str):
            return value.strip()
        if numbers and isinstance(value, int) and not isinstance(value, bool):
            return str(value)
        raise UserInputError(f"{where}: {name} {value!r:.60}: expected text")
    return ""


def _reward(where: str, value: Any) -> float | None:
    if value in (None, ""):
        return None
    try:
        reward = float(value)
    except (TypeError, ValueError):
        raise UserInputError(f"{where}: reward {value!r}: expected a number") from None
    if isinstance(value, bool) or not math.isfinite(reward):
        raise UserInputError(f"{where}: reward {value!r}: expected a finite number")
    low, high = REWARD_RANGE
    if not low <= reward <= high:
        raise UserInputError(f"{where}: reward {value!r}: expected {low:g} (failed) to {high:g} (achieved)")
    return reward


def _conversation(
    log: EventLog, where: str, row: dict[str, Any], run_id: str | None, keys: dict[str, str]
) -> str:
    given = _field(where, row, "conversation", "conversation_id")
    source = _field(where, row, "source_id", "id", numbers=True)
    if given:
        # with --run, only calls of that run: relative ids first, then a full id of the run
        candidates = (f"{run_id}.{given}", given) if run_id else (given,)
        for candidate in candidates:
            if log.stream_length(conversation_stream(candidate)):
                if run_id and (named := run_named_in(candidate)) != run_id:
                    raise UserInputError(
                        f"{where}: {given!r} is a call of run {named!r}, not of --run {run_id}"
                    )
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
