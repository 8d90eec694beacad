"""The scripted caller in ru, de and hr: its own words, every question heard (tester45, tester46).

tester45 D1/D1b: a Russian persona with English fact keys said "Booking номер — …", "New дата
— …". D2 / tester46 D8: questions without "?" ("на какую дату …", "u kojem ste mjestu") were
read as offers or filler. D10: a turn asking for two facts got one, every time. D9: "сообщите
проводнику" (tell the conductor) was taken for a request for a fact. tester46 D7: a German key
``plz`` was not the "Postleitzahl" asked for. D12: "weil ich erfahren, wo … ist möchte".
"""

from __future__ import annotations

import re

import pytest

from polygon.events.families import PersonaSnapshot
from polygon.languages import caller_language
from polygon.simulate.callers.scripted import ScriptedCaller
from polygon.simulate.callers.understanding import asked, heard_turn

RAIL = {"name": "Анна Смирнова", "booking_no": "RZ-48213", "surname": "Смирнова", "new_date": "2026-12-20"}
MOVE = "перенести поездку на другую дату"
LATIN = re.compile(r"[A-Za-z]{2,}")


def _caller(
    language: str, goal: str, facts: dict[str, str], kind: str = "cooperative", outcome: str = "success"
) -> ScriptedCaller:
    persona = PersonaSnapshot(
        persona_id="p", type=kind, outcome=outcome, difficulty=2, goal=goal, facts=facts, language=language
    )
    caller = ScriptedCaller(persona, 7)
    caller.next(None)
    return caller


# -- D1: a key's English words are never said in another language -----------------------------


@pytest.mark.parametrize(
    ("language", "key", "value", "said"),
    [
        ("ru", "booking_no", "RZ-48213", "Номер брони — RZ-48213."),
        ("ru", "bookingRef", "RZ-48213", "Номер брони — RZ-48213."),
        ("ru", "new_date", "2026-12-20", "Новая дата — 2026-12-20."),
        ("ru", "ticket_number", "T-1", "Номер билета — T-1."),
        ("ru", "wagon_no", "7", "Номер — 7."),  # no label for "wagon": the neutral form
        ("de", "booking_no", "RZ-48213", "Buchungsnummer: RZ-48213."),
        ("de", "plz", "10115", "Postleitzahl: 10115."),
        ("hr", "booking_no", "RZ-48213", "Broj rezervacije mi je RZ-48213."),
        ("es", "cp", "28001", "Mi código postal es 28001."),
    ],
)
def test_a_fact_is_said_with_the_packs_words(language: str, key: str, value: str, said: str) -> None:
    caller = _caller(language, MOVE, {key: value})
    assert caller.phrase(key, value) == said


def test_no_latin_word_of_a_key_in_a_russian_sentence() -> None:
    caller = _caller("ru", MOVE, RAIL)
    for key, value in RAIL.items():
        spoken = caller.phrase(key, value)
        assert not {w for w in LATIN.findall(spoken) if w != "RZ"}, spoken


def test_a_surname_key_is_said_as_the_surname_not_as_who_is_calling() -> None:
    assert _caller("ru", MOVE, RAIL).phrase("surname", "Смирнова") == "Фамилия — Смирнова."
    assert _caller("hr", MOVE, {"prezime": "Horvat"}).phrase("prezime", "Horvat") == "Prezime mi je Horvat."
    assert _caller("ru", MOVE, RAIL).phrase("name", "Анна Смирнова") == "Меня зовут Анна Смирнова."


# -- D2 / D8: questions without "?" -----------------------------------------------------------


@pytest.mark.parametrize(
    ("language", "text"),
    [
        ("ru", "хорошо. на какую дату вы хотите перенести поездку"),
        ("ru", "хорошо. на какую дату перенести поездку"),
        ("ru", "в каком вагоне вы едете"),
        ("ru", "вы помните номер брони"),
        ("hr", "razumijem. u kojem ste mjestu"),
        ("hr", "dobro. na koju adresu da dođe tehničar"),
        ("hr", "znate li broj ugovora"),
    ],
)
def test_an_unmarked_question_is_heard_as_a_question(language: str, text: str) -> None:
    turn = heard_turn(text, caller_language(language))
    assert "question" in turn.acts, turn


def test_asked_the_new_date_without_a_question_mark_the_caller_gives_it() -> None:
    caller = _caller("ru", MOVE, RAIL)
    out = caller.next("хорошо. на какую дату вы хотите перенести поездку")
    assert (out.intent, out.text) == ("give_fact", "Новая дата — 2026-12-20.")
    busy = _caller("ru", MOVE, RAIL, kind="busy")
    assert busy.next("хорошо. на какую дату перенести поездку").text == "2026-12-20."


def test_a_croatian_place_question_without_a_mark_gets_the_place() -> None:
    facts = {"ime": "Ana Kovačević", "broj_ugovora": "7730912", "mjesto": "Osijek"}
    caller = _caller("hr", "prijaviti kvar interneta", facts)
    assert caller.next("razumijem. u kojem ste mjestu").text == "Mjesto mi je Osijek."


def test_a_statement_still_reads_as_one() -> None:
    ru = caller_language("ru")
    assert "question" not in heard_turn("поездка перенесена, новый билет придёт на почту.", ru).acts
    assert (
        "question"
        not in heard_turn("hvala, kvar je prijavljen pod brojem K-7781.", caller_language("hr")).acts
    )


