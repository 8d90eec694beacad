"""Voice platforms' exports import as calls: speakers, tool pairs, end reasons, latency, labels.

The fixtures in examples/platforms/ are reconstructed from each platform's documented schema
and SDK types (each names its source in ``_source``).
"""

from __future__ import annotations

import copy
import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from polygon.cli.main import cli
from polygon.events import LmdbLog
from polygon.events.families import LabelRecorded
from polygon.events.streams import labels_stream
from polygon.importing.formats import ImportedConversation, ImportProblem, detect_format, parse
from tests.support.examples import clinic_suite_path

PLATFORMS = Path(__file__).resolve().parents[2] / "examples" / "platforms"
CLINIC_TRANSCRIPTS = PLATFORMS.parent / "clinic" / "transcripts.jsonl"


def fixture(name: str) -> Path:
    return PLATFORMS / f"{name}.json"


# platform → (source id, speakers per turn, tool → result, end reason, by, platform's own end,
#             agent latencies in ms per turn (None: not measured), platform's verdict)
EXPECTED: dict[str, dict[str, Any]] = {
    "vapi": {
        "id": "vapi-call-7f3a",
        "speakers": [("", True), (True, True), (True, True), (True, False)],
        "tools": {
            "find_slots": ["Wednesday 09:00", "Wednesday 15:00"],
            "book_slot": {"ok": True, "slot": "Wednesday 09:00"},
        },
        "end": ("caller_done", "caller", "endedReason=customer-ended-call", ""),
        "latency": [0.0, 1400.0, 1500.0, 0.0],
        "label": ("pass", "platform:vapi"),
    },
    "retell": {
        "id": "retell-call-91c2",
        "speakers": [("", True), (True, True), (True, True)],
        "tools": {"create_callback": None},
        "end": ("hangup", "agent", "disconnection_reason=agent_hangup", ""),
        "latency": [0.0, 1050.0, 450.0],
        "label": ("fail", "platform:retell"),
    },
    "elevenlabs": {
        "id": "conv_el_5521",
        "speakers": [("", True), (True, True)],
        "tools": {},  # the transfer is the call's end, not a stub call
        "end": ("transfer", "agent", "termination_reason=Call transferred to +61290001111", "+61290001111"),
        "latency": [490.0, 730.0],
        "label": ("pass", "platform:elevenlabs"),
    },
    "livekit": {
        "id": "RM_lk_3d8e",
        "speakers": [("", True), (True, True), (True, True), (True, False)],
        "tools": {"find_slots": ["Friday 10:00"], "book_slot": {"ok": True}},
        "end": ("caller_done", "caller", "close.reason=participant_disconnected", ""),
        "latency": [0.0, 1300.0, 1200.0, 0.0],
        "label": None,
    },
    "otel-genai": {
        "id": "otel-conv-2b7d",
        "speakers": [(True, True), (True, True)],
        "tools": {"find_slots": ["Monday 11:00"]},
        "end": ("hangup", "agent", "", ""),
        "latency": [1500.0, 900.0],
        "label": None,
    },
}


@pytest.mark.parametrize("platform", list(EXPECTED))
def test_the_format_is_detected(platform: str) -> None:
    path = fixture(platform)
    text = path.read_text()
    assert detect_format(path, text) == platform
    # one record per line (JSONL) is detected and read the same
    line = json.dumps(json.loads(text))
    assert detect_format(path, line) == platform
    (conv,) = list(parse(path, line, "auto"))
    assert isinstance(conv, ImportedConversation) and conv.source_id == EXPECTED[platform]["id"]


def _import(tmp_path: Path, platform: str, *extra: str) -> tuple[Path, dict[str, Any]]:
    log = tmp_path / "log"
    run_id = f"r-{platform}"
    res = CliRunner().invoke(
        cli, ["--log", str(log), "import", str(fixture(platform)), "--run-id", run_id, *extra]
    )
    assert res.exit_code == 0, res.output
    cid = f"{run_id}.imported.{EXPECTED[platform]['id']}.0"
    replay = CliRunner().invoke(cli, ["--log", str(log), "replay", cid, "--json"])
    assert replay.exit_code == 0, replay.output
    return log, json.loads(replay.output)


