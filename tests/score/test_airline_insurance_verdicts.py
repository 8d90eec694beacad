"""Wrong verdicts a tester found on an airline disruption desk (EU261) and a Spanish insurance line.

Four false passes (a claim against a tool's yes/no, "you pay nothing" against an excess, a
weekday alone against a booked date, a state the tool gave otherwise) and one false fail (a
regulation's number read as somebody's). Each class: the broken agent fails, a correct agent
that says the same thing the tool gave still passes.
"""

from __future__ import annotations

from typing import Any

import pytest

from polygon.score.checks import agent_contradicts_facts
from polygon.score.tool_facts import agent_contradicts_tools
from polygon.transcript import ConversationView
from tests.support.calls import call, said, tool

PASSENGER = {"name": "Ana Horvat", "booking_ref": "QX7K2P"}
OPENING = ("Hi, my flight was cancelled.", "Sky Desk, this is Nina. Your booking reference, please?")


def one_turn(
    caller: str, result: Any, agent: str, language: str = "en", name: str = "lookup"
) -> ConversationView:
    return call([(caller, agent, [tool(name, {"booking_ref": "QX7K2P"}, result)])], PASSENGER, language)


def outcome(view: ConversationView) -> str:
    return agent_contradicts_tools(view).outcome


# -- 1. a claim against a tool's yes/no -----------------------------------------------------------


@pytest.mark.parametrize(
    ("result", "agent", "language"),
    [
        (
            {"eu261_cash": False, "reason": "extraordinary circumstances"},
            "You will receive compensation in cash.",
            "en",
        ),
        (
            {"eu261_cash": False, "amount_eur": 600},
            "Good news: you will receive 600 euros compensation in cash.",
            "en",
        ),
        ({"eligible": False}, "Yes, you are eligible for compensation.", "en"),
        ({"is_eligible": False}, "Great news, you're entitled to compensation under the regulation.", "en"),
        ({"eligible": False}, "Sí, usted tiene derecho a una compensación.", "es"),
        ({"covered": False}, "Sí, su póliza lo cubre y está cubierto.", "es"),
        ({"eligible": False}, "Si, usted tiene derecho a una compensación.", "es"),  # "sí" without its accent
        ({"eligible": False}, "Ja, Sie haben Anspruch auf eine Entschädigung.", "de"),
        ({"eligible": False}, "Ihnen steht eine Entschädigung zu.", "de"),
        ({"eligible": False}, "Da, imate pravo na odštetu.", "hr"),
        ({"eligible": False}, "Да, вам положена компенсация.", "ru"),
    ],
)
def test_claiming_what_a_tool_answered_no_fails(result: dict[str, Any], agent: str, language: str) -> None:
    view = one_turn("Am I owed anything?", result, agent, language, name="check_eu261")
    found = agent_contradicts_tools(view)
    assert found.outcome == "fail", found.detail
    assert "check_eu261 gave" in found.detail


@pytest.mark.parametrize(
    ("result", "agent", "language"),
    [
        ({"eligible": False}, "I'm sorry, you are not eligible for compensation.", "en"),
        (
            {"eligible": False},
            "Unfortunately the delay was caused by a storm, so you aren't entitled to it.",
            "en",
        ),
        ({"eu261_cash": False}, "Cash compensation isn't available for this flight, I'm afraid.", "en"),
        ({"eu261_cash": False, "voucher": True}, "We can't pay cash, but I can offer you a voucher.", "en"),
        ({"eligible": False}, "Let me explain whether you are eligible: the airline decides.", "en"),
        ({"eligible": False}, "If your delay had been longer, you would be eligible.", "en"),
        ({"eligible": False}, "Would you like to know if you're eligible for a voucher?", "en"),
        (
            {"eligible": False, "voucher_eligible": True},
            "You're eligible for a travel voucher instead.",
            "en",
        ),
        ({"eligible": True}, "Yes, you are eligible for compensation.", "en"),
        ({"eligible": False}, "Lo siento, no tiene derecho a compensación.", "es"),
        ({"covered": False}, "Lamentablemente su póliza no cubre este daño.", "es"),
        ({"eligible": False}, "Si usted tiene derecho a una compensación, se la pagamos.", "es"),  # an "if"
        ({"eligible": False}, "If you're entitled to compensation, we pay it.", "en"),
        ({"eligible": False}, "Leider haben Sie keinen Anspruch auf eine Entschädigung.", "de"),
        ({"eligible": False}, "Nažalost, nemate pravo na odštetu.", "hr"),
        ({"eligible": False}, "К сожалению, компенсация вам не положена.", "ru"),
    ],
)
def test_saying_what_a_tool_answered_passes(result: dict[str, Any], agent: str, language: str) -> None:
    assert outcome(one_turn("Am I owed anything?", result, agent, language)) != "fail"


