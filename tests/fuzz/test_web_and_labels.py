"""Fuzzing two more boundaries (issue 26): the web UI's endpoints and label files.

Whatever a page, a script or another program sends the web UI (any path, query, Host,
Origin, content type and body), the answer is never a 5xx, never a traceback, and always
carries the security headers; a save never writes outside the suite's folder. Whatever a label
file holds, reading it gives labels that fit the event (text fields are text, rewards 0..1)
or a Polygon error, never another exception. ``make fuzz`` sets ``POLYGON_FUZZ_EXAMPLES``.
"""

from __future__ import annotations

import contextlib
import json
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st
from starlette.testclient import TestClient

from polygon import web
from polygon.app.label import REWARD_RANGE, read_label_file
from polygon.cli.main import cli
from polygon.errors import PolygonError
from polygon.events import LmdbLog
from tests.support.fuzz import FUZZ, JSONISH, TEXT

ROOT = Path(__file__).parents[2]
SUITE = ROOT / "examples" / "clinic" / "suite.yaml"
PORT = web.DEFAULT_PORT
BASE = f"http://127.0.0.1:{PORT}"
CALL = "rf.v1.busy-booking.0"


@pytest.fixture(scope="module")
def world() -> Iterator[dict[str, Any]]:
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        log = tmp / "log"
        res = CliRunner().invoke(
            cli, ["--log", str(log), "run", str(SUITE), "--run-id", "rf", "--no-progress"]
        )
        assert res.exit_code == 0, res.output
        suite_dir = tmp / "suite"
        suite_dir.mkdir()
        for name in ("suite.yaml", "agents.py", "prompt_v1.md", "prompt_v2.md"):
            shutil.copy(SUITE.parent / name, suite_dir / name)
        app = web.make_app(log, [suite_dir / "suite.yaml"], port=PORT)
        client = TestClient(app, base_url=BASE, raise_server_exceptions=False)
        page = client.get("/prompt").text
        token = page.split('name="token" value="', 1)[1].split('"', 1)[0]
        # the labels read a copy (one process opens an LMDB environment once; the app holds this one)
        shutil.copytree(log, tmp / "labels-log")
        with LmdbLog(tmp / "labels-log", readonly=True) as labels_log:
            yield {"tmp": tmp, "labels_log": labels_log, "suite": suite_dir, "client": client, "token": token}


def _fine(response: Any) -> None:
    assert response.status_code < 500, (response.status_code, response.text[:300])
    assert "Traceback" not in response.text
    assert response.headers["content-security-policy"].startswith("default-src 'none'")
    assert response.headers["x-content-type-options"] == "nosniff"


HOSTS = st.one_of(
    st.sampled_from([f"127.0.0.1:{PORT}", f"localhost:{PORT}", f"[::1]:{PORT}", "evil.test", ""]),
    st.text(alphabet=st.characters(min_codepoint=33, max_codepoint=126), max_size=40),  # any visible ASCII
)
ROUTES = st.sampled_from(
    ["/", "/api/runs", "/runs/", "/compare", "/pair", "/replay/", "/explain/", "/prompt", "/static/", "/x/"]
)
PARAMS = st.sampled_from(
    ["page", "suite", "config", "run", "rubric", "a", "b", "verdict", "probe", "state", "all"]
)


def _seg(text: str) -> str:
    return quote(text.encode("utf-8", "surrogatepass"), safe="")


@FUZZ
@given(ROUTES, TEXT, st.lists(st.tuples(PARAMS, TEXT), max_size=4), HOSTS)
def test_any_get_is_never_a_5xx(
    world: dict[str, Any], route: str, tail: str, params: list[tuple[str, str]], host: str
) -> None:
    query = "&".join(f"{k}={_seg(v)}" for k, v in params)
    url = route + (_seg(tail) if route.endswith("/") else "") + (f"?{query}" if query else "")
    _fine(world["client"].get(url, headers={"host": host}))


ORIGINS = st.sampled_from([BASE, f"https://127.0.0.1:{PORT}", "http://evil.test", "null", ""])
TYPES = st.sampled_from(
    [
        "application/json",
        "application/json; charset=utf-8",
        "text/plain",
        "application/x-www-form-urlencoded",
        "",
    ]
)
BODIES = st.one_of(
    st.binary(max_size=300),
    JSONISH.map(lambda v: json.dumps(v, default=str).encode("utf-8", "surrogatepass")),
    st.fixed_dictionaries({"text": JSONISH, "tiers": JSONISH}).map(
        lambda v: json.dumps(v, default=str).encode("utf-8", "surrogatepass")
    ),
    st.fixed_dictionaries({"text": TEXT, "tiers": st.sampled_from(["rules", "x", "", "rules,rules"])}).map(
        lambda v: json.dumps(v).encode("utf-8", "surrogatepass")
    ),
)


