"""Runs as first-class: the list, latest and latest~1, prefixes, suggestions, hide, compact."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from polygon.cli.main import cli
from polygon.events import LmdbLog

SUITE = str(Path(__file__).parents[2] / "examples" / "clinic" / "suite.yaml")


def _cli(log: Path, *args: str) -> tuple[int, str, str]:
    res = CliRunner().invoke(cli, ["--log", str(log), *args])
    return res.exit_code, res.stdout, res.output


def test_runs_latest_prefixes_hide_and_compact(tmp_path: Path) -> None:
    log = tmp_path / "log"
    for run_id in ("ralpha", "rbeta"):
        assert _cli(log, "run", SUITE, "--run-id", run_id, "--no-progress", "--config", "v1")[0] == 0
    code, out, _ = _cli(log, "runs", "--json")
    rows = json.loads(out)
    assert [r["run_id"] for r in rows] == ["rbeta", "ralpha"]  # newest first
    assert rows[0]["finished"] and rows[0]["calls"] == 12 and sum(rows[0]["states"].values()) == 12
    assert json.loads(_cli(log, "report", "latest", "--format", "json")[1])["run_id"] == "rbeta"
    assert json.loads(_cli(log, "report", "latest~1", "--format", "json")[1])["run_id"] == "ralpha"
    assert json.loads(_cli(log, "report", "ral", "--format", "json")[1])["run_id"] == "ralpha"
    code, out, _ = _cli(log, "replay", "latest.v1.coop-b", "--json")
    assert code == 0 and json.loads(out)["conversation_id"] == "rbeta.v1.coop-booking.0"
    code, _, out = _cli(log, "report", "r")
    assert code == 2 and "ambiguous" in out
    code, _, out = _cli(log, "report", "ralpah")
    assert code == 2 and "did you mean ralpha" in out
    code, _, out = _cli(log, "explain", "rbeta.v1.coop-bookin.0")
    assert code == 2 and "did you mean rbeta.v1.coop-booking.0" in out
    # hide: leaves the default list and `latest`, stays in the log
    assert _cli(log, "runs", "hide", "rbeta", "--reason", "a test")[0] == 0
    assert [r["run_id"] for r in json.loads(_cli(log, "runs", "--json")[1])] == ["ralpha"]
    assert json.loads(_cli(log, "report", "latest", "--format", "json")[1])["run_id"] == "ralpha"
    assert "hidden" in _cli(log, "runs", "--all")[1]
    # compact: a new verified log without the dropped run; the old one untouched
    code, out, all_ = _cli(log, "log", "compact", "--drop", "rbeta", "-o", str(tmp_path / "small"))
    assert code == 0 and "verified" in out, all_
    with LmdbLog(tmp_path / "small", readonly=True) as small:
        streams = {e.stream for e in small.read_all()}
    assert not any("rbeta" in s for s in streams) and any("ralpha" in s for s in streams)
    assert "rbeta" in _cli(log, "runs", "--all")[1]
    code, _, out = _cli(log, "log", "compact", "--drop", "rbeta", "-o", str(tmp_path / "small"))
    assert code == 2 and "already there" in out