@pytest.mark.parametrize("platform", list(EXPECTED))
def test_a_platform_call_imports_with_speakers_tools_end_and_latency(tmp_path: Path, platform: str) -> None:
    want = EXPECTED[platform]
    log, view = _import(tmp_path, platform)
    turns = view["turns"]
    speakers = [(bool(t["caller_text"]) or "", t["agent_text"] is not None) for t in turns]
    assert speakers == want["speakers"]
    tools = {tool["tool"]: tool for t in turns for tool in t["tools"]}
    assert {name: tool["result"] for name, tool in tools.items()} == want["tools"]
    reason, by, source, detail = want["end"]
    assert (view["ended"]["reason"], view["ended"]["by"]) == (reason, by)
    assert view["imported"]["source_end_reason"] == source and view["ended"]["detail"] == detail
    assert view["imported"]["source_id"] == want["id"] and view["imported"]["format"] == platform
    assert [t["agent_latency_ms"] for t in turns] == want["latency"]
    measured = sorted(x for x, t in zip(want["latency"], turns, strict=True) if t["agent_text"] and x)
    assert view["ended"]["latency_p95_ms"] == (measured[-1] if measured else 0.0)
    with LmdbLog(log, readonly=True) as opened:
        labels = [e.payload for e in opened.read_stream(labels_stream(f"r-{platform}"))]
    got = [(lab.verdict, lab.by) for lab in labels if isinstance(lab, LabelRecorded)]
    assert got == ([want["label"]] if want["label"] else [])


def test_an_unpaired_tool_call_is_kept_and_flagged(tmp_path: Path) -> None:
    _log, view = _import(tmp_path, "retell")
    (tool,) = [tool for t in view["turns"] for tool in t["tools"]]
    assert tool["tool"] == "create_callback" and tool["unpaired"] == "no result in the export"
    text = CliRunner().invoke(cli, ["--log", str(tmp_path / "log"), "replay", view["conversation_id"]]).output
    assert (
        "UNPAIRED: no result in the export" in text
        and "the platform said: disconnection_reason=agent_hangup" in text
    )


def test_a_result_without_its_call_is_kept_and_flagged(tmp_path: Path) -> None:
    doc = json.loads(fixture("vapi").read_text())
    messages = doc["message"]["artifact"]["messages"]
    messages[4]["toolCallId"] = "call_nobody_made"
    path = tmp_path / "vapi.json"
    path.write_text(json.dumps(doc))
    (conv,) = list(parse(path, path.read_text(), "auto"))
    assert isinstance(conv, ImportedConversation)
    tools = [(t.name, t.unpaired) for turn in conv.turns for t in turn.tools]
    assert ("find_slots", "no result in the export") in tools and (
        "find_slots",
        "no call in the export",
    ) in tools


def test_the_prompt_and_tools_of_the_export_are_the_judges_context(tmp_path: Path) -> None:
    _log, view = _import(tmp_path, "vapi")
    assert view["imported"]["system_prompt"].startswith("You are Mia")
    assert [t["name"] for t in view["imported"]["tools"]] == ["find_slots", "book_slot"]
    from polygon.app.judge import judge_context
    from polygon.events.families import RunStarted
    from polygon.events.streams import conversation_stream, run_stream
    from polygon.transcript import build

    with LmdbLog(tmp_path / "log", readonly=True) as opened:
        envs = list(opened.read_stream(conversation_stream(view["conversation_id"])))
        started = next(
            e.payload for e in opened.read_stream(run_stream("r-vapi")) if isinstance(e.payload, RunStarted)
        )
    context = judge_context(started, build(view["conversation_id"], envs))
    assert context.prompt and [t["name"] for t in context.tools] == ["find_slots", "book_slot"]


