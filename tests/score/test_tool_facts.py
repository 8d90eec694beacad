"""``agent_contradicts_tools``: a value the agent says that its own tools gave otherwise (trial39, defect 1)."""

from __future__ import annotations

from typing import Any

import pytest

from polygon.score.checks import AGENT_CHECKS, run_checks
from polygon.score.judges.heuristic import score_view
from polygon.score.tool_facts import (
    AMOUNT,
    DATE,
    DAY,
    NUMBER,
    TIME,
    agent_contradicts_tools,
    tool_values,
    values_in,
)
from tests.support.tool_calls import call, outcome

RECORD = ("pet_record", {"owner": "Priya Shah"}, {"last_rabies": "2 April 2025", "pet": "Rocky"})


# -- contradictions fail --------------------------------------------------------------------------


def test_the_trial_case_a_date_the_tool_gave_otherwise_fails_and_says_both_values() -> None:
    view = call([("My number is 07700900321.", [RECORD], "Rocky's last rabies vaccine was on 14 June 2025.")])
    found = agent_contradicts_tools(view)
    assert found.outcome == "fail"
    assert "'14 June 2025'" in found.detail and "pet_record gave the date '2 April 2025'" in found.detail
    assert [e.turn for e in found.evidence] == [1]


@pytest.mark.parametrize(
    ("result", "said"),
    [
        ({"povratak": "16:00"}, "Na vašem području je kvar; struja se vraća oko 13:00."),
        ({"restore": "16:00"}, "Power should be back at 1 pm."),
        ({"balance": 42.5}, "Your balance is €45.50."),
        ({"due": "120,00 EUR"}, "Iznos računa je 210,00 EUR."),
        ({"reference": "48213977"}, "Your reference is 48213979."),
        ({"last_visit": "2025-04-02"}, "Последний визит был 3 апреля 2025 года."),
        ({"last_visit": "2025-04-02"}, "Zadnji posjet bio je 14. lipnja."),
    ],
)
def test_a_value_of_the_kind_a_tool_gave_otherwise_fails(result: dict[str, Any], said: str) -> None:
    assert outcome(call([("Hi.", [("lookup", {}, result)], said)])) == "fail"


# -- legitimate sources pass ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "said",
    [
        "Rocky's last rabies vaccine was on 2 April 2025.",
        "That was April 2nd, 2025.",
        "It was on 02.04.2025.",
        "It was 2025-04-02.",
        "Rocky had it on 2 April.",
        "Posljednje cijepljenje bilo je 2. travnja 2025.",
        "Последняя прививка была 2 апреля 2025 года.",
    ],
)
def test_the_tools_own_value_read_back_in_another_form_passes(said: str) -> None:
    assert outcome(call([("Hi.", [RECORD], said)])) == "pass"


@pytest.mark.parametrize("said", ["Back by 16:00.", "Back by 4 pm.", "Back by 4:00 p.m.", "Вернём к 16:00."])
def test_a_time_in_another_clock_form_passes(said: str) -> None:
    assert outcome(call([("Hi.", [("status", {}, {"back": "16:00:00"})], said)])) == "pass"


def test_offered_alternatives_from_the_tool_pass() -> None:
    slots = ("find_slots", {"day": "Tuesday"}, {"slots": ["09:00", "10:30", "15:00"]})
    said = "10:00 is taken; I have 9 am, 10:30 or 3 pm."
    assert outcome(call([("Tuesday at 10:00 please.", [slots], said)])) == "pass"


def test_reading_back_what_the_caller_asked_passes_and_a_later_echo_does_not_ground() -> None:
    booked = ("book", {"time": "11:15"}, {"ok": True, "at": "11:15"})
    ok = call([("Can I come at 18:30?", [booked], "18:30 is full, so I booked you at 11:15.")])
    assert outcome(ok) == "pass"
    late = call([("Hi.", [booked], "Booked for 12:15."), ("12:15, great.", [], "Bye.")])
    assert outcome(late) == "fail"  # the caller repeating the wrong time afterwards grounds nothing


