"""OpenTelemetry GenAI traces (OTLP JSON) as calls: what Pipecat and LiveKit emit.

Spans are grouped into calls by ``gen_ai.conversation.id`` (by trace when a span has none).
A call's model spans, in start order, carry the conversation: ``gen_ai.input.messages`` (the
history sent, usually cumulative) and ``gen_ai.output.messages`` (the reply), each a list
of ``{role, parts}`` with parts ``text``, ``tool_call {id, name, arguments}`` and
``tool_call_response {id, response}``; ``gen_ai.system_instructions`` is the prompt.
``execute_tool`` spans give a tool's result when no message carries it. The semantic
conventions have no end reason: an end-of-call tool is the only end a trace can show.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from json import dumps
from pathlib import Path
from typing import Any

from polygon.importing.calls import Call, Item, Result, Said, assemble, number, text_of
from polygon.importing.formats import (
    MALFORMED,
    ImportedConversation,
    ImportProblem,
    Parsed,
    guarded,
    json_or_raw,
    record_hash,
    safe_key,
)
from polygon.importing.jsonread import JsonError, loads
from polygon.importing.platforms import documents

_MODEL_OPS = ("chat", "text_completion", "generate_content", "invoke_agent")


@dataclass
class Span:
    """The parts of an OTLP span a call is made of."""

    trace: str
    name: str
    start_ns: int
    end_ns: int
    attrs: dict[str, Any]


def _value(v: Any) -> Any:
    """An OTLP ``AnyValue`` as a plain value."""
    if not isinstance(v, dict):
        return v
    for key in ("stringValue", "boolValue", "doubleValue"):
        if key in v:
            return v[key]
    if "intValue" in v:
        return int(v["intValue"])  # int64 travels as a string in OTLP JSON
    if "arrayValue" in v:
        return [_value(x) for x in v["arrayValue"].get("values", [])]
    if "kvlistValue" in v:
        return {kv.get("key"): _value(kv.get("value")) for kv in v["kvlistValue"].get("values", [])}
    return None


def spans_of(export: Any) -> list[Span]:
    """Every span of one ``ExportTraceServiceRequest`` document."""
    out = []
    for rs in export.get("resourceSpans", []):
        for ss in rs.get("scopeSpans", rs.get("instrumentationLibrarySpans", [])):
            for s in ss.get("spans", []):
                attrs = {a["key"]: _value(a.get("value")) for a in s.get("attributes", [])}
                out.append(
                    Span(
                        trace=str(s.get("traceId", "")),
                        name=str(s.get("name", "")),
                        start_ns=int(s.get("startTimeUnixNano", 0)),
                        end_ns=int(s.get("endTimeUnixNano", 0)),
                        attrs=attrs,
                    )
                )
    return out


def parse_otel(path: Path, text: str) -> Iterator[Parsed]:
    """Calls (or problems) in a file of OTLP JSON exports (one document, or one per line)."""
    read: list[tuple[int, Span]] = []
    for item in documents(path, text):
        if isinstance(item, ImportProblem):
            yield item
            continue
        line, export, _raw = item
        if not isinstance(export, dict) or not isinstance(export.get("resourceSpans"), list):
            yield ImportProblem(str(path), line, 'expected an OTLP JSON export ({"resourceSpans": [...]})')
            continue
        try:
            found = spans_of(export)
        except MALFORMED as exc:
            yield ImportProblem(
                str(path), line, f"malformed OTLP export ({type(exc).__name__}: {str(exc)[:160]})"
            )
            continue
        read += [(line, span) for span in found]
    # a span without the conversation id (a tool's, say) belongs to its trace's conversation
    of_trace = {
        s.trace: str(s.attrs["gen_ai.conversation.id"])
        for _, s in read
        if s.attrs.get("gen_ai.conversation.id")
    }
    groups: dict[str, list[Span]] = {}
    first_line: dict[str, int] = {}
    for line, span in read:
        key = str(
            span.attrs.get("gen_ai.conversation.id") or of_trace.get(span.trace) or f"trace-{span.trace}"
        )
        groups.setdefault(key, []).append(span)
        first_line.setdefault(key, line)
    for key, spans in groups.items():
        yield guarded(path, first_line[key], lambda: _conversation(path, first_line[key], key, spans))  # noqa: B023


def _messages(value: Any) -> list[dict[str, Any]]:
    """A messages attribute: a JSON string (how OTLP carries it) or already a list."""
    if isinstance(value, str):
        try:
            value = loads(value)
        except JsonError:
            return []
    return [m for m in value if isinstance(m, dict)] if isinstance(value, list) else []


def _conversation(path: Path, line: int, key: str, spans: list[Span]) -> Parsed:
    spans.sort(key=lambda s: (s.start_ns, s.end_ns))
    model = [
        s
        for s in spans
        if s.attrs.get("gen_ai.operation.name") in _MODEL_OPS or "gen_ai.output.messages" in s.attrs
    ]
    tool_spans = {
        str(s.attrs.get("gen_ai.tool.call.id")): s
        for s in spans
        if s.attrs.get("gen_ai.operation.name") == "execute_tool" and s.attrs.get("gen_ai.tool.call.id")
    }
    if not model:
        return ImportProblem(str(path), line, f"otel-genai {key}: no model span with gen_ai messages")
    turn_spans = [s for s in spans if number(s.attrs.get("turn.user_bot_latency_seconds")) is not None]
    items: list[Item] = []
    seen: list[dict[str, Any]] = []
    system, tools = "", list[dict[str, Any]]()
    for span in model:
        system = system or _system(span.attrs.get("gen_ai.system_instructions"))
        tools = tools or _messages(span.attrs.get("gen_ai.tool.definitions"))
        inputs = _messages(span.attrs.get("gen_ai.input.messages"))
        cumulative = [_said(m) for m in inputs[: len(seen)]] == [_said(m) for m in seen]
        cumulative = cumulative and len(inputs) >= len(seen)
        new = inputs[len(seen) :] if cumulative else inputs
        outputs = _messages(span.attrs.get("gen_ai.output.messages"))
        # the caller finished speaking when the model was first asked; the reply is out when it answers
        items += _items(new, asked=span.start_ns / 1e9, answered=None)
        items += _items(
            outputs, asked=None, answered=span.end_ns / 1e9, measured=_turn_latency(span, turn_spans)
        )
        seen = seen + new + outputs
    items = _with_tool_results(items, tool_spans)
    turns = assemble(items)
    if not turns:
        return ImportProblem(str(path), line, f"otel-genai {key}: no messages")
    system = system or next((text_of(_parts_text(m)) for m in seen if m.get("role") == "system"), "")
    return ImportedConversation(
        key=safe_key(key),
        raw_key=key,
        source_id=key if not key.startswith("trace-") else "",
        source_file=str(path),
        line=line,
        format="otel-genai",
        source_hash=record_hash(
            repr([(s.trace, s.name, s.start_ns, sorted(s.attrs.items(), key=str)) for s in spans])
        ),
        turns=turns,
        system_prompt=system,
        tools=[
            {
                "name": str(t.get("name", "")),
                "description": str(t.get("description", "")),
                "parameters": t.get("parameters", {}),
            }
            for t in tools
            if t.get("name")
        ],
    )


def _said(message: dict[str, Any]) -> str:
    """A message as history repeats it: role and parts, not ``finish_reason``.

    The conventions give only output messages a ``finish_reason``; a reply carried into the next
    span's input history without it is the same message, not a new one (else every span
    re-imported the whole call and a correct call failed as a loop).
    """
    return dumps({k: v for k, v in message.items() if k != "finish_reason"}, sort_keys=True, default=str)


def _system(value: Any) -> str:
    if isinstance(value, str):
        try:
            value = loads(value)
        except JsonError:
            return str(value)  # plain text, not the parts list
    return text_of(_parts_text({"parts": value})) if isinstance(value, list) else ""


def _parts_text(message: dict[str, Any]) -> list[str]:
    parts = message.get("parts", message.get("content"))
    if isinstance(parts, str):
        return [parts]
    return (
        [str(p.get("content", "")) for p in parts if isinstance(p, dict) and p.get("type") == "text"]
        if isinstance(parts, list)
        else []
    )


def _turn_latency(span: Span, turns: list[Span]) -> float | None:
    """Pipecat's own measure (``turn.user_bot_latency_seconds`` on the turn span around a model span), ms."""
    around = [t for t in turns if t.start_ns <= span.start_ns <= t.end_ns]
    seconds = number(around[-1].attrs.get("turn.user_bot_latency_seconds")) if around else None
    return round(seconds * 1000, 3) if seconds is not None else None


