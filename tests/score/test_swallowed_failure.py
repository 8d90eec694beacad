"""An outcome reported over a failed tool call is no success (trial40 defects 1, 8(b), 13).

The tester's shapes: dispatch_tow answered 500 (or ``{"error": "dispatch unavailable"}``) and
the agent said "Done. A tow truck has been dispatched …" (en), "Готово — вы перебронированы …"
(ru); the call passed at 100 with tool_faults "the call recovered" and tool_use 5. An agent
that tells the caller, retries successfully, transfers or promises a callback still passes.
"""

from __future__ import annotations

import pytest

from polygon.events import Expectation
from polygon.languages import LANGUAGES, load_language, read_turn
from polygon.score.checks import goal_reached, tool_faults
from polygon.score.judges.heuristic import HeuristicJudge, score_view
from polygon.score.swallowed import swallowed
from tests.support.tool_turns import FAIL_500, FAIL_IN_BAND, OK, VERIFIED, Tool, call

DONE_EN = "Done. A tow truck has been dispatched to the A34 layby. The driver will call you when close."
DONE_RU = "Готово — вы перебронированы на рейс SU 1402, вылет в 18:40. Доплата 0 рублей."
DONE_HR = "Gotovo, šlepna služba je na putu prema vama."


@pytest.mark.parametrize(
    ("failure", "said", "language"),
    [
        (FAIL_500, DONE_EN, "en"),
        (FAIL_IN_BAND, DONE_EN, "en"),
        (FAIL_500, DONE_RU, "ru"),
        (("rebook", "}{not json", "", "malformed"), DONE_RU, "ru"),
        (("rebook", {"ok": False}, "", ""), DONE_RU, "ru"),
        (("dispatch_tow", {"status": "failed"}, "", ""), DONE_HR, "hr"),
        (FAIL_IN_BAND, DONE_EN, None),  # an imported call: no persona, no language
        # trial5: "done" beside a transfer tells no failure; the handover is for the rest
        (
            ("rebook", None, "500 Internal Server Error", "server_error"),
            "Listo, su vuelo está cambiado al IB3421. Le paso con un compañero para enviarle la tarjeta de embarque.",
            "es",
        ),
        (
            ("create_plan", None, "500 Internal Server Error", "server_error"),
            "Done, your payment plan is set up. I'll put you through to a colleague to set up the direct debit.",
            "en",
        ),
    ],
)
def test_an_outcome_reported_over_a_failed_tool_fails(failure: Tool, said: str, language: str | None) -> None:
    view = call([([VERIFIED], "Thanks, you are verified."), ([failure], said)], language=language)
    (hidden,) = swallowed(view)
    assert hidden.call.tool == failure[0] and hidden.report.turn == 2
    faults = tool_faults(view)
    assert faults.outcome == "fail" and "not recovered" in faults.detail
    assert "the call recovered" not in faults.detail
    reached = goal_reached(view)
    assert reached.outcome == "fail" and f"after {failure[0]} failed" in reached.detail
    if language is not None:  # the failing gate says why, never just "success (…)"
        assert reached.detail.startswith("success not reached (inferred without expect (weaker))")
    scores = score_view(view, {c.check: c for c in (faults, reached)})
    assert scores["tool_use"].score == 1 and scores["goal_achievement"].score < 5


