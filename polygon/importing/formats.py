"""Parsing production transcripts into conversations (pure: text in, records out).

Formats: Polygon's own JSONL export (``polygon log export``), OpenAI chat messages (with
``tool_calls`` and ``tool`` messages; one conversation per line, or a whole file holding one
conversation), and plain text with one ``SPEAKER: text`` line per turn (conversations split
by a line of ``---``). A malformed record becomes an :class:`ImportProblem` naming the file
and line; the caller decides whether to skip it or refuse the file.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from polygon.events import conversation_of_stream, is_conversation_stream
from polygon.importing.jsonread import JsonError, loads

FORMATS = ("polygon-jsonl", "openai-chat", "text", "vapi", "retell", "elevenlabs", "livekit", "otel-genai")
CALLER_NAMES = frozenset({"caller", "user", "customer", "client", "c", "u", "patient", "human"})
AGENT_NAMES = frozenset({"agent", "assistant", "bot", "a", "ai", "receptionist", "operator", "system-agent"})
END_CALL_TOOLS = frozenset(
    {"end_call", "endCall", "end_conversation", "endConversation", "hangup", "hang_up", "disconnect"}
)
"""Tool names that end a call on common voice platforms (OpenAI-style agents, Vapi, Retell, …)."""
TRANSFER_TOOLS = frozenset(
    {
        *("transfer_call", "transferCall", "transfer_to_human", "transferToHuman", "transfer", "handoff"),
        *("transfer_to_number", "transfer_to_agent"),  # ElevenLabs' system tools
    }
)
"""Tool names that hand the call to a person."""
_LINE = re.compile(r"^\s*([A-Za-z][\w .-]{0,30}?)\s*:\s*(.*)$")


@dataclass
class ImportedTool:
    """A tool call found in a transcript, with its result if one followed."""

    call_id: str
    name: str
    arguments: Any
    result: Any = None
    error: str = ""
    unpaired: str = ""
    """Why the call has no partner in the export (a call without a result, or the reverse)."""


@dataclass
class ImportedTurn:
    """One exchange: what the caller said, the agent's tools and reply."""

    caller: str = ""
    agent: str | None = None
    tools: list[ImportedTool] = field(default_factory=list)
    latency_ms: float | None = None
    """How long the agent took to answer, when the export's timing says."""
    beside: list[tuple[int, str]] = field(default_factory=list)
    """(position in ``tools``, text): what the agent said before that call and after the one
    before it; ``agent`` holds it too. Recorded as ``conversation.spoken_beside_tools``."""


@dataclass
class ImportedConversation:
    """One conversation read from a file."""

    key: str
    source_file: str
    line: int
    format: str
    source_hash: str
    turns: list[ImportedTurn]
    system_prompt: str = ""
    end_reason: str = ""
    raw_key: str = ""
    """The id as found in the file (``key`` is it made safe for conversation ids)."""
    label: str = ""
    """``pass`` or ``fail`` when the record carries a ``label`` (a human verdict)."""
    reward: float | None = None
    """A numeric ``reward`` the record carries (an outcome known to whoever exported it)."""
    label_by: str = "transcript"
    """Who gave ``label``/``reward``: ``transcript``, or ``platform:NAME`` for its own analysis."""
    label_note: str = ""
    """The outcome as the platform wrote it (``successEvaluation=true``)."""
    source_id: str = ""
    """The platform's id of the call."""
    end_by: str = ""
    """Who ended the call (caller, agent, engine), when the export says."""
    end_source: str = ""
    """The platform's own end value (``endedReason=customer-ended-call``)."""
    end_detail: str = ""
    """Transfer destination or error text that came with the end."""
    tools: list[dict[str, Any]] = field(default_factory=list)
    """Tool definitions the export carries (for the judge's context)."""


@dataclass(frozen=True)
class ImportProblem:
    """A record that could not be read."""

    source_file: str
    line: int
    message: str
    place: str | None = None
    """Where, when a line number does not say: ``item 2`` of a JSON list, "" for the whole file."""

    def __str__(self) -> str:
        where = str(self.line) if self.place is None else self.place
        return (
            f"{self.source_file}:{where}: {self.message}" if where else f"{self.source_file}: {self.message}"
        )


