"""``polygon scenarios from-calls``: imported calls become a new suite of drafts that loads and runs."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from polygon.cli.main import cli
from polygon.suite.loading import load_suite
from tests.support.examples import clinic_suite_path

ROOT = Path(__file__).resolve().parents[2]
CLINIC = ROOT / "examples" / "clinic"
PLATFORMS = sorted((ROOT / "examples" / "platforms").glob("*.json"))


def _invoke(*args: str) -> str:
    res = CliRunner().invoke(cli, list(args))
    assert res.exit_code == 0, res.output
    return res.output


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.mark.parametrize(
    ("files", "intents", "uncovered"),
    [
        (
            [CLINIC / "transcripts.jsonl"],
            {"book", "cancel", "callback", "billing", "question"},
            {"cancel", "question"},
        ),
        (PLATFORMS, {"book", "callback", "urgent", "availability"}, {"availability"}),
    ],
    ids=["clinic-transcripts", "platform-fixtures"],
)
def test_drafts_from_calls_load_and_run(
    tmp_path: Path, files: list[Path], intents: set[str], uncovered: set[str]
) -> None:
    log = str(tmp_path / "log")
    suite = Path(clinic_suite_path())
    before = _digest(suite)
    _invoke("--log", log, "import", *map(str, files), "--run-id", "real")
    out = tmp_path / "drafts" / "suite.yaml"
    summary = json.loads(
        _invoke(
            "--log", log, "scenarios", "from-calls", "real", "--suite", str(suite), "-o", str(out), "--json"
        )
    )
    assert _digest(suite) == before  # the suite is never edited
    found = {row["intent"]: row for row in summary["coverage"]}
    assert set(found) == intents
    assert {i for i, row in found.items() if not row["suite_personas"]} == uncovered
    assert summary["drafts"] == sum(row["calls"] for row in summary["coverage"])
    loaded = load_suite(out)
    assert len(loaded.suite.scenarios) == summary["drafts"] == len(loaded.suite.personas)
    text = out.read_text()
    for scenario in loaded.suite.scenarios:  # each draft names the call it came from
        assert "# from call real.imported." in text and scenario.id.split("-", 1)[1] in text
    assert "NO SCENARIO" in text  # the coverage report heads the file
    run = CliRunner().invoke(cli, ["--log", log, "run", str(out)])
    assert run.exit_code == 0, run.output
    runs = json.loads(_invoke("--log", log, "runs", "--json"))
    (drafted,) = [
        r for r in runs if r["run_id"] == run.stdout.split()[0]
    ]  # stderr warns: v1 leaves expect: ungated
    assert drafted["calls"] == summary["drafts"] * len(loaded.suite.configs)


def test_a_draft_carries_type_goal_facts_outcome_and_expect(tmp_path: Path) -> None:
    log = str(tmp_path / "log")
    _invoke("--log", log, "import", *map(str, PLATFORMS), "--run-id", "real")
    out = tmp_path / "suite.yaml"
    _invoke("--log", log, "scenarios", "from-calls", "real", "--suite", clinic_suite_path(), "-o", str(out))
    data = yaml.safe_load(out.read_text())
    personas = {p["id"]: p for p in data["personas"]}
    scenarios = {s["id"]: s for s in data["scenarios"]}
    vapi = personas["book-vapi-call-7f3a"]
    assert vapi["outcome"] == "success" and vapi["type"] == "cooperative"
    assert vapi["facts"] == {
        "name": "Ana Kovac",
        "phone": "0401 555 123",
        "preferred_day": "Wednesday",
        "slot": "Wednesday 09:00",  # from book_slot's arguments, not the caller's words (trial40 D15)
    }
    assert "# facts from tool arguments (not the caller's words): slot" in out.read_text()
    assert "cleaning" in vapi["goal"]
    assert scenarios["book-vapi-call-7f3a"]["expect"] == {
        "calls": {"book_slot": {"name": {"fact": "name"}, "phone": {"fact": "phone"}}}
    }
    assert personas["urgent-conv_el_5521"]["outcome"] == "transfer"
    assert scenarios["urgent-conv_el_5521"]["expect"] == {"end": ["transfer"]}
    assert personas["callback-retell-call-91c2"]["outcome"] == "callback"
    assert personas["availability-otel-conv-2b7d"]["outcome"] == "refusal"


def test_without_a_suite_the_drafts_load_with_a_placeholder_agent(tmp_path: Path) -> None:
    log = str(tmp_path / "log")
    _invoke("--log", log, "import", *map(str, PLATFORMS), "--run-id", "real")
    out = tmp_path / "suite.yaml"
    _invoke("--log", log, "scenarios", "from-calls", "real", "-o", str(out))
    loaded = load_suite(out)
    assert {t.name for t in loaded.suite.tools} == {"book_slot", "create_callback", "find_slots"}
    assert loaded.suite.configs["your-agent"].agent.startswith("http://")


def test_an_existing_file_is_never_overwritten(tmp_path: Path) -> None:
    log = str(tmp_path / "log")
    _invoke("--log", log, "import", str(CLINIC / "transcripts.jsonl"), "--run-id", "real")
    out = tmp_path / "suite.yaml"
    out.write_text("mine\n")
    res = CliRunner().invoke(cli, ["--log", log, "scenarios", "from-calls", "real", "-o", str(out)])
    assert res.exit_code == 2 and "already exists" in res.output and out.read_text() == "mine\n"


def test_a_model_corrects_the_drafts_and_every_call_is_recorded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from polygon.events import LmdbLog
    from polygon.events.streams import drafts_stream
    from tests.support.fault_server import completion, serve

    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    log = str(tmp_path / "log")
    _invoke("--log", log, "import", *map(str, PLATFORMS), "--run-id", "real")
    better = {
        "intent": "book_cleaning",
        "type": "busy",
        "outcome": "success",
        "goal": "a cleaning, Wednesday",
        "facts": {"request": "cleaning"},
    }

    def answer(body: dict[str, object]) -> dict[str, object]:
        said = json.dumps(body["messages"])
        return completion(json.dumps(better) if "Ana Kovac" in said else "not json at all")

    out = tmp_path / "suite.yaml"
    with serve(["smart"]) as (url, server):
        server.smart = answer
        summary = json.loads(
            _invoke(
                "--log",
                log,
                "scenarios",
                "from-calls",
                "real",
                "--suite",
                clinic_suite_path(),
                "-o",
                str(out),
                "--model",
                "openai/drafter",
                "--base-url",
                url,
                "--json",
            )
        )
        assert len(server.requests) == 5
    assert (
        summary["model"] == "openai/drafter" and len(summary["failures"]) == 4
    )  # they keep the rules' drafts
    data = yaml.safe_load(out.read_text())
    (vapi,) = [p for p in data["personas"] if "vapi-call-7f3a" in p["id"]]
    assert vapi["id"].startswith("book_cleaning-") and vapi["type"] == "busy"
    assert (
        vapi["facts"]["request"] == "cleaning" and vapi["facts"]["name"] == "Ana Kovac"
    )  # the rules' facts stay
    assert "corrected by openai/drafter" in out.read_text()
    with LmdbLog(tmp_path / "log", readonly=True) as opened:
        calls = [e for e in opened.read_stream(drafts_stream("real")) if e.tag == "model.called"]
    assert len(calls) == 5 and {c.payload.role for c in calls} == {"drafter"}
    assert CliRunner().invoke(cli, ["--log", log, "run", str(out)]).exit_code == 0
