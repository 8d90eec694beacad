"""The scripted caller answers what was asked, and only that (tester41: D1, D11, D12, D14).

Each was a correct agent failed, or a wrong one helped, by the caller: a qualifier taken for
the fact asked ("the postcode on the account" answered with the account number), a fact
nobody asked for given to a question about something the caller does not hold, the goal's
object not given because it is not a fact, and a Croatian caller saying keys and ISO dates
as no Croatian caller would.
"""

from __future__ import annotations

from polygon.events.families import PersonaSnapshot
from polygon.languages import caller_language
from polygon.score.spoken import allowed_by, invented_against
from polygon.simulate.callers.scripted import ScriptedCaller
from polygon.simulate.callers.understanding import asked, asks_what_wanted, misheard

UTILITY = {"name": "Alice Brown", "account_no": "40311872", "postcode": "LS6 2QT"}


def _caller(kind: str, goal: str, facts: dict[str, str], language: str = "en") -> ScriptedCaller:
    persona = PersonaSnapshot(
        persona_id="p", type=kind, outcome="success", difficulty=2, goal=goal, facts=facts, language=language
    )
    return ScriptedCaller(persona, 7)


def test_a_qualifier_does_not_outvote_the_fact_the_question_names() -> None:
    en = caller_language("en")
    goal = "report a power cut"
    assert asked("And the postcode on the account, please?", UTILITY, goal, en) == ("postcode", True)
    assert asked("And the account number, please?", UTILITY, goal, en) == ("account_no", True)
    caller = _caller("busy", goal, UTILITY)
    caller.next(None)
    assert caller.next("Could you give me your account number, please?").text == "40311872."
    assert caller.next("And the postcode on the account, please?").text == "LS6 2QT."


def test_each_question_about_something_the_caller_lacks_gets_i_dont_know_not_a_fact() -> None:
    facts = {"name": "Tom Reed", "account_no": "50722913", "postcode": "M14 5RL"}
    caller = _caller("cooperative", "dispute my last bill", facts)
    caller.next(None)
    unknown = caller.manner.unknown
    for question in (
        "What is your date of birth?",
        "I need your meter reading, please. What does the meter show?",
        "And the last four digits of the card you pay with?",
    ):
        out = caller.next(question)
        assert (out.text, out.intent) == (unknown, "no_fact"), (question, out)
    assert caller.next("And your postcode, please?").text == "My postcode is M14 5RL."


def test_the_same_unknown_question_asked_at_once_again_gets_the_goal_pursued() -> None:
    caller = _caller("cooperative", "dispute my last bill", {"name": "Tom Reed"})
    caller.next(None)
    assert caller.next("What does the meter show?").intent == "no_fact"
    assert caller.next("What does the meter show?").intent != "no_fact"  # no "I don't know" loop


def test_the_same_thing_asked_again_in_other_words_is_not_a_new_question() -> None:
    persona = PersonaSnapshot(
        persona_id="p",
        type="cooperative",
        outcome="callback",
        difficulty=2,
        goal="ask about braces for my son",
        facts={"name": "Ivan Horvat", "phone": "098 321 7788"},
    )
    caller = ScriptedCaller(persona, 7)
    caller.next(None)
    assert caller.next("Which day would you prefer for the appointment?").intent == "no_fact"
    again = caller.next("Sorry, which day was that? We're open Monday to Friday.")
    assert again.intent == "ask_callback", again  # it has no day: it asks for what it came for


def test_which_thing_do_you_need_gets_the_goal_when_no_fact_names_it() -> None:
    hr, en = caller_language("hr"), caller_language("en")
    assert asks_what_wanted("Koji lijek trebate?", hr) and asks_what_wanted("Which size do you need?", en)
    assert not asks_what_wanted("What does the meter show?", en)
    assert not asks_what_wanted("Trebate li još nešto?", hr)  # no question word: "anything else?"
    caller = _caller("chatty", "provjeriti imate li ibuprofen na zalihi", {"ime": "Vesna Radić"}, "hr")
    caller.next(None)
    out = caller.next("Koji lijek trebate?")
    assert out.intent == "restate_goal" and "ibuprofen" in out.text, out


def test_a_croatian_caller_says_keys_and_dates_as_a_croatian_would() -> None:
    facts = {"ime": "Ana Kovač", "oib": "12345678903", "datum_rodjenja": "1975-04-12"}
    caller = _caller("cooperative", "obnoviti recept", facts, "hr")
    caller.next(None)
    assert caller.next("Recite mi vaš OIB, molim.").text == "OIB mi je 12345678903."
    said = caller.next("Vaš datum rođenja, molim?").text
    assert said == "Datum rođenja mi je 12. 4. 1975.", said
    assert invented_against(said, set(allowed_by("1975-04-12"))) == []  # still within its facts
    assert invented_against("Datum rođenja mi je 13. 4. 1975.", set(allowed_by("1975-04-12")))
    written = _caller("cooperative", "obnoviti recept", {**facts, "datum_rodjenja": "12.04.1975"}, "hr")
    written.next(None)
    assert written.next("Vaš datum rođenja, molim?").text == "Datum rođenja mi je 12.04.1975."  # as written
    english = _caller("cooperative", "renew a prescription", {"name": "Ana Kovac", "dob": "1975-04-12"})
    english.next(None)
    assert english.next("And your date of birth?").text == "My date of birth is 1975-04-12."


def test_a_date_read_back_in_another_form_is_the_same_date() -> None:
    hr = caller_language("hr")
    facts = {"datum_rodjenja": "1975-04-12"}
    assert misheard("Datum rođenja 12.04.1975, je li točno?", facts, hr) == []
    wrong = misheard("Datum rođenja 13.04.1975, je li točno?", facts, hr)
    assert [(w.key, w.said) for w in wrong] == [("datum_rodjenja", "13.04.1975")]
    caller = _caller("cooperative", "obnoviti recept", facts, "hr")
    caller.next(None)
    assert caller.next("Datum rođenja 13.04.1975, je li točno?").text == "Ne — 12. 4. 1975, a ne 13.04.1975."