Parsed = ImportedConversation | ImportProblem


def _hash(text: str) -> str:
    return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()


record_hash = _hash


def detect_format(path: Path, text: str) -> str:
    """Guess the format from the content: the first line's record, or the whole document's."""
    from polygon.importing.platforms import sniff  # the platforms build on this module

    first = next((line for line in text.splitlines() if line.strip()), "")
    if first.lstrip().startswith(("{", "[")):
        try:
            data = loads(first)  # the importers' bounded decoder: a hostile line is not a crash
        except JsonError:
            try:
                data = loads(text.strip())  # a whole-file JSON document, pretty-printed
            except JsonError:
                return "openai-chat"  # a bad line: the importer reports it as one
        if isinstance(data, dict) and "tag" in data and "stream" in data:
            return "polygon-jsonl"
        return sniff(data) or "openai-chat"
    return "text"


def parse(path: Path, text: str, fmt: str) -> Iterator[Parsed]:
    """Every conversation (or problem) in one file; a record of any shape is at worst a problem.

    ``auto`` detects the format first (through the same bounded decoder as the importers).
    """
    if fmt == "auto":
        fmt = detect_format(path, text)
    if fmt == "text":
        yield from _text(path, text)
    elif fmt == "openai-chat":
        yield from _openai(path, text)
    elif fmt == "polygon-jsonl":
        yield from _polygon(path, text)
    elif fmt == "otel-genai":
        from polygon.importing.otel import parse_otel  # builds on this module

        yield from parse_otel(path, text)
    elif fmt in FORMATS:
        from polygon.importing.platforms import parse_platform  # builds on this module

        yield from parse_platform(path, text, fmt)
    else:
        yield ImportProblem(str(path), 0, f"unknown format {fmt!r} (use {', '.join(FORMATS)})")


_MALFORMED = (TypeError, ValueError, KeyError, AttributeError, IndexError, RecursionError)


def _guarded(path: Path, number: int, build: Callable[[], Parsed]) -> Parsed:
    """One record, or the problem it has: a malformed record never stops the import."""
    try:
        return build()
    except _MALFORMED as exc:
        what = " ".join(str(exc).split())[:160]
        return ImportProblem(str(path), number, f"malformed record ({type(exc).__name__}: {what})")


guarded = _guarded
MALFORMED = _MALFORMED


# -- plain text ----------------------------------------------------------------------------


def _text(path: Path, text: str) -> Iterator[Parsed]:
    block: list[tuple[int, str]] = []
    for number, line in enumerate([*text.splitlines(), "---"], start=1):
        if line.strip() == "---":
            if block:
                first, lines = block[0][0], list(block)
                yield _guarded(path, first, lambda: _text_block(path, lines))  # noqa: B023 - called at once
            block = []
        elif line.strip():
            block.append((number, line))


def _text_block(path: Path, block: list[tuple[int, str]]) -> Parsed:
    turns: list[ImportedTurn] = []
    for number, line in block:
        match = _LINE.match(line)
        if not match:
            return ImportProblem(str(path), number, "expected 'SPEAKER: text'")
        who, said = match.group(1).strip().lower(), match.group(2).strip()
        if who in CALLER_NAMES:
            turns.append(ImportedTurn(caller=said))
        elif who in AGENT_NAMES:
            if not turns or turns[-1].agent is not None:
                turns.append(ImportedTurn())
            turns[-1].agent = said
        else:
            return ImportProblem(
                str(path),
                number,
                f"unknown speaker {match.group(1)!r} "
                "(caller: CALLER/USER/CUSTOMER, agent: AGENT/ASSISTANT/BOT)",
            )
    first = block[0][0]
    raw = "\n".join(line for _, line in block)
    return ImportedConversation(
        raw_key=f"line{first}",
        key=f"line{first}",
        source_file=str(path),
        line=first,
        format="text",
        source_hash=_hash(raw),
        turns=turns,
    )


# -- OpenAI chat messages ---------------------------------------------------------------------


