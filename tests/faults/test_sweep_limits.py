"""Issue 26 item 6: sweeps refuse what they cannot run or record, and resume keeps `reused`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from polygon.app import sweep as sweep_app
from polygon.errors import SuiteError
from polygon.suite.sweep import load_sweep
from polygon.sweep.points import make_points
from tests.support.faults import run_cli, small_sweep
from tests.support.text import replaced


@pytest.mark.parametrize(
    ("extra", "parameters", "says"),
    [
        ("mode: random\npoints: 1\n", "  patience: {min: .nan, max: .nan}", "finite"),
        ("mode: random\npoints: 1\n", "  patience: {min: 1, max: .inf}", "finite"),
        ("", "  patience: [.nan, null]", "NaN or infinity"),
        ("", "  patience: [1, -.inf]", "NaN or infinity"),
        ("", "  params.deep: [[1, .nan]]", "NaN or infinity"),
        ("mode: random\npoints: 1\n", "  patience: {min: 1e30, max: 2e30}", "beyond what the log stores"),
        ("", "  patience: [100000000000000000000000000]", "beyond what the log stores"),
        ("token_limit: 100000000000000000000000000\n", "  patience: [1]", "token_limit"),
        ("mode: random\npoints: 50\nmax_points: 5\n", "  patience: {min: 1, max: 9}", "max_points"),
    ],
)
def test_a_sweep_it_cannot_run_or_record_is_refused_at_load_in_one_line(
    tmp_path: Path, extra: str, parameters: str, says: str
) -> None:
    path = small_sweep(tmp_path / "s", parameters=parameters, extra="")
    text = replaced(path.read_text(), "mode: grid\n", "mode: grid\n" if "mode:" not in extra else "")
    path.write_text(text + extra)
    with pytest.raises(SuiteError, match=says):
        load_sweep(path)
    res = run_cli(tmp_path / "log", "sweep", str(path))
    assert res.exit_code == 2 and len(res.output.strip().splitlines()) == 1, res.output
    assert not (tmp_path / "log" / "data.mdb").exists()


def test_every_mode_has_a_point_cap(tmp_path: Path) -> None:
    values = ", ".join(str(v) for v in range(1, 40))
    path = small_sweep(tmp_path / "s", parameters=f"  patience: [{values}]", extra="max_points: 5\n")
    path.write_text(replaced(path.read_text(), "mode: grid", "mode: oat"))
    with pytest.raises(SuiteError, match="max_points 5"):
        make_points(load_sweep(path))
    res = run_cli(tmp_path / "log", "sweep", str(path))
    assert res.exit_code == 2 and "max_points" in res.output


def _board(log: Path, sweep_id: str) -> list[dict[str, object]]:
    res = run_cli(log, "leaderboard", sweep_id, "--format", "json")
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    rows = data["rows"] if isinstance(data, dict) and "rows" in data else data
    return sorted(
        ({"index": r["index"], "reused": r["reused"], "run_id": r["run_id"]} for r in rows),
        key=lambda r: str(r["index"]),
    )


def test_a_kill_between_a_points_end_and_its_point_ran_keeps_reused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = small_sweep(tmp_path / "s")
    clean = tmp_path / "clean"
    assert run_cli(clean, "sweep", str(path), "--sweep-id", "w1").exit_code == 0
    killed = tmp_path / "killed"
    original = sweep_app._append

    def dies_before_point_ran(log: object, sweep_id: str, kind: str, event: object, now: object) -> None:
        if kind.startswith("point.ran"):
            raise KeyboardInterrupt  # the kill: the point's run is finished, its point.ran is not
        original(log, sweep_id, kind, event, now)  # type: ignore[arg-type]

    monkeypatch.setattr(sweep_app, "_append", dies_before_point_ran)
    run_cli(killed, "sweep", str(path), "--sweep-id", "w1")
    monkeypatch.setattr(sweep_app, "_append", original)
    res = run_cli(killed, "sweep", str(path), "--resume", "w1")
    assert res.exit_code == 0, res.output
    assert _board(killed, "w1") == _board(clean, "w1")
    assert not any(r["reused"] for r in _board(killed, "w1"))
