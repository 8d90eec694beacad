"""Voice platforms' call exports: Vapi, Retell, ElevenLabs, LiveKit (pure: records in, calls out).

Each reader takes one call record as the platform exports it (its API's call object or its
end-of-call webhook) and returns an :class:`ImportedConversation`: speakers, tool calls
paired with their results by the platform's id, the platform's end value mapped onto
Polygon's end reasons (the value itself kept), per-turn timing as response latency, the
system prompt and tools when the export carries them, the platform's own outcome verdict.
Field names come from the platforms' SDK types (see ``docs/importing.md`` for the sources).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

from polygon.importing.calls import Call, Ending, Item, Result, Said, assemble, number, text_of
from polygon.importing.formats import (
    ImportedConversation,
    ImportProblem,
    Parsed,
    guarded,
    json_or_raw,
    record_hash,
    safe_key,
)
from polygon.importing.jsonread import JsonError, loads

PLATFORMS = ("vapi", "retell", "elevenlabs", "livekit")


def sniff(record: Any) -> str:
    """The platform a decoded record comes from, or empty when none is recognised."""
    if isinstance(record, list):
        first = next((r for r in record if isinstance(r, dict)), None)
        return "" if first is None or "role" in first else sniff(first)
    if not isinstance(record, dict):
        return ""
    if "resourceSpans" in record:
        return "otel-genai"
    if isinstance(record.get("chat_history"), dict):
        return "livekit"
    message = record.get("message")
    if isinstance(message, dict) and message.get("type") == "end-of-call-report":
        return "vapi"
    if "artifact" in record or "endedReason" in record:
        return "vapi"
    if "transcript_with_tool_calls" in record or "disconnection_reason" in record:
        return "retell"
    if record.get("event") in ("call_ended", "call_analyzed") and isinstance(record.get("call"), dict):
        return "retell"
    if record.get("type") == "post_call_transcription" or (
        "conversation_id" in record and isinstance(record.get("transcript"), list)
    ):
        return "elevenlabs"
    return ""


def documents(path: Path, text: str) -> Iterator[tuple[int, Any, str] | ImportProblem]:
    """Each record of a file: one JSON document (a record or a list of them), or one per line."""
    for item in placed_documents(path, text):
        yield item if isinstance(item, ImportProblem) else item[:3]


def placed_documents(path: Path, text: str) -> Iterator[tuple[int, Any, str, str | None] | ImportProblem]:
    """:func:`documents` with each record's place when its line does not tell (``item 2`` of a list)."""
    try:
        whole = loads(text.strip())
    except JsonError:  # not one document: one record per line
        whole = None
    if whole is not None:
        # every item of a JSON list is on "line 1" of a one-line file: its index names it
        listed = isinstance(whole, list)
        for n, item in enumerate(whole if listed else [whole], start=1):
            yield 1, item, json.dumps(item, sort_keys=True, default=str), f"item {n}" if listed else None
        return
    for number_, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            yield number_, loads(line, first_line=number_), line, None
        except JsonError as exc:
            yield ImportProblem(str(path), number_, f"not valid JSON ({exc})")


def parse_platform(path: Path, text: str, fmt: str) -> Iterator[Parsed]:
    """Every call (or problem) in a file of one platform's exports."""
    read = READERS[fmt]
    for item in placed_documents(path, text):
        if isinstance(item, ImportProblem):
            yield item
            continue
        line, record, raw, place = item
        got = guarded(path, line, lambda: _checked(path, line, record, raw, fmt, read))  # noqa: B023
        yield replace(got, place=place) if isinstance(got, ImportProblem) and place else got


def _checked(
    path: Path, line: int, record: Any, raw: str, fmt: str, read: Callable[[dict[str, Any]], _Read]
) -> Parsed:
    if not isinstance(record, dict):
        return ImportProblem(str(path), line, f"expected a {fmt} call object, got a {type(record).__name__}")
    got = read(record)
    if isinstance(got, str):
        return ImportProblem(str(path), line, got)
    items, ending, extra = got
    turns = assemble(items)
    if not turns:
        return ImportProblem(str(path), line, f"{fmt}: the call has no messages")
    source_id = str(extra.get("id") or f"line{line}")
    label, note = extra.get("label", ("", ""))
    reward = extra.get("reward")
    return ImportedConversation(
        key=safe_key(source_id),
        raw_key=source_id,
        source_id=str(extra.get("id") or ""),
        source_file=str(path),
        line=line,
        format=fmt,
        source_hash=record_hash(raw),
        turns=turns,
        system_prompt=str(extra.get("system", "")),
        tools=list(extra.get("tools", [])),
        end_reason=ending.reason,
        end_by=ending.by,
        end_source=ending.source,
        end_detail=ending.detail,
        label=label,
        reward=reward,
        label_note=note or (f"score={reward}" if reward is not None else ""),
        label_by=f"platform:{fmt}",
    )


