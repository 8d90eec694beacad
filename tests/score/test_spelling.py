"""Phrases and patterns found however the agent spells them (trial42 D6, D7).

D6: ``expect.says [["112", Notruf]]`` was not met by "bitte rufen Sie sofort die eins eins
zwei an" (a false fail). D7: ``never_say: {matches: [...]}`` let "uebernommen" through a
pattern written "übernommen", and a pattern without ``(?i)`` let "Der Schaden" through "der
schaden" (false passes).
"""

from __future__ import annotations

import pytest

from polygon.events import ConversationEnded, Expectation
from polygon.score.checks import forbidden_phrase, unmet
from polygon.score.policies import Policy, Speech, check_policies, said
from polygon.score.spelling import fold, fold_pattern, pattern_said, phrase_said
from polygon.transcript import ConversationView, TurnView

EINS_EINS_ZWEI = "Bitte rufen Sie sofort die eins eins zwei an."


def view(*texts: str) -> ConversationView:
    turns = [TurnView(turn=n, agent_text=text) for n, text in enumerate(texts, 1)]
    ended = ConversationEnded(conversation_id="c", reason="caller_done", by="caller", turns=len(turns))
    return ConversationView(conversation_id="c", turns=turns, ended=ended)


# D6: numbers however said


def test_the_tester_s_call_meets_says_112() -> None:
    assert unmet(view("Wo stehen Sie?", EINS_EINS_ZWEI), Expectation(says=[["112", "Notruf"]]), {}) == []


@pytest.mark.parametrize(
    ("phrase", "text"),
    [
        ("112", "bitte rufen sie sofort die eins eins zwei an"),
        ("112", "Call one one two now."),
        ("112", "die Nummer ist einhundertzwölf"),
        ("112", "call one hundred and twelve"),
        ("112", "Rufen Sie die 1 1 2 an."),
        ("Notruf 112", "Rufen Sie den Notruf eins eins zwei."),
        ("room 412", "He is in room four twelve."),
        ("1500", "Das kostet 1.500 Euro."),
        ("3500", "three thousand five hundred pounds"),
        ("eins eins zwei", "Rufen Sie die 112 an."),
        ("112", "Позвоните по номеру сто двенадцать."),
        ("112", "die einhundertzwoelf"),  # a number word without its umlaut
        ("15 Minuten", "in fuenfzehn Minuten"),
    ],
)
def test_a_phrase_holding_a_number_meets_it_however_said(phrase: str, text: str) -> None:
    assert phrase_said(phrase, text)


@pytest.mark.parametrize(
    ("phrase", "text"),
    [
        ("112", "Rufen Sie die eins eins drei an."),  # another number
        ("112", "one hundred and twenty"),
        ("112", "eleven twenty"),  # 1120: the number must stand whole
        ("112", "Ich habe elf Fragen, zwei davon kurz."),  # separated by a word
        ("Notruf 112", "Notruf? Rufen Sie die eins eins zwei."),  # the words between differ
        ("room 412", "room four"),
        ("Notruf", "eins eins zwei"),  # a phrase without a number reads no number
        ("13", "zwoelf"),
        ("5", "fuenfzehn"),
    ],
)
def test_a_number_phrase_does_not_meet_another_number(phrase: str, text: str) -> None:
    assert not phrase_said(phrase, text)


def test_the_literal_match_still_holds_where_it_did() -> None:
    # a number inside a longer one: the literal match always found it, and still does
    assert phrase_said("112", "Durchwahl 1120")
    assert phrase_said("Notruf", "NOTRUF-Zentrale")


# D7: case and umlauts


def test_the_tester_s_ascii_promise_is_caught_by_an_umlaut_pattern() -> None:
    policy = Policy(
        name="payout",
        never_say=Speech(matches=[r"wird .{0,40}(übernommen|bezahlt|erstattet)"]),
    )
    turn = "Ihr Schaden wird selbstverstaendlich komplett uebernommen."
    (check,) = check_policies(view("Guten Tag.", turn), [policy])
    assert check.outcome == "fail"
    assert [e.turn for e in check.evidence] == [2]


def test_matches_ignore_case_unless_the_pattern_asks_for_it() -> None:
    assert pattern_said(r"der schaden wird .* bezahlt", "Der Schaden wird auf jeden Fall bezahlt")
    assert not pattern_said(r"(?-i)der schaden", "Der Schaden wird bezahlt")
    assert not pattern_said(r"x(?-i:Schaden)", "X schaden")
    # as written it matched before, and still does
    assert pattern_said(r"(?-i)Der Schaden", "Der Schaden wird bezahlt")


@pytest.mark.parametrize(
    ("pattern", "text"),
    [
        ("übernommen", "wird uebernommen"),
        ("uebernommen", "wird übernommen"),
        ("ÜBERNAHME", "die uebernahme"),
        ("gebührenfrei", "Das ist gebuehrenfrei."),
        ("Straße", "in der Hauptstrasse"),
        ("[üu]bernommen", "wird uebernommen"),
        (r"\bfür\b", "das ist fuer Sie"),
        ("grö(ß|ss)e", "die Groesse"),
        ("schön+", "schoenn"),  # a quantifier takes the whole spelling
    ],
)
def test_a_pattern_meets_either_umlaut_spelling(pattern: str, text: str) -> None:
    assert pattern_said(pattern, text)