@FUZZ
@given(BODIES, TYPES, ORIGINS, st.booleans())
def test_any_lint_request_is_never_a_5xx(
    world: dict[str, Any], body: bytes, kind: str, origin: str, with_token: bool
) -> None:
    headers = {"content-type": kind, "origin": origin}
    if with_token:
        headers["x-polygon-token"] = world["token"]
    response = world["client"].post("/api/lint", content=body, headers=headers)
    _fine(response)
    if response.status_code == 200:  # only our own page gets a reading
        assert with_token and origin == BASE and kind.startswith("application/json")


NAMES = st.one_of(
    TEXT,
    st.sampled_from(["../x.md", "a/b.md", "/tmp/x.md", "x.md", "prompt_v1.md", "..", "a" * 300 + ".md"]),
    TEXT.map(lambda t: t + ".md"),
)


@FUZZ
@given(NAMES, st.one_of(TEXT, st.just("OURS")), TEXT, ORIGINS, st.booleans())
def test_any_save_is_never_a_5xx_and_writes_only_beside_the_suite(
    world: dict[str, Any], name: str, suite: str, text: str, origin: str, with_token: bool
) -> None:
    tmp: Path = world["tmp"]
    before = sorted(p.name for p in tmp.iterdir())
    ours = str((world["suite"] / "suite.yaml").resolve())
    form = {"filename": name, "suite": ours if suite == "OURS" else suite, "text": text}
    if with_token:
        form["token"] = world["token"]
    body = "&".join(f"{k}={_seg(v)}" for k, v in form.items())
    response = world["client"].post(
        "/prompt/save",
        content=body,
        headers={"origin": origin, "content-type": "application/x-www-form-urlencoded"},
        follow_redirects=False,
    )
    _fine(response)
    assert sorted(p.name for p in tmp.iterdir()) == before  # nothing beside the suite's folder
    if response.status_code == 303:
        assert with_token and origin == BASE and suite == "OURS"


ROW = st.dictionaries(
    st.sampled_from(
        ["conversation", "conversation_id", "source_id", "id", "verdict", "label", "reward", "by", "note",
         "safety", "criterion.safety", "criterion.charm", "goal_achievement"]
    ),
    st.one_of(JSONISH, st.sampled_from([CALL, "v1.busy-booking.0", "pass", "fail", "0.5", "1", "-5", "99"])),
    max_size=6,
)  # fmt: skip


def _csv_text(rows: list[dict[str, Any]]) -> str:
    keys = sorted({k for r in rows for k in r}) or ["conversation"]
    lines = [",".join(keys)]
    lines += [",".join(json.dumps(r.get(k, ""), default=str).strip('"') for k in keys) for r in rows]
    return "\n".join(lines) + "\n"


@FUZZ
@given(
    st.lists(ROW, min_size=1, max_size=4),
    st.sampled_from(["jsonl", "csv", "raw"]),
    TEXT,
    st.booleans(),
    st.sampled_from([None, "rf", "rnope"]),
)
def test_any_label_file_reads_as_labels_or_one_error(
    world: dict[str, Any], rows: list[dict[str, Any]], form: str, noise: str, bom: bool, run_id: str | None
) -> None:
    if form == "jsonl":
        text = "\n".join(json.dumps(r, default=str) for r in rows) + "\n"
    elif form == "csv":
        text = _csv_text(rows)
    else:
        text = noise
    text = ("\ufeff" if bom else "") + text
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / f"labels.{form}"
        path.write_text(text, encoding="utf-8", errors="surrogatepass")
        labels = []
        with contextlib.suppress(PolygonError):
            labels = read_label_file(world["labels_log"], path, run_id, "me")
    for lab in labels:
        assert isinstance(lab.by, str) and isinstance(lab.note, str) and lab.verdict in ("", "pass", "fail")
        assert lab.reward is None or REWARD_RANGE[0] <= lab.reward <= REWARD_RANGE[1]
        assert run_id is None or lab.conversation_id.startswith(f"{run_id}.")