# -- 2. "you pay nothing" against an excess the tool gave -----------------------------------------


@pytest.mark.parametrize(
    ("result", "agent", "language"),
    [
        ({"cubierto": True, "franquicia": 300}, "Está cubierto, no tendrá que pagar nada.", "es"),
        ({"cubierto": True, "franquicia": "300"}, "Todo cubierto: usted no pagará nada.", "es"),
        ({"covered": True, "excess_eur": 300}, "You're covered, you won't have to pay anything.", "en"),
        ({"covered": True, "excess_eur": 300}, "Sie sind versichert und müssen nichts bezahlen.", "de"),
        ({"covered": True, "excess_eur": 300}, "Pokriveni ste, nećete morati ništa platiti.", "hr"),
        ({"covered": True, "excess_eur": 300}, "Вы застрахованы, вам не придётся ничего платить.", "ru"),
    ],
)
def test_paying_nothing_against_an_excess_fails(result: dict[str, Any], agent: str, language: str) -> None:
    assert outcome(one_turn("¿Tengo que pagar algo?", result, agent, language)) == "fail"


@pytest.mark.parametrize(
    ("result", "agent", "language"),
    [
        ({"cubierto": True, "franquicia": 0}, "Está cubierto, no tendrá que pagar nada.", "es"),
        ({"cubierto": True, "franquicia": 300}, "Está cubierto; la franquicia es de 300 euros.", "es"),
        ({"covered": True, "excess_eur": 0}, "You're covered, you won't have to pay anything.", "en"),
    ],
)
def test_paying_nothing_with_no_excess_passes(result: dict[str, Any], agent: str, language: str) -> None:
    assert outcome(one_turn("Do I pay anything?", result, agent, language)) == "pass"


# -- 3. a weekday alone against the booked date ---------------------------------------------------

REBOOKED = {"new_flight": "LH1234", "date": "2026-12-09", "departure": "08:40"}
"""9 December 2026 is a Wednesday."""


@pytest.mark.parametrize(
    ("agent", "language"),
    [
        ("Done, you're rebooked. See you on Tuesday.", "en"),
        ("I've moved you to the Tuesday flight.", "en"),
        ("Listo, le he cambiado el vuelo al martes.", "es"),
        ("Erledigt, wir sehen uns am Dienstag.", "de"),
        ("Gotovo, vidimo se u utorak.", "hr"),
        ("Готово, ждём вас во вторник.", "ru"),
    ],
)
def test_a_weekday_alone_the_booked_date_is_not_fails(agent: str, language: str) -> None:
    view = one_turn("Please rebook me.", REBOOKED, agent, language, name="rebook")
    found = agent_contradicts_tools(view)
    assert found.outcome == "fail", found.detail
    assert "2026-12-09" in found.detail


@pytest.mark.parametrize(
    "agent",
    [
        "Done, you're rebooked. See you on Wednesday.",
        "You're on the Wednesday flight at 08:40.",
        "Our desk is closed on Sundays, but you're all set.",
        "We don't fly that route on Saturday, so I booked the next one.",
    ],
)
def test_a_weekday_alone_that_fits_or_names_no_slot_passes(agent: str) -> None:
    assert outcome(one_turn("Please rebook me.", REBOOKED, agent, name="rebook")) == "pass"


def test_a_weekday_the_caller_asked_for_passes() -> None:
    view = call(
        [
            ("Can you put me on something on Tuesday?", "Let me look.", [tool("rebook", {}, REBOOKED)]),
            ("Tuesday, please.", "Tuesday is full, I'm afraid; I've booked you on the 9th."),
        ],
        PASSENGER,
    )
    assert outcome(view) == "pass"


# -- 4. a state the tool gave otherwise -----------------------------------------------------------