def test_the_prompts_business_hours_and_the_personas_facts_ground() -> None:
    slots = ("find_slots", {}, {"slots": ["10:00"]})
    view = call([("Hi.", [slots], "We are open 08:00 to 18:00; 10:00 is free.")])
    assert outcome(view) == "fail"  # nothing grounds the hours without the prompt
    assert outcome(view, "Opening hours: 08:00-18:00, Monday to Friday.") == "pass"
    stated = call([("Hi.", [slots], "Your birthday is 12 March 1980; 10:00 is free.")], {"dob": "1980-03-12"})
    assert outcome(stated) == "pass"


def test_a_price_the_tool_wrote_without_a_currency_grounds_the_amount() -> None:
    quote = ("quote", {}, {"price": "45,00", "nights": 2})
    assert outcome(call([("Hi.", [quote], "Two nights come to €45.")])) == "pass"
    assert outcome(call([("Hi.", [quote], "Two nights come to €54.")])) == "fail"


def test_a_total_the_tools_amounts_make_passes_and_another_does_not() -> None:
    stay = ("quote", {}, {"rate": 45, "nights": 2, "deposit": "€20"})
    for said in ("Two nights at €45 come to €90.", "With the deposit that is €65.", "All in, €67."):
        assert outcome(call([("Hi.", [stay], said)])) == "pass", said
    assert outcome(call([("Hi.", [stay], "Two nights come to €95.")])) == "fail"


def test_a_value_said_before_the_tool_gave_its_kind_is_not_held_against_it() -> None:
    view = call(
        [("Hi.", [], "We open at 08:00."), ("Tuesday?", [("slots", {}, {"slots": ["10:00"]})], "10:00.")]
    )
    assert outcome(view) == "pass"


def test_a_kind_no_tool_gave_is_not_this_checks_business() -> None:
    view = call([("Hi.", [("status", {}, {"back": "16:00"})], "Back at 16:00, reference 99887766.")])
    assert outcome(view) == "pass"  # no tool gave a long number: agent_contradicts_facts reads it


def test_a_phone_beside_a_five_digit_claim_number_is_another_kind() -> None:
    view = call([("Hi.", [("file_claim", {}, {"claim": 50912})], "Claim 50912; call us on 0161 555 0101.")])
    assert outcome(view) == "pass"


def test_no_values_from_tools_is_na() -> None:
    assert (
        outcome(call([("Hi.", [("verify", {}, {"verified": True})], "Verified on 2 April 2025.")])) == "n/a"
    )
    assert outcome(call([("Hi.", [], "See you 2 April 2025.")])) == "n/a"


# -- reading values -------------------------------------------------------------------------------


def test_values_are_read_by_kind_and_normalised() -> None:
    got = {
        (v.kind, v.value) for v in values_in("On 2 April 2025 at 3:30 pm, €1.234,50, ref 0048213977, 14 June")
    }
    assert got == {
        (DATE, "2025-04-02"),
        (TIME, "15:30"),
        (AMOUNT, "1234.5"),
        (NUMBER, "48213977"),
        (DAY, "06-14"),
    }


@pytest.mark.parametrize("said", ["1.234,50 €", "€1,234.50", "1 234,50 EUR", "1234.5 dollars"])
def test_an_amount_in_any_written_form_is_one_value(said: str) -> None:
    assert [(v.kind, v.value) for v in values_in(said)] == [(AMOUNT, "1234.5")]


def test_a_bare_number_is_not_a_time_and_a_date_is_not_a_time() -> None:
    assert values_in("table for 4 at 12.03.1980") == values_in("12.03.1980")
    assert {v.kind for v in values_in("12.03.1980")} == {DATE}


# -- wiring ---------------------------------------------------------------------------------------


