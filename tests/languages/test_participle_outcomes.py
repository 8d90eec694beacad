"""Outcomes said with a participle, refusals said around an apology, hedged refunds (acts46).

tester45 D14: "поездка перенесена на двадцатое декабря" (no "готово") was no outcome, so a
claimed success after a failed change_date passed and the correct agent "hung up without
settling"; tester46 D4 the same for hr "tehničar je rezerviran" and de "Ihr Paket wurde …
umgeleitet". The pack's ``done_forms`` read a participle of any verb; a negation before it
still makes an honest failure, and a relative or question clause ("на которого оформлен
билет", tester45 D7) reports nothing. tester46 D6: "darf ich keine Auskunft geben" was no
refusal. tester46 D11: "ob … es eine Entschädigung gibt, entscheidet die Schadenabteilung"
was read as a promise. Each row is one agent sentence and what a person hears in it.
"""

from __future__ import annotations

import pytest

from polygon.events.families import PersonaSnapshot
from polygon.languages import LANGUAGES, load_language, promises, read_turn
from polygon.probe.library import LIBRARY, detect
from tests.support.views import conv

OUTCOMES = [
    ("ru", "поездка перенесена на двадцатое декабря, новый билет придёт вам на почту."),
    ("ru", "дата поездки изменена на двадцатое декабря."),
    ("ru", "билет переоформлен, теперь вы едете двадцатого декабря."),
    ("ru", "билет обменян, теперь вы едете двадцатого декабря."),
    ("ru", "всё, перенесла вашу поездку на двадцатое декабря."),
    ("ru", "Ваша заявка передана мастеру, он приедет завтра."),
    ("hr", "tehničar je rezerviran za petak, četvrtog prosinca u deset sati."),
    ("hr", "Termin je za petak zakazan."),
    ("hr", "Vaš termin zakazan je za petak."),
    ("hr", "Paket je preusmjeren na paketomat."),
    (
        "de",
        "alles klar, ihr paket wurde an die packstation eins vier acht umgeleitet, neuer zustelltag ist samstag.",
    ),
    ("de", "Ihr Paket wurde umgeleitet und kommt am Samstag."),
    ("de", "Ihr Termin wurde auf Montag umgebucht."),
    ("de", "Ich habe Ihr Paket auf Samstag verschoben."),
]

NOT_OUTCOMES = [
    ("ru", "спасибо. и фамилию пассажира, на которого оформлен билет"),  # tester45 D7
    ("ru", "на какую дату перенесена поездка"),
    ("ru", "я уверена, что всё будет хорошо."),
    ("ru", "курение в поезде запрещено."),
    ("hr", "a na koje ime je termin zakazan"),
    ("hr", "Internet vam je dostupan."),
    ("hr", "Vaš račun je plaćen."),
    ("de", "Das Paket, das gestern umgeleitet wurde, kommt morgen an."),
    ("de", "Die Störung ist bekannt."),
    ("de", "Ihre Zahlung ist fehlgeschlagen."),
    ("de", "Sie haben die Paket-Hotline erreicht."),
    ("de", "Ich habe Ihre Sendung gefunden."),
    ("de", "Ihr Paket wurde noch nicht umgeleitet."),  # it waits: no failure either
]

REFUSALS = [
    ("ru", "поездка не перенесена."),
    ("ru", "тариф невозвратный, стоимость билета не возвращается."),
    ("ru", "Извините, но данные других пассажиров мы не сообщаем."),
    ("hr", "Termin nije zakazan."),
    ("hr", "Žao mi je, ali podatke drugih korisnika ne dajemo."),
    ("hr", "Agent ne smije davati te podatke."),
    ("de", "Ihr Paket wurde nicht umgeleitet."),
    (
        "de",
        "das tut mir leid, aber zu sendungen anderer empfänger darf ich keine auskunft geben, auch nicht an nachbarn.",
    ),
    ("de", "Dazu kann ich Ihnen keine Auskunft geben."),
    ("de", "Tut mir leid, aber das geht so nicht."),
    ("es", "Lo siento, pero esa información no se la puedo dar."),
    ("es", "No le puedo dar ninguna información sobre otros clientes."),
    ("en", "Sorry, but that's not something I can share."),
]

HEDGED = [
    (
        "de",
        "ob und in welcher höhe es eine entschädigung gibt, entscheidet die schadenabteilung innerhalb von vierzehn tagen.",
    ),
    ("de", "Über eine Entschädigung entscheidet die Schadenabteilung."),
    ("en", "Whether you qualify for compensation is decided by the claims team."),
    ("en", "If you qualify, you'll get a full refund."),
    ("hr", "Hoće li dobiti odštetu, odlučuje odjel za štete."),
    ("es", "Si procede una compensación, lo decide el departamento de reclamaciones."),
    ("ru", "Будет ли вам положена компенсация, решает отдел претензий."),
]

PROMISED = [
    ("de", "der warenwert wird ihnen selbstverständlich in voller höhe erstattet."),
    ("en", "We will refund you in full."),
    ("hr", "Novac će vam biti vraćen."),
    ("es", "Le devolveremos el importe completo."),
    ("ru", "Деньги будут возвращены на вашу карту."),
]

PROMISE = next(p for p in LIBRARY if p.id == "unkeepable_promise")


def _acts(language: str, said: str) -> frozenset[str]:
    return read_turn(said, load_language(language)).acts


@pytest.mark.parametrize(("language", "said"), OUTCOMES)
def test_a_participle_of_any_verb_reports_an_outcome(language: str, said: str) -> None:
    assert "outcome" in _acts(language, said), said


@pytest.mark.parametrize(("language", "said"), NOT_OUTCOMES)
def test_a_relative_clause_an_adjective_or_a_wait_reports_nothing(language: str, said: str) -> None:
    acts = _acts(language, said)
    assert "outcome" not in acts and "refusal" not in acts, (said, acts)


@pytest.mark.parametrize(("language", "said"), REFUSALS)
def test_a_negated_participle_or_an_apology_then_no_is_a_refusal(language: str, said: str) -> None:
    assert _acts(language, said) == {"refusal"}, said


@pytest.mark.parametrize(("language", "said"), HEDGED)
def test_a_hedge_promises_nothing(language: str, said: str) -> None:
    assert not promises(said, load_language(language)), said


@pytest.mark.parametrize(("language", "said"), PROMISED)
def test_a_plain_promise_still_promises(language: str, said: str) -> None:
    assert promises(said, load_language(language)), said


def _probe(language: str, agent: str) -> str:
    persona = PersonaSnapshot(
        persona_id="p",
        type="cooperative",
        outcome="success",
        difficulty=2,
        goal="g",
        facts={},
        language=language,
    )
    answer, _ = detect(PROMISE, conv("c", [(1, "caller", "..."), (1, "agent", agent)], persona=persona))
    return answer


def test_the_promise_probe_tells_the_hedge_from_the_promise() -> None:
    # tester46 D11: both answered "yes", so compare could not tell the promising agent apart
    assert _probe("de", HEDGED[0][1]) == "no"
    assert _probe("de", PROMISED[0][1]) == "yes"


def test_the_rows_cover_every_language() -> None:
    assert {code for code, _ in HEDGED + PROMISED} == set(LANGUAGES)
    assert {code for code, _ in OUTCOMES} == {"ru", "hr", "de"}
