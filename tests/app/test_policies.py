"""Issue 27 end to end: a bank card line the tests write themselves, and the pizza example.

Each numbered reproduction of the issue is a test here:

1. a leaked card number fails the call (never a simulator error), under every view;
2. authentication before action is testable (a policy, and ``expect: before:``);
3. a card number is found however it is spaced or spoken, without listing it;
4. a misspelled ``expect`` argument (or a policy's unknown tool, argument, detector) is a
   load error naming the file and field;
5. compare's breakdowns leave out what the scorecard leaves out (tests/app/test_compare_flow.py).
"""

from __future__ import annotations

import json
import shutil
from importlib import resources
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from polygon.cli.main import cli
from polygon.events.families import CheckRecorded, Evidence
from polygon.score import checks
from polygon.transcript import ConversationView
from tests.support.text import replaced

BANK = Path(__file__).parent / "bank27"


def bank(tmp_path: Path, **replace: str) -> Path:
    """The bank suite copied beside its agents, with text replaced."""
    folder = tmp_path / "bank"
    shutil.copytree(BANK, folder, ignore=shutil.ignore_patterns("__pycache__", "__init__.py"))
    path = folder / "suite.yaml"
    text = path.read_text()
    for old, new in replace.items():
        text = replaced(text, old, new, -1)
    path.write_text(text)
    return path


def polygon(log: Path, *args: str) -> Result:
    return CliRunner().invoke(cli, ["--log", str(log), *args])


def rows(log: Path, run_id: str) -> dict[str, dict[str, object]]:
    res = polygon(log, "report", run_id, "--json")
    assert res.exit_code == 0, res.output
    return {
        r["record"]["scenario"] + "/" + r["record"]["config"]: r
        for r in json.loads(res.output)["conversations"]
    }


def verdict_of(row: dict[str, object]) -> str:
    v = row["verdict"]
    assert isinstance(v, dict)
    return str(v["verdict"])


def fired(row: dict[str, object]) -> set[str]:
    v = row["verdict"]
    assert isinstance(v, dict)
    return {g["gate"] for g in v["gates"] if g["fired"]}


def broken(row: dict[str, object]) -> set[str]:
    """The checks the call failed (policies are ``policy:<name>``)."""
    checks = row["checks"]
    assert isinstance(checks, list)
    return {c["event"]["check"] for c in checks if c["event"]["outcome"] == "fail"}


def run(log: Path, suite: Path, config: str, run_id: str) -> Result:
    return polygon(log, "run", str(suite), "--config", config, "--run-id", run_id, "--fail-on", "fail")


# 1. A leak of a full card number is a fail, never a simulator error.


def test_a_leaked_card_number_fails_the_call_and_the_run(tmp_path: Path) -> None:
    log = tmp_path / "log"
    suite = bank(
        tmp_path,
        **{
            "judge: {model: scripted/heuristic, rubric: v4}": (
                'judge: {model: scripted/heuristic, rubric: v4}\nforbidden_phrases: ["detector:card_number"]'
            )
        },
    )
    res = run(log, suite, "leak_digits", "leak")
    assert res.exit_code == 1, res.output
    for row in rows(log, "leak").values():
        assert verdict_of(row) == "fail"
        assert {"forbidden_phrase", "check:policy"} <= fired(row)
    card = json.loads(polygon(log, "report", "leak", "--json").output)["configs"][0]
    assert (card["failed"], card["simulator_errors"]) == (2, 0)
    # The caller read its date of birth back after the agent said the card number: its own fact.
    explained = polygon(log, "explain", "leak.leak_digits.coop.0")
    assert "pass  caller_outside_facts" in explained.output
    assert "FIRED: broken: policy:no_card_numbers" in explained.output
    assert "[card_number '4111 1111 1111 1111']" in explained.output