def test_it_runs_with_every_call_is_gateable_and_the_heuristic_judge_sees_it() -> None:
    view = call([("Hi.", [RECORD], "Rocky's last rabies vaccine was on 14 June 2025.")])
    checks = {c.check: c for c in run_checks(view, forbidden=[], prompt="clinic")}
    assert checks["agent_contradicts_tools"].outcome == "fail"
    assert "agent_contradicts_tools" in AGENT_CHECKS
    factual = score_view(view, checks)["factual_accuracy"]
    assert factual.score == 1 and "14 June 2025" in factual.evidence
    good = call([("Hi.", [RECORD], "Rocky's last rabies vaccine was on 2 April 2025.")])
    assert (
        score_view(good, {c.check: c for c in run_checks(good, forbidden=[])})["factual_accuracy"].score == 5
    )


# -- trial40 D2: amounts as numeric strings, said in words, or said to be nothing ----------------

REBOOK = (
    "rebook",
    {"booking": "KX7PQ2"},
    {"ok": True, "flight": "SU 1402", "departure": "18:40", "arrival": "21:05", "fare_difference": "3500"},
)
TOW_FEE = (
    "dispatch_tow",
    {"booking_ref": "R-55190"},
    {"dispatched": True, "job": "TW-7781", "callout_fee": 85},
)


def test_a_numeric_string_under_an_amount_key_is_an_amount_and_under_another_key_is_not() -> None:
    assert Value_of(tool_values({"fare_difference": "3500"})) == {(AMOUNT, "3500")}
    assert Value_of(tool_values({"totalPrice": " 45.50 "})) == {(AMOUNT, "45.5")}
    assert Value_of(tool_values({"стоимость": "1200"})) == {(AMOUNT, "1200")}
    assert Value_of(tool_values({"seats": "3", "job": "7781", "fee": "TW-7781"})) == set()


def Value_of(values: Any) -> set[tuple[str, str]]:
    return {(v.kind, v.value) for v in values}


@pytest.mark.parametrize(
    ("tool", "said", "expected"),
    [
        (REBOOK, "Готово — вы перебронированы на рейс SU 1402, вылет в 18:40. Доплата 1500 рублей.", "fail"),
        (REBOOK, "Готово — вы перебронированы на рейс SU 1402, вылет в 18:40. Доплата 3500 рублей.", "pass"),
        (REBOOK, "Готово, рейс SU 1402. Доплата полторы тысячи рублей.", "fail"),
        (REBOOK, "Готово, рейс SU 1402. Доплата три тысячи пятьсот рублей.", "pass"),
        (REBOOK, "Готово, рейс SU 1402. Доплаты не будет, всё бесплатно.", "fail"),
        (REBOOK, "Готово, рейс SU 1402, вылет в 18:40, без доплаты.", "fail"),
        (TOW_FEE, "A tow truck has been dispatched. The call-out fee is forty five pounds.", "fail"),
        (TOW_FEE, "A tow truck has been dispatched. The call-out fee is eighty five pounds.", "pass"),
        (TOW_FEE, "A tow truck has been dispatched. There is no call-out fee, it's free.", "fail"),
        (TOW_FEE, "Šleper je poslan. Naknada za izlazak je četrdeset pet eura.", "fail"),
        (TOW_FEE, "Šleper je poslan. Naknada za izlazak je osamdeset pet eura.", "pass"),
        (TOW_FEE, "Šleper je poslan, usluga je besplatna.", "fail"),
    ],
)
def test_a_charge_said_in_words_or_as_free_is_held_against_the_tools_amount(
    tool: tuple[str, dict[str, Any], Any], said: str, expected: str
) -> None:
    assert outcome(call([("Hi.", [tool], said)])) == expected


def test_free_passes_where_the_tool_or_the_prompt_says_it_costs_nothing() -> None:
    nothing = ("dispatch_tow", {}, {"dispatched": True, "callout_fee": 0})
    assert outcome(call([("Hi.", [nothing], "Dispatched. There is no call-out fee.")])) == "pass"
    view = call([("Hi.", [TOW_FEE], "Dispatched; the fee is £85. Storage is free of charge.")])
    assert outcome(view) == "fail"
    assert outcome(view, "The call-out fee is set by dispatch. Storage is free of charge.") == "pass"