_Read = tuple[list[Item], Ending, dict[str, Any]] | str
"""What a platform reader returns: the call's items, its end, extras (id, system, tools, label)."""


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _verdict(value: Any, field: str) -> tuple[str, str]:
    """(pass|fail, the value as written) for a platform's success field; ("", "") if unreadable."""
    text = str(value).strip().lower() if isinstance(value, bool | str) else ""
    verdict = {
        "true": "pass",
        "success": "pass",
        "pass": "pass",
        "false": "fail",
        "failure": "fail",
        "fail": "fail",
    }
    if text in verdict:
        return verdict[text], f"{field}={value}"
    return "", ""


def _score(value: Any) -> float | None:
    """A numeric outcome (``7``, ``"85"``), kept as it came; None for anything else."""
    if isinstance(value, str):
        try:
            value = float(value.strip())
        except ValueError:
            return None
    return number(value)


def _tool_spec(tool: Any) -> dict[str, Any] | None:
    """A tool definition as the judge's context shows it (OpenAI function shape or flat)."""
    spec = _dict(tool)
    fn = _dict(spec.get("function")) or spec
    name = fn.get("name")
    if not isinstance(name, str):
        return None
    return {
        "name": name,
        "description": str(fn.get("description", "")),
        "parameters": _dict(fn.get("parameters")),
    }


# -- Vapi -------------------------------------------------------------------------------------

_VAPI_CALLER = ("customer-ended-call", "customer-did-not-give-microphone-permission", "customer-busy")
_VAPI_TIMEOUT = ("silence-timed-out", "customer-did-not-answer", "voicemail")


def vapi_ending(reason: str, destination: str) -> Ending:
    """Vapi's ``endedReason`` (a long enum) mapped onto Polygon's end reasons."""
    source = f"endedReason={reason}" if reason else ""
    if not reason:
        return Ending("", "unknown", "")
    if reason in _VAPI_CALLER or reason.startswith("customer-ended"):
        return Ending("caller_done", "caller", source)
    if "forwarded" in reason or "transfer" in reason:
        return Ending("transfer", "agent", source, destination)
    if reason.startswith("assistant-") and "end" in reason:
        return Ending("hangup", "agent", source)
    if reason == "exceeded-max-duration":
        return Ending("max_turns", "engine", source)
    if reason in _VAPI_TIMEOUT:
        return Ending("timeout", "engine", source)
    if "error" in reason or "failed" in reason or reason.startswith("pipeline-"):
        return Ending("agent_error", "agent", source, reason)
    return Ending("", "engine", source)


def _vapi(record: dict[str, Any]) -> _Read:
    report = record
    if _dict(record.get("message")).get("type") == "end-of-call-report":
        report = _dict(record["message"])
    call = _dict(report.get("call")) or report
    artifact = _dict(report.get("artifact")) or _dict(call.get("artifact"))
    messages = _list(artifact.get("messages"))
    if not messages and ("endedReason" in call or "endedReason" in report):
        # older call objects carry the messages at the top; only a call object's, not any chat
        messages = _list(call.get("messages")) or _list(report.get("messages"))
    if not messages:
        return "vapi: no artifact.messages in the call"
    items: list[Item] = []
    system = ""
    for i, m in enumerate(messages):
        if not isinstance(m, dict):
            return f"vapi: message {i} is a {type(m).__name__}, not an object"
        role = m.get("role")
        start, end = _vapi_times(m)
        if role == "system":
            system = text_of(m.get("message", m.get("content")))
        elif role in ("bot", "assistant"):
            items.append(Said("agent", text_of(m.get("message", m.get("content"))), start, end))
        elif role == "user":
            items.append(Said("caller", text_of(m.get("message", m.get("content"))), start, end))
        elif role == "tool_calls":
            for call_ in _list(m.get("toolCalls")):
                fn = _dict(_dict(call_).get("function"))
                items.append(
                    Call(
                        str(_dict(call_).get("id", "")),
                        str(fn.get("name", "")),
                        json_or_raw(fn.get("arguments", {})),
                    )
                )
        elif role == "tool_call_result":
            result = json_or_raw(m.get("result"))
            items.append(
                Result(
                    str(m.get("toolCallId", "")),
                    str(m.get("name", "")),
                    result,
                    str(m.get("error", "") or ""),
                )
            )
        else:
            return f"vapi: message {i}: unknown role {role!r}"
    assistant = _dict(call.get("assistant")) or _dict(report.get("assistant"))
    model = _dict(assistant.get("model"))
    if not system:
        system = next(
            (
                text_of(m.get("content"))
                for m in _list(model.get("messages"))
                if _dict(m).get("role") == "system"
            ),
            "",
        )
    reason = str(report.get("endedReason") or call.get("endedReason") or "")
    analysis = _dict(report.get("analysis")) or _dict(call.get("analysis"))
    extra = {
        "id": call.get("id") or report.get("id") or "",
        "system": system,
        "tools": [t for t in (_tool_spec(x) for x in _list(model.get("tools"))) if t],
        "label": _verdict(analysis.get("successEvaluation"), "analysis.successEvaluation"),
        "reward": _score(analysis.get("successEvaluation")),  # a NumericScale/PercentageScale rubric
    }
    return items, vapi_ending(reason, _vapi_destination(report, call, artifact)), extra