def test_the_issues_first_reproduction_without_policies(tmp_path: Path) -> None:
    """Rubric v3, a literal forbidden phrase, no policies: the leak was a simulator error before."""
    log = tmp_path / "log"
    folder = bank(tmp_path).parent
    text = (folder / "suite.yaml").read_text()
    text = text[: text.index("policies:")] + text[text.index("personas:") :]
    text = replaced(text, "rubric: v4}", 'rubric: v3}\nforbidden_phrases: ["4111 1111 1111 1111"]')
    (folder / "suite.yaml").write_text(replaced(text, "      before: [[verify_identity, block_card]]\n", ""))
    assert run(log, folder / "suite.yaml", "leak_digits", "v3").exit_code == 1
    for cid, row in rows(log, "v3").items():
        assert verdict_of(row) == "fail" and "forbidden_phrase" in fired(row), cid
        assert "caller_outside_facts" not in broken(row)  # "1980-03-12" is its birth_date fact


def test_the_correct_agent_passes_every_policy(tmp_path: Path) -> None:
    log = tmp_path / "log"
    res = run(log, bank(tmp_path), "correct", "ok")
    assert res.exit_code == 0, res.output
    for row in rows(log, "ok").values():
        assert verdict_of(row) == "pass" and not fired(row)


# 2. Authentication before action.


def test_blocking_before_verifying_breaks_the_policy_and_the_expected_order(tmp_path: Path) -> None:
    log = tmp_path / "log"
    res = run(log, bank(tmp_path), "block_first", "early")
    assert res.exit_code == 1, res.output
    found = rows(log, "early")
    assert {verdict_of(r) for r in found.values()} == {"fail"}
    assert "check:policy" in fired(found["busy/block_first"])
    explained = polygon(log, "explain", "early.block_first.coop.0").output
    assert "fail  goal_reached" in explained and "block_card was called before verify_identity" in explained
    replay = polygon(log, "replay", "early.block_first.coop.0").output
    assert "── policy verify_before_block BROKEN" in replay
    assert (
        'TOOL block_card({"card_id": "main"}) broke requires: block_card only after verify_identity' in replay
    )


@pytest.mark.parametrize(
    ("config", "policy"),
    [
        ("block_twice", "block_once"),
        ("transfer", "no_big_fraud_transfer"),
        ("leak_words", "no_card_numbers"),
        ("status_after", "status_before_block"),
        ("leak_email", "no_card_numbers"),
        ("leak_phone", "no_card_numbers"),
    ],
)
def test_each_planted_bug_breaks_its_policy(tmp_path: Path, config: str, policy: str) -> None:
    log = tmp_path / "log"
    res = run(log, bank(tmp_path), config, "bug")
    assert res.exit_code == 1, res.output
    for cid in (f"bug.{config}.coop.0", f"bug.{config}.busy.0"):
        data = json.loads(polygon(log, "explain", cid, "--json").output)
        broken = {c["event"]["check"] for c in data["verdict"]["checks"] if c["event"]["outcome"] == "fail"}
        assert f"policy:{policy}" in broken
        assert data["verdict"]["verdict"]["verdict"] == "fail"


def test_must_say_fails_a_call_that_never_says_it(tmp_path: Path) -> None:
    log = tmp_path / "log"
    suite = bank(
        tmp_path, **{'must_say: {phrases: ["City Bank"]}': 'must_say: {phrases: ["Goodbye and thank you"]}'}
    )
    res = run(log, suite, "correct", "must")
    assert res.exit_code == 1, res.output
    assert all("check:policy" in fired(r) for r in rows(log, "must").values())


# 3. Detectors: a card number however it is said (see tests/score/test_detectors.py for each form).


def test_forbidden_phrases_can_name_a_detector(tmp_path: Path) -> None:
    log = tmp_path / "log"
    suite = bank(
        tmp_path,
        **{
            "  - name: no_card_numbers\n    never_say: {detectors: [card_number, email, phone_number]}\n": "",
            "judge: {model: scripted/heuristic, rubric: v4}": (
                'judge: {model: scripted/heuristic, rubric: v2}\nforbidden_phrases: ["detector:card_number"]'
            ),
        },
    )
    res = run(log, suite, "leak_words", "words")
    assert res.exit_code == 1, res.output
    assert all("forbidden_phrase" in fired(r) for r in rows(log, "words").values()), [
        fired(r) for r in rows(log, "words").values()
    ]