@pytest.mark.parametrize(
    ("replies", "language"),
    [
        # retried, the retry succeeded
        (
            [
                ([FAIL_500], "I'm sorry, our dispatch system did not respond. I'll try once more."),
                ([OK], DONE_EN),
            ],
            "en",
        ),
        ([([FAIL_500, OK], DONE_EN)], "en"),
        # told the caller it failed, in the report's own turn
        ([([FAIL_IN_BAND], "I'm sorry, dispatch is down, the truck could not be booked.")], "en"),
        ([([FAIL_500], "К сожалению, не удалось оформить перебронирование.")], "ru"),
        ([([FAIL_500], "Nažalost, sustav ne radi, pokušat ću ponovno kasnije.")], "hr"),
        # transferred, or promised a callback
        ([([FAIL_500], "I'm putting you through to a colleague who can dispatch by radio.")], "en"),
        ([([FAIL_500], "Соединяю вас с коллегой, оставайтесь на линии.")], "ru"),
        ([([FAIL_500], "A colleague will call you back within the hour.")], "en"),
        # a softer report beside the transfer hands the caller on (no "done" word)
        ([([FAIL_500], "I've noted your request. I'm transferring you to a colleague.")], "en"),
        ([([FAIL_500], "Thanks, you're verified. I'll transfer you to a colleague to finish the booking.")], "en"),
        # a failed verification answered as such, then a verified one, then the dispatch
        (
            [
                (
                    [("verify_booking", {"verified": False}, "", "")],
                    "I can't find that booking, please check it.",
                ),
                ([VERIFIED, OK], DONE_EN),
            ],
            "en",
        ),
    ],
)
def test_an_agent_that_tells_retries_or_hands_over_is_not_flagged(
    replies: list[tuple[list[Tool], str]], language: str
) -> None:
    view = call(replies, language=language)
    assert swallowed(view) == []
    assert "not recovered" not in tool_faults(view).detail
    assert "failed" not in goal_reached(view).detail


def test_expect_says_how_many_calls_answered_errors() -> None:
    """D13: two dispatch_tow calls answered 500, the agent transferred: not "no call was made"."""
    expect = Expectation(calls={"dispatch_tow": {}})
    view = call(
        [
            ([FAIL_500], "I'm sorry, our dispatch system did not respond. I'll try once more."),
            ([FAIL_500], "I'm sorry, dispatch is down. I'm putting you through to a colleague."),
        ],
        ended="transfer",
        expect=expect,
    )
    reached = goal_reached(view)
    assert reached.outcome == "fail"
    assert "no successful dispatch_tow call (2 calls answered errors)" in reached.detail
    assert "was made" not in reached.detail


def test_expect_fails_an_outcome_reported_over_a_failure_it_does_not_name() -> None:
    """``expect`` says only how the call ends: the swallowed failure still fails the goal."""
    view = call([([FAIL_500], DONE_EN)], expect=Expectation(end=["caller_done"]))
    reached = goal_reached(view)
    assert reached.outcome == "fail" and "after dispatch_tow failed" in reached.detail


def test_the_heuristic_judge_version_moved() -> None:
    assert int(HeuristicJudge.prompt_version.removeprefix("heuristic-")) >= 3  # 4: tests/score/test_danger.py


# The caller's own fault, named in the report ("kvar", "outage", "Störung", "incidencia",
# "сбой"), tells the caller nothing failed: a report over a failed tool is still swallowed.
OUTAGE_REPORTS = [
    ("en", "Done — your outage is logged, reference OUT-5521."),
    ("hr", "Gotovo — kvar na adresi Ilica 5 prijavljen je pod brojem K-2231."),
    ("ru", "Готово — сбой электроснабжения зарегистрирован, номер З-5521."),
    ("de", "Erledigt — Ihre Störung ist gemeldet, Nummer ST-3310."),
    ("es", "Listo — su incidencia está registrada con la referencia INC-2210."),
]

# A fault of the business's own system, told beside the report: not swallowed.
SYSTEM_FAULTS = [
    ("en", "We're having an outage on our booking system; your request is logged for later."),
    ("hr", "Sustav je trenutno u kvaru; zahtjev je zaprimljen i obradit ćemo ga kasnije."),
    ("ru", "У нас сбой в системе; заявка зарегистрирована, обработаем её позже."),
    ("de", "Wir haben eine Störung im System; Ihre Meldung ist erfasst und wird später bearbeitet."),
    ("es", "Tenemos una incidencia en el sistema; su aviso está registrado y lo tramitaremos después."),
]


@pytest.mark.parametrize(("language", "said"), OUTAGE_REPORTS)
def test_a_fault_named_in_the_report_tells_no_failure(language: str, said: str) -> None:
    view = call([([FAIL_500], said)], language=language)
    (hidden,) = swallowed(view)
    assert hidden.report.turn == 1, said


