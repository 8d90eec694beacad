"""The web app without a browser: pages, paging, folds kept until the log grows, errors."""

from __future__ import annotations

import html
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from starlette.testclient import TestClient

from polygon import web
from polygon.cli.main import cli

SUITE = str(Path(__file__).parents[2] / "examples" / "clinic" / "suite.yaml")


BASE = f"http://127.0.0.1:{web.DEFAULT_PORT}"


def _client(app: object) -> TestClient:
    """A client that is this server's own page (its Host is the server's loopback address)."""
    return TestClient(app, base_url=BASE)  # type: ignore[arg-type]


def _run(log: Path, run_id: str) -> None:
    res = CliRunner().invoke(cli, ["--log", str(log), "run", SUITE, "--run-id", run_id, "--no-progress"])
    assert res.exit_code == 0, res.output


def test_paging_memo_and_errors(tmp_path: Path) -> None:
    log = tmp_path / "log"
    _run(log, "rone")
    client = _client(web.make_app(log, per_page=10))
    first = client.get("/runs/rone")
    assert first.status_code == 200 and "24 of 24 calls match · page 1 of 3" in first.text
    assert first.text.count('href="/explain/') == 10
    last = client.get("/runs/rone?page=3")
    assert last.text.count('href="/explain/') == 4 and ">next<" not in last.text and ">previous<" in last.text
    assert "rone" in client.get("/").text and "rtwo" not in client.get("/").text
    # a run written while the server is up shows on the next view (the kept fold is dropped)
    # (another process writes: this one holds the log open, as `polygon serve` does)
    subprocess.run(
        [
            sys.executable,
            "-m",
            "polygon",
            "--log",
            str(log),
            "run",
            SUITE,
            "--run-id",
            "rtwo",
            "--no-progress",
        ],
        check=True,
    )
    assert "rtwo" in client.get("/").text
    missing = client.get("/runs/rnope")
    assert missing.status_code == 404 and "no run &#39;rnope&#39;" in missing.text
    assert client.get("/replay/rone.v9.nobody.0").status_code == 404
    assert client.get("/").headers["content-security-policy"].startswith("default-src 'none'")


def test_the_runs_page_filters_by_suite_and_state(tmp_path: Path) -> None:
    log = tmp_path / "log"
    _run(log, "rone")
    client = _client(web.make_app(log))
    assert "rone" in client.get("/?suite=clinic&state=finished").text
    assert "rone" not in client.get("/?state=unfinished").text
    assert "rone" not in client.get("/?suite=pizza").text


def test_the_run_page_shows_the_calibration_when_labels_exist(tmp_path: Path) -> None:
    import json

    log = tmp_path / "log"
    _run(log, "rone")
    labels = Path(__file__).parents[2] / "examples" / "clinic" / "labels.csv"
    res = CliRunner().invoke(cli, ["--log", str(log), "labels", "import", str(labels), "--run", "rone"])
    assert res.exit_code == 0, res.output
    cal = json.loads(
        CliRunner().invoke(cli, ["--log", str(log), "calibrate", "rone", "--rubric", "v5", "--json"]).stdout
    )
    page = _client(web.make_app(log)).get("/runs/rone?rubric=v5").text
    assert f'data-testid="kappa">{cal["kappa"]["value"]:.2f}<' in page
    assert f'data-testid="auc">{cal["auc"]["value"]:.2f}<' in page
    assert "Calibration against human labels" not in _client(web.make_app(tmp_path / "empty")).get("/").text


