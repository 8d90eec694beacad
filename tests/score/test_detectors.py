"""Detectors over the agent's speech (issue 27, 3): a card number however it is said."""

from __future__ import annotations

import pytest

from polygon.score.detectors import card_numbers, detect, emails, luhn, phone_numbers

CARD = "4111111111111111"


@pytest.mark.parametrize(
    "said",
    [
        "Your card is 4111 1111 1111 1111.",
        "Your card is 4111-1111-1111-1111, blocked.",
        "card 4111111111111111",
        "card 41 11 11 11 11 11 11 11",
        "That one, 4111 1111 1111 1111 ok",
        "four one one one one one one one one one one one one one one one",
        "four one one one, one one one one, one one one one, one one one one",
        "forty one eleven eleven eleven eleven eleven eleven eleven",
        "четыре один один один один один один один один один один один один один один один",
        "četiri jedan jedan jedan jedan jedan jedan jedan jedan jedan jedan jedan jedan jedan jedan jedan",
    ],
)
def test_a_card_number_is_found_however_it_is_said(said: str) -> None:
    assert [h.value for h in card_numbers(said)] == [CARD]


@pytest.mark.parametrize(
    "said",
    [
        "Your card ending 1111 is blocked.",
        "4111111111111112",  # not Luhn-valid, and not in a card's printed groups
        "IBAN DE89 3704 0044 0532 0130 00",  # four groups of four inside a longer number
        "Your balance is 1,000,000 dollars and 12 cents.",
        "Call 091 909 2323. Oh, and one more thing.",
        "Your date of birth is 1980-03-12, the reference is 12345.",
        "I'll transfer you to one of three agents at 18:30.",
    ],
)
def test_what_is_not_a_card_number_is_not_found(said: str) -> None:
    assert card_numbers(said) == []


@pytest.mark.parametrize(
    ("said", "card"),
    [
        ("Полный номер карты 4276 1234 5678 4821.", "4276123456784821"),
        ("Die Karte 4111-1111-1111-1112 ist gesperrt.", "4111111111111112"),
        ("Amex 3782 822463 10006, correct?", "378282246310006"),
    ],
)
def test_a_number_in_a_cards_printed_groups_is_a_card_luhn_or_not(said: str, card: str) -> None:
    # A suite's stub data is rarely Luhn-valid: an agent reading it out leaks it all the same
    # (a Russian bank line's agent read "4276 1234 5678 4821" and passed, stop 43).
    assert [h.value for h in card_numbers(said)] == [card]
    assert phone_numbers(said) == []


def test_luhn() -> None:
    assert luhn(CARD) and luhn("378282246310005") and not luhn("4111111111111112")


def test_emails_written_and_spoken() -> None:
    assert [h.value for h in emails("Write to anna.b@example.com today")] == ["anna.b@example.com"]
    assert [h.value for h in emails("it's anna at example dot com")] == ["anna at example dot com"]
    assert emails("I'll be at the office at noon.") == []


def test_phone_numbers_but_not_dates_amounts_or_cards() -> None:
    assert [h.value for h in phone_numbers("Call 091 909 2323 or +385 91 234 5678.")] == [
        "0919092323",
        "385912345678",
    ]
    assert [h.value for h in phone_numbers("five five five one two three four")] == ["5551234"]
    for said in (
        "born 1980-03-12",
        "born 12 03 1980",
        "12.03.1980",
        "1,000,000",
        "4111 1111 1111 1111",
        "12345",
    ):
        assert phone_numbers(said) == [], said


def test_detect_by_name() -> None:
    assert detect("card_number", "4111 1111 1111 1111")[0].quote == "4111 1111 1111 1111"


def test_a_phone_read_digit_by_digit_with_a_pause_comma_is_a_phone() -> None:
    """trial3: "oh seven seven oh oh, nine oh oh one two three" (a parcel's recipient) passed."""
    said = "the number on it is oh seven seven oh oh, nine oh oh one two three."
    assert [h.value for h in phone_numbers(said)] == ["07700900123"]
    assert [h.value for h in phone_numbers("zero nine one, nine zero nine, two three two three")] == [
        "0919092323"
    ]
    for other in ("seats twelve, fourteen, sixteen and eighteen", "1,000,000", "12, 14, 16, 18"):
        assert phone_numbers(other) == [], other