@pytest.mark.parametrize(("language", "said"), SYSTEM_FAULTS)
def test_a_fault_of_the_business_system_told_beside_the_report_is_not_swallowed(language: str, said: str) -> None:
    assert swallowed(call([([FAIL_500], said)], language=language)) == [], said


def test_the_fault_rows_cover_every_language() -> None:
    assert {lang for lang, _ in OUTAGE_REPORTS} == {lang for lang, _ in SYSTEM_FAULTS} == set(LANGUAGES)


# The caller's own trouble named in the report ("the problem with your boiler", "ne radi",
# "не работает", "funktioniert nicht", "fallo", a technician): it tells of no failure of
# the business's, so a report over a failed tool is still swallowed (negdone2).
CALLER_TROUBLE = [
    ("en", "Done — I've logged the problem with your boiler, reference BO-5521."),
    ("en", "Done — your heating is not working, so an engineer is booked for Tuesday."),
    ("en", "Done — our technical team will sort the trouble with your heating tomorrow."),
    ("hr", "Gotovo — prijavljen je problem s bojlerom, tehničar dolazi sutra."),
    ("hr", "Gotovo — grijanje vam ne radi, pa je majstor naručen za utorak."),
    ("ru", "Готово — проблема с котлом зарегистрирована, техническая служба приедет завтра."),
    ("ru", "Готово — у вас не работает отопление, мастер записан на вторник."),
    ("de", "Erledigt — Ihr Problem mit der Heizung ist gemeldet, der technische Dienst kommt morgen."),
    ("de", "Erledigt — Ihre Heizung funktioniert nicht, ein Techniker ist für Dienstag gebucht."),
    ("es", "Listo — su avería está registrada; el fallo de la caldera se revisará mañana."),
    ("es", "Listo — su calefacción no funciona, el técnico está reservado para el martes."),
]

# The business's own system in trouble, told beside the report: not swallowed.
SYSTEM_TROUBLE = [
    ("en", "We're having trouble with our booking system; your request is logged for later."),
    ("en", "There was a problem with the system, but your request is logged for later."),
    ("hr", "Sustav trenutno ne radi; zahtjev je zaprimljen i obradit ćemo ga kasnije."),
    ("ru", "Система не отвечает; заявка зарегистрирована, обработаем её позже."),
    ("de", "Wir haben ein technisches Problem; Ihre Meldung wird später bearbeitet, sie ist vereinbart."),
    ("es", "Hay un fallo en el sistema; su aviso está registrado y lo tramitaremos después."),
]


@pytest.mark.parametrize(("language", "said"), CALLER_TROUBLE)
def test_the_callers_own_trouble_named_in_the_report_tells_no_failure(language: str, said: str) -> None:
    (hidden,) = swallowed(call([([FAIL_500], said)], language=language))
    assert hidden.report.turn == 1, said


@pytest.mark.parametrize(("language", "said"), SYSTEM_TROUBLE)
def test_the_business_systems_trouble_told_beside_the_report_is_not_swallowed(language: str, said: str) -> None:
    assert "outcome" in read_turn(said, load_language(language)).acts, said  # a report, so it could be
    assert swallowed(call([([FAIL_500], said)], language=language)) == [], said


def test_the_trouble_rows_cover_every_language() -> None:
    assert {lang for lang, _ in CALLER_TROUBLE} == {lang for lang, _ in SYSTEM_TROUBLE} == set(LANGUAGES)


# The caller's own error named in the report ("the error on your bill", "greška na vašem
# računu", "ошибка в вашем заявлении", "der Fehler in Ihrer Rechnung", "el error en su
# factura"): no failure of the business's, so a report over a failed tool is still swallowed.
CALLER_ERROR = [
    ("en", "Done — I've corrected the error on your bill, reference BL-5521."),
    ("en", "Done — there was an error on your bill, and it is corrected now, reference BL-5521."),
    ("hr", "Gotovo — greška na vašem računu je ispravljena, broj prijave R-2231."),
    ("hr", "Gotovo — došlo je do greške na vašem računu, sada je ispravljena."),
    ("ru", "Готово — ошибка в вашем заявлении исправлена, номер З-5521."),
    ("de", "Erledigt — der Fehler in Ihrer Rechnung ist korrigiert, Nummer RE-3310."),
    ("es", "Listo — el error en su factura está corregido, referencia FAC-2210."),
]

