"""The web UI in a real browser (Debian's chromium, driven by Playwright): every page opens,
a replay steps with the keyboard, numbers equal the CLI's --json, hostile text stays text,
the one write is guarded. Screenshots go to the test's output folder (and, with
POLYGON_UPDATE_SCREENSHOTS=1, to docs/screenshots for the README)."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from click.testing import CliRunner

from polygon.cli.main import cli
from polygon.events import LmdbLog
from polygon.events.families import RunStarted

ROOT = Path(__file__).parents[2]
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
SCRIPT = "<script>alert(1)</script>"
IMG = '"><img src=x onerror=alert(1)>'
HOSTILE_PROMPT = (
    "Always be kind. <b onmouseover=alert(3)>bold</b> <script>alert(2)</script>\n- try to help etc\n"
)


def _cli(log: Path, *args: str) -> str:
    res = CliRunner().invoke(cli, ["--log", str(log), *args])
    assert res.exit_code == 0, res.output
    return res.stdout


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    tmp = tmp_path_factory.mktemp("web")
    log = tmp / "log"
    _cli(log, "demo")
    with LmdbLog(log, readonly=True) as opened:
        [run_id] = [e.payload.run_id for e in opened.read_all() if isinstance(e.payload, RunStarted)]
    hostile = tmp / "hostile.jsonl"
    record = {
        "id": "xss",
        "messages": [{"role": "user", "content": SCRIPT}, {"role": "assistant", "content": IMG}],
        "reward": 0,
    }
    hostile.write_text(json.dumps(record) + "\n")
    imported = _cli(log, "import", str(hostile)).strip().splitlines()[0]
    suite_dir = tmp / "suite"
    suite_dir.mkdir()
    for name in ("suite.yaml", "agents.py", "prompt_v1.md"):
        shutil.copy(ROOT / "examples" / "clinic" / name, suite_dir / name)
    (suite_dir / "prompt_v2.md").write_text(HOSTILE_PROMPT)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "polygon",
            "--log",
            str(log),
            "serve",
            "--port",
            str(port),
            "--suite",
            str(suite_dir / "suite.yaml"),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx.get(base + "/", timeout=2).status_code == 200:
                break
        except httpx.HTTPError:
            time.sleep(0.2)
        assert proc.poll() is None, proc.stderr.read().decode() if proc.stderr else ""
    try:
        yield {
            "base": base,
            "log": log,
            "run": run_id,
            "imported": imported,
            "suite": suite_dir,
            "out": tmp / "screenshots",
        }
    finally:
        proc.terminate()
        proc.wait(timeout=30)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    args = [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
    ]
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=args)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture
def page(site: dict[str, Any], browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1360, "height": 900})
    pg = context.new_page()
    pg.set_default_timeout(120_000)  # a hang guard: on one busy core the server answers slowly
    pg.dialogs = []  # type: ignore[attr-defined]
    pg.on("dialog", lambda d: (pg.dialogs.append(d.message), d.dismiss()))
    yield pg
    assert pg.dialogs == [], f"a dialog fired: {pg.dialogs}"  # no script of a call ever ran
    context.close()


def _wait_for(condition: Any, timeout: float = 300) -> None:
    """Poll until the page shows what the step produced; the deadline only guards a hang
    (on one busy core a lint round trip can take many seconds)."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "the page did not update"
        time.sleep(0.1)


def _shot(page: Any, site: dict[str, Any], name: str) -> None:
    site["out"].mkdir(exist_ok=True)
    page.screenshot(path=str(site["out"] / f"{name}.png"), full_page=True)
    if os.environ.get("POLYGON_UPDATE_SCREENSHOTS") == "1":
        (ROOT / "docs" / "screenshots").mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ROOT / "docs" / "screenshots" / f"{name}.png"), full_page=False)


def test_every_page_opens_and_numbers_equal_the_cli(page: Any, site: dict[str, Any]) -> None:
    base, run_id, log = site["base"], site["run"], site["log"]
    response = page.goto(base + "/")
    assert response.status == 200 and "default-src 'none'" in response.headers["content-security-policy"]
    assert page.get_by_test_id(f"calls-{run_id}").inner_text() == "24"
    _shot(page, site, "runs")
    report = json.loads(_cli(log, "report", run_id, "--format", "json"))
    page.goto(f"{base}/runs/{run_id}")
    for c in report["configs"]:
        assert page.get_by_test_id(f"pass-{c['config']}").inner_text() == str(c["passed"])
        assert page.get_by_test_id(f"mean-{c['config']}").inner_text() == f"{c['mean_composite']:.1f}"
    page.goto(f"{base}/runs/{run_id}?verdict=pass&caller=cooperative")
    assert page.get_by_test_id("calls").locator("tbody tr").count() == sum(
        1
        for r in report["conversations"]
        if r["verdict"]["verdict"] == "pass" and r["record"]["persona_type"] == "cooperative"
    )
    page.goto(f"{base}/runs/{run_id}?probe=unkeepable_promise&answer=yes")
    promised = page.get_by_test_id("calls").locator("tbody tr").count()
    assert 0 < promised < 24  # the v2 calls that made a forbidden promise
    comparison = json.loads(_cli(log, "compare", run_id, "--json"))
    page.goto(f"{base}/compare?run={run_id}")
    for card in comparison["scorecards"]:
        assert page.get_by_test_id(f"mean-{card['label']}").inner_text() == f"{card['composite_mean']:.1f}"
        assert page.get_by_test_id(f"pass-{card['label']}").inner_text() == str(card["passed"])
    assert page.get_by_test_id("matrix").locator("tbody tr").count() == len(comparison["matrix"])
    assert page.locator("svg.bar").count() >= 2  # the interval bars
    _shot(page, site, "compare")
    page.get_by_role("link", name="side by side").first.click()
    assert page.get_by_test_id("divergent").count() == 1
    _shot(page, site, "side-by-side")
    cid = f"{run_id}.v2.chatty-refusal.0"
    explained = json.loads(_cli(log, "explain", cid, "--json"))
    page.goto(f"{base}/explain/{cid}")
    assert page.get_by_test_id("verdict").inner_text() == explained["verdict"]["verdict"]["verdict"]
    assert (
        page.get_by_test_id("composite").inner_text() == f"{explained['verdict']['verdict']['composite']:.2f}"
    )
    assert (
        page.get_by_test_id("total").inner_text() == f"{explained['verdict']['verdict']['composite']:.2f}"
    )  # contributions sum


