"""The web UI serves only itself (issue 26, items 2, 3 and 7), without a browser.

A DNS-rebinding page (a foreign Host), a cross-site form or fetch (a foreign Origin, no token,
text/plain), an oversized body and every input that once answered 500 are refused with a 4xx;
every answer, errors included, carries the security headers. One test drives a real uvicorn
on 127.0.0.1 to show the Host check against a real socket.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from click.testing import CliRunner
from starlette.testclient import TestClient

import polygon.app
from polygon import web
from polygon.cli.main import cli
from polygon.web.pages import prompt as prompt_page
from polygon.web.pages import runs as runs_page
from tests.support.text import replaced

ROOT = Path(__file__).parents[2]
SUITE = ROOT / "examples" / "clinic" / "suite.yaml"
PORT = web.DEFAULT_PORT
BASE = f"http://127.0.0.1:{PORT}"


def _run(log: Path, run_id: str, suite: Path = SUITE) -> None:
    res = CliRunner().invoke(cli, ["--log", str(log), "run", str(suite), "--run-id", run_id, "--no-progress"])
    assert res.exit_code == 0, res.output


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    tmp = tmp_path_factory.mktemp("guard")
    log = tmp / "log"
    _run(log, "rone")
    suite_dir = tmp / "suite"
    suite_dir.mkdir()
    for name in ("suite.yaml", "agents.py", "prompt_v1.md", "prompt_v2.md"):
        shutil.copy(SUITE.parent / name, suite_dir / name)
    app = web.make_app(log, [suite_dir / "suite.yaml"], port=PORT)
    client = TestClient(app, base_url=BASE, raise_server_exceptions=False)
    page = client.get("/prompt").text
    token = page.split('name="token" value="', 1)[1].split('"', 1)[0]
    return {"log": log, "suite": suite_dir, "client": client, "token": token}


def _secured(response: httpx.Response) -> httpx.Response:
    assert response.headers["content-security-policy"].startswith("default-src 'none'")
    assert response.headers["x-content-type-options"] == "nosniff"
    assert response.headers["x-frame-options"] == "DENY"
    assert "Traceback" not in response.text
    return response


def _lint(site: dict[str, Any], body: Any = None, **headers: str) -> httpx.Response:
    sent = {"origin": BASE, "content-type": "application/json", "x-polygon-token": site["token"], **headers}
    content = body if isinstance(body, str | bytes) else None
    return _secured(
        site["client"].post(
            "/api/lint", headers=sent, content=content, json=None if content is not None else body
        )
    )


def _save(site: dict[str, Any], filename: str, **over: str) -> httpx.Response:
    form = {"token": site["token"], "suite": str((site["suite"] / "suite.yaml").resolve()), "text": "hi"}
    headers = {"origin": over.pop("origin", BASE), **({"host": over.pop("host")} if "host" in over else {})}
    return _secured(
        site["client"].post(
            "/prompt/save",
            data={**form, "filename": filename, **over},
            headers=headers,
            follow_redirects=False,
        )
    )


@pytest.mark.parametrize(
    "host", [f"attacker.test:{PORT}", "127.0.0.1:1", f"127.0.0.1.attacker.test:{PORT}", "", "localhost"]
)
@pytest.mark.parametrize("path", ["/", "/prompt", "/api/runs", "/runs/rone", "/static/app.js", "/nowhere"])
def test_a_foreign_host_is_refused_on_every_page(site: dict[str, Any], host: str, path: str) -> None:
    response = _secured(site["client"].get(path, headers={"host": host}))
    assert response.status_code == 421 and "rone" not in response.text and "token" not in response.text


@pytest.mark.parametrize(
    "host", [f"127.0.0.1:{PORT}", f"localhost:{PORT}", f"[::1]:{PORT}", f"LOCALHOST:{PORT}"]
)
def test_its_own_names_are_served(site: dict[str, Any], host: str) -> None:
    assert _secured(site["client"].get("/", headers={"host": host})).status_code == 200


def test_every_answer_carries_the_headers_a_404_and_a_500_too(
    site: dict[str, Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert _secured(site["client"].get("/nowhere")).status_code == 404
    assert _secured(site["client"].get("/static/nothing.js")).status_code == 404

    def boom(*args: object, **kwargs: object) -> None:
        raise RuntimeError("boom")  # a fault no route expects

    monkeypatch.setattr(runs_page, "list_runs", boom)
    app = web.make_app(tmp_path / "log", port=PORT)
    broken = TestClient(app, base_url=BASE, raise_server_exceptions=False).get("/api/runs")
    assert _secured(broken).status_code == 500 and "boom" not in broken.text


def test_lint_needs_the_token_and_its_own_origin(site: dict[str, Any]) -> None:
    draft = {"text": "Always be kind.", "tiers": "rules"}
    assert _lint(site, draft).status_code == 200
    assert _lint(site, draft, **{"x-polygon-token": "guess"}).status_code == 403
    for origin in (
        "http://evil.example",
        f"https://127.0.0.1:{PORT}",  # the scheme counts
        "https://127.0.0.1",
        "http://127.0.0.1",  # the port counts
        f"http://127.0.0.1:{PORT + 1}",
        f"http://attacker.test:{PORT}",
        "null",
        "",
    ):
        assert _lint(site, draft, origin=origin).status_code == 403, origin
    no_token = site["client"].post("/api/lint", json=draft, headers={"origin": BASE})
    assert _secured(no_token).status_code == 403


def test_lint_is_json_only_and_capped(site: dict[str, Any]) -> None:
    import json

    for kind in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data", ""):
        assert _lint(site, json.dumps({"text": "a"}), **{"content-type": kind}).status_code == 415, kind
    assert (
        _lint(
            site, json.dumps({"text": "a"}), **{"content-type": "application/json; charset=utf-8"}
        ).status_code
        == 200
    )
    for body in ("[1, 2]", '"x"', "{no", "", "[" * 50_000, '{"text": 5}', '{"text": "a", "tiers": [1]}'):
        assert _lint(site, body).status_code == 400, body[:20]
    assert _lint(site, {"text": "x " * (web.LINT_MAX_BYTES // 2 + 10)}).status_code == 413
    assert _lint(site, {"text": "   "}).json() == {"scores": {}, "marks": [], "skipped": {}}


def test_lint_runs_off_the_event_loop_and_within_its_budget(
    site: dict[str, Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A reading that does not end answers 503 when its budget is spent, and while it reads the
    server answers other pages (the reading is in a worker thread, not on the event loop)."""
    release = threading.Event()
    entered = threading.Event()

    def stuck(text: str, tiers: tuple[str, ...]) -> Any:
        if not entered.is_set():
            entered.set()
            release.wait(60)
        return {"scores": {}, "marks": [], "skipped": {}}

    monkeypatch.setattr(polygon.app, "lint_draft", stuck)  # the page imports it from the face when asked
    monkeypatch.setattr(prompt_page, "LINT_SECONDS", 0.5)
    # (a log of its own: one process opens an LMDB environment once, and `site` holds its log)
    app = web.make_app(tmp_path / "log", [site["suite"] / "suite.yaml"], port=PORT)
    with TestClient(app, base_url=BASE) as client:  # one event loop for both requests
        page = client.get("/prompt").text
        token = page.split('name="token" value="', 1)[1].split('"', 1)[0]
        answers: dict[str, Any] = {}

        def lint() -> None:
            answers["lint"] = client.post(
                "/api/lint",
                json={"text": "Always be kind."},
                headers={"origin": BASE, "x-polygon-token": token},
            )

        worker = threading.Thread(target=lint)
        worker.start()
        try:
            assert entered.wait(30)
            assert client.get("/").status_code == 200  # answered while the reading is stuck
            worker.join(60)
            first = answers["lint"]
            lint()  # the abandoned reading still runs: no second one starts beside it
            assert answers["lint"].status_code == 503 and "still running" in answers["lint"].json()["error"]
        finally:
            release.set()
        for _ in range(1000):  # once the stuck reading ends, readings start again
            lint()
            if answers["lint"].status_code != 503:
                break
            time.sleep(0.01)
        assert answers["lint"].status_code == 200
    assert first.status_code == 503 and "longer than" in first.json()["error"]