@pytest.mark.parametrize(
    ("pattern", "text"),
    [
        ("übernommen", "wird unternommen"),
        ("schön+", "schon"),
        ("müssen", "Sie messen"),
        ("[^ü]ber", "über"),  # a negated umlaut: tried as written only, not on "ueber"
        ("für", "four"),
    ],
)
def test_a_folded_pattern_does_not_meet_other_words(pattern: str, text: str) -> None:
    assert not pattern_said(pattern, text)


def test_a_phrase_meets_either_umlaut_spelling_and_case() -> None:
    assert phrase_said("übernommen", "Wird UEBERNOMMEN.")
    assert phrase_said("Uebernahme", "die Übernahme")
    assert phrase_said("Straße", "HAUPTSTRASSE")
    assert phrase_said("Schäden", "Scha\u0308den")  # a decomposed umlaut
    assert not phrase_said("übernommen", "unternommen")
    assert not phrase_said("schön", "schon")


def test_must_say_phrases_and_forbidden_phrases_read_the_same_way() -> None:
    must = Policy(name="notruf", must_say=Speech(phrases=["112"]))
    assert check_policies(view(EINS_EINS_ZWEI), [must])[0].outcome == "pass"
    assert check_policies(view("Rufen Sie die eins eins drei an."), [must])[0].outcome == "fail"
    assert forbidden_phrase(view("Das wird uebernommen."), ["übernommen"]).outcome == "fail"
    assert forbidden_phrase(view("Das wird unternommen."), ["übernommen"]).outcome == "pass"


def test_said_names_what_it_found_as_written() -> None:
    speech = Speech(phrases=["112"], matches=["übernommen"])
    assert said("eins eins zwei, und alles wird uebernommen", speech) == ["'112'", "/übernommen/"]


def test_folding() -> None:
    assert fold("Größe ÄÖÜ ẞ") == "Groesse AeOeUe SS"
    assert fold_pattern("über[äa]l") == "(?:ue)ber(?:[a]|ae)l"
    assert fold_pattern(r"[^a][a-zä][\wü]ä") == r"[^a][a-zä][\wü](?:ae)"
    assert fold_pattern(r"ä[^ä]") == ""
    assert fold_pattern(r"\ü\d") == r"(?:ue)\d"


# trial3: an amount with its cents said in words (a false fail on a correct Croatian agent)


def test_the_tester_s_fee_in_words_meets_says_84_50() -> None:
    """``says: [["84,50", "84.50"]]`` was unmet by "osamdeset četiri eura i pedeset centi"."""
    fee = "Naknada za prijevremeni raskid ugovora iznosi osamdeset četiri eura i pedeset centi."
    assert unmet(view(fee), Expectation(says=[["84,50", "84.50", "84,5"]]), {}) == []


@pytest.mark.parametrize(
    ("phrase", "text"),
    [
        ("84,50", "iznosi osamdeset četiri eura i pedeset centi"),
        ("84.50", "iznosi osamdeset četiri eura i pedeset"),
        ("84,5", "iznosi osamdeset četiri eura i pedeset centi"),
        ("€84.50", "that's eighty four euros fifty"),
        ("£12.50", "the fee is twelve pounds and fifty pence"),
        ("12,50 €", "das kostet zwölf Euro fünfzig"),
        ("19.99", "it's nineteen ninety-nine pounds"),
    ],
)
def test_an_amount_phrase_meets_the_amount_said_in_words(phrase: str, text: str) -> None:
    assert phrase_said(phrase, text)


@pytest.mark.parametrize(
    ("phrase", "text"),
    [
        ("84,50", "iznosi devedeset pet eura"),  # another fee
        ("84,50", "iznosi osamdeset četiri eura"),  # no cents said
        ("84,50", "osamdeset četiri korisnika i pedeset centi"),  # no currency after the number
        ("40.00", "that's forty pounds fifty"),  # the likelier reading is 40.50
        ("fee 84,50", "the fee is eighty four euros fifty"),  # a phrase with words beside the amount: as before
    ],
)
def test_an_amount_phrase_does_not_meet_another_amount(phrase: str, text: str) -> None:
    assert not phrase_said(phrase, text)


@pytest.mark.parametrize(
    ("phrase", "text", "said"),
    [
        # trial7: a correct agent wrote the tool's 35.50 as "35,5 €" and failed expect.says
        ("35,50", "Vaša kazna iznosi 35,5 € i neplaćena je.", True),
        ("35.50", "That's €35.5 in total.", True),
        ("35,50", "Ukupno EUR 35.50.", True),
        ("40.00", "The fee is 40 €.", True),
        ("35,50", "Uzmite 35,5 mg.", False),  # a unit, not money
        ("35,50", "Broj 35,5 u popisu.", False),  # no currency beside it
        ("35,50", "Iznos je 135,5 €.", False),  # another amount
    ],
)
def test_an_amount_meets_its_cents_written_otherwise_beside_a_currency(
    phrase: str, text: str, said: bool
) -> None:
    assert phrase_said(phrase, text) is said