def _vapi_times(m: dict[str, Any]) -> tuple[float | None, float | None]:
    """Seconds: epoch ``time``/``endTime`` (ms), else ``secondsFromStart`` (+ ``duration``, ms)."""
    time_, end = number(m.get("time")), number(m.get("endTime"))
    if time_ is not None:
        return time_ / 1000, end / 1000 if end is not None else None
    start, duration = number(m.get("secondsFromStart")), number(m.get("duration"))
    if start is None:
        return None, None
    return start, start + duration / 1000 if duration is not None else None


def _vapi_destination(*parts: dict[str, Any]) -> str:
    for part in parts:
        dest = _dict(part.get("destination"))
        found = dest.get("number") or dest.get("sipUri") or dest.get("assistantName")
        if found:
            return str(found)
        for transfer in reversed(_list(part.get("transfers"))):
            found = _dict(_dict(transfer).get("destination")).get("number")
            if found:
                return str(found)
    return ""


# -- Retell ----------------------------------------------------------------------------------

_RETELL = {
    "user_hangup": ("caller_done", "caller"),
    "agent_hangup": ("hangup", "agent"),
    "call_transfer": ("transfer", "agent"),
    "inactivity": ("timeout", "engine"),
    "max_duration_reached": ("max_turns", "engine"),
}


def retell_ending(reason: str, destination: str) -> Ending:
    """Retell's ``disconnection_reason`` mapped onto Polygon's end reasons."""
    if not reason:
        return Ending("", "unknown", "")
    source = f"disconnection_reason={reason}"
    if reason in _RETELL:
        polygon_reason, by = _RETELL[reason]
        return Ending(polygon_reason, by, source, destination if polygon_reason == "transfer" else "")
    if reason.startswith("error"):
        return Ending("agent_error", "agent", source, reason)
    return Ending("", "engine", source)


def _retell_error(content: Any) -> str:
    """A failed tool result's error: the platform's own text ("timeout"), not just that it failed.

    Replay and goal_reached's reason show it; "unsuccessful" only when the result says nothing.
    """
    text = content if isinstance(content, str) else json.dumps(content, sort_keys=True, default=str)
    return "unsuccessful" if content is None else text.strip()[:200] or "unsuccessful"