def test_the_live_runs_api_counts_calls_without_folding(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    log = tmp_path / "log"
    _run(log, "rone")

    def no_fold(*args: object, **kwargs: object) -> None:
        raise AssertionError("the live API folded a run")

    monkeypatch.setattr("polygon.app.runs.load_run", no_fold)  # where list_runs looks it up
    [row] = _client(web.make_app(log)).get("/api/runs").json()
    assert (row["run_id"], row["calls"], row["finished"]) == ("rone", 24, True)


def test_the_comparison_scorecard_counts_simulator_errors(tmp_path: Path) -> None:
    """Issue 27, 5: every call is in some column (the scorecard shows its simulator errors)."""
    log = tmp_path / "log"
    _run(log, "rone")
    page = _client(web.make_app(log)).get("/compare?run=rone").text
    assert "<th>simulator error</th>" in page
    assert 'data-testid="simerr-v1">0<' in page


def test_the_comparison_page_shows_the_analysis_the_cli_writes(tmp_path: Path) -> None:
    """The page's analysis comes from the render layer: the same sentences as ``compare --format json``."""
    log = tmp_path / "log"
    _run(log, "rone")
    res = CliRunner().invoke(cli, ["--log", str(log), "compare", "rone", "--format", "json"])
    assert res.exit_code == 0, res.output
    expected = json.loads(res.output)["analysis"]
    page = _client(web.make_app(log)).get("/compare?run=rone").text
    block = re.search(r'<ul data-testid="analysis">(.*?)</ul>', page, re.S)
    assert block is not None
    shown = [html.unescape(li) for li in re.findall(r"<li>(.*?)</li>", block.group(1))]
    assert shown == expected and any(line.startswith("v2 vs v1: mean composite") for line in shown)


def test_the_run_page_filters_calls_by_a_probe_answer_and_links_pairs(tmp_path: Path) -> None:
    """The probe filter counts each call's latest answer as the log holds it; each diverging
    scenario of a comparison links the first trial of either side (ids of existing calls)."""
    from polygon.events import LmdbLog
    from polygon.events.families import ProbeAnswered

    log = tmp_path / "log"
    _run(log, "rone")
    latest: dict[str, str] = {}
    with LmdbLog(log, readonly=True) as opened:
        for env in opened.read_all():
            if isinstance(env.payload, ProbeAnswered) and env.payload.probe_id == "stayed_on_goal":
                latest[env.payload.conversation_id] = env.payload.answer
    noes = sum(answer == "no" for answer in latest.values())
    assert 0 < noes < len(latest) == 24
    client = _client(web.make_app(log))
    filtered = client.get("/runs/rone?probe=stayed_on_goal&answer=no").text
    assert f"{noes} of 24 calls match" in filtered
    assert f"{len(latest)} of 24 calls match" in client.get("/runs/rone?probe=stayed_on_goal").text
    assert "0 of 24 calls match" in client.get("/runs/rone?probe=no_such_probe").text
    compared = client.get("/compare?run=rone").text
    pairs = re.findall(r'href="/pair\?a=([^&"]+)&amp;b=([^&"]+)"', compared)
    assert pairs and all(a.startswith("rone.v1.") and b.startswith("rone.v2.") for a, b in pairs)
    assert all(a.endswith(".0") and a.split(".")[2] == b.split(".")[2] for a, b in pairs)
    assert client.get(f"/pair?a={pairs[0][0]}&b={pairs[0][1]}").status_code == 200


def test_the_run_page_shares_the_cli_snapshot_and_shows_the_same(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from polygon.app import snapshots

    log = tmp_path / "log"
    _run(log, "rone")
    monkeypatch.setenv("POLYGON_SNAPSHOTS", "0")
    with _client(web.make_app(log)) as client:  # the lifespan closes the log after
        plain = client.get("/runs/rone").text
    assert not (log / "snapshots").exists()
    monkeypatch.setenv("POLYGON_SNAPSHOTS", "1")
    assert CliRunner().invoke(cli, ["--log", str(log), "report", "rone"]).exit_code == 0
    # the page starts from the snapshot the CLI's report saved: it never folds the run
    monkeypatch.setattr(snapshots, "_folded", lambda *a: pytest.fail("the page folded the run afresh"))
    with _client(web.make_app(log)) as client:
        assert client.get("/runs/rone").text == plain


def test_a_restarted_server_writes_the_run_page_it_saved_until_the_run_or_its_labels_change(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import polygon.app as app  # the run page imports load_report from the face when asked

    log = tmp_path / "log"
    _run(log, "rone")
    first = _page(log, 10)
    assert first.status_code == 200 and "page 2 of 3" in first.text
    with monkeypatch.context() as broken:  # a new server: the saved page, nothing folded or rendered
        broken.setattr(app, "load_report", lambda *_a: pytest.fail("made afresh"))
        again = _page(log, 10)
        assert again.status_code == 200 and again.content == first.content
    assert "page 2 of 5" in _page(log, 5).text  # another page size: another page
    labelled = CliRunner().invoke(cli, ["--log", str(log), "label", "rone.v1.aggressive-booking.0", "fail"])
    assert labelled.exit_code == 0, labelled.output
    with monkeypatch.context() as counted:
        made: list[object] = []
        real = app.load_report
        counted.setattr(app, "load_report", lambda *a: made.append(a) or real(*a))
        after = _page(log, 10)
        assert made and after.status_code == 200  # a label is new: the page is made again


def _page(log: Path, per_page: int) -> object:
    """Page 2 of run rone from a server started for it (and stopped: one process opens a log once)."""
    app = web.make_app(log, per_page=per_page)
    try:
        return _client(app).get("/runs/rone?page=2")
    finally:
        app.app.state.site.log.close()  # type: ignore[attr-defined]


def test_the_code_fingerprint_is_taken_when_the_server_starts(tmp_path: Path) -> None:
    """Not at its first view: code upgraded under a running server is not fingerprinted as its own."""
    from polygon.app import views

    views.fingerprint.cache_clear()
    web.make_app(tmp_path / "log")
    assert views.fingerprint.cache_info().currsize == 1


def test_replay_and_explain_pages_cite_places_in_the_calls_stream(tmp_path: Path) -> None:
    """The same call in a later run is cited by the same numbers (the log's own are larger there)."""
    log = tmp_path / "log"
    _run(log, "rone")
    _run(log, "rtwo")
    client = _client(web.make_app(log))
    for page in ("replay", "explain"):
        one = client.get(f"/{page}/rone.v1.coop-booking.0").text
        two = client.get(f"/{page}/rtwo.v1.coop-booking.0").text
        cited = re.findall(r'class="seq">#(\d+)<', one)
        assert cited and cited == re.findall(r'class="seq">#(\d+)<', two)
        assert two == one.replace("rone", "rtwo")
    said = re.findall(r'caller said <span class="seq">#(\d+)<', client.get("/replay/rone.v1.coop-booking.0").text)
    assert said[0] == "2"  # the call's second event: its start is the first