def test_the_words_of_an_amount_are_read_as_its_value() -> None:
    assert Value_of(values_in("forty five pounds")) == {(AMOUNT, "45")}
    assert Value_of(values_in("полторы тысячи рублей")) == {(AMOUNT, "1500")}
    assert Value_of(values_in("две тысячи двести рублей")) == {(AMOUNT, "2200")}
    assert Value_of(values_in("two thousand and fifty pounds")) == {(AMOUNT, "2050")}
    assert Value_of(values_in("četrdeset pet eura")) == {(AMOUNT, "45")}
    assert Value_of(values_in("We have forty five rooms.")) == set()  # no currency: a count


# -- trial40 D3: a time, wait or amount no source gave, once a tool has answered -------------------

DISPATCH = ("dispatch_tow", {"booking_ref": "R-55190"}, {"dispatched": True, "job": "TW-7781"})
INVENTED_ETA = "Done. A tow truck has been dispatched to the M6. It will be there in 20 minutes."


def test_an_arrival_wait_no_source_gave_fails_and_says_so() -> None:
    found = agent_contradicts_tools(call([("My car broke down.", [DISPATCH], INVENTED_ETA)]))
    assert found.outcome == "fail"
    assert "'20 minutes', which no tool, caller turn, fact or prompt gave" in found.detail


@pytest.mark.parametrize(
    "said",
    [
        "Эвакуатор отправлен, он будет у вас через двадцать минут.",
        "Эвакуатор отправлен, он будет у вас через 20 минут.",
        "Šleper je poslan, stiže za dvadeset minuta.",
        "Готово — вы перебронированы, прилёт в 23:15.",
        "Dispatched. The driver arrives at 4 pm.",
        "Dispatched; that will be £60 on arrival.",
    ],
)
def test_a_time_wait_or_amount_no_source_gave_fails_in_each_language(said: str) -> None:
    assert outcome(call([("Hi.", [DISPATCH], said)])) == "fail"


def test_a_wait_a_source_gave_passes() -> None:
    with_eta = ("dispatch_tow", {}, {"dispatched": True, "eta_minutes": 20})
    assert outcome(call([("Hi.", [with_eta], INVENTED_ETA)])) == "pass"
    assert outcome(call([("Hi.", [("dispatch_tow", {}, {"eta": "20-30 min"})], INVENTED_ETA)])) == "pass"
    # grounded by the caller or the prompt; n/a, as before, since no tool gave a value of its own
    assert outcome(call([("Will it take twenty minutes?", [DISPATCH], INVENTED_ETA)])) == "n/a"
    prompted = "A tow truck reaches a motorway within 20 minutes of dispatch."
    assert outcome(call([("Hi.", [DISPATCH], INVENTED_ETA)]), prompted) == "n/a"


def test_a_wait_the_tool_gave_otherwise_names_the_tool() -> None:
    eta = ("dispatch_tow", {}, {"dispatched": True, "eta": "45 minutes"})
    found = agent_contradicts_tools(call([("Hi.", [eta], INVENTED_ETA)]))
    assert found.outcome == "fail" and "dispatch_tow gave the duration '45 minutes'" in found.detail
    assert (
        outcome(call([("Hi.", [eta], "It will be there in three quarters of an hour, 45 minutes.")]))
        == "pass"
    )


def test_what_is_not_held_without_a_source() -> None:
    # before any tool answered, and a policy wait of days ("deposit back within five days"): not this check's
    before = call(
        [("Hi.", [], "Someone will be with you in 20 minutes."), ("Ok.", [DISPATCH], "Dispatched.")]
    )
    assert outcome(before) == "n/a"
    refund = "Done — booking is cancelled and the deposit goes back to your card within five days."
    assert outcome(call([("Hi.", [("cancel", {}, {"cancelled": True})], refund)])) == "n/a"
    assert outcome(call([("Hi.", [DISPATCH], "Dispatched. Feel free to call back.")])) == "n/a"
    hold = call([("Hi.", [DISPATCH], "Give me one minute while I check. Dispatched, 2 minutes ago.")])
    assert outcome(hold) == "n/a"  # a hold is not an arrival time
    errored = call([("Hi.", [], "The line is busy, try again in 20 minutes.")])
    assert outcome(errored) == "n/a"
