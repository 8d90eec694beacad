"""Issue 28: the reference pages and JSON Schemas are generated from the code and kept in sync;
the schemas validate real files; init writes the schema line; a rule on an argument the tool
does not have is a load error; the documented HTTP protocol is what an endpoint receives."""

from __future__ import annotations

import importlib.util
import json
import threading
from pathlib import Path
from typing import Any

import jsonschema
import msgspec
import pytest
import yaml
from click.testing import CliRunner

from polygon import docs
from polygon.app.editor_schema import KINDS
from polygon.app.schema_files import FILE_KINDS, shipped
from polygon.cli.main import cli
from polygon.errors import SuiteError
from polygon.events import LmdbLog
from polygon.events.families import ToolCalled
from polygon.simulate.agents import AgentStep, Message, ToolCall, ToolResult
from polygon.suite.loading import load_suite
from polygon.suite.schema import Suite
from tests.support.text import replaced

ROOT = Path(__file__).parents[1]


def test_generated_reference_and_schemas_are_in_sync() -> None:
    drift = docs.stale()
    assert not drift, f"out of date: {', '.join(drift)}; regenerate with `{docs.REGENERATE}` (or `make docs`)"


def test_a_field_added_without_regenerating_fails_the_sync(monkeypatch: pytest.MonkeyPatch) -> None:
    grown = type(
        "Suite",
        (Suite,),
        {"__annotations__": {"escalation_phone": str}, "escalation_phone": "", "__module__": __name__},
    )
    monkeypatch.setitem(KINDS, "suite", grown)
    drift = docs.stale()
    assert "docs/reference/suite.md" in drift and "polygon/suite/json/suite.schema.json" in drift
    assert "`escalation_phone`" in docs.suite_page()


def test_every_reference_page_is_listed_in_the_index() -> None:
    index = (ROOT / "docs" / "reference" / "README.md").read_text()
    for path in docs.outputs():
        if path.startswith("docs/reference/") and not path.endswith("README.md"):
            assert f"({Path(path).name})" in index


def test_schema_command_prints_the_shipped_schema_and_it_validates_the_bundled_files() -> None:
    assert tuple(KINDS) == FILE_KINDS  # the files read without the models are one per model
    for kind in KINDS:
        res = CliRunner().invoke(cli, ["schema", kind])
        assert res.exit_code == 0 and res.output == shipped(kind)
    suite = jsonschema.Draft202012Validator(json.loads(shipped("suite")))
    for name in ("clinic", "pizza", "starter"):
        suite.validate(yaml.safe_load((ROOT / "examples" / name / "suite.yaml").read_text()))
    rubric = jsonschema.Draft202012Validator(json.loads(shipped("rubric")))
    for version in ("v1", "v2", "v3"):
        data = yaml.safe_load((ROOT / "rubrics" / f"{version}.yaml").read_text())
        for c in data["criteria"]:  # an editor reads YAML keys as text
            c["levels"] = {str(k): v for k, v in c["levels"].items()}
        rubric.validate(data)
    sweep = jsonschema.Draft202012Validator(json.loads(shipped("sweep")))
    sweep.validate(yaml.safe_load((ROOT / "examples" / "clinic" / "sweep.yaml").read_text()))
    # and catches what loading would refuse
    bad = yaml.safe_load((ROOT / "examples" / "starter" / "suite.yaml").read_text())
    bad["tools"][0]["stub"]["mode"] = "sometimes"
    assert not suite.is_valid(bad)
    assert CliRunner().invoke(cli, ["schema", "nope"]).exit_code == 2


def test_init_writes_the_schema_line_and_the_schema_beside_the_suite(tmp_path: Path) -> None:
    res = CliRunner().invoke(cli, ["init", str(tmp_path / "mine")])
    assert res.exit_code == 0, res.output
    text = (tmp_path / "mine" / "suite.yaml").read_text()
    assert text.splitlines()[0] == "# yaml-language-server: $schema=suite.schema.json"
    assert (tmp_path / "mine" / "suite.schema.json").read_text() == shipped("suite")
    jsonschema.validate(yaml.safe_load(text), json.loads(shipped("suite")))