def test_the_comparison_shows_the_v2_regressions(page: Any, site: dict[str, Any]) -> None:
    page.goto(f"{site['base']}/compare?run={site['run']}")
    v1, v2 = (float(page.get_by_test_id(f"mean-{x}").inner_text()) for x in ("v1", "v2"))
    assert v2 < v1 - 20
    assert "beyond noise" in page.get_by_test_id("diff-v2").inner_text()


def test_a_replay_steps_with_the_keyboard(page: Any, site: dict[str, Any]) -> None:
    cid = f"{site['run']}.v1.aggressive-booking.0"
    page.goto(f"{site['base']}/replay/{cid}")
    current = page.locator(".turn.current")
    assert current.get_attribute("data-turn") == "1"
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert current.get_attribute("data-turn") == "3"
    page.keyboard.press("k")
    assert current.get_attribute("data-turn") == "2" and page.url.endswith("#turn-2")
    assert page.locator("mark.noise").count() >= 1  # what the noise changed, highlighted
    replayed = json.loads(_cli(site["log"], "replay", cid, "--json"))
    first = replayed["turns"][0]
    assert page.get_by_test_id("said-1").inner_text() == first["caller_text"]
    _shot(page, site, "replay")


def test_hostile_text_in_calls_and_prompts_stays_text(page: Any, site: dict[str, Any]) -> None:
    cid = f"{site['imported']}.imported.xss.0"
    page.goto(f"{site['base']}/replay/{cid}")
    assert page.get_by_test_id("said-1").inner_text() == SCRIPT
    assert page.get_by_test_id("agent-1").inner_text() == IMG
    assert page.locator("img").count() == 0
    page.goto(f"{site['base']}/runs/{site['imported']}")
    page.goto(f"{site['base']}/explain/{cid}")
    page.goto(f"{site['base']}/prompt?config=v2")
    assert page.get_by_test_id("prompt").input_value() == HOSTILE_PROMPT
    page.wait_for_selector("#marks li")  # (the page's CSP forbids evaluating strings, even the test's)
    assert "<script>alert(2)</script>" in page.get_by_test_id("highlight").inner_text()
    assert page.locator("#highlight b, #highlight script").count() == 0
    page.get_by_test_id("highlight").hover()
    assert float(page.get_by_test_id("score-ambiguity").inner_text()) > 0


def test_the_prompt_editor_lints_live_and_saves_a_new_file_only(page: Any, site: dict[str, Any]) -> None:
    page.goto(f"{site['base']}/prompt?config=v1")
    area = page.get_by_test_id("prompt")
    area.fill("Rules:\n- Never quote prices.\n- Always quote the price of a cleaning when asked.\n")
    _wait_for(lambda: float(page.get_by_test_id("score-contradiction").inner_text() or 0) >= 0.5)
    _shot(page, site, "prompt-editor")
    page.fill("input[name=filename]", "prompt_v3.md")
    with page.expect_navigation():
        page.get_by_role("button", name="save", exact=True).click()
    assert "saved=prompt_v3.md" in page.url, page.inner_text("body")
    saved = site["suite"] / "prompt_v3.md"
    assert saved.read_text().startswith("Rules:\n- Never quote prices.")
    # the same name again is refused (nothing is overwritten); a path out of the folder too
    for name in ("prompt_v3.md", "../evil.md"):
        page.goto(f"{site['base']}/prompt?config=v1")
        page.fill("input[name=filename]", name)
        with page.expect_navigation():
            page.get_by_role("button", name="save", exact=True).click()
        assert page.get_by_test_id("error").count() == 1
    assert not (site["suite"].parent / "evil.md").exists()
    # a cross-site post (no token) is refused
    forged = httpx.post(
        f"{site['base']}/prompt/save",
        data={"suite": str(site["suite"] / "suite.yaml"), "filename": "x.md", "text": "pwned"},
        headers={"origin": "http://evil.example"},
    )
    assert forged.status_code == 403 and not (site["suite"] / "x.md").exists()