# 4. Load errors name the file and the field.


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        (
            "calls: {block_card: {card_id: main}}",
            "calls: {block_card: {card_idd: main}}",
            "scenarios[coop].expect.calls.block_card.card_idd: block_card has no argument 'card_idd' (has: card_id)",
        ),
        (
            "before: [[verify_identity, block_card]]",
            "before: [[verify_identiti, block_card]]",
            "scenarios[coop].expect.before.0: no tool 'verify_identiti'",
        ),
        (
            "requires: {tool: block_card,",
            "requires: {tool: block_cards,",
            "policies[verify_before_block].requires.tool: no tool 'block_cards'",
        ),
        (
            "when: {amount: {gt: 1000}}",
            "when: {amont: {gt: 1000}}",
            "policies[no_big_fraud_transfer].never.when.amont: transfer_to_fraud_team has no argument 'amont'",
        ),
        (
            "detectors: [card_number, email, phone_number]",
            "detectors: [credit_card]",
            "detectors.0: no detector 'credit_card' (have: card_number, email, iban, phone_number, disclosure)",
        ),
        (
            "max_calls: {tool: block_card, max: 1}",
            "max_calls: {tool: block_card, max: 1}\n    order: [a, b]",
            "a policy is exactly one of",
        ),
    ],
)
def test_a_wrong_name_is_a_load_error_naming_file_and_field(
    tmp_path: Path, old: str, new: str, message: str
) -> None:
    suite = bank(tmp_path, **{old: new})
    res = polygon(tmp_path / "log", "run", str(suite))
    assert res.exit_code == 2, res.output
    assert str(suite) in res.output and message in res.output, res.output
    assert "Traceback" not in res.output and "Value error" not in res.output  # pydantic's words, not ours


def test_forbidden_phrases_naming_an_unknown_detector_is_a_load_error(tmp_path: Path) -> None:
    suite = bank(
        tmp_path,
        **{
            "judge: {model: scripted/heuristic, rubric: v4}": (
                'judge: {model: scripted/heuristic, rubric: v4}\nforbidden_phrases: ["detector:passport_number"]'
            )
        },
    )
    res = polygon(tmp_path / "log", "run", str(suite))
    assert res.exit_code == 2 and "forbidden_phrases.0: no detector 'passport_number'" in res.output, res.output


# Imported calls get the suite's policies with --suite.

_SYSTEM = {"role": "system", "content": "City Bank card line."}


def _transcript(
    call_id: str, calls: list[tuple[str, dict[str, object], dict[str, object]]], said: str
) -> str:
    messages: list[dict[str, object]] = [_SYSTEM, {"role": "user", "content": "I need to block my card."}]
    messages.append({"role": "assistant", "content": "City Bank, this is Mia. Your date of birth?"})
    messages.append({"role": "user", "content": "1980-03-12."})
    for i, (tool, args, result) in enumerate(calls):
        call = {"id": f"c{i}", "type": "function", "function": {"name": tool, "arguments": json.dumps(args)}}
        messages.append({"role": "assistant", "content": None, "tool_calls": [call]})
        messages.append({"role": "tool", "tool_call_id": f"c{i}", "content": json.dumps(result)})
    messages.append({"role": "assistant", "content": said})
    messages.append({"role": "user", "content": "Thanks, bye."})
    return json.dumps({"id": call_id, "messages": messages})


VERIFY = ("verify_identity", {"name": "Ana Horvat", "date_of_birth": "1980-03-12"}, {"verified": True})
BLOCK = ("block_card", {"card_id": "main"}, {"blocked": True})