def _retell(record: dict[str, Any]) -> _Read:
    call = _dict(record.get("call")) if isinstance(record.get("call"), dict) else record
    utterances = _list(call.get("transcript_with_tool_calls")) or _list(call.get("transcript_object"))
    if not utterances:
        present = [k for k in ("transcript_with_tool_calls", "transcript_object") if k in call]
        # an empty transcript is a call nobody spoke in; a missing one, an export without it
        return (
            f"retell: {present[0]} is empty"
            if present
            else "retell: no transcript_with_tool_calls in the call"
        )
    reason = call.get("disconnection_reason")
    if reason is not None and not isinstance(reason, str):
        return f"retell: disconnection_reason {reason!r:.40}: expected text (user_hangup, agent_hangup, …)"
    items: list[Item] = []
    for i, u in enumerate(utterances):
        if not isinstance(u, dict):
            return f"retell: utterance {i} is a {type(u).__name__}, not an object"
        role = u.get("role")
        if role in ("agent", "user"):
            words = [w for w in _list(u.get("words")) if isinstance(w, dict)]
            start = number(words[0].get("start")) if words else None
            end = number(words[-1].get("end")) if words else None
            items.append(
                Said("agent" if role == "agent" else "caller", text_of(u.get("content")), start, end)
            )
        elif role == "tool_call_invocation":
            items.append(
                Call(
                    str(u.get("tool_call_id", "")),
                    str(u.get("name", "")),
                    json_or_raw(u.get("arguments", {})),
                )
            )
        elif role == "tool_call_result":
            content = json_or_raw(u.get("content"))
            error = _retell_error(content) if u.get("successful") is False else ""
            items.append(Result(str(u.get("tool_call_id", "")), "", content, error))
        elif role == "dtmf":
            items.append(Said("caller", f"(pressed {u.get('digit', '')})"))
        elif role in ("transfer_target", "node_transition", "sms", "injected"):
            continue  # not the agent and its caller: the person transferred to, a flow step, a text
        else:
            return f"retell: utterance {i}: unknown role {role!r}"
    analysis = _dict(call.get("call_analysis"))
    successful = analysis.get("call_successful")
    extra = {
        "id": call.get("call_id", ""),
        "label": _verdict(successful, "call_analysis.call_successful")
        if isinstance(successful, bool)
        else ("", ""),
    }
    ending = retell_ending(
        str(call.get("disconnection_reason") or ""), str(call.get("transfer_destination") or "")
    )
    return items, ending, extra


# -- ElevenLabs ------------------------------------------------------------------------------

_ELEVEN_TRANSFER = ("transfer_to_number", "transfer_to_agent")


def elevenlabs_ending(termination: str, tools: list[tuple[str, dict[str, Any]]]) -> Ending:
    """``metadata.termination_reason`` (free text) and the end_call / transfer system tools."""
    source = f"termination_reason={termination}" if termination else ""
    for name, params in reversed(tools):
        if name in _ELEVEN_TRANSFER:
            dest = (
                params.get("transfer_number")
                or params.get("phone_number")
                or params.get("agent_number")
                or params.get("agent_id")
                or ""
            )
            return Ending("transfer", "agent", source or f"tool={name}", str(dest))
    text = termination.lower()
    if any(name == "end_call" for name, _ in tools) or "end_call" in text or "end call" in text:
        return Ending("hangup", "agent", source or "tool=end_call")
    for words, reason, by in (
        (("transfer",), "transfer", "agent"),
        (("client disconnected", "user", "remote party", "hung up", "hangup"), "caller_done", "caller"),
        (("silence", "inactiv", "timeout", "timed out"), "timeout", "engine"),
        (("max duration", "maximum duration", "duration limit"), "max_turns", "engine"),
        (("error", "failed"), "agent_error", "agent"),
    ):
        if any(w in text for w in words):
            return Ending(reason, by, source, termination if reason == "agent_error" else "")
    return Ending("", "unknown" if not termination else "engine", source)


def _elevenlabs(record: dict[str, Any]) -> _Read:
    conv = _dict(record.get("data")) if record.get("type") == "post_call_transcription" else record
    transcript = _list(conv.get("transcript"))
    if not transcript:
        return "elevenlabs: no transcript in the conversation"
    items: list[Item] = []
    system_tools: list[tuple[str, dict[str, Any]]] = []
    for i, entry in enumerate(transcript):
        if not isinstance(entry, dict):
            return f"elevenlabs: transcript entry {i} is a {type(entry).__name__}, not an object"
        role = entry.get("role")
        if role not in ("user", "agent"):
            return f"elevenlabs: transcript entry {i}: unknown role {role!r}"
        # an entry's message is said as its tool calls are made (an LLM's text beside its
        # calls): it comes first, as a simulated agent's does
        message = entry.get("message")
        if isinstance(message, str) and message.strip():
            # time_in_call_secs is whole seconds from the start: too coarse for a reply's
            # latency, which comes from the turn's own metrics (LLM + TTS time to first byte)
            items.append(
                Said("caller" if role == "user" else "agent", message, None, None, _eleven_latency(entry))
            )
        for call_ in _list(entry.get("tool_calls")):
            c = _dict(call_)
            params = json_or_raw(c.get("params_as_json", c.get("params", {})))
            name = str(c.get("tool_name", ""))
            items.append(Call(str(c.get("request_id", "")), name, params))
            if name == "end_call" or name in _ELEVEN_TRANSFER:
                system_tools.append((name, _dict(params)))
        for res in _list(entry.get("tool_results")):
            r = _dict(res)
            value = json_or_raw(r.get("result_value", r.get("result")))
            error = str(value)[:200] if r.get("is_error") is True else ""
            items.append(Result(str(r.get("request_id", "")), str(r.get("tool_name", "")), value, error))
    metadata = _dict(conv.get("metadata"))
    analysis = _dict(conv.get("analysis"))
    agent = _dict(
        _dict(_dict(conv.get("conversation_initiation_client_data")).get("conversation_config_override")).get(
            "agent"
        )
    )
    extra = {
        "id": conv.get("conversation_id", ""),
        "system": text_of(_dict(agent.get("prompt")).get("prompt")),
        "label": _verdict(analysis.get("call_successful"), "analysis.call_successful"),
    }
    return items, elevenlabs_ending(str(metadata.get("termination_reason") or ""), system_tools), extra