def test_the_latency_check_applies_to_imported_calls(tmp_path: Path) -> None:
    shutil.copytree(Path(clinic_suite_path()).parent, tmp_path / "clinic")
    suite = tmp_path / "clinic" / "suite.yaml"
    suite.write_text(suite.read_text() + "\nlatency_budget_ms: 1450\n")
    log = tmp_path / "log"
    checks = {}
    for platform in ("vapi", "livekit"):
        res = CliRunner().invoke(
            cli,
            [
                "--log",
                str(log),
                "import",
                str(fixture(platform)),
                "--run-id",
                platform,
                "--suite",
                str(suite),
            ],
        )
        assert res.exit_code == 0, res.output
        with LmdbLog(log, readonly=True) as opened:
            cid = f"{platform}.imported.{EXPECTED[platform]['id']}.0"
            checks[platform] = {
                e.payload.check: e.payload
                for e in opened.read_stream(f"conv/{cid}")
                if getattr(e.payload, "check", "") == "latency"
            }
    assert checks["vapi"]["latency"].outcome == "fail" and "p95 1500 ms" in checks["vapi"]["latency"].detail
    assert checks["livekit"]["latency"].outcome == "pass"
    # a transcript without timing is not a fast call: the check has nothing to measure
    res = CliRunner().invoke(
        cli, ["--log", str(log), "import", str(CLINIC_TRANSCRIPTS), "--run-id", "chat", "--suite", str(suite)]
    )
    assert res.exit_code == 0, res.output
    with LmdbLog(log, readonly=True) as opened:
        chat = [
            e.payload
            for e in opened.read_stream("conv/chat.imported.call-01.0")
            if getattr(e.payload, "check", "") == "latency"
        ]
    assert [(c.outcome, c.detail) for c in chat] == [("n/a", "the imported call carries no per-turn timing")]


def test_redaction_applies_to_platform_exports(tmp_path: Path) -> None:
    _log, view = _import(tmp_path, "elevenlabs", "--redact")
    assert view["ended"]["detail"] == "[PHONE]"
    assert view["imported"]["source_end_reason"] == "termination_reason=Call transferred to [PHONE]"
    _log2, vapi = _import(tmp_path / "v", "vapi", "--redact")
    said = " ".join(t["caller_text"] for t in vapi["turns"])
    assert "0401 555 123" not in said and "[PHONE]" in said
    args = [tool["arguments"] for t in vapi["turns"] for tool in t["tools"] if tool["tool"] == "book_slot"]
    assert args == [{"name": "Ana Kovac", "phone": "[PHONE]", "slot": "Wednesday 09:00"}]