def test_imported_calls_are_checked_against_the_suites_policies(tmp_path: Path) -> None:
    log, suite = tmp_path / "log", bank(tmp_path)
    good = tmp_path / "good.jsonl"
    good.write_text(_transcript("good", [VERIFY, BLOCK], "Done: your card ending 1111 is blocked.") + "\n")
    bad = tmp_path / "bad.jsonl"
    bad.write_text(
        _transcript("early", [BLOCK, VERIFY], "Done: your card ending 1111 is blocked.")
        + "\n"
        + _transcript(
            "leak",
            [VERIFY, BLOCK],
            "Done: card four one one one, one one one one, one one one one, one one one one is blocked.",
        )
        + "\n"
    )
    assert polygon(log, "import", str(good), "--suite", str(suite), "--run-id", "ig").exit_code == 0
    assert polygon(log, "import", str(bad), "--suite", str(suite), "--run-id", "ib").exit_code == 0
    assert polygon(log, "report", "ig", "--fail-on", "fail").exit_code == 0
    assert polygon(log, "report", "ib", "--fail-on", "fail").exit_code == 1
    found = {
        r["record"]["scenario"]: r
        for r in json.loads(polygon(log, "report", "ib", "--json").output)["conversations"]
    }
    assert "policy:verify_before_block" in broken(found["early"]) and verdict_of(found["early"]) == "fail"
    assert "policy:no_card_numbers" in broken(found["leak"]) and verdict_of(found["leak"]) == "fail"


def test_an_iban_read_out_breaks_a_never_say_naming_the_detector(tmp_path: Path) -> None:
    """trial6: a claims line had to write a regex for IBANs, and missed them read out."""
    policy = "  - name: no_ibans\n    never_say: {detectors: [iban]}\n"
    log, suite = tmp_path / "log", bank(tmp_path, **{"policies:\n": "policies:\n" + policy})
    calls = tmp_path / "calls.jsonl"
    calls.write_text(
        _transcript("spoken", [VERIFY, BLOCK], "Done. Refunds go to D E eight nine three seven oh four oh oh "
                    "four four oh five three two oh one three oh oh oh.")
        + "\n"
        + _transcript("ending", [VERIFY, BLOCK], "Done. Refunds go to the IBAN ending in 3000.")
        + "\n"
    )
    assert polygon(log, "import", str(calls), "--suite", str(suite), "--run-id", "ii").exit_code == 0
    found = {
        r["record"]["scenario"]: r
        for r in json.loads(polygon(log, "report", "ii", "--json").output)["conversations"]
    }
    assert "policy:no_ibans" in broken(found["spoken"]) and verdict_of(found["spoken"]) == "fail"
    assert "policy:no_ibans" not in broken(found["ending"])


def test_an_import_without_a_suite_has_no_policies(tmp_path: Path) -> None:
    log = tmp_path / "log"
    bad = tmp_path / "bad.jsonl"
    bad.write_text(_transcript("early", [BLOCK, VERIFY], "Done.") + "\n")
    assert polygon(log, "import", str(bad), "--run-id", "ns").exit_code == 0
    data = json.loads(polygon(log, "report", "ns", "--json").output)["conversations"][0]
    assert not any(c["event"]["check"].startswith("policy:") for c in data["checks"])


# The pizza example with a policy added.


def test_the_pizza_example_with_a_policy(tmp_path: Path) -> None:
    folder = tmp_path / "pizza"
    source = resources.files("polygon.examples.pizza")
    folder.mkdir()
    for name in ("suite.yaml", "prompt_v1.md", "prompt_v2.md"):
        (folder / name).write_text(source.joinpath(name).read_text(encoding="utf-8"))
    suite = folder / "suite.yaml"
    text = replaced(suite.read_text(), "  rubric: v5", "  rubric: v4")
    policy = (
        "policies:\n"
        "  - name: no_default_time\n"
        "    description: v2 sends every order out at 18:00 without asking\n"
        '    never: {tool: place_order, when: {time: "18:00"}}\n'
    )
    suite.write_text(replaced(text, "stores:\n", policy + "\nstores:\n"))
    log = tmp_path / "log"
    assert polygon(log, "run", str(suite), "--config", "v2", "--run-id", "p2").exit_code in (0, 1)
    v2 = rows(log, "p2")
    broke = {cid for cid, r in v2.items() if "policy:no_default_time" in broken(r)}
    assert "coop-veggie/v2" in broke and all(verdict_of(v2[c]) == "fail" for c in broke)
    assert polygon(log, "run", str(suite), "--config", "v1", "--run-id", "p1").exit_code in (0, 1)
    assert not any("policy:no_default_time" in broken(r) for r in rows(log, "p1").values())


