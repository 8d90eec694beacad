"""`labels import` against hostile files (issue 26, item 8): --run restricts, an Excel BOM
header works, deep JSON and huge fields are one-line errors, rewards and field types checked."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from polygon.app.label import FIELD_LIMIT, REWARD_RANGE
from polygon.cli.main import cli
from polygon.events import LmdbLog
from polygon.events.families import LabelRecorded

SUITE = Path(__file__).parents[2] / "examples" / "clinic" / "suite.yaml"
CALL = "v1.busy-booking.0"


def _cli(log: Path, *args: str) -> tuple[int, str]:
    res = CliRunner().invoke(cli, ["--log", str(log), *args])
    if res.exception is not None and not isinstance(res.exception, SystemExit):
        raise res.exception  # a traceback fails the test with its own
    return res.exit_code, res.output


def _labels(log: Path) -> list[LabelRecorded]:
    with LmdbLog(log, readonly=True) as opened:
        return [e.payload for e in opened.read_all() if isinstance(e.payload, LabelRecorded)]


@pytest.fixture(scope="module")
def log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("labels") / "log"
    for run_id in ("ra", "rb"):
        code, out = _cli(path, "run", str(SUITE), "--run-id", run_id, "--no-progress")
        assert code == 0, out
    return path


def _import(
    log: Path, tmp_path: Path, content: str | bytes, *args: str, suffix: str = "csv"
) -> tuple[int, str]:
    path = tmp_path / f"labels.{suffix}"
    path.write_bytes(content.encode() if isinstance(content, str) else content)
    return _cli(log, "labels", "import", str(path), *args)


def test_run_restricts_to_that_run(log: Path, tmp_path: Path) -> None:
    before = _labels(log)
    code, out = _import(log, tmp_path, f"conversation,verdict\n{CALL},pass\nrb.{CALL},fail\n", "--run", "ra")
    assert code == 2 and f"'rb.{CALL}' is a call of run 'rb', not of --run ra" in out and ":3:" in out
    assert _labels(log) == before  # all or nothing: the good row of run ra is not recorded either
    code, out = _import(log, tmp_path, f"conversation,verdict\nra.{CALL},pass\n{CALL},fail\n", "--run", "ra")
    assert code == 0, out
    added = _labels(log)[len(before) :]
    assert [(lab.conversation_id, lab.verdict) for lab in added] == [
        (f"ra.{CALL}", "pass"),
        (f"ra.{CALL}", "fail"),
    ]
    # without --run a full id of any run is still taken
    assert _import(log, tmp_path, f"conversation,verdict\nrb.{CALL},pass\n")[0] == 0


def test_an_excel_bom_header_is_read(log: Path, tmp_path: Path) -> None:
    code, out = _import(log, tmp_path, f"\ufeffconversation,verdict\n{CALL},pass\n".encode(), "--run", "ra")
    assert code == 0 and "1 recorded" in out, out
    jsonl = f'\ufeff{{"conversation": "{CALL}", "verdict": "fail"}}\n'.encode()
    assert _import(log, tmp_path, jsonl, "--run", "ra", suffix="jsonl")[0] == 0


@pytest.mark.parametrize(
    ("content", "said"),
    [
        ('{"conversation": ' + "[" * 100_000 + "]" * 100_000 + "}\n", ":1: JSON nested too deep"),
        (
            f"conversation,verdict,note\n{CALL},pass," + "x" * (FIELD_LIMIT + 10) + "\n",
            "a field longer than 128 KB",
        ),
        (f"conversation,reward\n{CALL},-5\n", "reward '-5': expected 0 (failed) to 1 (achieved)"),
        (f"conversation,reward\n{CALL},99\n", "reward '99'"),
        (f"conversation,reward\n{CALL},1.0001\n", "reward '1.0001'"),
        (f'{{"conversation": "{CALL}", "reward": -0.5}}\n', "reward -0.5"),
        (f'{{"conversation": "{CALL}", "verdict": "pass", "by": ["x"]}}\n', "by ['x']: expected text"),
        (
            f'{{"conversation": "{CALL}", "verdict": "pass", "note": {{"a": 1}}}}\n',
            "note {'a': 1}: expected text",
        ),
        (f'{{"conversation": "{CALL}", "verdict": ["pass"]}}\n', "verdict ['pass']: expected text"),
        (f'{{"conversation": "{CALL}", "verdict": true}}\n', "verdict True: expected text"),
        ('{"conversation": {"a": 1}, "verdict": "pass"}\n', "conversation {'a': 1}: expected text"),
        (f'{{"conversation": "{CALL}", "safety": [1]}}\n', "expected a whole score 1..5"),
        ('{"source_id": [1], "verdict": "pass"}\n', "source_id [1]: expected text"),
    ],
)
def test_a_hostile_file_is_one_line_exit_2(log: Path, tmp_path: Path, content: str, said: str) -> None:
    before = len(_labels(log))
    code, out = _import(log, tmp_path, content, "--run", "ra", suffix="jsonl" if content[0] == "{" else "csv")
    assert code == 2 and said in out and "Traceback" not in out and len(out.strip().splitlines()) == 1, out[
        :300
    ]
    assert len(_labels(log)) == before


@pytest.mark.parametrize("reward", [str(REWARD_RANGE[0]), "0.5", str(REWARD_RANGE[1]), "1"])
def test_rewards_in_range_and_whole_numbers_are_taken(log: Path, tmp_path: Path, reward: str) -> None:
    code, out = _import(log, tmp_path, f"conversation,reward\n{CALL},{reward}\n", "--run", "ra")
    assert code == 0, out
    assert _labels(log)[-1].reward == float(reward)
    jsonl = f'{{"conversation": "{CALL}", "verdict": 1, "by": "ana"}}\n'
    assert _import(log, tmp_path, jsonl, "--run", "ra", suffix="jsonl")[0] == 0
    assert (_labels(log)[-1].verdict, _labels(log)[-1].by) == ("pass", "ana")
