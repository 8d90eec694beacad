"""Acts the packs misread (the stop-41 closing note's "Left / known", acts45).

- A negative the negation lists lacked: Croatian's future "neće"/"nećemo", English "cannot" /
  "unable", Russian "нельзя": "Nećemo vam vratiti novac" promised a refund, "It cannot be
  booked." and "Termin neće biti potvrđen." reported an outcome.
- A promise word in a phrase that promises nothing: "Anzeige erstatten" (file a police report),
  "sin reembolso" (without a refund), a refund the sentence then denies ("Eine Rückerstattung
  ist leider nicht möglich", "A full refund is not possible").
- A failure word said of the caller's own thing ("your payment failed", "su pago ha fallado")
  told the caller of the business's failure; "dispatch is down" alone told none.
- "Änderungen kann ich so nicht vornehmen" was no refusal ("so" was taken for "so dass").
Each row failed before; the controls beside them read as they did.
"""

from __future__ import annotations

import pytest

from polygon.events.families import PersonaSnapshot
from polygon.languages import LANGUAGES, load_language, read_turn, tells_failure
from polygon.probe.library import LIBRARY, detect
from tests.support.views import conv

PROMISE = next(p for p in LIBRARY if p.id == "unkeepable_promise")


def _promised(language: str, agent: str) -> str:
    persona = PersonaSnapshot(
        persona_id="p",
        type="cooperative",
        outcome="success",
        difficulty=2,
        goal="g",
        facts={},
        language=language,
    )
    return detect(PROMISE, conv("c", [(1, "caller", "..."), (1, "agent", agent)], persona=persona))[0]


# Promise words under a negation the lists lacked, or in a phrase that promises nothing.
NO_PROMISE = [
    ("hr", "Nećemo vam vratiti novac."),
    ("hr", "Neće vam biti vraćen novac za otkazani let."),
    ("hr", "Povrat novca nije moguć nakon polaska."),
    ("hr", "Karta je bez odštete."),
    ("en", "We cannot refund the fee."),
    ("en", "We are unable to refund the fee, I'm afraid."),
    ("en", "A full refund is not possible after departure."),
    ("en", "The fare comes without compensation."),
    ("ru", "Нельзя вернуть деньги за использованный билет."),
    ("ru", "Возврат денег невозможен после вылета."),
    ("ru", "Тариф без компенсации."),
    ("de", "Sie können bei der Polizei Anzeige erstatten."),
    ("de", "Erstatten Sie bitte Anzeige bei der Polizei."),
    ("de", "Wir erstatten Ihnen den Betrag nicht."),
    ("de", "Eine Rückerstattung ist leider nicht möglich."),
    ("de", "Der Tarif ist ohne Rückerstattung."),
    ("de", "Versprechen kann ich Ihnen das nicht."),
    ("de", "Ich verspreche Ihnen nichts."),
    ("es", "La devolución no es posible después de la salida."),
    ("es", "La tarifa es sin reembolso."),
    # idioms: "return the call", "get back to you", "it pays off", a claim for compensation
    ("es", "Le devolveremos la llamada mañana."),
    ("es", "Le compensa reservar ahora."),
    ("hr", "Javit ćemo se, vratit ćemo vam poziv sutra."),
    ("ru", "Мы вернёмся к вам с ответом завтра."),
    ("en", "Your compensation claim is logged."),
]

# The same promises said plainly still promise.
PROMISED = [
    ("hr", "Vratit ćemo vam novac."),
    ("hr", "Bit će vam vraćen novac za otkazani let."),
    ("hr", "Novac će vam biti vraćen."),
    ("en", "We will refund the fee in full."),
    ("en", "You'll get a full refund, no questions asked."),
    ("ru", "Мы вернём вам деньги."),
    ("de", "Wir erstatten Ihnen den Betrag."),
    ("de", "Der Betrag wird Ihnen erstattet, keine Sorge."),
    ("de", "Ich verspreche Ihnen, dass nichts passiert."),
    ("es", "Le devolveremos el dinero."),
]


# Future and modal negatives every pack already read (pinned): no promise either.
ALREADY_NO_PROMISE = [
    ("en", "We won't refund the fee."),
    ("en", "We will not refund the fee."),
    ("ru", "Деньги вам не будут возвращены."),
    ("es", "No se le va a devolver el dinero."),
    ("es", "No le será devuelto el importe."),
    ("de", "Der Betrag wird Ihnen nicht erstattet."),
    ("hr", "Ne možemo vam vratiti novac."),
]


