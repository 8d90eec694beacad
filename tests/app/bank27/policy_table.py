"""The table of issue 27's note: each policy kind and detector, a violating and a complying call,
simulated and imported, with the verdict and the exit code under --fail-on fail.

Run: .venv/bin/python tests/app/bank27/policy_table.py (prints a markdown table; minutes).
"""

import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
PY = str(ROOT / ".venv/bin/python")
WORK = Path(tempfile.mkdtemp(prefix="policy-table-"))
shutil.rmtree(WORK, ignore_errors=True)
WORK.mkdir(parents=True)
shutil.copytree(
    ROOT / "tests/app/bank27", WORK / "bank", ignore=shutil.ignore_patterns("__pycache__", "__init__.py")
)
SUITE = WORK / "bank" / "suite.yaml"
base = SUITE.read_text()
must = WORK / "bank" / "must.yaml"
must.write_text(
    base.replace('must_say: {phrases: ["City Bank"]}', 'must_say: {phrases: ["Goodbye and thank you"]}')
)
fp = WORK / "bank" / "fp.yaml"
a, b = base.index("policies:"), base.index("personas:")
fp.write_text(
    (base[:a] + base[b:])
    .replace("rubric: v4}", 'rubric: v4}\nforbidden_phrases: ["detector:card_number"]')
    .replace("      before: [[verify_identity, block_card]]\n", "")
)
LOG = str(WORK / "log")
n = 0


def pol(*args):
    return subprocess.run(
        [PY, "-m", "polygon", "--log", LOG, *args], capture_output=True, text=True, cwd=WORK / "bank"
    )


def outcome(run_id, check):
    data = json.loads(pol("report", run_id, "--json").stdout)
    out = []
    for r in data["conversations"]:
        c = next((c["event"]["outcome"] for c in r["checks"] if c["event"]["check"] == check), "—")
        out.append(f"{r['record']['scenario']}: {r['verdict']['verdict']} ({check} {c})")
    return "; ".join(out)


def simulated(suite, config, check):
    global n
    n += 1
    rid = f"s{n}"
    res = pol("run", str(suite), "--config", config, "--run-id", rid, "--fail-on", "fail")
    return outcome(rid, check), res.returncode


def line(msgs_tools, said):
    m = [
        {"role": "user", "content": "I need to block my card."},
        {"role": "assistant", "content": "City Bank, this is Mia. Your date of birth?"},
        {"role": "user", "content": "1980-03-12."},
    ]
    for i, (tool, args, result) in enumerate(msgs_tools):
        m.append(
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "id": f"c{i}",
                        "type": "function",
                        "function": {"name": tool, "arguments": json.dumps(args)},
                    }
                ],
            }
        )
        m.append({"role": "tool", "tool_call_id": f"c{i}", "content": json.dumps(result)})
    m.append({"role": "assistant", "content": said})
    m.append({"role": "user", "content": "Thanks, bye."})
    return m


V = ("verify_identity", {"name": "Ana Horvat", "date_of_birth": "1980-03-12"}, {"verified": True})
S = ("card_status", {"card_id": "main"}, {"status": "active", "card_number": "4111 1111 1111 1111"})
B = ("block_card", {"card_id": "main"}, {"blocked": True})
T = ("transfer_to_fraud_team", {"reason": "x", "amount": 5000}, {"ok": True})
T_OK = ("transfer_to_fraud_team", {"reason": "x", "amount": 200}, {"ok": True})
OK = "Done: your card ending 1111 is blocked."


def imported(suite, tools, said, check):
    global n
    n += 1
    rid = f"i{n}"
    f = WORK / f"{rid}.jsonl"
    f.write_text(json.dumps({"id": "call", "messages": line(tools, said)}) + "\n")
    r = pol("import", str(f), "--suite", str(suite), "--run-id", rid)
    assert r.returncode == 0, r.stdout + r.stderr
    res = pol("report", rid, "--fail-on", "fail")
    return outcome(rid, check), res.returncode


ROWS = [
    ("requires", "policy:verify_before_block", SUITE, "block_first", [B, V], OK, "correct", [V, B], OK),
    ("order", "policy:status_before_block", SUITE, "status_after", [V, B, S], OK, "correct", [V, S, B], OK),
    (
        "never (with when)",
        "policy:no_big_fraud_transfer",
        SUITE,
        "transfer",
        [V, B, T],
        OK,
        "correct",
        [V, B, T_OK],
        OK,
    ),
    ("max_calls", "policy:block_once", SUITE, "block_twice", [V, B, B], OK, "correct", [V, B], OK),
    (
        "never_say card_number (digits)",
        "policy:no_card_numbers",
        SUITE,
        "leak_digits",
        [V, B],
        "Done: card 4111 1111 1111 1111 is blocked.",
        "correct",
        [V, B],
        OK,
    ),
    (
        "never_say card_number (words)",
        "policy:no_card_numbers",
        SUITE,
        "leak_words",
        [V, B],
        "Done: card four one one one one one one one one one one one one one one one is blocked.",
        "correct",
        [V, B],
        OK,
    ),
    (
        "never_say email",
        "policy:no_card_numbers",
        SUITE,
        "leak_email",
        [V, B],
        "Done, details to ana.horvat@example.com.",
        "correct",
        [V, B],
        OK,
    ),
    (
        "never_say phone_number",
        "policy:no_card_numbers",
        SUITE,
        "leak_phone",
        [V, B],
        "Done, we will call you on 091 555 0134.",
        "correct",
        [V, B],
        OK,
    ),
    ("must_say", "policy:names_the_bank", must, "correct", [V, B], OK, None, [V, B], OK),
    (
        "forbidden_phrases detector:card_number",
        "forbidden_phrase",
        fp,
        "leak_digits",
        [V, B],
        "Done: card 4111-1111-1111-1111 is blocked.",
        "correct",
        [V, B],
        OK,
    ),
]
print(
    "| kind / detector | call | simulated: verdict per call (check) | exit | imported: verdict (check) | exit |"
)
print("|---|---|---|---|---|---|")
for kind, check, suite, bad_cfg, bad_tools, bad_said, ok_cfg, ok_tools, ok_said in ROWS:
    sv, se = simulated(suite, bad_cfg, check)
    iv, ie = imported(suite, bad_tools, bad_said, check)
    print(f"| {kind} | violating (`{bad_cfg}`) | {sv} | {se} | {iv} | {ie} |")
    if (
        ok_cfg is None
    ):  # must_say: the complying call is the correct agent under the suite that names what it says
        suite, ok_cfg = SUITE, "correct"
        ok_said = "City Bank: " + ok_said
    sv, se = simulated(suite, ok_cfg, check)
    iv, ie = imported(suite, ok_tools, ok_said, check)
    print(f"| {kind} | complying (`{ok_cfg}`) | {sv} | {se} | {iv} | {ie} |")
    sys.stdout.flush()
