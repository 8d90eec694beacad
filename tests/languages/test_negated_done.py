"""A done word under a negation reports nothing done (acts41's note, item 1).

"It couldn't be booked" and "Termin nije potvrđen" were read as outcome reports (the done
word won over every negative word in the sentence), so an agent that failed and said so
honestly heard the caller say goodbye, and goal checks could pass it. A negation before the
done word in its clause now wins; a done word leading its clause still wins over a negation
after it, about something else ("Done — the card is blocked and can't be used").
"""

from __future__ import annotations

import pytest

from polygon.languages import LANGUAGES, load_language, read_turn

ROWS = [
    # a negation before the done word, in its clause: nothing done
    ("en", "It couldn't be booked.", False),
    ("en", "Your appointment has not been booked.", False),
    ("en", "I wasn't able to get that scheduled.", False),
    ("en", "Nothing has been cancelled yet.", False),
    ("en", "Your order isn\u2019t confirmed.", False),
    ("hr", "Termin nije potvrđen.", False),
    ("hr", "Narudžba još nije rezervirana ni potvrđena.", False),
    ("hr", "Kartica nije blokirana.", False),
    ("ru", "Запись не подтверждена.", False),
    ("ru", "Рецепт не продлён.", False),
    ("de", "Der Termin ist nicht gebucht.", False),
    ("de", "Ihre Karte wurde noch nicht gesperrt.", False),
    ("es", "La cita no está confirmada.", False),
    ("es", "Su pedido no ha sido tramitado.", False),
    # a done word before a negation about something else: done
    ("en", "Done — the card is blocked and can't be used.", True),
    ("en", "The card has been blocked; it will no longer work anywhere.", True),
    ("en", "Your table is booked, no deposit needed.", True),
    ("hr", "Gotovo — kvar je prijavljen, struja se ne može vratiti prije 18 sati.", True),
    ("hr", "Termin je potvrđen i ne morate ništa više raditi.", True),
    ("ru", "Готово — рецепт продлён, больше ничего делать не нужно.", True),
    ("ru", "Карта заблокирована и больше не работает.", True),
    ("de", "Die Karte ist gesperrt und kann nicht mehr benutzt werden.", True),
    ("de", "Erledigt — Sie müssen nichts weiter tun.", True),
    ("es", "Listo — la tarjeta está bloqueada y no se puede usar.", True),
    ("es", "Su cita está confirmada, no tiene que hacer nada más.", True),
]


@pytest.mark.parametrize(("language", "sentence", "done"), ROWS)
def test_negated_done_row(language: str, sentence: str, done: bool) -> None:
    acts = read_turn(sentence, load_language(language)).acts
    assert ("outcome" in acts) is done, (sentence, acts)


def test_the_table_covers_every_language_both_ways() -> None:
    assert {(lang, d) for lang, _, d in ROWS} == {(lang, d) for lang in LANGUAGES for d in (True, False)}