def test_a_save_needs_the_token_its_own_origin_and_never_overwrites(site: dict[str, Any]) -> None:
    suite = site["suite"]
    assert _save(site, "p1.md").status_code == 303 and (suite / "p1.md").read_text() == "hi"
    assert _save(site, "p1.md", text="again").status_code == 400 and (suite / "p1.md").read_text() == "hi"
    refused = {
        "p2.md": {"origin": f"https://127.0.0.1:{PORT}"},
        "p3.md": {"origin": f"http://attacker.test:{PORT}", "host": f"attacker.test:{PORT}"},
        "p4.md": {"origin": ""},
        "p5.md": {"token": "guess"},
    }
    for name, over in refused.items():
        assert _save(site, name, **over).status_code in (403, 421), name
        assert not (suite / name).exists()
    assert not (suite / "requirements.txt").exists()


@pytest.mark.parametrize(
    "name",
    ["nope/x.md", "a" * 300 + ".md", "../evil.md", "x.py", "", ".", "a\\b.md", "x\x00.md", "prompt_v1.md"],
)
def test_a_bad_file_name_is_a_4xx(site: dict[str, Any], name: str) -> None:
    assert _save(site, name).status_code == 400
    assert not (site["suite"].parent / "evil.md").exists()


def test_a_save_refuses_other_bodies(site: dict[str, Any]) -> None:
    client, token = site["client"], site["token"]
    big = _secured(
        client.post(
            "/prompt/save",
            content=b"token=" + token.encode() + b"&text=" + b"x" * (web.SAVE_MAX_BYTES + 1),
            headers={"origin": BASE, "content-type": "application/x-www-form-urlencoded"},
        )
    )
    assert big.status_code == 413
    multipart = _secured(
        client.post("/prompt/save", files={"token": (None, token)}, headers={"origin": BASE})
    )
    assert multipart.status_code == 415
    bad_utf8 = _secured(
        client.post(
            "/prompt/save",
            content=b"token=\xff\xfe",
            headers={"origin": BASE, "content-type": "application/x-www-form-urlencoded"},
        )
    )
    assert bad_utf8.status_code == 400
    for suite in ("\x00", "/etc/passwd", "x" * 5000):
        assert _save(site, "ok.md", suite=suite).status_code == 403