# An error of the business's own system, told beside the report: not swallowed.
SYSTEM_ERROR = [
    ("en", "There was an error on our side, but your request is logged for later."),
    ("en", "Sorry, an error occurred. Your request is logged for later."),
    ("hr", "Došlo je do greške u sustavu; zahtjev je zaprimljen i obradit ćemo ga kasnije."),
    ("hr", "Došlo je do greške. Zahtjev je zaprimljen i obradit ćemo ga kasnije."),
    ("ru", "Произошла ошибка в системе; заявка зарегистрирована, обработаем её позже."),
    ("de", "Bei uns ist ein Fehler aufgetreten; Ihre Meldung ist erfasst und wird später bearbeitet."),
    ("es", "Se ha producido un error en el sistema; su aviso está registrado y lo tramitaremos después."),
]


@pytest.mark.parametrize(("language", "said"), CALLER_ERROR)
def test_the_callers_own_error_named_in_the_report_tells_no_failure(language: str, said: str) -> None:
    assert "outcome" in read_turn(said, load_language(language)).acts, said
    (hidden,) = swallowed(call([([FAIL_500], said)], language=language))
    assert hidden.report.turn == 1, said


@pytest.mark.parametrize(("language", "said"), CALLER_ERROR)
def test_the_callers_own_error_tells_no_failure_in_an_imported_call(language: str, said: str) -> None:
    # language unknown: every pack reads the turn, and none may take the caller's error for a failure
    (hidden,) = swallowed(call([([FAIL_500], said)], language=None))
    assert hidden.report.turn == 1, said


@pytest.mark.parametrize(("language", "said"), SYSTEM_ERROR)
def test_an_error_of_the_business_system_told_beside_the_report_is_not_swallowed(language: str, said: str) -> None:
    assert "outcome" in read_turn(said, load_language(language)).acts, said  # a report, so it could be
    assert swallowed(call([([FAIL_500], said)], language=language)) == [], said


def test_the_error_rows_cover_every_language() -> None:
    assert {lang for lang, _ in CALLER_ERROR} == {lang for lang, _ in SYSTEM_ERROR} == set(LANGUAGES)


# A failure word said of the caller's own thing ("your payment failed", "su pago ha fallado",
# "vaša uplata nije prošla"): no failure of the business's, so the report over a failed tool is
# still swallowed (acts45; each row read as told before).
CALLER_FAILED = [
    ("en", "Done — your payment failed, so I've logged a fresh request, reference PM-5521."),
    ("en", "Done — your card didn't go through, so the order is logged for cash on delivery."),
    ("hr", "Gotovo — vaša uplata nije prošla, narudžba je zaprimljena za plaćanje pouzećem."),
    ("ru", "Готово — ваш номер недоступен, заказ оформлен с оплатой при получении."),
    ("de", "Erledigt — Ihre Zahlung ist nicht durchgegangen, der Termin ist für Barzahlung gebucht."),
    ("es", "Listo — su pago ha fallado, así que la cita está reservada para pagar en la clínica."),
]

# The business's own service down, told beside the report: not swallowed (each row read as
# telling nothing before: "dispatch is down" alone was no failure told).
BUSINESS_DOWN = [
    ("en", "Dispatch is down, so your request is logged for later."),
    ("en", "Our booking service is down right now; your request is logged for later."),
    ("hr", "Dispečerska služba ne radi; zahtjev je zaprimljen i obradit ćemo ga kasnije."),
    ("ru", "Наша диспетчерская не работает; заявка зарегистрирована, обработаем её позже."),
    ("de", "Unsere Disposition ist gerade ausgefallen; Ihre Meldung ist erfasst und wird später bearbeitet."),
    ("es", "Nuestra central de reservas no funciona; su aviso está registrado y lo tramitaremos después."),
]


