"""Labels and calibration through the CLI: the clinic's hand labels, rewarded transcripts,
one-line errors, the CI gate."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from polygon.cli.main import cli
from polygon.events import LmdbLog
from polygon.events.families import LabelRecorded, RunStarted

EXAMPLES = Path(__file__).parents[2] / "examples" / "clinic"


def _cli(log: Path, *args: str) -> tuple[int, str, str]:
    res = CliRunner().invoke(cli, ["--log", str(log), *args])
    return res.exit_code, res.stdout, res.output


def _labels(log: Path) -> list[LabelRecorded]:
    with LmdbLog(log, readonly=True) as opened:
        return [e.payload for e in opened.read_all() if isinstance(e.payload, LabelRecorded)]


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    log = tmp_path_factory.mktemp("cal") / "log"
    assert _cli(log, "demo")[0] == 0
    with LmdbLog(log, readonly=True) as opened:
        [run_id] = [e.payload.run_id for e in opened.read_all() if isinstance(e.payload, RunStarted)]
    return log, run_id


def test_the_clinic_labels_calibrate_the_heuristic_judge(demo: tuple[Path, str]) -> None:
    log, run_id = demo
    code, out, all_ = _cli(log, "labels", "import", str(EXAMPLES / "labels.csv"), "--run", run_id)
    assert code == 0 and "24 labels read, 24 recorded" in out, all_
    code, out, all_ = _cli(log, "calibrate", run_id, "--json")
    assert code == 0, all_
    c = json.loads(out)
    assert (c["labelled"], c["compared"]) == (24, 24)
    assert c["heuristic"] is True and c["kappa"]["value"] is not None
    # the reviewer failed calls the heuristic judge passed: they lead the disagreements
    worst = [d["conversation_id"].split(".", 1)[1] for d in c["disagreements"]]
    assert "v2.aggressive-transfer.0" in worst  # loops instead of transferring: the loop rule lets it by
    # booked under a phone number no caller turn gave: the clinic's rubric (v5) gates on
    # agent_contradicts_tools, so the judge fails it as the reviewer does (v1 passed it at 90)
    assert "v1.chatty-booking.0" not in worst
    # "You're booked" after book_slot answered an error: the judge fails it too since
    # heuristic-3 (trial40 D1), where it passed it at 78.75 against the reviewer's fail
    assert "v2.distrustful-refusal.0" not in worst
    text = _cli(log, "calibrate", run_id)[1]
    assert "Cohen's κ" in text and "heuristic baseline" in text and "polygon explain" in text
    # a CI gate: exit 1 below the asked κ
    assert _cli(log, "calibrate", run_id, "--min-kappa", "0.99")[0] == 1
    assert _cli(log, "calibrate", run_id, "--min-kappa", "0.1")[0] == 0


def test_a_label_on_the_command_line_and_a_relabel(demo: tuple[Path, str], tmp_path: Path) -> None:
    log, run_id = demo
    cid = f"{run_id}.v1.coop-booking.0"
    code, out, all_ = _cli(
        log,
        "label",
        cid,
        "fail",
        "--criterion",
        "goal_achievement=2",
        "--by",
        "ana",
        "--note",
        "surname only",
    )
    assert code == 0 and f"labelled {cid} fail" in out, all_
    assert _cli(log, "label", cid, "pass", "--by", "ana")[0] == 0
    mine = [lab for lab in _labels(log) if lab.conversation_id == cid and lab.by == "ana"]
    assert [lab.verdict for lab in mine] == ["fail", "pass"]  # both kept; the latest counts
    c = json.loads(_cli(log, "calibrate", run_id, "--by", "ana", "--json")[1])
    assert c["labelled"] == 1 and c["confusion"]["pass"]["pass"] == 1
    for args, said in [
        (["label", f"{run_id}.v1.nobody.0", "pass"], "no conversation"),
        (["label", cid, "pass", "--criterion", "charm=3"], "unknown criterion 'charm'"),
        (["label", cid, "pass", "--criterion", "safety=9"], "expected a score 1..5"),
        (["label", cid, "pass", "--criterion", "safety"], "expected NAME=SCORE"),
        (["label", cid, "maybe"], "maybe"),
        (["calibrate", "rnope"], "no run 'rnope'"),
    ]:
        code, _, out = _cli(log, *args)
        assert code == 2 and said in out and "Traceback" not in out, (args, out)


def test_a_bad_label_file_records_nothing_and_names_the_line(demo: tuple[Path, str], tmp_path: Path) -> None:
    log, run_id = demo
    before = len(_labels(log))
    cases = {
        "conversation,verdict\nv1.coop-booking.0,pass\nv1.coop-booking.0,sure\n": ":3: verdict 'sure'",
        "conversation,verdict\nv1.nobody.0,pass\n": ":2: no conversation 'v1.nobody.0'",
        "conversation,criterion.charm\nv1.coop-booking.0,3\n": ":2: unknown criterion 'charm'",
        "conversation,note\nv1.coop-booking.0,hm\n": ":2: a row needs a verdict, a reward or criterion scores",
        '{"conversation": "v1.coop-booking.0", "reward": "lots"}\n': ":1: reward 'lots'",
        '{"conversation": "v1.coop-booking.0", "verdict": "pass"}\n{oops\n': ":2: not valid JSON (Expecting property name enclosed in double quotes at line 2 column 2)",
    }
    for i, (text, said) in enumerate(cases.items()):
        path = tmp_path / f"l{i}.{'jsonl' if text.startswith('{') else 'csv'}"
        path.write_text(text)
        code, _, out = _cli(log, "labels", "import", str(path), "--run", run_id)
        assert code == 2 and said in out and str(path) in out, (text, out)
    assert len(_labels(log)) == before


def test_transcripts_that_carry_rewards_are_labelled_on_import(tmp_path: Path) -> None:
    log = tmp_path / "log"
    code, run_id, out = _cli(log, "import", str(EXAMPLES / "transcripts.jsonl"))
    assert code == 0, out
    run_id = run_id.strip()
    carried = _labels(log)
    assert len(carried) == 12 and {lab.by for lab in carried} == {"transcript"}
    assert sorted(lab.reward for lab in carried) == [0] * 6 + [1] * 6
    assert _cli(log, "import", str(EXAMPLES / "transcripts.jsonl"))[0] == 0
    assert len(_labels(log)) == 12  # a second import adds nothing
    c = json.loads(_cli(log, "calibrate", run_id, "--json")[1])
    assert c["compared"] == 12
    assert c["confusion"]["pass"]["fail"] >= 1  # the heuristic judge passes a known-bad call
    # source ids (the transcript's own "id") resolve with --run
    path = tmp_path / "more.csv"
    path.write_text("source_id,verdict,by\ncall-07,fail,ana\n")
    code, out, all_ = _cli(log, "labels", "import", str(path), "--run", run_id)
    assert code == 0 and "1 recorded" in out, all_
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"id": "x", "messages": [{"role": "user", "content": "hi"}], "label": "meh"}\n')
    code, _, out = _cli(tmp_path / "log2", "import", str(bad), "--strict")
    assert code == 2 and "label 'meh'" in out
