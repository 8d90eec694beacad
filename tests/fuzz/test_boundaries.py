"""Fuzzing the four outside boundaries: suite files, transcripts, model answers, agent replies.

Each property: whatever comes in, the result is a typed value or a Polygon error (a user
error, a recorded fault), never another exception, and what reaches the log encodes.
``make test`` runs a bounded number of examples; ``make fuzz`` sets ``POLYGON_FUZZ_EXAMPLES``
(2,500 per boundary: 10,000 in all).
"""

from __future__ import annotations

import contextlib
import json
import tempfile
from pathlib import Path
from typing import Any

import msgspec
from hypothesis import example, given
from hypothesis import strategies as st

from polygon.app.import_ import ImportOptions, _events
from polygon.errors import PolygonError
from polygon.events import MemoryLog
from polygon.events.families import ModelCalled
from polygon.events.streams import conversation_stream
from polygon.importing.drafting import draft
from polygon.importing.formats import FORMATS, ImportedConversation, ImportProblem, parse
from polygon.models import answer_from_body
from polygon.models.recorded import model_called
from polygon.probe.answering import parse_answer
from polygon.score.judges.parse import parse_scores
from polygon.score.rubric import CRITERIA
from polygon.simulate.agents import AgentError, AgentReply, coerce_reply
from polygon.simulate.agents.http import decode_reply
from polygon.simulate.engine import checked_reply
from polygon.suite.loading import load_suite
from polygon.transcript import build
from tests.support.fuzz import FUZZ, JSONISH, TEXT


def _encodes(event: Any) -> None:
    msgspec.msgpack.encode(event)


# -- suite files ------------------------------------------------------------------------------

SUITE = {
    "name": "fuzz",
    "configs": {"a": {"agent": "python:polygon.examples.clinic.agents:make_v1", "prompt": "Book visits."}},
    "personas": [{"id": "p", "type": "busy", "goal": "book", "facts": {"name": "Ana"}}],
    "tools": [{"name": "t", "stub": {"mode": "template", "template": '{"x": "{{ args.x }}"}'}}],
    "forbidden_phrases": ["free"],
}
PATHS = [
    ("name",),
    ("seed",),
    ("max_turns",),
    ("trials",),
    ("configs",),
    ("configs", "a"),
    ("configs", "a", "agent"),
    ("configs", "a", "prompt_file"),
    ("personas",),
    ("personas", 0, "type"),
    ("personas", 0, "facts"),
    ("tools", 0, "stub"),
    ("tools", 0, "stub", "template"),
    ("tools", 0, "stub", "latency"),
    ("tools", 0, "parameters"),
    ("noise",),
    ("noise", "intensity"),
    ("judge",),
    ("probes",),
    ("forbidden_phrases",),
    ("scenarios",),
    ("personas_file",),
    ("stores",),
]


def _mutate(doc: Any, path: tuple[Any, ...], value: Any) -> Any:
    doc = json.loads(json.dumps(doc))
    node = doc
    for step in path[:-1]:
        node = node.setdefault(step, {}) if isinstance(node, dict) else node[step]
    node[path[-1]] = value
    return doc


@FUZZ
@given(st.sampled_from(PATHS), JSONISH, st.sampled_from(["json", "yaml-noise"]), TEXT)
def test_suite_loading_never_crashes(path: tuple[Any, ...], value: Any, form: str, noise: str) -> None:
    doc = _mutate(SUITE, path, value)
    try:
        text = json.dumps(doc, ensure_ascii=False)  # JSON is YAML
    except ValueError:
        text = str(doc)
    if form == "yaml-noise":
        text = text[: len(text) // 2] + noise + text[len(text) // 2 :]
    with tempfile.TemporaryDirectory() as folder:
        suite = Path(folder) / "suite.yaml"
        suite.write_text(text, encoding="utf-8", errors="surrogatepass")
        before = sorted(p.name for p in Path(folder).iterdir())
        with contextlib.suppress(PolygonError):
            load_suite(suite)
        assert sorted(p.name for p in Path(folder).iterdir()) == before  # loading writes nothing


# -- transcripts ------------------------------------------------------------------------------

MESSAGE = st.fixed_dictionaries(
    {"role": st.sampled_from(["user", "assistant", "tool", "system", "x"])},
    optional={"content": JSONISH, "tool_calls": JSONISH, "tool_call_id": JSONISH},
)
RECORD = st.one_of(
    JSONISH,
    st.fixed_dictionaries({"id": JSONISH, "messages": st.lists(MESSAGE, max_size=6)}),
    st.lists(MESSAGE, max_size=6),
)


HOSTILE_LINE = st.one_of(
    st.integers(min_value=200, max_value=100_000).map(lambda n: "[" * n + "]" * n),
    st.integers(min_value=200, max_value=5_000).map(lambda n: '{"a":' * n + "1" + "}" * n),
    st.integers(min_value=1, max_value=5_000).map(lambda n: "[" * n),
    TEXT,
)
"""Lines no record strategy makes: nesting past every decoder's depth, unclosed, not JSON."""


@FUZZ
@given(
    st.lists(RECORD, min_size=1, max_size=3),
    st.sampled_from(["auto", *FORMATS]),
    st.lists(st.tuples(st.integers(min_value=0, max_value=3), HOSTILE_LINE), max_size=2),
)
@example([{"id": "a", "messages": []}], "auto", [(0, "[" * 100_000 + "]" * 100_000)])  # issue 24
def test_transcripts_become_conversations_or_problems(
    records: list[Any], fmt: str, hostile: list[tuple[int, str]]
) -> None:
    # every importer path, with and without --format (auto detects through the same decoder)
    lines = []
    for r in records:
        try:
            lines.append(json.dumps(r, ensure_ascii=False))
        except ValueError:
            lines.append(str(r))
    for at, line in hostile:
        lines.insert(min(at, len(lines)), line)
    text = "\n".join(lines) if fmt != "text" else "\n".join(f"CALLER: {line}\nAGENT: ok" for line in lines)
    options = ImportOptions(redact=True)
    for item in parse(Path("fuzz.jsonl"), text, fmt):
        assert isinstance(item, ImportedConversation | ImportProblem)
        if isinstance(item, ImportedConversation):
            for pending in _events("r", item, item.key, options, {}, lambda: ""):
                _encodes(pending.event)


PLATFORM_FIXTURES = {
    name: json.loads((Path(__file__).resolve().parents[2] / "examples" / "platforms" / f"{name}.json").read_text())
    for name in ("vapi", "retell", "elevenlabs", "livekit", "otel-genai")
}


def _all_paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix] if prefix else []
    children = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else []
    for key, child in children:
        out += _all_paths(child, (*prefix, key))
    return out


