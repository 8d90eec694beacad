from __future__ import annotations

from pathlib import Path

import pytest

from polygon.errors import SuiteError
from polygon.suite.loading import load_suite
from tests.support.examples import clinic_suite_path
from tests.support.text import replaced

GOOD = """
name: t
configs: {a: {agent: "python:polygon.examples.clinic.agents:make_v1"}}
personas: [{id: p, type: busy, goal: g}]
"""


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "suite.yaml"
    path.write_text(text)
    return path


def test_bundled_clinic_suite_loads() -> None:
    loaded = load_suite(clinic_suite_path())
    assert set(loaded.suite.configs) == {"v1", "v2"}
    types = {p.type for p in loaded.suite.personas}
    outcomes = {p.outcome for p in loaded.suite.personas}
    assert types == {"cooperative", "busy", "distrustful", "confused", "aggressive", "chatty"}
    assert outcomes == {"success", "refusal", "callback", "transfer"}


def test_minimal_suite_and_scenario_per_persona(tmp_path: Path) -> None:
    loaded = load_suite(write(tmp_path, GOOD))
    assert [s.id for s in loaded.scenarios()] == ["p"]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (replaced(GOOD, "busy", "sleepy"), "personas[p].type: Input should be 'cooperative'"),
        (GOOD + "max_turns: 0\n", "max_turns: Input should be greater than or equal to 1"),
        (
            replaced(GOOD, '"python:polygon.examples.clinic.agents:make_v1"', '"ftp:x"'),
            "configs.a.agent: must start with python:",
        ),
        (GOOD + "scenarios: [{id: s, persona: ghost}]\n", "scenarios[s].persona: unknown persona 'ghost'"),
        (GOOD + "surprise: 1\n", "surprise: Extra inputs are not permitted"),
        # a mistyped field: the closest one beside it (a new user wrote `detector:`, a persona's `fact:`)
        (
            GOOD + "policies: [{name: n, never_say: {detector: card_number}}]\n",
            "policies[n].never_say.detector: Extra inputs are not permitted (got 'card_number'); "
            "did you mean 'detectors'?",
        ),
        (
            replaced(GOOD, "goal: g}", "goal: g, fact: {a: b}}"),
            "personas[p].fact: Extra inputs are not permitted; did you mean 'facts'?",
        ),
        (
            replaced(GOOD, '{agent: "python:polygon', '{promt: x, agent: "python:polygon'),
            "configs.a.promt: Extra inputs are not permitted (got 'x'); did you mean 'prompt'?",
        ),
        (
            GOOD + "caller: {model: scripted/heuristic}\n",
            "caller.model: no scripted model 'scripted/heuristic'",
        ),
        (GOOD + "judge: {model: gpt-4o}\n", "judge.model: 'gpt-4o' is not provider/model"),
        (
            GOOD + "probes: [{id: x, question: 'Did it work?', polarity: desired, detector: nope}]\n",
            "probes[x].detector: unknown detector 'nope' (built-in: confirmed_details",
        ),
        (
            GOOD
            + "tools: [{name: t, stub: {mode: rules, rules: [{when: {street: {matches: '(x'}}}]}}]\n",
            "tools[t].stub.rules.0.when: condition on 'street': matches '(x' is not a regex",
        ),
        # one mapping where a list may stand: the path names no index the file lacks
        (
            GOOD + "scenarios: [{id: s, persona: p, expect: {says_before: {phrase: hi}}}]\n",
            "scenarios[s].expect.says_before.tool: Field required",
        ),
        # the other problems are named by where they are, not only counted
        (
            replaced(GOOD, "busy", "sleepy") + "max_turns: 0\nsurprise: 1\n",
            "max_turns: Input should be greater than or equal to 1 (got 0) [+2 more: personas[p].type, surprise]",
        ),
        ("name: [unclosed", "not valid YAML"),
        ("- a list", "expected a mapping"),
        (
            GOOD + "tools: [{name: t, stub: {mode: stateful, store: nope, action: list}}]\n",
            "tools[t].stub.store: unknown store 'nope'",
        ),
    ],
)
def test_malformed_suite_gives_one_clear_error(tmp_path: Path, text: str, message: str) -> None:
    path = write(tmp_path, text)
    with pytest.raises(SuiteError) as err:
        load_suite(path)
    assert str(path) in str(err.value)
    assert message in str(err.value)
    assert "\n" not in str(err.value)


def test_missing_file_and_prompt(tmp_path: Path) -> None:
    with pytest.raises(SuiteError, match="no such suite file"):
        load_suite(tmp_path / "none.yaml")
    path = write(tmp_path, replaced(GOOD, '"python:polygon.examples.clinic.agents:make_v1"', '"python:polygon.examples.clinic.agents:make_v1", prompt_file: missing.md'))
    with pytest.raises(SuiteError, match="configs.a.prompt_file: cannot read"):
        load_suite(path)


def test_a_prompt_file_that_is_a_fifo_or_too_large_is_refused_saying_why(tmp_path: Path) -> None:
    """A FIFO as the prompt file once hung `polygon run` forever; a 4 GB file said only "cannot read"."""
    import os

    path = write(tmp_path, replaced(GOOD, '"python:polygon.examples.clinic.agents:make_v1"', '"python:polygon.examples.clinic.agents:make_v1", prompt_file: p.md'))
    os.mkfifo(tmp_path / "p.md")
    with pytest.raises(SuiteError, match="prompt_file: cannot read .*p.md: the prompt file is not a regular file"):
        load_suite(path)
    (tmp_path / "p.md").unlink()
    with (tmp_path / "p.md").open("wb") as f:
        f.truncate(9_000_000)
    with pytest.raises(SuiteError, match="cannot read .*p.md: the prompt file is larger than 8 MB"):
        load_suite(path)
    (tmp_path / "p.md").unlink()
    with pytest.raises(SuiteError, match="cannot read .*p.md: no such prompt file"):
        load_suite(path)