def _openai(path: Path, text: str) -> Iterator[Parsed]:
    stripped = text.strip()
    whole: Any = None
    if stripped.startswith("[") or (
        stripped.startswith("{") and "\n" in stripped and _is_one_document(stripped)
    ):
        try:
            whole = loads(stripped)
        except JsonError:
            whole = None
    if whole is not None:
        yield _guarded(path, 1, lambda: _openai_record(path, 1, whole, stripped))
        return
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            record = loads(line, first_line=number)
        except JsonError as exc:
            yield ImportProblem(str(path), number, f"not valid JSON ({exc})")
            continue
        yield _guarded(path, number, lambda: _openai_record(path, number, record, line))  # noqa: B023


def _is_one_document(text: str) -> bool:
    try:
        loads(text)
    except JsonError:
        return False
    return True


def _openai_record(path: Path, number: int, record: Any, raw: str) -> Parsed:
    messages = record.get("messages") if isinstance(record, dict) else record
    if not isinstance(messages, list) or not all(isinstance(m, dict) and "role" in m for m in messages):
        return ImportProblem(str(path), number, 'expected a list of chat messages (or {"messages": [...]})')
    key = str(record.get("id") or f"line{number}") if isinstance(record, dict) else f"line{number}"
    system, turns, problem = _chat_turns(messages)
    if problem:
        return ImportProblem(str(path), number, problem)
    label, reward, problem = _outcome(record if isinstance(record, dict) else {})
    if problem:
        return ImportProblem(str(path), number, problem)
    return ImportedConversation(
        label=label,
        reward=reward,
        raw_key=key,
        key=safe_key(key),
        source_file=str(path),
        line=number,
        format="openai-chat",
        source_hash=_hash(raw),
        turns=turns,
        system_prompt=system,
    )


_LABELS = {
    **{"pass": "pass", "good": "pass", "success": "pass"},
    **{"fail": "fail", "bad": "fail", "failure": "fail"},
}


def _outcome(record: dict[str, Any]) -> tuple[str, float | None, str]:
    """A record's own ``label`` and ``reward`` fields (both optional), or why they are unusable."""
    label, reward = record.get("label"), record.get("reward")
    if label is not None and (not isinstance(label, str) or label.strip().lower() not in _LABELS):
        return "", None, f"label {label!r:.40}: expected one of {', '.join(_LABELS)}"
    if reward is not None and (
        isinstance(reward, bool) or not isinstance(reward, int | float) or not math.isfinite(reward)
    ):
        return "", None, f"reward {reward!r:.40}: expected a finite number"
    return (_LABELS[label.strip().lower()] if isinstance(label, str) else ""), reward, ""


def _chat_turns(messages: list[dict[str, Any]]) -> tuple[str, list[ImportedTurn], str]:
    system = ""
    turns: list[ImportedTurn] = []
    pending: dict[str, ImportedTool] = {}
    for i, m in enumerate(messages):
        role, content = m.get("role"), m.get("content") or ""
        if isinstance(content, list):  # content parts: the text ones
            content = " ".join(str(p.get("text", "")) for p in content if isinstance(p, dict))
        elif not isinstance(content, str):
            return system, turns, f"message {i}: content is a {type(content).__name__}, not text"
        if role == "system":
            system = content
        elif role == "user":
            turns.append(ImportedTurn(caller=content))
        elif role == "assistant":
            if not turns:
                turns.append(ImportedTurn())
            calls = m.get("tool_calls") or []
            if not isinstance(calls, list):
                return system, turns, f"message {i}: tool_calls is a {type(calls).__name__}, not a list"
            for call in calls:
                fn = call.get("function") if isinstance(call, dict) else None
                if not isinstance(fn, dict):
                    return system, turns, f"message {i}: a tool call without a function object"
                args: Any = fn.get("arguments", "")
                args = json_or_raw(args)  # unreadable: kept raw, recorded invalid
                tool = ImportedTool(
                    call_id=str(call.get("id", f"call{i}")), name=str(fn.get("name", "")), arguments=args
                )
                turns[-1].tools.append(tool)
                pending[tool.call_id] = tool
            if content:
                turns[-1].agent = content if turns[-1].agent is None else f"{turns[-1].agent} {content}"
        elif role == "tool":
            answered = pending.get(str(m.get("tool_call_id", "")))
            if answered is None:
                return (
                    system,
                    turns,
                    f"message {i}: tool result for unknown tool_call_id {m.get('tool_call_id')!r}",
                )
            answered.result = json_or_raw(content)
        else:
            return system, turns, f"message {i}: unknown role {role!r}"
    return system, turns, ""