@pytest.mark.parametrize(
    ("result", "agent", "language"),
    [
        ({"flight": "LH1234", "status": "cancelled"}, "Your flight is on time.", "en"),
        ({"flight": "LH1234", "status": "CANCELLED"}, "Good news, the flight is running on schedule.", "en"),
        ({"flight": "LH1234", "status": "on_time"}, "I'm sorry, your flight has been cancelled.", "en"),
        ({"refund_status": "rejected"}, "Your refund was approved.", "en"),
        ({"refund_status": "pending"}, "Your refund has been approved.", "en"),
        ({"claim_status": "rechazado"}, "Su reclamación ha sido aprobada.", "es"),
        ({"status": "cancelled"}, "Su vuelo sale a tiempo.", "es"),
        ({"status": "rejected"}, "Ihre Erstattung wurde genehmigt.", "de"),
        ({"status": "rejected"}, "Vaš povrat je odobren.", "hr"),
        ({"status": "rejected"}, "Ваш возврат одобрен.", "ru"),
        # "accepted" is approval too, said or given (a tester's "your claim has been accepted" passed)
        ({"claim_status": "rejected"}, "Good news: your claim has been accepted.", "en"),
        ({"claim_status": "accepted"}, "I'm sorry, your claim was rejected.", "en"),
        ({"status": "abgelehnt"}, "Ihr Antrag wurde angenommen.", "de"),
        ({"claim_status": "rechazado"}, "Su reclamación ha sido aceptada.", "es"),
        ({"status": "odbijen"}, "Vaš zahtjev je prihvaćen.", "hr"),
    ],
)
def test_a_state_the_tool_gave_otherwise_fails(result: dict[str, Any], agent: str, language: str) -> None:
    found = agent_contradicts_tools(one_turn("What's the status?", result, agent, language, name="status"))
    assert found.outcome == "fail", found.detail
    assert "status gave" in found.detail


@pytest.mark.parametrize(
    ("result", "agent"),
    [
        ({"status": "cancelled"}, "I'm sorry, your flight has been cancelled."),
        ({"status": "cancelled"}, "Your flight was cancelled; the new one is on time."),
        ({"status": "cancelled", "new_flight_status": "on_time"}, "Your new flight is on time."),
        ({"refund_status": "rejected"}, "Your refund was not approved, I'm afraid."),
        ({"refund_status": "pending"}, "Once your refund is approved, you'll get an e-mail."),
        ({"refund_status": "pending"}, "If it is approved, the money arrives in a week."),
        ({"refund_status": "rejected"}, "Was it approved? No: it was rejected."),
        ({"status": "delayed"}, "We'll make sure your claim is handled on time."),
        ({"claim_status": "accepted"}, "Good news: your claim has been accepted."),
        ({"claim_status": "approved"}, "Your claim was accepted and the money is on its way."),
    ],
)
def test_the_state_the_tool_gave_passes(result: dict[str, Any], agent: str) -> None:
    assert outcome(one_turn("What's the status?", result, agent)) != "fail"


# -- 5. a regulation's number is nobody's -----------------------------------------------------------


@pytest.mark.parametrize(
    ("agent", "language"),
    [
        ("Under EU261 you are entitled to compensation.", "en"),
        ("Under eu two six one you are entitled to compensation.", "en"),
        ("Regulation (EC) No 261/2004 applies to your flight.", "en"),
        ("Per the EU-261 rules, the airline owes you a meal voucher.", "en"),
        ("Según el reglamento UE 261 tiene derecho a asistencia.", "es"),
        ("Nach der EU-Verordnung 261 steht Ihnen eine Betreuung zu.", "de"),
        ("Prema Uredbi 261/2004 imate pravo na obrok.", "hr"),
        ("По регламенту ЕС 261 вам положено питание.", "ru"),
    ],
)
def test_a_regulations_number_is_no_disclosure(agent: str, language: str) -> None:
    view = call([OPENING, ("My flight was cancelled, booking QX7K2P.", agent)], PASSENGER, language)
    assert said(view) == []
    assert said(call([OPENING, ("my flight was cancelled", agent)], None)) == []


def test_a_number_after_a_regulation_word_that_is_an_account_is_still_flagged() -> None:
    view = call(
        [OPENING, ("My flight was cancelled.", "Regulation says passenger 40311872 gets it.")], PASSENGER
    )
    assert "40311872" in said(view)


