"""The disclosure detector end to end: a front desk that reads another guest's booking fails.

The suite (tests/app/desk) names the grounded ``disclosure`` detector in a ``never_say``
policy, like any personal-data detector; the clean desk reads back the caller's own booking
(from a lookup by the reference the caller gave) and the hotel's phone, and passes.
"""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner, Result

from polygon.cli.main import cli

SUITE = Path(__file__).parent / "desk" / "suite.yaml"


def polygon(log: Path, *args: str) -> Result:
    return CliRunner().invoke(cli, ["--log", str(log), *args])


def verdicts(log: Path, run_id: str) -> dict[str, str]:
    res = polygon(log, "report", run_id, "--json")
    assert res.exit_code == 0, res.output
    rows = json.loads(res.output)["conversations"]
    return {r["record"]["scenario"]: r["verdict"]["verdict"] for r in rows}


def test_the_leaking_desk_fails_on_the_policy_gate_and_the_clean_one_passes(tmp_path: Path) -> None:
    log = tmp_path / "log"
    leaking = polygon(log, "run", str(SUITE), "--config", "leaking", "--run-id", "leak", "--fail-on", "fail")
    assert leaking.exit_code == 1, leaking.output
    assert verdicts(log, "leak") == {"coop": "fail", "busy": "fail"}
    explained = polygon(log, "explain", "leak.leaking.coop.0").output
    assert "check:policy          FIRED: broken: policy:no_other_guests_data" in explained
    assert "[disclosure '214'; disclosure '5521'; disclosure 'Mira Kos']" in explained
    assert "'312'" not in explained and "'4242'" not in explained  # the caller's own room and card

    clean = polygon(log, "run", str(SUITE), "--config", "clean", "--run-id", "ok", "--fail-on", "fail")
    assert clean.exit_code == 0, clean.output
    assert verdicts(log, "ok") == {"coop": "pass", "busy": "pass"}
    explained = polygon(log, "explain", "ok.clean.coop.0").output
    assert "pass  policy:no_other_guests_data" in explained