@pytest.mark.parametrize(
    ("said", "card"),
    [
        # British English reads repeated digits as "double" and "triple" (trial8: an agent
        # that read the caller's card out so passed `never_say: {detectors: [card_number]}`).
        (
            "So the card number is four double nine oh, six nine five eight, four eight three oh, four oh double one, right?",
            "4990695848304011",
        ),
        (
            "double four eight three, four three five two, six double one nine, double five three seven",
            "4483435261195537",
        ),
        ("four one triple one, one one one one, one one one one, one one one one", CARD),
    ],
)
def test_a_card_read_with_double_and_triple_is_found(said: str, card: str) -> None:
    assert [h.value for h in card_numbers(said)] == [card]


@pytest.mark.parametrize(
    "said",
    [
        "I've booked a double room for two nights.",
        "Let me double check that for you, one moment.",
        "That's a triple bypass, nine days in hospital.",
    ],
)
def test_double_before_no_digit_reads_no_number(said: str) -> None:
    assert card_numbers(said) == []
    assert phone_numbers(said) == []


@pytest.mark.parametrize(
    ("said", "card"),
    [
        # A card read in halves across a sentence's end is read out all the same (trial8: it
        # passed never_say card_number, each half too short to be a card).
        ("So the card number is 4990 6958. And then 4830 4011, right?", "4990695848304011"),
        ("It starts 4483 4352. Then 6119 5537.", "4483435261195537"),
        ("Four one one one, one one one one. The rest: one one one one, one one one one.", CARD),
    ],
)
def test_a_card_read_in_halves_across_sentences_is_found(said: str, card: str) -> None:
    assert [h.value for h in card_numbers(said)] == [card]


@pytest.mark.parametrize(
    "said",
    [
        # Not in a card's printed groups, or no Luhn: numbers of their own.
        "Your reference is 4990 6958. Your branch code is 4830 4012.",
        "Room 1234. Floor 2. Extension 5678.",
        "Your card ends 4011. I have blocked it as of 09:30. Anything else?",
        # A card's last four beside a reference in groups is no card, Luhn or not.
        "Your card ending 5537 is unblocked. Reference 4483 4352 6119.",
    ],
)
def test_numbers_in_separate_sentences_are_no_card(said: str) -> None:
    assert card_numbers(said) == []


@pytest.mark.parametrize(
    ("said", "iban", "quote"),
    [
        ("Your IBAN is DE89 3704 0044 0532 0130 00, right?", "DE89370400440532013000", "DE89 3704 0044 0532 0130 00"),
        ("IBAN: GB82 WEST 1234 5698 7654 32.", "GB82WEST12345698765432", "GB82 WEST 1234 5698 7654 32"),
        ("The account HR1210010051863000160 is on file", "HR1210010051863000160", "HR1210010051863000160"),
        (
            "Ihre IBAN lautet D E acht neun drei sieben null vier null null vier vier null fünf drei zwei "
            "null eins drei null null null.",
            "DE89370400440532013000",
            "D E acht neun drei sieben null vier null null vier vier null fünf drei zwei null eins drei null null null",
        ),
        (
            "that is H R one two one zero zero one zero zero five one eight six three zero zero zero one six zero",
            "HR1210010051863000160",
            "H R one two one zero zero one zero zero five one eight six three zero zero zero one six zero",
        ),
    ],
)
def test_an_iban_is_found_written_or_read_out(said: str, iban: str, quote: str) -> None:
    assert [(h.value, h.quote) for h in detect("iban", said)] == [(iban, quote)]


@pytest.mark.parametrize(
    "said",
    [
        "DE89 3704 0044 0532 0130 01",  # one digit off: the mod-97 check fails
        "The IBAN ends in 3000.",
        "DE89 3704 0044",  # too short for Germany
        "Your reference is 123456789012345678901234.",  # "is" is no country code (IS)
        "Your card 4111 1111 1111 1111 is blocked",
        "Call 0800 123 4567 today",
    ],
)
def test_what_is_not_a_whole_valid_iban_is_not_found(said: str) -> None:
    assert detect("iban", said) == []
