"""A payment reported as successful, and a colleague's callback, in every pack (trial7, after hr).

The Croatian parking agent's "Plaćanje je uspjelo" and "Kolega će vas nazvati" were read as
filler; the same sentences in the other packs were too: "The payment was successful", "Die
Zahlung war erfolgreich", "El pago se ha realizado con éxito", "A colleague will call you
tomorrow", "Коллега перезвонит вам завтра". A caller that hears no outcome restates its goal
and a correct agent fails on a loop.
"""

from __future__ import annotations

import pytest

from polygon.languages import load_language, read_turn

ROWS = [
    ("en", "The payment was successful, your fine is paid.", "outcome", True),
    ("en", "I have paid the fine for you.", "outcome", True),
    ("en", "The payment was not successful.", "outcome", False),
    ("en", "I haven't paid it.", "outcome", False),
    ("de", "Die Zahlung war erfolgreich.", "outcome", True),
    ("de", "Die Zahlung war nicht erfolgreich.", "outcome", False),
    ("es", "El pago se ha realizado con éxito.", "outcome", True),
    ("es", "El pago no se ha realizado con éxito.", "outcome", False),
    ("en", "A colleague will call you tomorrow.", "callback", True),
    ("en", "Will you call your bank?", "callback", False),
    ("ru", "Коллега перезвонит вам завтра.", "callback", True),
]


@pytest.mark.parametrize(("language", "sentence", "act", "read"), ROWS)
def test_row(language: str, sentence: str, act: str, read: bool) -> None:
    assert (act in read_turn(sentence, load_language(language)).acts) is read