@pytest.mark.parametrize(
    ("platform", "end", "want"),
    [
        ("vapi", ("endedReason", "assistant-forwarded-call"), ("transfer", "agent")),
        ("vapi", ("endedReason", "silence-timed-out"), ("timeout", "engine")),
        ("vapi", ("endedReason", "exceeded-max-duration"), ("max_turns", "engine")),
        ("vapi", ("endedReason", "pipeline-error-openai-llm-failed"), ("agent_error", "agent")),
        ("vapi", ("endedReason", "assistant-said-end-call-phrase"), ("hangup", "agent")),
        ("retell", ("disconnection_reason", "user_hangup"), ("caller_done", "caller")),
        ("retell", ("disconnection_reason", "inactivity"), ("timeout", "engine")),
        ("retell", ("disconnection_reason", "error_llm_websocket_open"), ("agent_error", "agent")),
        ("livekit", ("reason", "error"), ("agent_error", "agent")),
        ("livekit", ("reason", "task_completed"), ("hangup", "agent")),
    ],
)
def test_each_platform_end_value_maps_onto_an_end_reason(
    tmp_path: Path, platform: str, end: tuple[str, str], want: tuple[str, str]
) -> None:
    doc = json.loads(fixture(platform).read_text())
    where = {
        "vapi": lambda: doc["message"],
        "retell": lambda: doc["call"],
        "livekit": lambda: doc["events"][-1],
    }[platform]()
    where[end[0]] = end[1]
    path = tmp_path / "call.json"
    path.write_text(json.dumps(doc))
    (conv,) = list(parse(path, path.read_text(), "auto"))
    assert isinstance(conv, ImportedConversation)
    assert (conv.end_reason, conv.end_by) == want and end[1] in conv.end_source


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(value, dict):
        for k, v in value.items():
            out += _paths(v, (*prefix, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out += _paths(v, (*prefix, i))
    return out


@pytest.mark.parametrize("platform", list(EXPECTED))
def test_hostile_variants_are_problems_or_calls_never_crashes(tmp_path: Path, platform: str) -> None:
    doc = json.loads(fixture(platform).read_text())
    hostile: list[Any] = [None, 5, "x", [], {}, [1, [2]], {"role": 3}, True, -1e308, "[" * 300]
    for i, path in enumerate(_paths(doc)[1:]):
        mutated = copy.deepcopy(doc)
        node = mutated
        for step in path[:-1]:
            node = node[step]
        node[path[-1]] = hostile[i % len(hostile)]
        text = json.dumps(mutated)
        for fmt in ("auto", platform):
            for item in parse(tmp_path / "x.json", text, fmt):
                assert isinstance(item, ImportedConversation | ImportProblem)


def test_calls_of_different_platforms_compare_and_diverge(tmp_path: Path) -> None:
    log = tmp_path / "log"
    for platform in ("vapi", "livekit", "otel-genai"):
        res = CliRunner().invoke(
            cli, ["--log", str(log), "import", str(fixture(platform)), "--run-id", platform]
        )
        assert res.exit_code == 0, res.output
    compared = CliRunner().invoke(cli, ["--log", str(log), "compare", "vapi", "livekit"])
    assert compared.exit_code == 0, compared.output
    assert "vapi:imported" in compared.output and "livekit:imported" in compared.output
    cid = {p: f"{p}.imported.{EXPECTED[p]['id']}.0" for p in EXPECTED}
    wording = CliRunner().invoke(
        cli, ["--log", str(log), "divergence", cid["vapi"], cid["livekit"], "--json"]
    )
    assert wording.exit_code == 0, wording.output
    first = json.loads(wording.output)["divergence"]
    assert (first["turn"], first["speaker"], first["reason"]) == (1, "agent", "wording")
    speakers = CliRunner().invoke(
        cli, ["--log", str(log), "divergence", cid["vapi"], cid["otel-genai"], "--json"]
    )
    assert json.loads(speakers.output)["divergence"]["reason"] == "speakers"


def test_the_documented_minimal_examples_import(tmp_path: Path) -> None:
    import re

    doc = (PLATFORMS.parents[1] / "docs" / "importing.md").read_text()
    blocks = re.findall(r"```json\n(.*?)```", doc, re.S)
    assert len(blocks) == len(EXPECTED)
    for platform, block in zip(EXPECTED, blocks, strict=True):
        path = tmp_path / f"{platform}.json"
        path.write_text(block)
        assert detect_format(path, block) == platform
        (conv,) = list(parse(path, block, "auto"))
        assert isinstance(conv, ImportedConversation) and conv.turns, (platform, conv)
        assert all(t.unpaired == "" for turn in conv.turns for t in turn.tools), platform


def _vapi_as_livekit(vapi: dict[str, Any], slot: str) -> dict[str, Any]:
    """The Vapi fixture's call as a LiveKit session report would carry it (booking ``slot``)."""
    items: list[dict[str, Any]] = []
    for m in vapi["message"]["artifact"]["messages"]:
        role = m["role"]
        if role in ("bot", "user"):
            items.append(
                {
                    "type": "message",
                    "role": "assistant" if role == "bot" else "user",
                    "content": [m["message"]],
                }
            )
        elif role == "tool_calls":
            for c in m["toolCalls"]:
                args = json.loads(c["function"]["arguments"])
                args = {**args, "slot": slot} if "slot" in args else args
                items.append(
                    {
                        "type": "function_call",
                        "call_id": c["id"],
                        "name": c["function"]["name"],
                        "arguments": json.dumps(args),
                    }
                )
        elif role == "tool_call_result":
            items.append({"type": "function_call_output", "call_id": m["toolCallId"], "output": m["result"]})
    return {
        "room_id": f"same-{slot[:3]}",
        "chat_history": {"items": items},
        "events": [{"type": "close", "reason": "participant_disconnected"}],
    }


def test_the_same_call_from_two_platforms_never_parts_and_a_changed_tool_call_is_found(
    tmp_path: Path,
) -> None:
    vapi = json.loads(fixture("vapi").read_text())
    log = str(tmp_path / "log")
    for slot in ("Wednesday 09:00", "Wednesday 15:00"):
        path = tmp_path / f"livekit-{slot[-5:-3]}.json"
        path.write_text(json.dumps(_vapi_as_livekit(vapi, slot)))
        res = CliRunner().invoke(cli, ["--log", log, "import", str(path), "--run-id", f"lk{slot[-5:-3]}"])
        assert res.exit_code == 0, res.output
    assert (
        CliRunner().invoke(cli, ["--log", log, "import", str(fixture("vapi")), "--run-id", "v"]).exit_code
        == 0
    )
    a = "v.imported.vapi-call-7f3a.0"
    same = CliRunner().invoke(cli, ["--log", log, "divergence", a, "lk09.imported.same-Wed.0", "--json"])
    assert json.loads(same.output)["divergence"] is None
    moved = CliRunner().invoke(cli, ["--log", log, "divergence", a, "lk15.imported.same-Wed.0", "--json"])
    found = json.loads(moved.output)["divergence"]
    assert (found["turn"], found["reason"]) == (3, "tool_calls")


def test_a_numeric_platform_evaluation_is_a_reward_label(tmp_path: Path) -> None:
    doc = json.loads(fixture("vapi").read_text())
    doc["message"]["analysis"]["successEvaluation"] = "8"  # a NumericScale rubric
    path = tmp_path / "vapi.json"
    path.write_text(json.dumps(doc))
    log = tmp_path / "log"
    assert CliRunner().invoke(cli, ["--log", str(log), "import", str(path), "--run-id", "v"]).exit_code == 0
    with LmdbLog(log, readonly=True) as opened:
        (label,) = [e.payload for e in opened.read_stream(labels_stream("v"))]
    assert isinstance(label, LabelRecorded)
    assert (label.verdict, label.reward, label.by, label.note) == ("", 8.0, "platform:vapi", "score=8.0")


@pytest.mark.parametrize("platform", list(EXPECTED))
def test_a_wrong_format_imports_nothing(tmp_path: Path, platform: str) -> None:
    # OpenAI chat records read as a platform's export are problems, not half-read calls
    res = CliRunner().invoke(
        cli, ["--log", str(tmp_path / "log"), "import", str(CLINIC_TRANSCRIPTS), "--format", platform]
    )
    assert res.exit_code == 2 and "no conversation could be imported" in res.output
    other = "retell" if platform != "retell" else "vapi"
    res = CliRunner().invoke(
        cli, ["--log", str(tmp_path / "log"), "import", str(fixture(other)), "--format", platform]
    )
    assert res.exit_code == 2 and "Traceback" not in res.output


def test_importing_the_platform_exports_again_writes_nothing(tmp_path: Path) -> None:
    files = [str(fixture(p)) for p in EXPECTED]
    runs = [
        json.loads(
            CliRunner().invoke(cli, ["--log", str(tmp_path / "log"), "import", *files, "--json"]).output
        )
        for _ in range(2)
    ]
    assert runs[0]["conversations"] == 5 and runs[0]["written"] > 0
    assert runs[1]["run_id"] == runs[0]["run_id"] and runs[1]["written"] == 0  # labels included


def test_pipecat_turn_latency_is_the_replys_latency_when_the_trace_has_it(tmp_path: Path) -> None:
    doc = json.loads(fixture("otel-genai").read_text())
    spans = doc["resourceSpans"][0]["scopeSpans"][0]["spans"]
    third = next(s for s in spans if s["spanId"] == "a3")
    spans.append(
        {
            "traceId": third["traceId"],
            "spanId": "turn2",
            "name": "turn",
            "startTimeUnixNano": str(int(third["startTimeUnixNano"]) - 2_000_000_000),
            "endTimeUnixNano": str(int(third["endTimeUnixNano"]) + 1_000_000_000),
            "attributes": [{"key": "turn.user_bot_latency_seconds", "value": {"doubleValue": 0.65}}],
        }
    )
    path = tmp_path / "trace.json"
    path.write_text(json.dumps(doc))
    (conv,) = list(parse(path, path.read_text(), "auto"))
    assert isinstance(conv, ImportedConversation)
    assert [t.latency_ms for t in conv.turns] == [1500.0, 650.0]  # the first turn has no turn span


@pytest.mark.parametrize(
    ("content", "error"),
    [
        ("timeout", "timeout"),
        ('{"message": "pharmacy offline"}', '{"message": "pharmacy offline"}'),
        ("", "unsuccessful"),  # the platform said nothing but that it failed
    ],
)
def test_a_failed_retell_tool_result_keeps_the_platform_s_error_text(
    tmp_path: Path, content: str, error: str
) -> None:
    doc = json.loads(fixture("retell").read_text())
    utterances = doc["call"]["transcript_with_tool_calls"]
    failed = {"role": "tool_call_result", "tool_call_id": "tc_cb_01", "content": content, "successful": False}
    utterances.insert(3, failed)
    path = tmp_path / "call.json"
    path.write_text(json.dumps(doc))
    log = str(tmp_path / "log")
    assert CliRunner().invoke(cli, ["--log", log, "import", str(path), "--run-id", "r"]).exit_code == 0
    cid = "r.imported.retell-call-91c2.0"
    view = json.loads(CliRunner().invoke(cli, ["--log", log, "replay", cid, "--json"]).output)
    (tool,) = [tool for t in view["turns"] for tool in t["tools"]]
    assert tool["error"] == error
    assert f"error: {error}" in CliRunner().invoke(cli, ["--log", log, "replay", cid]).output


def _without_finish_reason_in_inputs(doc: dict[str, Any]) -> int:
    """Strip ``finish_reason`` from every input history (the conventions give it to outputs only)."""
    stripped = 0
    for span in doc["resourceSpans"][0]["scopeSpans"][0]["spans"]:
        for attr in span.get("attributes", []):
            if attr["key"] == "gen_ai.input.messages":
                messages = json.loads(attr["value"]["stringValue"])
                stripped += sum("finish_reason" in m for m in messages)
                bare = [{k: v for k, v in m.items() if k != "finish_reason"} for m in messages]
                attr["value"]["stringValue"] = json.dumps(bare)
    return stripped


def test_an_otel_history_without_finish_reasons_is_imported_once(tmp_path: Path) -> None:
    # trial45 D12: each span's history re-imported as new turns, and a correct call failed as a loop.
    doc = json.loads(fixture("otel-genai").read_text())
    assert _without_finish_reason_in_inputs(doc) > 0
    path = tmp_path / "trace.json"
    path.write_text(json.dumps(doc))
    (bare,) = list(parse(path, path.read_text(), "auto"))
    (kept,) = list(parse(fixture("otel-genai"), fixture("otel-genai").read_text(), "auto"))
    assert isinstance(bare, ImportedConversation) and isinstance(kept, ImportedConversation)
    assert bare.turns == kept.turns
    assert len(bare.turns) == len(EXPECTED["otel-genai"]["speakers"])


def test_otel_text_beside_a_tool_call_is_said_before_the_call(tmp_path: Path) -> None:
    # trial47 D16: "un momento, que lo compruebo." came after the tool's result, one step late.
    doc = json.loads(fixture("otel-genai").read_text())
    for span in doc["resourceSpans"][0]["scopeSpans"][0]["spans"]:
        for attr in span.get("attributes", []):
            if attr["key"] in ("gen_ai.output.messages", "gen_ai.input.messages"):
                messages = json.loads(attr["value"]["stringValue"])
                for m in messages:  # the reply, and the same reply in every later history
                    if any(p.get("id") == "call_m1" and p.get("type") == "tool_call" for p in m["parts"]):
                        m["parts"].insert(0, {"type": "text", "content": "One moment, let me look."})
                attr["value"]["stringValue"] = json.dumps(messages)
    path = tmp_path / "trace.json"
    path.write_text(json.dumps(doc))
    (conv,) = list(parse(path, path.read_text(), "auto"))
    assert isinstance(conv, ImportedConversation) and len(conv.turns) == 2
    first = conv.turns[0]
    assert [(t.name, t.result) for t in first.tools] == [("find_slots", ["Monday 11:00"])]
    assert first.beside == [(0, "One moment, let me look.")]
    assert first.agent == "One moment, let me look. Monday at 11:00 is free. Would you like it?"