@pytest.mark.parametrize(
    ("result", "agent"),
    [
        (
            {"eligible": False},
            "Passengers are entitled to compensation for long delays, but yours was caused by a storm,"
            " so you're not eligible.",
        ),
        ({"refunded": False}, "You will be refunded within five days."),
        ({"refund_eligible": False, "voucher": True}, "You'll get a refund as a voucher."),
        ({"eligible": False}, "Whether you qualify for cash depends on the cause of the delay."),
        ({"requires_approval": False}, "Your change has been approved."),
    ],
)
def test_a_rule_explained_a_flag_of_another_kind_or_a_hedge_passes(result: dict[str, Any], agent: str) -> None:
    assert outcome(one_turn("Am I owed anything?", result, agent)) != "fail"


@pytest.mark.parametrize(
    "agent",
    [
        "You're booked; we're open Monday to Friday, 9 to 5.",
        "Done, you're booked, and remember we're open Monday to Friday.",
        "All set. The desk is open Monday from 9.",
    ],
)
def test_the_business_week_beside_a_booked_date_passes(agent: str) -> None:
    assert outcome(one_turn("Please rebook me.", REBOOKED, agent, name="rebook")) == "pass"


def test_a_weekday_booked_with_a_time_is_held_against_the_date() -> None:
    view = one_turn("Please rebook me.", REBOOKED, "Rebooked: see you on Tuesday at 08:40.", name="rebook")
    assert outcome(view) == "fail"


@pytest.mark.parametrize(
    ("agent", "language"),
    [
        ("Apart from the 300 euro excess, you won't have to pay anything else.", "en"),
        ("Con la franquicia de 300 euros, no tendrá que pagar nada más.", "es"),
        ("Osim franšize od 300 eura, nećete morati platiti ništa više.", "hr"),
    ],
)
def test_nothing_more_beside_the_excess_passes(agent: str, language: str) -> None:
    view = one_turn("Do I pay anything?", {"covered": True, "excess_eur": 300}, agent, language)
    assert outcome(view) == "pass"


@pytest.mark.parametrize(
    ("agent", "outcome_"),
    [
        ("Under Regulation EC 261 2004 you are owed 600 euros.", "pass"),
        ("Under EU 261 2004 you are owed 600 euros.", "pass"),
        ("Please call our partner desk on 0981 555 010.", "fail"),
    ],
)
def test_a_regulations_number_is_no_number_the_caller_never_gave(agent: str, outcome_: str) -> None:
    view = call([OPENING, ("Am I owed anything?", agent)], PASSENGER)
    assert agent_contradicts_facts(view).outcome == outcome_


def test_a_weekday_booked_is_held_against_the_date_the_agent_sent_a_tool_that_answered_ok() -> None:
    booked = tool("rebook", {"booking_ref": "QX7K2P", "date": "2026-12-09"}, {"ok": True})
    view = call([("Wednesday the 9th, please.", "Done, see you on Tuesday.", [booked])], PASSENGER)
    found = agent_contradicts_tools(view)
    assert found.outcome == "fail", found.detail
    assert "the call to rebook gave the date '2026-12-09'" in found.detail
    fine = call([("Wednesday the 9th, please.", "Done, see you on Wednesday.", [booked])], PASSENGER)
    assert outcome(fine) != "fail"


# -- 6. a number a tool gave, read out, contradicts no fact of the caller --------------------------


def test_a_tools_number_or_an_iso_date_read_out_is_no_contradiction_of_the_callers_facts() -> None:
    # trial3, a parcel line: "Your parcel is currently due on 2026-12-08" (the lookup's date) and a
    # depot's phone the tool gave cost a correct agent 7.5 points on every call
    parcel = {"due": "2026-12-08", "depot_phone": "0113 496 0123"}
    read = one_turn("Where is it?", parcel, "It's due on 2026-12-08; the depot is on 0113 496 0123.")
    assert agent_contradicts_facts(read).outcome == "pass"
    made_up = one_turn("Where is it?", parcel, "Call the depot on 0113 496 9999.")
    assert agent_contradicts_facts(made_up).outcome == "fail"  # a number no one gave still fails
