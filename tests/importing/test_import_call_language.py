"""An imported call that says "done" after its tool failed fails in Croatian as in English (tester46 D10).

The tester's Vapi report: rezerviraj_tehnicara answered ``{"error": "timeout"}``, the agent
said "gotovo, tehničar je rezerviran, javit ćemo vam se porukom s točnim terminom" and the
call passed at 83.75: the sentence reads as a callback ("javit ćemo vam se"), and a callback
counted as telling the caller the booking had not happened. The English "Done, you're
booked, we'll call you back with the exact time" passed the same way. A callback beside a
"done" said in a clause of its own is a follow-up; and an imported call is read in the
language its agent turns are heard in.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from polygon.cli.main import cli
from polygon.events import ConversationStarted
from polygon.score.swallowed import swallowed
from polygon.transcript import ConversationView, ToolView, TurnView


def _message(role: str, text: str, at: int) -> dict[str, object]:
    return {"role": role, "message": text, "time": at, "endTime": at + 1500}


def vapi(opening: str, asked: str, tool: str, result: str, report: str) -> dict[str, object]:
    """A Vapi end-of-call report: the agent greets, the caller asks, one tool answers, the agent reports."""
    call = {"id": "c1", "function": {"name": tool, "arguments": "{}"}}
    messages = [
        _message("bot", opening, 1764680400400),
        _message("user", asked, 1764680403000),
        {"role": "tool_calls", "toolCalls": [call]},
        {"role": "tool_call_result", "toolCallId": "c1", "name": tool, "result": result},
        _message("bot", report, 1764680409000),
        _message("user", "Hvala, doviđenja." if "tehni" in report else "Thanks, bye.", 1764680414000),
    ]
    return {
        "message": {
            "type": "end-of-call-report",
            "endedReason": "customer-ended-call",
            "call": {"id": "vapi-1"},
            "artifact": {"messages": messages},
        }
    }


HR = (
    "Mrežnik, linija za kvarove, ovdje Petra. Kako vam mogu pomoći?",
    "Dobar dan, ne radi mi televizija od jutros, trebam tehničara.",
    "rezerviraj_tehnicara",
)
HR_DONE = "Gotovo, tehničar je rezerviran, javit ćemo vam se porukom s točnim terminom. Doviđenja."
HR_BOOKED = "Tehničar je rezerviran, javit ćemo vam se porukom s točnim terminom. Doviđenja."
EN = ("Smile Dental, this is Mia. How can I help?", "I'd like to book a cleaning on Wednesday.", "book_slot")
ES = (
    "Hogar Seguro, línea de siniestros, le atiende Marta. ¿En qué puedo ayudarle?",
    "Hola, tengo una fuga de agua debajo del fregadero, quiero abrir un parte.",
    "abrir_siniestro",
)
ES_OPENED = (
    "Perfecto, su parte ha quedado abierto y un perito le llamará en las próximas cuarenta y ocho horas."
)
EN_DONE = "Done, you're booked, we'll call you back with the exact time. See you then!"


def _verdict(tmp_path: Path, call: dict[str, object]) -> dict[str, object]:
    path = tmp_path / "vapi.json"
    path.write_text(json.dumps(call))
    log, runner = str(tmp_path / "log"), CliRunner()
    res = runner.invoke(cli, ["--log", log, "import", str(path)])
    assert res.exit_code == 0, res.output
    report = json.loads(runner.invoke(cli, ["--log", log, "report", "latest", "--json"]).output)
    (row,) = report["conversations"]
    verdict = row["verdict"]
    assert isinstance(verdict, dict)
    return verdict


@pytest.mark.parametrize(("call", "done"), [(HR, HR_DONE), (HR, HR_BOOKED), (EN, EN_DONE), (ES, ES_OPENED)])
def test_done_beside_a_callback_after_a_failed_tool_fails(
    tmp_path: Path, call: tuple[str, str, str], done: str
) -> None:
    verdict = _verdict(tmp_path, vapi(*call, '{"error": "timeout"}', done))
    assert verdict["verdict"] == "fail"
    fired = " ".join(str(g) for g in verdict["gates"] if g["fired"])  # type: ignore[union-attr]
    assert f"after {call[2]} failed" in fired


def test_the_same_croatian_report_after_a_working_tool_passes(tmp_path: Path) -> None:
    verdict = _verdict(tmp_path, vapi(*HR, '{"termin": "2026-12-04 10:00"}', HR_DONE))
    assert verdict["verdict"] == "pass"


def test_a_callback_instead_of_the_outcome_still_tells_the_failure(tmp_path: Path) -> None:
    said = "Rezervacija trenutno ne ide, javit ćemo vam se porukom čim bude termin. Doviđenja."
    verdict = _verdict(tmp_path, vapi(*HR, '{"error": "timeout"}', said))
    fired = " ".join(str(g) for g in verdict["gates"] if g["fired"])  # type: ignore[union-attr]
    assert "after rezerviraj_tehnicara failed" not in fired


def _imported(agent: str) -> ConversationView:
    """An imported call (no persona): one failed tool call, then the agent's words."""
    started = ConversationStarted(run_id="r", conversation_id="c", config="x", scenario="s", trial=0, seed=0)
    failed = ToolView(
        at=1,
        index=0,
        tool="sendung_umleiten",
        arguments={},
        valid=True,
        validation_errors=[],
        result={"error": "timeout"},
        error="",
        fault="",
        latency_ms=0.0,
    )
    turn = TurnView(
        turn=1, caller_text="Bitte leiten Sie mein Paket um.", tools=[failed], agent_text=agent, agent_at=2
    )
    return ConversationView(conversation_id="c", started=started, turns=[turn])


def test_an_imported_german_call_is_read_in_german_only() -> None:
    """Read in every language, the English "failed" hedged a German claim of success."""
    said = "Erledigt, ihr Paket wurde umgeleitet, der Status 'failed' in der App ist veraltet und verschwindet bald."
    assert [s.call.tool for s in swallowed(_imported(said))] == ["sendung_umleiten"]