@pytest.mark.parametrize(
    "path",
    ["/runs/rone?page=²", "/runs/rone?page=-1", "/runs/rone?page=" + "9" * 5000, "/runs/rone?page=1e9"],
)
def test_a_strange_page_number_is_the_first_page(site: dict[str, Any], path: str) -> None:
    assert _secured(site["client"].get(path)).status_code == 200


@pytest.mark.parametrize("suite", ["%00", "x" * 5000, "/etc/passwd", "%2e%2e"])
def test_a_strange_suite_in_the_editor_is_a_404(site: dict[str, Any], suite: str) -> None:
    assert _secured(site["client"].get(f"/prompt?suite={suite}")).status_code == 404


def test_a_log_made_after_the_server_started_shows(tmp_path: Path) -> None:
    log = tmp_path / "late"
    client = TestClient(web.make_app(log, port=PORT), base_url=BASE)
    assert "rlate" not in client.get("/").text and client.get("/api/runs").json() == []
    _run(log, "rlate")
    assert "rlate" in client.get("/").text
    assert [r["run_id"] for r in client.get("/api/runs").json()] == ["rlate"]


def test_a_config_name_with_a_slash_gives_working_links(tmp_path: Path) -> None:
    suite_dir = tmp_path / "suite"
    suite_dir.mkdir()
    for name in ("agents.py", "prompt_v1.md", "prompt_v2.md"):
        shutil.copy(SUITE.parent / name, suite_dir / name)
    text = replaced(SUITE.read_text(), "\n  v1:\n", '\n  "team/v1 #a?b":\n')
    (suite_dir / "suite.yaml").write_text(text)
    log = tmp_path / "log"
    _run(log, "rslash", suite_dir / "suite.yaml")
    client = TestClient(web.make_app(log, port=PORT), base_url=BASE)
    report = client.get("/runs/rslash").text
    links = sorted(
        {part.split('"', 1)[0] for part in report.split('href="')[1:] if part.startswith("/replay/")}
    )
    slashed = [link for link in links if "team%2Fv1" in link]
    assert slashed, links
    for link in slashed[:3]:
        replay = client.get(link)
        assert replay.status_code == 200 and "team/v1 #a?b" in replay.text
        explain = [p.split('"', 1)[0] for p in replay.text.split('href="')[1:] if p.startswith("/explain/")]
        assert explain and client.get(explain[0]).status_code == 200


@pytest.fixture
def served(site: dict[str, Any]) -> Iterator[str]:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen(
        [sys.executable, "-m", "polygon", "--log", str(site["log"]), "serve", "--port", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(600):
            try:
                httpx.get(base + "/", timeout=2)
                break
            except httpx.HTTPError:
                assert proc.poll() is None, proc.stderr.read().decode() if proc.stderr else ""
                time.sleep(0.1)
        yield base
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def test_a_real_server_refuses_a_rebound_host(served: str) -> None:
    port = served.rsplit(":", 1)[1]
    assert _secured(httpx.get(served + "/")).status_code == 200
    rebound = httpx.get(served + "/", headers={"host": f"attacker.test:{port}"})
    assert _secured(rebound).status_code == 421 and "rone" not in rebound.text
    assert httpx.get(f"http://localhost:{port}/").status_code == 200


def test_no_websocket_is_served(site: dict[str, Any]) -> None:
    from starlette.websockets import WebSocketDisconnect

    with pytest.raises(WebSocketDisconnect), site["client"].websocket_connect("/"):
        pass