def test_a_rule_on_an_argument_the_tool_does_not_have_is_a_load_error(tmp_path: Path) -> None:
    text = (ROOT / "examples" / "starter" / "suite.yaml").read_text()
    text = replaced(text, "python:my_agent:make_agent", "python:polygon.examples.clinic.agents:make_v1")
    card = (
        "  - name: card_status\n"
        "    parameters: {type: object, properties: {card_last4: {type: string}}}\n"
        "    stub: {mode: rules, rules: [{when: WHEN, respond: {status: blocked}}]}\n"
    )
    text = replaced(text, "\npersonas:\n", "\n" + card + "\npersonas:\n")
    (tmp_path / "prompt.md").write_text("Be helpful.")
    path = tmp_path / "suite.yaml"
    path.write_text(replaced(text, "WHEN", "{card_last4: '6617'}"))
    assert load_suite(path).suite.tools[-1].name == "card_status"
    path.write_text(replaced(text, "WHEN", "{last_4: '6617'}"))
    with pytest.raises(SuiteError) as err:
        load_suite(path)
    said = str(err.value)
    assert str(path) in said and "tools[card_status]" in said and "stub.rules.0.when" in said
    assert "no argument 'last_4'" in said and "card_last4" in said
    # a stateful stub's key_arg too
    path.write_text(replaced(text, "key_arg: order_id", "key_arg: order"))
    with pytest.raises(SuiteError, match=r"tools\[order_status\].*stub.key_arg: no argument 'order'"):
        load_suite(path)


def _example_server() -> Any:
    spec = importlib.util.spec_from_file_location("agent_server", ROOT / docs.SERVER_EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _keys(cls: type[msgspec.Struct]) -> set[str]:
    return {f.name for f in msgspec.structs.fields(cls)}


def test_the_documented_http_protocol_is_what_the_example_server_receives(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    server_module = _example_server()
    bodies: list[dict[str, Any]] = []
    real_step = server_module.step

    def recording(body: dict[str, Any]) -> dict[str, Any]:
        bodies.append(body)
        return real_step(body)  # type: ignore[no-any-return]

    monkeypatch.setattr(server_module, "step", recording)
    server = server_module.serve(0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        suite = replaced(docs.MINIMAL_SUITE, "8765", str(server.server_port))
        (tmp_path / "suite.yaml").write_text(suite)
        log = tmp_path / "log"
        res = CliRunner().invoke(cli, ["--log", str(log), "run", str(tmp_path / "suite.yaml"), "--run-id", "h"])
        assert res.exit_code == 0, res.output
    finally:
        server.shutdown()
        server.server_close()
    with LmdbLog(log, readonly=True) as opened:
        called = [e.payload for e in opened.read_all() if isinstance(e.payload, ToolCalled)]
    assert called and called[0].tool == "parcel_status" and called[0].result == {"PX-100": "in transit"}
    assert all(set(b) == _keys(AgentStep) | {"config", "prompt", "params"} for b in bodies)
    with_results = [b for b in bodies if b["tool_results"]]
    assert with_results, "the example server never got tool results"
    body = with_results[0]
    assert set(body["tool_results"][0]) == _keys(ToolResult)
    asked = next(m for m in body["history"] if m["role"] == "assistant" and m["tool_calls"])
    assert set(asked) == _keys(Message)
    call = asked["tool_calls"][0]
    assert set(call) == _keys(ToolCall) == {"id", "name", "arguments"}  # not OpenAI's {type, function}
    assert isinstance(call["arguments"], dict)
    answered = next(m for m in body["history"] if m["role"] == "tool")
    assert answered["tool_call_id"] == call["id"] and answered["name"] == "parcel_status"
    page = (ROOT / "docs" / "reference" / "http-agent.md").read_text()
    assert "OpenAI chat shapes" not in page and '"tool_call_id": "c1"' in page


def test_every_relative_link_in_the_readme_and_docs_resolves() -> None:
    import re

    broken = []
    for page in [ROOT / "README.md", *(ROOT / "docs").rglob("*.md")]:
        for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", page.read_text()):
            if not target.startswith(("http://", "https://")) and not (page.parent / target).exists():
                broken.append(f"{page.relative_to(ROOT)} → {target}")
    assert not broken, broken