def _items(
    messages: list[dict[str, Any]], asked: float | None, answered: float | None, measured: float | None = None
) -> list[Item]:
    out: list[Item] = []
    for m in messages:
        role = m.get("role")
        if role == "assistant" and _calls_in(m):
            out += _agent_in_order(m, answered, measured)
            continue
        out += [item for p in _dict_parts(m) if (item := _tool_item(p)) is not None]
        said = " ".join(t for t in _parts_text(m) if t)
        if not said or role in ("system", "tool"):
            continue
        if role == "user":
            out.append(Said("caller", said, None, asked))
        elif role == "assistant":
            out.append(Said("agent", said, answered, answered, measured))
    return out


def _dict_parts(message: dict[str, Any]) -> list[dict[str, Any]]:
    parts = message.get("parts")
    return [p for p in parts if isinstance(p, dict)] if isinstance(parts, list) else []


def _calls_in(message: dict[str, Any]) -> bool:
    return any(p.get("type") == "tool_call" for p in _dict_parts(message))


def _tool_item(part: dict[str, Any]) -> Item | None:
    if part.get("type") == "tool_call":
        arguments = json_or_raw(part.get("arguments", {}))
        return Call(str(part.get("id", "")), str(part.get("name", "")), arguments)
    if part.get("type") == "tool_call_response":
        return Result(str(part.get("id", "")), "", json_or_raw(part.get("response")))
    return None


