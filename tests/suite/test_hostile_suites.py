"""Hostile suite files: one clear line naming the file (and field or line), exit 2, fast; nothing written."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from polygon.cli.main import cli
from tests.support.text import replaced

GOOD = """\
name: t
configs: {a: {agent: "python:polygon.examples.clinic.agents:make_v1", prompt: "You book appointments."}}
personas: [{id: p, type: busy, goal: book a cleaning}]
"""

BOMB = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"{chr(98 + i)}: &{chr(98 + i)} [*{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, "
    f"*{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}]\n"
    for i in range(9)
)

CASES = [
    ("alias bomb", GOOD + BOMB, "expands to more than 200000 values"),
    ("duplicate key", GOOD + "seed: 1\nseed: 2\n", "duplicate key 'seed'"),
    ("empty forbidden phrase", GOOD + 'forbidden_phrases: [""]\n', "forbidden_phrases.0: an empty phrase"),
    (
        "latency min above max",
        GOOD + "tools: [{name: t, stub: {latency: {min_ms: 500, max_ms: 100}}}]\n",
        "tools[t].stub.latency: min_ms 500 is above max_ms 100",
    ),
    (
        "fault probabilities over 1",
        GOOD + "tools: [{name: t, stub: {faults: {timeout: 0.7, server_error: 0.6}}}]\n",
        "a probability is at most 1",
    ),
    (
        "fault probability over 1",
        GOOD + "tools: [{name: t, stub: {faults: {malformed: 1.5}}}]\n",
        "tools[t].stub.faults.malformed: Input should be less than or equal to 1",
    ),
    (
        "duplicate probe ids",
        GOOD + "probes: [{id: x, question: 'Was it ok?', polarity: desired}, "
        "{id: x, question: 'Was it fine?', polarity: desired}]\n",
        "the id 'x' is used twice",
    ),
    (  # trial39 defect 14: the run wrote, then died "already written with different content"
        "duplicate scenario ids",
        GOOD + "scenarios: [{id: s, persona: p}, {id: s, persona: p, max_turns: 3}]\n",
        "scenarios[s].id: the id 's' is used twice",
    ),
    (
        "duplicate persona ids",
        replaced(GOOD, "goal: book a cleaning}]", "goal: book a cleaning}, {id: p, type: busy, goal: cancel}]"),
        "personas[p].id: the id 'p' is used twice",
    ),
    (
        "duplicate tool names",
        GOOD + "tools: [{name: t}, {name: t, description: again}]\n",
        "tools[t].name: the name 't' is used twice",
    ),
    (
        "prompt file outside the folder",
        replaced(GOOD, 'prompt: "You book appointments."', "prompt_file: /etc/passwd"),
        "configs.a.prompt_file: '/etc/passwd' is outside the suite's folder",
    ),
    (
        "prompt file up and out",
        replaced(GOOD, 'prompt: "You book appointments."', "prompt_file: ../../secret.md"),
        "is outside the suite's folder",
    ),
    ("personas file outside", GOOD + "personas_file: ../other/suite.yaml\n", "personas_file: '../other/suite.yaml' is outside"),
    (
        "headers for a Python agent",
        replaced(GOOD, 'prompt: "You book appointments."', 'prompt: p, headers: {X-Team: a}'),
        "configs.a: headers: only an HTTP agent (http:// or https://) is sent headers",
    ),
    (  # a shell's $TOKEN would have been sent as those six characters
        "a header's $NAME without braces",
        replaced(GOOD, '"python:polygon.examples.clinic.agents:make_v1", prompt: "You book appointments."',
                 '"http://127.0.0.1:9/step", headers: {Authorization: "Bearer $TOKEN"}'),
        "configs.a.headers: Authorization: a $ must start ${NAME}",
    ),
    (
        "a header Polygon sets",
        replaced(GOOD, '"python:polygon.examples.clinic.agents:make_v1", prompt: "You book appointments."',
                 '"http://127.0.0.1:9/step", headers: {Content-Type: text/plain}'),
        "Content-Type: Polygon sets this header itself",
    ),
    (
        "a line break in a header",
        replaced(GOOD, '"python:polygon.examples.clinic.agents:make_v1", prompt: "You book appointments."',
                 '"http://127.0.0.1:9/step", headers: {X-A: "a\\r\\nX-B: b"}'),
        "X-A: a header value holds no control characters or line breaks",
    ),
    ("deep nesting", GOOD + "x: " + "[" * 5000 + "]" * 5000 + "\n", ""),
    ("not a mapping", "- just\n- a list\n", "expected a mapping"),
    ("tab indentation", "name: t\n\tconfigs: {}\n", "not valid YAML"),
]


@pytest.mark.parametrize(("what", "text", "message"), CASES, ids=[c[0] for c in CASES])
def test_a_hostile_suite_is_one_clear_error(tmp_path: Path, what: str, text: str, message: str) -> None:
    folder = tmp_path / "suite"
    folder.mkdir()
    suite = folder / "suite.yaml"
    suite.write_text(text)
    res = CliRunner().invoke(cli, ["--log", str(tmp_path / "log"), "run", str(suite)])  # hangs: pytest-timeout
    assert res.exit_code == 2, res.output
    assert res.output.startswith(f"error: {suite}") and res.output.count("\n") == 1, res.output
    assert message in res.output
    assert not (tmp_path / "log").exists() or json.loads(
        CliRunner().invoke(cli, ["--log", str(tmp_path / "log"), "log", "stats", "--json"]).output
    )["events"] == 0


def test_a_huge_suite_file_is_refused_without_reading_it_all(tmp_path: Path) -> None:
    suite = tmp_path / "suite.yaml"
    suite.write_text(GOOD + "# " + "x" * 9_000_000 + "\n")
    res = CliRunner().invoke(cli, ["--log", str(tmp_path / "log"), "run", str(suite)])
    assert res.exit_code == 2 and "larger than 8 MB" in res.output


def test_personas_generate_overwrites_only_what_it_generated(tmp_path: Path) -> None:
    folder = tmp_path / "s"
    folder.mkdir()
    other = folder / "other.yaml"
    other.write_text("name: someone else's file\n")
    suite = folder / "suite.yaml"
    suite.write_text(replaced(GOOD, "personas: [{id: p, type: busy, goal: book a cleaning}]\n", "") + "personas_file: other.yaml\n")
    res = CliRunner().invoke(cli, ["--log", str(tmp_path / "log"), "personas", "generate", str(suite)])
    assert res.exit_code == 2 and "not a file Polygon generated" in res.output
    assert other.read_text() == "name: someone else's file\n"


def test_personas_generate_on_a_suite_without_personas_works(tmp_path: Path) -> None:
    suite = tmp_path / "suite.yaml"
    suite.write_text(replaced(GOOD, "personas: [{id: p, type: busy, goal: book a cleaning}]\n", ""))
    res = CliRunner().invoke(cli, ["--log", str(tmp_path / "log"), "personas", "generate", str(suite)])
    assert res.exit_code == 0, res.output
    assert (tmp_path / "personas.generated.yaml").read_text().startswith("# Generated by `polygon personas generate`")


def test_an_openai_model_without_a_base_url_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    suite = tmp_path / "suite.yaml"
    suite.write_text(GOOD + "caller: {model: openai/gpt-4o-mini}\n")
    res = CliRunner().invoke(cli, ["--log", str(tmp_path / "log"), "run", str(suite)])
    assert res.exit_code == 2 and "openai/… models need a server" in res.output and "--base-url" in res.output
    assert not (tmp_path / "log").exists() or json.loads(
        CliRunner().invoke(cli, ["--log", str(tmp_path / "log"), "log", "stats", "--json"]).output
    )["events"] == 0


@pytest.mark.parametrize(
    ("value", "why"),
    [("", "is empty"), ("tok\r\nX-Evil: 1", "holds a line break"), ("tökén", "holds a line break, a control or a non-ASCII character")],
)
def test_a_header_variable_an_http_header_cannot_carry_is_named_never_shown(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, value: str, why: str
) -> None:
    monkeypatch.setenv("POLYGON_TEST_TOKEN", value)
    suite = tmp_path / "suite.yaml"
    agent = '"http://127.0.0.1:9/step", headers: {Authorization: "Bearer ${POLYGON_TEST_TOKEN}"}'
    suite.write_text(replaced(GOOD, '"python:polygon.examples.clinic.agents:make_v1", prompt: "You book appointments."', agent))
    res = CliRunner().invoke(cli, ["--log", str(tmp_path / "log"), "run", str(suite)])
    assert res.exit_code == 2, res.output
    assert f"configs.a.headers.Authorization: the environment variable POLYGON_TEST_TOKEN {why}" in res.output
    assert not value or value not in res.output
