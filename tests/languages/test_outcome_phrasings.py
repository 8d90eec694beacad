"""An outcome report is read however it is phrased (trial41 D2), never a refusal or failure.

A correct agent said "I've opened a dispute on your last bill, reference DSP-778." and
"Your power cut is logged, ticket OUT-5521." — no "done" word — and goal_reached failed it
for hanging up "without settling the caller's goal". Each row is one agent sentence in one
language and whether a person hears an action reported as taken.
"""

from __future__ import annotations

import pytest

from polygon.languages import LANGUAGES, load_language, read_turn

ROWS = [
    # reported in other words than "done"
    ("en", "I've opened a dispute on your last bill, reference DSP-778.", True),
    ("en", "Your power cut is logged, ticket OUT-5521.", True),
    ("en", "We've raised a repair request for Thursday.", True),
    ("en", "Your complaint is lodged, reference CMP-2231.", True),
    ("en", "I\u2019ve put in a request for an engineer, reference ENG-22.", True),
    ("en", "I've arranged an engineer visit for Friday morning.", True),
    ("en", "I've ordered your refill and sent you a text with the pickup code.", True),
    ("hr", "Otvorila sam reklamaciju, broj REK-4410.", True),
    ("hr", "Vaš zahtjev je otvoren pod brojem Z-1208.", True),
    ("hr", "Naručila sam vaš lijek, stiže sutra.", True),
    ("ru", "Я оформил заявку, номер ЗВ-5521.", True),
    ("ru", "Отправил рецепт в аптеку.", True),
    ("de", "Ich habe Ihre Reklamation erfasst, Nummer RK-3310.", True),
    ("de", "Der Ersatz ist bestellt.", True),
    ("es", "He abierto una reclamación con la referencia REC-2210.", True),
    ("es", "Le he enviado el enlace por SMS.", True),
    # refusals, failures, negations and questions with the same participles
    ("en", "I couldn't open the dispute.", False),
    ("en", "The dispute has not been logged.", False),
    ("en", "Your fault wasn't logged, the system is down.", False),
    ("en", "I'm afraid I couldn't get it opened.", False),
    ("en", "I haven't raised it yet.", False),
    ("en", "Has the dispute been opened?", False),
    ("en", "It wasn\u2019t logged, I\u2019m afraid.", False),  # a typographic apostrophe negates too
    ("en", "Your account was opened in 2019.", False),  # a date on record, not an action taken
    ("hr", "Zahtjev nije otvoren.", False),
    ("hr", "Nažalost, nisam mogla otvoriti reklamaciju.", False),
    ("hr", "Recept još nije poslan.", False),
    ("ru", "Заявка не открыта.", False),
    ("ru", "Рецепт ещё не отправлен.", False),
    ("de", "Die Reklamation wurde nicht erfasst.", False),
    ("de", "Ich habe noch keinen Antrag erstellt.", False),
    ("es", "No he abierto la reclamación.", False),
    ("es", "La solicitud no se ha enviado.", False),
]


@pytest.mark.parametrize(("language", "sentence", "reported"), ROWS)
def test_outcome_row(language: str, sentence: str, reported: bool) -> None:
    acts = read_turn(sentence, load_language(language)).acts
    assert ("outcome" in acts) is reported, (sentence, acts)


def test_the_table_covers_every_language_both_ways() -> None:
    assert {(lang, r) for lang, _, r in ROWS} == {(lang, r) for lang in LANGUAGES for r in (True, False)}


def test_a_done_word_still_wins_over_the_negative_words_beside_it() -> None:
    turn = read_turn("Done — the card is blocked and can't be used.", load_language("en"))
    assert turn.acts == {"outcome"}