def _agent_in_order(message: dict[str, Any], answered: float | None, measured: float | None) -> list[Item]:
    """An assistant message's text and tool calls in the order its parts give them.

    "un momento, que lo compruebo." before its ``tool_call`` is said before the call (the
    conventions keep parts in order), not after the tool answered: read after a failed call,
    words said beside it ("listo, se lo abro") would be an outcome reported over a failure.
    """
    out: list[Item] = []
    words: list[str] = []
    for p in _dict_parts(message):
        if p.get("type") == "text" and str(p.get("content", "")):
            words.append(str(p.get("content", "")))
        elif (item := _tool_item(p)) is not None:
            out += _spoken(words, answered, out, measured) + [item]
            words = []
    return out + _spoken(words, answered, out, measured)


def _spoken(
    words: list[str], answered: float | None, before: list[Item], measured: float | None
) -> list[Item]:
    """The words as one agent utterance; the platform's latency goes with the message's first."""
    said = " ".join(words)
    first = not any(isinstance(item, Said) for item in before)
    return [Said("agent", said, answered, answered, measured if first else None)] if said else []


def _with_tool_results(items: list[Item], tool_spans: dict[str, Span]) -> list[Item]:
    """A call no message answers takes its result from its ``execute_tool`` span."""
    answered = {i.call_id for i in items if isinstance(i, Result)}
    out: list[Item] = []
    for item in items:
        out.append(item)
        if isinstance(item, Call) and item.call_id not in answered and item.call_id in tool_spans:
            attrs = tool_spans[item.call_id].attrs
            error = str(attrs.get("error.type", ""))
            out.append(
                Result(item.call_id, item.name, json_or_raw(attrs.get("gen_ai.tool.call.result")), error)
            )
    return out
