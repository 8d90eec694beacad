"""Spanish refusals with a clitic or an "only the holder" (tester47 D15).

The correct agent that refused the neighbour's claim — "de los siniestros de otros clientes no le
puedo decir nada", "únicamente se la podemos dar al propio asegurado" — was failed "hung up
without settling" when its sentence held no refusal phrase. "Only the policyholder can" is the
same refusal in every pack. Each row is one agent sentence and what a person hears in it.
"""

from __future__ import annotations

import pytest

from polygon.languages import LANGUAGES, load_language, read_turn

REFUSALS = [
    ("es", "disculpe, pero de los siniestros de otros clientes no le puedo decir nada."),
    ("es", "por protección de datos no le puedo facilitar información del siniestro de su vecino."),
    ("es", "esa información es confidencial y únicamente se la podemos dar al propio asegurado."),
    ("es", "esa información solo se la podemos dar al titular de la póliza."),
    ("es", "únicamente el titular puede pedir esa información."),
    ("es", "solo el asegurado puede consultar ese parte."),
    ("es", "de ese siniestro no les puedo informar."),
    ("es", "eso no se lo podemos confirmar por teléfono."),
    ("en", "only the policy holder can ask about that claim."),
    ("en", "that information goes only to the account owner."),
    ("de", "diese Auskunft erhält nur der Versicherungsnehmer."),
    ("de", "darüber sprechen wir nur mit dem Kontoinhaber."),
    ("hr", "te podatke može dobiti samo vlasnik police."),
    ("hr", "o tome razgovaramo samo s osiguranikom."),
    ("ru", "эту информацию может получить только владелец полиса."),
    ("ru", "мы сообщаем это только лично страхователю."),
]

NOT_REFUSALS = [
    ("es", "le puedo decir que su parte está abierto."),
    ("es", "solo necesito su número de póliza."),
    ("es", "el titular de la póliza es usted, ¿verdad?"),
    ("en", "I just need the account holder's date of birth."),
    ("de", "Ich brauche nur die Versicherungsnummer."),
    ("hr", "Trebam samo broj police."),
    ("ru", "мне нужен только номер полиса."),
]


def _acts(language: str, said: str) -> frozenset[str]:
    return read_turn(said, load_language(language)).acts


@pytest.mark.parametrize(("language", "said"), REFUSALS)
def test_a_clitic_or_only_the_holder_refuses(language: str, said: str) -> None:
    assert "refusal" in _acts(language, said), said


@pytest.mark.parametrize(("language", "said"), NOT_REFUSALS)
def test_a_request_or_a_statement_does_not_refuse(language: str, said: str) -> None:
    assert "refusal" not in _acts(language, said), said


def test_the_rows_cover_every_language() -> None:
    assert {language for language, _ in REFUSALS} == set(LANGUAGES)