# -- D10: every fact a turn asks for ----------------------------------------------------------


def test_two_facts_asked_at_once_get_both_in_the_order_asked() -> None:
    ask = "назовите, пожалуйста, номер бронирования и фамилию пассажира"
    caller = _caller("ru", MOVE, RAIL)
    assert caller.next(ask).text == "Номер брони — RZ-48213. Фамилия — Смирнова."
    busy = _caller("ru", MOVE, RAIL, kind="busy")
    assert busy.next(ask).text == "RZ-48213, Смирнова."
    en = _caller("en", "book a table", {"name": "Ann Reed", "dob": "1980-03-12"})
    assert (
        en.next("Can I have your name and date of birth?").text
        == "My name is Ann Reed. My date of birth is 1980-03-12."
    )


def test_a_part_of_one_fact_is_no_second_fact() -> None:
    facts = {"ime": "Đuro Šimić", "broj_korisnika": "40177305", "adresa": "Trnjanska 58"}
    caller = _caller("hr", "prijaviti nestanak struje", facts)
    assert caller.next("Možete li ponoviti adresu, ulicu i kućni broj?").text == "Adresa mi je Trnjanska 58."


def test_a_reason_before_the_question_does_not_change_the_fact_given() -> None:
    caller = _caller("ru", MOVE, RAIL)
    out = caller.next("это нужно, чтобы найти ваш билет. хорошо, назовите, пожалуйста, новую дату поездки")
    assert out.text == "Новая дата — 2026-12-20."


# -- D9: an instruction to tell someone else asks for nothing ----------------------------------


def test_told_to_alert_the_conductor_the_caller_gives_no_fact() -> None:
    fire = "это опасно. немедленно сообщите проводнику и позвоните по номеру сто двенадцать, отойдите подальше от дыма."
    caller = _caller("ru", "сообщить, что в вагоне пахнет дымом", RAIL, kind="confused", outcome="refusal")
    out = caller.next(fire)
    assert out.intent == "goodbye" and "RZ-48213" not in out.text


def test_a_request_for_a_fact_is_still_one() -> None:
    caller = _caller("ru", MOVE, RAIL)
    assert caller.next("назовите, пожалуйста, номер бронирования").text == "Номер брони — RZ-48213."
    assert "question" in heard_turn("сообщите, пожалуйста, ваш номер брони", caller_language("ru")).acts


# -- tester46 D7: abbreviations a team types as a key -----------------------------------------


@pytest.mark.parametrize(
    ("language", "question", "facts", "key"),
    [
        (
            "de",
            "danke. und ihre postleitzahl bitte",
            {"name": "Jonas Weber", "plz": "10115", "sendungsnr": "DE1"},
            "plz",
        ),
        (
            "de",
            "Wie lautet Ihre Kundennummer?",
            {"name": "Jonas Weber", "kdnr": "K-77", "plz": "10115"},
            "kdnr",
        ),
        ("es", "¿Y su código postal?", {"nombre": "Ana Ruiz", "cp": "28001", "dni": "12345678Z"}, "cp"),
        (
            "ru",
            "Какой у вас номер брони?",
            {"name": "Анна Смирнова", "booking_no": "RZ-1", "new_date": "2026-12-20"},
            "booking_no",
        ),
    ],
)
def test_an_abbreviated_key_is_the_fact_its_words_name(
    language: str, question: str, facts: dict[str, str], key: str
) -> None:
    assert asked(question, facts, "ein Paket umleiten", caller_language(language))[0] == key


# -- tester46 D12: the German goal sentence -----------------------------------------------------


def test_the_german_opening_keeps_its_verb_before_a_goal_that_holds_a_clause() -> None:
    persona = PersonaSnapshot(
        persona_id="p",
        type="cooperative",
        outcome="success",
        difficulty=1,
        goal="erfahren, wo mein Paket ist",
        facts={"name": "Jonas Weber"},
        language="de",
    )
    opening = ScriptedCaller(persona, 7).next(None).text
    assert (
        opening
        == "Guten Tag, hier spricht Jonas Weber. Ich rufe an, denn ich möchte erfahren, wo mein Paket ist."
    )
    assert not opening.endswith("möchte.")


# -- D10b: a request whose relative clause holds a done word ----------------------------------


@pytest.mark.parametrize(
    "turn",
    [
        "и фамилию пассажира, на которого оформлен билет",
        "спасибо. и фамилию пассажира, на которого оформлен билет",
        "это нужно, чтобы найти ваш билет. спасибо. и фамилию пассажира, на которого оформлен билет",
    ],
)
def test_the_surname_is_given_however_the_turn_starts(turn: str) -> None:
    facts = {"name": "Мария Орлова", "booking_no": "RZ-60344", "surname": "Орлова"}
    caller = _caller("ru", "вернуть деньги за билет", facts, kind="chatty", outcome="refusal")
    assert caller.next(turn).text.startswith("Фамилия — Орлова.")


def test_a_report_that_starts_like_an_ellipsis_still_reports() -> None:
    turn = heard_turn("и ваш заказ оформлен, номер RX-204881", caller_language("ru"))
    assert "question" not in turn.acts
