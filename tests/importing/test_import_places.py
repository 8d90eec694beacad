"""Import defects from trial 40: re-import with --suite, non-UTF-8 bytes, where a problem is."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from polygon.cli.main import cli
from tests.support.examples import clinic_suite_path

CHAT = {
    "id": "call-a",
    "messages": [
        {"role": "user", "content": "Book me for Tuesday"},
        {"role": "assistant", "content": "You're booked for Tuesday 10:30."},
    ],
}


def _import(log: Path, *args: str) -> tuple[int, str, str]:
    res = CliRunner().invoke(cli, ["--log", str(log), "import", *args])
    return res.exit_code, res.stdout, res.stderr


def test_reimport_with_a_suite_is_another_run_and_again_a_no_op(tmp_path: Path) -> None:
    chat, log = tmp_path / "calls.jsonl", tmp_path / "log"
    chat.write_text(json.dumps(CHAT) + "\n")
    code, plain, _ = _import(log, str(chat), "--json")
    assert code == 0
    suite_args = [str(chat), "--suite", str(clinic_suite_path()), "--json"]
    code, with_suite, err = _import(log, *suite_args)
    assert code == 0, err  # once: "identity ... was already written with different content"
    first, second = json.loads(plain), json.loads(with_suite)
    assert first["run_id"] != second["run_id"]
    assert second["written"] > 0
    code, again, _ = _import(log, *suite_args)
    assert code == 0
    assert json.loads(again)["run_id"] == second["run_id"]
    assert json.loads(again)["written"] == 0  # "Importing the same files again changes nothing"
    code, plain_again, _ = _import(log, str(chat), "--json")
    assert json.loads(plain_again) == {**first, "written": 0}