PLATFORM_PATHS = {name: _all_paths(doc) for name, doc in PLATFORM_FIXTURES.items()}


@FUZZ
@given(
    st.sampled_from(sorted(PLATFORM_FIXTURES)),
    st.lists(st.tuples(st.integers(min_value=0), st.one_of(JSONISH, HOSTILE_LINE)), min_size=1, max_size=3),
    st.booleans(),
)
def test_platform_exports_become_conversations_or_problems(
    platform: str, changes: list[tuple[int, Any]], detected: bool
) -> None:
    # each platform's fixture with values swapped for hostile ones, read with and without --format
    doc = json.loads(json.dumps(PLATFORM_FIXTURES[platform]))
    for pick, value in changes:
        paths = _all_paths(doc)
        if not paths:
            break
        *parents, last = paths[pick % len(paths)]
        node = doc
        for step in parents:
            node = node[step]
        node[last] = value
    try:
        text = json.dumps(doc, ensure_ascii=False)
    except ValueError:
        text = str(doc)
    for item in parse(Path("fuzz.json"), text, "auto" if detected else platform):
        assert isinstance(item, ImportedConversation | ImportProblem)
        if isinstance(item, ImportedConversation):
            batch = _events("r", item, item.key, ImportOptions(redact=True), {}, lambda: "")
            for pending in batch:
                _encodes(pending.event)
            # what was imported can be drafted into a scenario, whatever it holds
            log = MemoryLog()
            log.append(batch)
            cid = f"r.imported.{item.key}.0"
            drafted = draft(build(cid, log.read_stream(conversation_stream(cid))))
            assert drafted is None or all(isinstance(v, str) for v in drafted.facts.values())


# -- model answers ----------------------------------------------------------------------------


@FUZZ
@given(JSONISH, st.one_of(st.none(), TEXT, JSONISH.map(lambda v: json.dumps(v, default=str))))
def test_any_model_answer_is_read_or_unreadable(body: Any, raw: str | None) -> None:
    answer = answer_from_body(body)
    event = model_called("judge", "openai/j", {"model": "j"}, answer)
    assert msgspec.msgpack.decode(msgspec.msgpack.encode(event), type=ModelCalled) == event
    scores = parse_scores(raw, list(CRITERIA))
    assert set(scores) == set(CRITERIA) and all(s.score is None or 1 <= s.score <= 5 for s in scores.values())
    verdict, _evidence = parse_answer(raw)
    assert verdict in ("yes", "no", "n/a")


def test_a_model_answer_nested_past_the_parser_is_unreadable_not_a_crash() -> None:
    deep = "[" * 100_000 + "]" * 100_000
    for raw in (deep, '{"goal_achievement": ' + deep + "}"):
        assert {s.status for s in parse_scores(raw, list(CRITERIA)).values()} <= {"unscored", "missing"}
        assert parse_answer(raw)[0] == "n/a"


# -- agent replies ----------------------------------------------------------------------------


@FUZZ
@given(JSONISH, st.binary(max_size=200))
def test_any_agent_reply_is_a_reply_or_an_agent_error(out: Any, body: bytes) -> None:
    for attempt in (lambda: coerce_reply(out), lambda: decode_reply(body, "fuzz"), lambda: _json_reply(out)):
        try:
            reply = checked_reply(attempt())
        except AgentError:
            continue
        assert isinstance(reply, AgentReply)
        _encodes(reply)
        for call in reply.tool_calls:
            _encodes(call.arguments)


def _json_reply(out: Any) -> AgentReply:
    return decode_reply(json.dumps(out, default=str).encode("utf-8", "surrogatepass"), "fuzz")


def test_the_memory_log_takes_what_the_boundaries_let_through() -> None:
    # the same values through a real log write, once (the properties above only encode)
    log = MemoryLog()
    conv = next(
        c
        for c in parse(Path("x.jsonl"), json.dumps({"id": "a", "messages": [{"role": "user", "content": "\udc80"}]}), "openai-chat")
        if isinstance(c, ImportedConversation)
    )
    log.append(_events("r", conv, "a", ImportOptions(), {}, lambda: ""))
    assert log.last_seq() > 0