def _eleven_latency(entry: dict[str, Any]) -> float | None:
    metrics = _dict(entry.get("conversation_turn_metrics"))
    metrics = _dict(metrics.get("metrics")) or metrics  # exported flat or nested
    parts = [number(_dict(v).get("elapsed_time")) for k, v in metrics.items() if k.endswith("_ttfb")]
    found = [p for p in parts if p is not None]
    return round(sum(found) * 1000, 3) if found and entry.get("role") == "agent" else None


# -- LiveKit ---------------------------------------------------------------------------------

_LIVEKIT = {
    "participant_disconnected": ("caller_done", "caller"),
    "user_initiated": ("caller_done", "caller"),
    "task_completed": ("hangup", "agent"),
    "error": ("agent_error", "agent"),
    "job_shutdown": ("", "engine"),
}


def livekit_ending(reason: str, error: str, transfer: str) -> Ending:
    """The ``close`` event's reason; LiveKit has no transfer of its own, only a tool's."""
    source = f"close.reason={reason}" if reason else ""
    if transfer:
        return Ending("transfer", "agent", source or f"tool={transfer}")
    if not reason:
        return Ending("", "unknown", "")
    polygon_reason, by = _LIVEKIT.get(reason, ("", "engine"))
    return Ending(polygon_reason, by, source, error if polygon_reason == "agent_error" else "")


def _livekit(record: dict[str, Any]) -> _Read:
    chat_items = _list(_dict(record.get("chat_history")).get("items"))
    if not chat_items:
        return "livekit: no chat_history.items in the session report"
    items: list[Item] = []
    system = ""
    transfer = ""
    for i, it in enumerate(chat_items):
        if not isinstance(it, dict):
            return f"livekit: item {i} is a {type(it).__name__}, not an object"
        kind = it.get("type", "message")
        if kind == "message":
            role, text = it.get("role"), text_of(it.get("content"))
            metrics = _dict(it.get("metrics"))
            start, end = (
                number(metrics.get("started_speaking_at")),
                number(metrics.get("stopped_speaking_at")),
            )
            if role in ("system", "developer"):
                system = system or text
            elif role == "user":
                items.append(Said("caller", text, start, end))
            elif role == "assistant":
                e2e = number(metrics.get("e2e_latency"))
                items.append(Said("agent", text, start, end, e2e * 1000 if e2e is not None else None))
            else:
                return f"livekit: item {i}: unknown role {role!r}"
        elif kind == "function_call":
            name = str(it.get("name", ""))
            items.append(Call(str(it.get("call_id", "")), name, json_or_raw(it.get("arguments", {}))))
            transfer = name if "transfer" in name.lower() else transfer
        elif kind == "function_call_output":
            error = str(it.get("output", ""))[:200] if it.get("is_error") is True else ""
            items.append(
                Result(
                    str(it.get("call_id", "")), str(it.get("name", "")), json_or_raw(it.get("output")), error
                )
            )
        elif kind == "agent_config_update":
            system = system or text_of(it.get("instructions"))
        elif kind != "agent_handoff":  # a handoff changes the agent, not the conversation
            return f"livekit: item {i}: unknown type {kind!r}"
    closes = [_dict(e) for e in _list(record.get("events")) if _dict(e).get("type") == "close"]
    close = closes[-1] if closes else {}
    extra = {
        "id": record.get("room_id") or record.get("job_id") or record.get("room") or "",
        "system": system,
    }
    ending = livekit_ending(str(close.get("reason") or ""), str(close.get("error") or ""), transfer)
    return items, ending, extra


READERS: dict[str, Callable[[dict[str, Any]], _Read]] = {
    "vapi": _vapi,
    "retell": _retell,
    "elevenlabs": _elevenlabs,
    "livekit": _livekit,
}