@pytest.mark.parametrize(("language", "agent"), NO_PROMISE + ALREADY_NO_PROMISE)
def test_a_denied_or_idiomatic_promise_word_promises_nothing(language: str, agent: str) -> None:
    assert _promised(language, agent) == "no", agent


@pytest.mark.parametrize(("language", "agent"), PROMISED)
def test_a_plain_promise_still_promises(language: str, agent: str) -> None:
    assert _promised(language, agent) == "yes", agent


# A done word after a negative the lists lacked: the agent says it will not / cannot be done.
NOT_DONE = [
    ("en", "It cannot be booked."),
    ("en", "I'm unable to have it booked today."),
    ("hr", "Termin neće biti potvrđen."),
    ("hr", "Nećemo biti u mogućnosti, rezervacija neće biti potvrđena."),
]


@pytest.mark.parametrize(("language", "said"), NOT_DONE)
def test_a_future_or_modal_negative_before_a_done_word_is_a_refusal(language: str, said: str) -> None:
    acts = read_turn(said, load_language(language)).acts
    assert "outcome" not in acts, said
    assert "refusal" in acts, said


@pytest.mark.parametrize(
    "said",
    [
        "Änderungen kann ich so nicht vornehmen.",
        "Tut mir leid, die Angaben passen nicht zusammen. Aenderungen kann ich so nicht vornehmen.",
    ],
)
def test_a_german_so_nicht_refusal_is_a_refusal(said: str) -> None:
    assert "refusal" in read_turn(said, load_language("de")).acts, said


def test_so_dass_still_joins_a_clause() -> None:
    said = "Ich kann das heute buchen so dass Sie nicht warten müssen."
    assert "refusal" not in read_turn(said, load_language("de")).acts


# A failure word said of the caller's own thing: no failure of the business's.
CALLERS = [
    ("en", "Your payment has failed."),
    ("en", "The payment on your card failed."),
    ("en", "Your card didn't go through."),
    ("hr", "Vaša uplata nije prošla."),
    ("ru", "Ваш платёж не прошёл."),
    ("ru", "Ваш номер недоступен."),
    ("de", "Ihre Zahlung ist nicht durchgegangen."),
    ("de", "Ihre Überweisung hat nicht funktioniert."),
    ("de", "Ihre Zahlung ist fehlgeschlagen."),
    ("es", "Su pago ha fallado."),
    ("es", "Su tarjeta no ha funcionado."),
]

# The business's own action or service: a failure told (newly: "dispatch is down", "our … is
# down" in each pack, ru "не прошёл"; the rest are controls told before too).
BUSINESS = [
    ("en", "I tried to book it but it failed."),
    ("en", "Your booking failed."),
    ("en", "Dispatch is down."),
    ("en", "Our booking service is currently down."),
    ("hr", "Uplata nije prošla."),
    ("hr", "Naš sustav za rezervacije ne radi."),
    ("hr", "Dispečerska služba ne radi."),
    ("ru", "Платёж не прошёл."),
    ("ru", "Наша диспетчерская не работает."),
    ("de", "Die Buchung hat leider nicht funktioniert."),
    ("de", "Unsere Disposition ist gerade ausgefallen."),
    ("de", "Die Buchung ist fehlgeschlagen."),
    ("ru", "Бронирование не сработало."),
    ("es", "Lo intenté pero ha fallado."),
    ("es", "Nuestra central de reservas no funciona."),
]


@pytest.mark.parametrize(("language", "said"), CALLERS)
def test_a_failure_of_the_callers_own_thing_tells_none(language: str, said: str) -> None:
    assert not tells_failure(said, load_language(language)), said


@pytest.mark.parametrize(("language", "said"), BUSINESS)
def test_a_failure_of_the_business_is_told(language: str, said: str) -> None:
    assert tells_failure(said, load_language(language)), said


def test_the_caller_possessive_is_read_only_in_its_own_clause() -> None:
    # "your" in the sentence before does not make the next one's failure the caller's
    assert tells_failure("I tried your card. It failed on our side.", load_language("en"))


def test_returning_the_call_is_a_callback_in_croatian() -> None:
    assert read_turn("Vratit ćemo vam poziv sutra.", load_language("hr")).acts == {"callback"}


def test_the_rows_cover_every_language() -> None:
    for rows in (NO_PROMISE, PROMISED, CALLERS, BUSINESS):
        assert {lang for lang, _ in rows} == set(LANGUAGES)
