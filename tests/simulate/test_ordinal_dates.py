"""An ordinal date's dot ends no sentence ("den 10. Dezember", "10. prosinca").

A new user's German parcel line: "Die Zustellung ist für Donnerstag, den 10. Dezember an
Invalidenstraße 12, 10115 Berlin geplant. An welche Adresse soll ich das Paket umleiten?" was
split after "10.": "Dezember an Invalidenstraße 12, … geplant." read as an outcome naming the
caller's own address, so the caller said goodbye to a question and the correct agent failed
(``redirect_parcel`` was never called). A day's number and its dot followed by a month's name
is one date, as an abbreviation's dot is no end ("with Dr. Patel").
"""

from __future__ import annotations

from polygon.languages import caller_language
from polygon.languages.acts import read_turn
from tests.support.callers import scripted

TRACKED = (
    "Ihr Paket ist in Zustellung. Die Zustellung ist für Donnerstag, den 10. Dezember an "
    "Invalidenstraße 12, 10115 Berlin geplant. An welche Adresse soll ich das Paket umleiten?"
)


def test_a_german_ordinal_date_stays_in_its_sentence() -> None:
    turn = read_turn(TRACKED, caller_language("de"))
    assert [s.text for s in turn.sentences][1].startswith("Die Zustellung ist für Donnerstag, den 10. Dezember an")
    assert len(turn.sentences) == 3 and turn.sentences[-1].act == "question", turn


def test_a_croatian_one_too_and_a_number_at_a_sentences_end_still_ends_it() -> None:
    hr, de = caller_language("hr"), caller_language("de")
    assert len(read_turn("Dostava je u četvrtak, 10. prosinca. Trebate li još nešto?", hr).sentences) == 2
    assert len(read_turn("Ihre Bestellung hat 10. Die Lieferung kommt morgen.", de).sentences) == 2
    assert len(read_turn("Am 3. März oder am 4. April? Sagen Sie es mir.", de).sentences) == 2


def test_the_caller_answers_the_question_after_the_date() -> None:
    facts = {
        "name": "Jonas Weber",
        "adresse": "Invalidenstraße 12, 10115 Berlin",
        "neue_adresse": "Lindenweg 5, 10117 Berlin",
    }
    caller = scripted("Paket an eine neue Adresse umleiten", facts, "de")
    caller.next(None)
    answer = caller.next(TRACKED)
    assert answer.intent != "goodbye", answer


def test_asked_where_to_redirect_the_caller_gives_its_new_address_not_its_own() -> None:
    """The same line: "An welche Adresse soll ich das Paket umleiten?" got the current address.

    Both keys name an address; the question is about doing the goal ("umleiten"), and the goal
    names the other key's extra word ("neue"): that key is meant. Asked for its address alone,
    the caller gives its own.
    """
    from polygon.simulate.callers.understanding import asked

    de, en = caller_language("de"), caller_language("en")
    facts = {"adresse": "Invalidenstraße 12, 10115 Berlin", "neue_adresse": "Lindenweg 5, 10117 Berlin"}
    goal = "Paket an eine neue Adresse umleiten"
    assert asked("An welche Adresse soll ich das Paket umleiten?", facts, goal, de)[0] == "neue_adresse"
    assert asked("Wohin soll das Paket umgeleitet werden?", facts, goal, de)[0] == "neue_adresse"
    assert asked("Wie lautet Ihre Adresse?", facts, goal, de)[0] == "adresse"
    other = "mein Paket an eine andere Adresse umleiten lassen"  # the trial's own goal
    assert asked("An welche Adresse soll ich das Paket umleiten?", facts, other, de)[0] == "neue_adresse"
    english = {"address": "12 High Street", "new_address": "5 Mill Lane"}
    redirect = "redirect my parcel to a new address"
    assert asked("Which address should I redirect the parcel to?", english, redirect, en)[0] == "new_address"
    assert asked("Can I have your address, please?", english, redirect, en)[0] == "address"
