"""The scripted caller hears an agent as a voice transcript writes it (tester42: D9, D10).

A speech pipeline drops "?" and writes German without its letters ("fuer" for "für"). Read
by its marks alone, "sure thing, what's the booking reference" asked nothing (the caller
volunteered its name, the agent asked again, the call looped), and "was kann ich fuer sie
tun?" asked the distrustful caller for personal data.
"""

from __future__ import annotations

from polygon.events.families import PersonaSnapshot
from polygon.languages import caller_language
from polygon.simulate.callers.scripted import ScriptedCaller
from polygon.simulate.callers.understanding import asks_by_form, heard_turn, respelled, spelling_map

HOTEL = {
    "name": "Anna Lindqvist",
    "booking_ref": "BK-20418",
    "last_name": "Lindqvist",
    "new_check_in": "June 14",
}
KFZ = {"name": "Stefan Müller", "policennummer": "KV-483920", "geburtsdatum": "14.03.1982"}


def _caller(
    kind: str, goal: str, facts: dict[str, str], language: str = "en", outcome: str = "success"
) -> ScriptedCaller:
    persona = PersonaSnapshot(
        persona_id="p", type=kind, outcome=outcome, difficulty=2, goal=goal, facts=facts, language=language
    )
    return ScriptedCaller(persona, 7)


def test_a_question_without_its_mark_gets_the_fact_it_asks_for() -> None:
    caller = _caller("cooperative", "move the check-in of the booking to June 14", HOTEL)
    caller.next(None)
    for question, said in (
        ("sure thing, what's the booking reference", "BK-20418"),
        ("could you give me your booking reference please.", "BK-20418"),
        ("thanks. and the surname on the reservation", "Lindqvist"),
        ("tell me your surname", "Lindqvist"),
        ("okay so what new check-in date would you like", "June 14"),
    ):
        out = caller.next(question)
        assert out.intent == "give_fact" and said in out.text, (question, out)


def test_the_form_asks_in_every_language_and_statements_do_not() -> None:
    asking = {
        "en": ["sure thing, what's the booking reference", "and your date of birth", "Could you spell that"],
        "de": [
            "gut, wie lautet ihre policennummer",
            "und ihr geburtsdatum",
            "Können Sie mir das buchstabieren",
        ],
        "hr": ["dobro, koji je vaš broj korisnika", "a vaš datum rođenja"],
        "ru": ["хорошо, какой у вас номер полиса", "а ваша дата рождения"],
        "es": ["muy bien, cuál es su número de póliza", "y su fecha de nacimiento"],
    }
    stating = {
        "en": [
            "and the room is on the fourth floor",
            "Your room is on floor 4, which has a sea view",
            "Thanks for calling",
        ],
        "de": ["Ich mache, was ich kann", "und die Zahlung ist unterwegs"],
        "hr": ["a vaš račun je plaćen"],
        "ru": ["а ваш заказ будет завтра"],
        "es": ["y su cita es mañana"],
    }
    for code, sentences in asking.items():
        for sentence in sentences:
            assert asks_by_form(sentence, caller_language(code)), (code, sentence)
    for code, sentences in stating.items():
        for sentence in sentences:
            assert not asks_by_form(sentence, caller_language(code)), (code, sentence)


def test_a_turn_that_marks_its_questions_is_read_by_its_marks() -> None:
    en = caller_language("en")
    assert "question" in heard_turn("Thanks. And the surname on the reservation", en).acts
    marked = heard_turn("And the surname on the reservation. Is that all?", en)
    assert [s.act for s in marked.sentences][0] != "question"  # a writer of "?" would have used it
    assert "wants" in heard_turn("harbour view hotel, sam speaking, how can i help", en).acts


def test_a_greeting_without_its_mark_still_asks_what_is_wanted() -> None:
    caller = _caller("distrustful", "cancel the booking and get a refund", HOTEL, outcome="refusal")
    caller.next(None)
    out = caller.next("harbour view hotel, sam speaking, how can i help")
    assert out.intent == "restate_goal", out


def test_german_written_without_umlauts_reads_as_the_file_spells_it() -> None:
    de = caller_language("de")
    spelled = spelling_map(de, ("stefan", "müller"))
    assert respelled("Was kann ich fuer Sie tun? Danke, Herr Mueller. Auf Wiederhoeren.", spelled) == (
        "Was kann ich für Sie tun? Danke, Herr Müller. Auf Wiederhören."
    )
    assert respelled("Ihre neue Adresse, bitte.", spelled) == "Ihre neue Adresse, bitte."  # "neue" is no "nü"
    assert spelling_map(caller_language("en"), ("müller",)) == {}


def test_the_distrustful_caller_hears_fuer_sie_as_what_can_i_do_for_you() -> None:
    goal = "die Bankverbindung ändern"
    for greeting in (
        "rheinland versicherung, guten tag. was kann ich fuer sie tun?",
        "rheinland versicherung, guten tag. was kann ich für sie tun?",
    ):
        caller = _caller("distrustful", goal, KFZ, language="de", outcome="refusal")
        caller.next(None)
        out = caller.next(greeting)
        assert out.intent == "restate_goal", (greeting, out)
    caller = _caller("cooperative", goal, KFZ, language="de")
    caller.next(None)
    assert caller.next("Vielen Dank fuer Ihren Anruf, auf Wiederhoeren.").intent == "goodbye"


def test_a_name_read_back_without_umlauts_is_not_corrected() -> None:
    caller = _caller("cooperative", "die Bankverbindung ändern", KFZ, language="de")
    caller.next(None)
    out = caller.next("Vielen Dank, Mueller. Wie lautet Ihre Policennummer?")
    assert out.intent == "give_fact" and "KV-483920" in out.text, out


def test_the_distrustful_caller_goes_on_once_told_why_not_when_only_asked_again() -> None:
    ask = "koennten sie mir bitte ihre policennummer sagen?"
    why = "Das brauche ich, um Sie als Versicherungsnehmer zu identifizieren."
    caller = _caller("distrustful", "die Bankverbindung ändern", KFZ, language="de", outcome="refusal")
    caller.next(None)
    caller.next("rheinland versicherung, guten tag. was kann ich fuer sie tun?")
    assert caller.next(ask).intent == "challenge"
    out = caller.next(f"{why} {ask}")
    assert out.intent == "give_fact" and "KV-483920" in out.text, out
    stubborn = _caller("distrustful", "die Bankverbindung ändern", KFZ, language="de", outcome="refusal")
    stubborn.next(None)
    stubborn.next("rheinland versicherung, guten tag. was kann ich fuer sie tun?")
    assert [stubborn.next(ask).intent for _ in range(2)] == ["challenge", "challenge"]