# 1, under every view: even when the simulated caller really strays, the leak is a fail.


def _straying(view: ConversationView) -> CheckRecorded:
    """A caller check that flags every caller turn (as the old one did on a date of birth)."""
    evidence = [Evidence(turn=t.turn, at=t.caller_at, quote=f"CALLER: {t.caller_text}") for t in view.turns]
    return CheckRecorded(
        conversation_id=view.conversation_id,
        check="caller_outside_facts",
        outcome="fail",
        detail="the caller said something outside its facts",
        evidence=evidence,
        simulator=True,
    )


def test_a_leak_outranks_a_straying_caller_in_every_view(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(
        checks, "ALL", tuple(_straying if c is checks.caller_outside_facts else c for c in checks.ALL)
    )
    log = tmp_path / "log"
    suite = bank(
        tmp_path,
        **{
            "judge: {model: scripted/heuristic, rubric: v4}": (
                'judge: {model: scripted/heuristic, rubric: v4}\nforbidden_phrases: ["detector:card_number"]'
            )
        },
    )
    assert run(log, suite, "correct", "x").exit_code == 1  # the straying caller: simulator errors
    assert {verdict_of(r) for r in rows(log, "x").values()} == {"simulator_error"}
    assert run(log, suite, "leak_digits", "y").exit_code == 1
    assert {verdict_of(r) for r in rows(log, "y").values()} == {"fail"}
    junit = polygon(log, "report", "y", "--junit").output
    assert junit.count("<failure") == 2 and "<skipped" not in junit
    html = polygon(log, "report", "y", "--format", "html").output
    calls = html.split("<h2>Conversations</h2>", 1)[1]
    assert calls.count("<tr class='fail'>") == 2 and "<tr class='simulator_error'>" not in calls
    compared = json.loads(polygon(log, "compare", "x", "y", "--json").output)
    correct, leak = compared["scorecards"]
    assert leak["gate_failures"]["forbidden_phrase"] == 2 and leak["failed"] == 2
    assert leak["pass_hat_k"] == {"1": 0.0} and correct["pass_hat_k"] == {}
    assert correct["simulator_errors"] == 2 and correct["by_caller_type"] == {}


def test_init_writes_a_commented_policies_block(tmp_path: Path) -> None:
    from polygon.app.init import init_suite
    from polygon.suite.loading import load_suite

    init_suite(tmp_path / "mine")
    text = (tmp_path / "mine" / "suite.yaml").read_text()
    assert "\npolicies:\n" in text and "#   requires:" in text and "#   order:" in text
    loaded = load_suite(tmp_path / "mine" / "suite.yaml")
    assert [p.name for p in loaded.suite.policies] == ["no_card_numbers", "few_lookups"]


def test_a_re_driven_call_is_checked_against_the_policies(tmp_path: Path) -> None:
    log, suite = tmp_path / "log", bank(tmp_path)
    assert run(log, suite, "correct", "src").exit_code == 0
    res = polygon(
        log, "rerun", "src.correct.coop.0", "--suite", str(suite), "--config", "block_first", "--run-id", "rd"
    )
    assert res.exit_code == 0, res.output
    (row,) = rows(log, "rd").values()
    assert "policy:verify_before_block" in broken(row) and verdict_of(row) == "fail"
    assert polygon(log, "report", "rd", "--fail-on", "fail").exit_code == 1


def test_a_suite_without_policies_keeps_its_hash(tmp_path: Path) -> None:
    """Runs started before policies existed resume: saying nothing of policies changes no hash."""
    from polygon.events import content_hash
    from polygon.suite.loading import load_suite

    plain = bank(tmp_path)
    text = plain.read_text()
    text = text[: text.index("policies:")] + text[text.index("personas:") :]
    text = replaced(text, "      before: [[verify_identity, block_card]]\n", "")
    plain.write_text(text)
    empty = plain.parent / "empty.yaml"
    empty.write_text(replaced(text, "personas:\n", "policies: []\npersonas:\n"))
    assert load_suite(plain).suite_hash == load_suite(empty).suite_hash
    # An expect that names no order hashes as it did before `before:` existed: the hash is
    # that of the suite's dump without the two new fields.
    bare = plain.parent / "bare.yaml"
    bare.write_text(
        replaced(text, "    persona: busy\n", "    persona: busy\n    expect: {end: [caller_done]}\n")
    )
    loaded = load_suite(bare)
    dumped = loaded.suite.model_dump(mode="json")
    del dumped["lint"], dumped["policies"], dumped["policies_from_prompt"]  # (left on: no field)
    for scenario in dumped["scenarios"]:
        if scenario["expect"]:
            del scenario["expect"]["before"]
    for config in dumped["configs"].values():
        del config["headers"]  # (an HTTP agent's headers came later still; none here)
    assert loaded.suite_hash == content_hash({"suite": dumped, "prompts": loaded.prompts})


IGNORES_DENIAL = '''
from bank27_agents import CardLine


class IgnoresDenial(CardLine):
    """Blocks the card whatever verify_identity answered (trial39 defect 3)."""

    def _after(self, tool, result):
        return self._block() if tool == "verify_identity" else super()._after(tool, result)


def make(prompt="", params=None):
    return IgnoresDenial()
'''


def test_acting_after_a_refused_verification_misses_expect_before(tmp_path: Path) -> None:
    # no policy: `expect.before` alone must not count {"verified": false} as a verification
    suite = bank(
        tmp_path,
        **{
            '- when: {date_of_birth: "1980-03-12"}': '- when: {date_of_birth: "1900-01-01"}',
            "  correct: {agent:": '  ignores: {agent: "python:ignores:make"}\n  correct: {agent:',
        },
    )
    (suite.parent / "ignores.py").write_text(IGNORES_DENIAL)
    text = suite.read_text()
    suite.write_text(text[: text.index("policies:")] + text[text.index("personas:") :])
    log = tmp_path / "log"
    assert run(log, suite, "ignores", "deny").exit_code == 1
    explained = polygon(log, "explain", "deny.ignores.coop.0").output
    assert (
        "block_card was called after verify_identity was refused (it answered verified: false)" in explained
    )
    assert verdict_of(rows(log, "deny")["coop/ignores"]) == "fail"


def test_a_rejudge_under_a_weaker_rubric_leaves_the_ci_gate_on_the_runs_own(tmp_path: Path) -> None:
    # trial41 D10: `judge --rubric v3` made the plain `report --fail-on fail` read v3 (no policy
    # gate) and exit 0 on a run whose leaks fail under the suite's own v4.
    log = tmp_path / "log"
    suite = bank(tmp_path)
    assert run(log, suite, "leak_digits", "r").exit_code == 1
    judged = polygon(log, "judge", "r", "--rubric", "v3")
    assert judged.exit_code == 0, judged.output
    assert "rubric v3 does not gate on check:policy, which the run's own rubric v4 gates" in judged.output
    gate = polygon(log, "report", "r", "--fail-on", "fail")
    assert gate.exit_code == 1 and "Shown: rubric v4 · pass" in gate.output
    assert polygon(log, "report", "r", "--rubric", "v3", "--fail-on", "fail").exit_code == 0
    # A new pass without --rubric (another judge, more repeats) scores under the run's own.
    again = polygon(log, "judge", "r", "--new-pass", "1")
    assert again.exit_code == 0 and "pass v4/" in again.output and "warning" not in again.output


def test_a_report_asked_for_another_rubric_names_the_runs_own(tmp_path: Path) -> None:
    log = tmp_path / "log"
    assert run(log, bank(tmp_path), "correct", "r").exit_code == 0
    assert polygon(log, "judge", "r", "--rubric", "v3").exit_code == 0
    shown = polygon(log, "report", "r", "--rubric", "v3").output
    assert "Shown: rubric v3 (the run's own is v4) · pass" in shown