def json_or_raw(value: Any) -> Any:
    """A string holding JSON decoded (bounded), any other value or unreadable text as it is."""
    if not isinstance(value, str):
        return value
    try:
        return loads(value)
    except JsonError:
        return value


def ending_of(
    conv: ImportedConversation, end_tools: frozenset[str], transfer_tools: frozenset[str]
) -> tuple[str, str, int]:
    """(reason, by, turn) of how the agent ended the call by a tool, or ("", "", 0) if it did not.

    The last end-of-call or transfer tool call wins; names are compared as given and
    case-insensitively without ``_`` and ``-`` (``endCall`` = ``end_call``).
    """
    transfers, ends = {_norm(t) for t in transfer_tools}, {_norm(t) for t in end_tools}
    found = ("", "", 0)
    for n, turn in enumerate(conv.turns, start=1):
        for tool in turn.tools:
            if _norm(tool.name) in transfers:
                found = ("transfer", "agent", n)
            elif _norm(tool.name) in ends:
                found = ("hangup", "agent", n)
    return found


def is_ending_tool(name: str, ending_tools: frozenset[str]) -> bool:
    """Whether a tool call ends the call (hang-up or transfer) rather than asks a stub."""
    return _norm(name) in {_norm(t) for t in ending_tools}


def _norm(name: str) -> str:
    return name.replace("_", "").replace("-", "").lower()


def safe_key(key: str) -> str:
    """An id safe inside conversation ids (letters, digits, - and _)."""
    return re.sub(r"[^A-Za-z0-9_-]", "-", key)[:64] or "conversation"


# -- Polygon's own export ------------------------------------------------------------------------


def _polygon(path: Path, text: str) -> Iterator[Parsed]:
    by_stream: dict[str, list[tuple[int, dict[str, Any]]]] = {}
    problems: list[ImportProblem] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            record = loads(line, first_line=number)
            stream, payload = record["stream"], record["payload"]
            if not isinstance(payload, dict):
                raise TypeError("payload is not an object")
        except (*_MALFORMED,) as exc:
            problems.append(ImportProblem(str(path), number, f"not an exported event ({exc})"))
            continue
        if is_conversation_stream(str(stream)):
            by_stream.setdefault(stream, []).append((number, payload))
    yield from problems
    for stream, rows in by_stream.items():
        yield _guarded(path, rows[0][0], lambda: _polygon_conversation(path, stream, rows))  # noqa: B023


def _polygon_conversation(path: Path, stream: str, rows: list[tuple[int, dict[str, Any]]]) -> Parsed:
    turns: dict[int, ImportedTurn] = {}
    end = ""
    for _number, p in rows:
        kind = p.get("type")
        if kind == "conversation.turn_spoken":
            t = turns.setdefault(int(p["turn"]), ImportedTurn())
            if p.get("speaker") == "caller":
                t.caller = str(p.get("text", ""))
            else:
                t.agent = str(p.get("text", ""))
        elif kind == "conversation.spoken_beside_tools":  # its text is in the agent's turn too
            turns.setdefault(int(p["turn"]), ImportedTurn()).beside.append((int(p["index"]), str(p["text"])))
        elif kind == "tool.called":
            turns.setdefault(int(p["turn"]), ImportedTurn()).tools.append(
                ImportedTool(
                    call_id=str(p.get("call_id", "")),
                    name=str(p.get("tool", "")),
                    arguments=p.get("arguments"),
                    result=p.get("result"),
                    error=str(p.get("error", "")),
                )
            )
        elif kind == "conversation.ended":
            end = str(p.get("reason", ""))
    if not turns:
        return ImportProblem(str(path), rows[0][0], f"{stream}: no turns in the export")
    raw = json.dumps([p for _, p in rows], sort_keys=True)
    key = conversation_of_stream(stream).split(".", 1)[-1]
    return ImportedConversation(
        raw_key=key,
        key=safe_key(key),
        source_file=str(path),
        line=rows[0][0],
        format="polygon-jsonl",
        source_hash=_hash(raw),
        turns=[turns[k] for k in sorted(turns)],
        end_reason=end,
    )