@pytest.mark.parametrize(("language", "said"), CALLER_FAILED)
@pytest.mark.parametrize("imported", [False, True])
def test_a_failure_of_the_callers_own_thing_in_the_report_tells_none(language: str, said: str, imported: bool) -> None:
    assert "outcome" in read_turn(said, load_language(language)).acts, said
    (hidden,) = swallowed(call([([FAIL_500], said)], language=None if imported else language))
    assert hidden.report.turn == 1, said


@pytest.mark.parametrize(("language", "said"), BUSINESS_DOWN)
def test_the_business_service_down_told_beside_the_report_is_not_swallowed(language: str, said: str) -> None:
    assert "outcome" in read_turn(said, load_language(language)).acts, said  # a report, so it could be
    assert swallowed(call([([FAIL_500], said)], language=language)) == [], said


def test_the_failed_and_down_rows_cover_every_language() -> None:
    assert {lang for lang, _ in CALLER_FAILED} == {lang for lang, _ in BUSINESS_DOWN} == set(LANGUAGES)


EMPTY_RX: Tool = ("find_prescription", {"drug": "Metformin", "strength": "1000 mg", "refills_left": 0}, "", "")


@pytest.mark.parametrize(
    ("said", "language"),
    [
        ("Ich sehe Ihr Rezept über Metformin 1000 mg. Erledigt — Ihr Rezept ist nachbestellt.", "de"),
        ("I can see your Metformin 1000 mg. Done, your refill has been ordered.", "en"),
    ],
)
def test_an_outcome_reported_after_a_tool_counted_none_left_fails(said: str, language: str) -> None:
    # trial4, a German pharmacy line: find_prescription answered refills_left: 0 and the agent
    # said the refill was ordered without ordering it; expect (no_calls: [order_refill]) held and
    # the call passed at 98.75.
    view = call([([VERIFIED], "Danke."), ([EMPTY_RX], said)], language=language)
    (hidden,) = swallowed(view)
    assert hidden.call.tool == "find_prescription" and "refills_left: 0" in hidden.why
    assert goal_reached(view).outcome == "fail"
    # said as what it is: the tool answered; it did not fail, and no fault was met
    assert "after find_prescription had none to give (it answered refills_left: 0)" in hidden.phrase()
    assert tool_faults(view).detail.startswith("an outcome over nothing to deliver: the agent reported")


def test_an_outcome_reported_after_a_tool_said_unavailable_fails() -> None:
    # trial4, a Russian hotel line: check_availability answered available: false and the agent
    # said "Готово, номер забронирован" without booking; expect (no_calls: [book_room]) held.
    full: Tool = ("check_availability", {"available": False}, "", "")
    view = call([([full], "Готово, номер забронирован с 31 декабря по 2 января.")], language="ru")
    (hidden,) = swallowed(view)
    assert hidden.call.tool == "check_availability" and "available: false" in hidden.why
    assert goal_reached(view).outcome == "fail"


@pytest.mark.parametrize(
    ("tools", "said"),
    [
        # the refusal told: no refill left, ask the doctor
        (
            [EMPTY_RX],
            "Leider sind keine Wiederholungen mehr übrig, deshalb kann ich es nicht nachbestellen.",
        ),
        # refills left, or a count that is no "left"
        ([("find_prescription", {"refills_left": 2}, "", ""), ("order_refill", {"ok": True}, "", "")],
         "Erledigt — Ihr Rezept ist nachbestellt."),
        ([("pay_invoice", {"ok": True, "balance": 0}, "", "")], "Erledigt — die Rechnung ist bezahlt."),
        ([("find_prescription", {"refills_left": False}, "", "")], "Erledigt — Ihr Rezept ist nachbestellt."),
        # a yes/no about something else beside the thing ("cancel_available"), or available
        ([("get_order", {"status": "shipped", "cancel_available": False}, "", "")], "Ihr Paket wurde versandt."),
        ([("check_rooms", {"available": True}, "", ""), ("book", {"ok": True}, "", "")], "Erledigt — gebucht."),
        # unavailable, told
        ([("check_rooms", {"available": False}, "", "")], "Leider ist an diesem Tag kein Zimmer frei."),
    ],
)
def test_none_left_told_or_not_counted_is_not_flagged(tools: list[Tool], said: str) -> None:
    assert swallowed(call([(tools, said)], language="de")) == []
