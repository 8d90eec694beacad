"""An honest failure is a refusal: it answers the caller (negdone's note, "Left alone").

"I wasn't able to get that scheduled" and "Your appointment has not been booked" were read
as filler once a negated done word stopped reading as an outcome: an agent that failed, said
so and hung up was failed by goal_reached for "hanging up without settling the caller's
goal". They now read as refusals in every language; a negated report that only *waits*
("Nothing has been booked yet", "Termin još nije potvrđen") still says nothing, and a done
word leading its clause still reports ("Done — the card is blocked and can't be used").
"""

from __future__ import annotations

import pytest

from polygon.events.families import ConversationEnded, ConversationStarted, PersonaSnapshot, TurnSpoken
from polygon.languages import LANGUAGES, load_language, read_turn
from polygon.score.hangup import unsettled_hangup
from polygon.transcript import ConversationView, build
from tests.support.views import env

FAILURES = [
    ("en", "I wasn't able to get that scheduled."),
    ("en", "Your appointment has not been booked."),
    ("en", "We could not process the refund."),
    ("en", "I'm unable to book that for you."),
    ("hr", "Nisam uspjela rezervirati termin."),
    ("hr", "Termin nije potvrđen."),
    ("hr", "Nismo mogli obraditi vaš zahtjev."),
    ("ru", "Не удалось оформить запись."),
    ("ru", "Запись не подтверждена."),
    ("ru", "Я не смог найти свободное время."),
    ("de", "Der Termin konnte nicht gebucht werden."),
    ("de", "Der Termin ist nicht gebucht."),
    ("de", "Es ist mir nicht gelungen, die Karte zu sperren."),
    ("es", "No pude reservar la cita."),
    ("es", "La cita no está confirmada."),
    ("es", "No se ha podido tramitar el reembolso."),
]

WAITS = [
    ("en", "Nothing has been booked yet."),
    ("en", "Your power cut has not been logged yet."),
    ("hr", "Termin još nije potvrđen."),
    ("ru", "Запись ещё не подтверждена."),
    ("de", "Der Termin ist noch nicht gebucht."),
    ("es", "La cita todavía no está confirmada."),
]

REPORTS = [
    ("en", "Done — the card is blocked and can't be used."),
    ("hr", "Gotovo — kvar je prijavljen, struja se ne može vratiti prije 18 sati."),
    ("ru", "Готово — рецепт продлён, больше ничего делать не нужно."),
    ("de", "Die Karte ist gesperrt und kann nicht mehr benutzt werden."),
    ("es", "Listo — la tarjeta está bloqueada y no se puede usar."),
]


@pytest.mark.parametrize(("language", "said"), FAILURES)
def test_an_honest_failure_is_a_refusal(language: str, said: str) -> None:
    assert read_turn(said, load_language(language)).acts == {"refusal"}, said


@pytest.mark.parametrize(("language", "said"), WAITS)
def test_a_negated_report_that_waits_neither_reports_nor_refuses(language: str, said: str) -> None:
    acts = read_turn(said, load_language(language)).acts
    assert not acts & {"outcome", "refusal"}, (said, acts)


@pytest.mark.parametrize(("language", "said"), REPORTS)
def test_a_done_word_before_its_negation_still_reports(language: str, said: str) -> None:
    assert read_turn(said, load_language(language)).acts == {"outcome"}, said


def _hung_up(said: str, language: str) -> ConversationView:
    persona = PersonaSnapshot(
        persona_id="p",
        type="cooperative",
        outcome="success",
        difficulty=1,
        goal="book an appointment",
        facts={"name": "Ana Kos"},
        language=language,
    )
    events = [
        ConversationStarted(
            run_id="r", conversation_id="x", config="c", scenario="s", trial=0, seed=1, persona=persona
        ),
        TurnSpoken(conversation_id="x", turn=1, speaker="caller", text="Hello."),
        TurnSpoken(conversation_id="x", turn=1, speaker="agent", text=said),
        ConversationEnded(conversation_id="x", reason="hangup", by="agent", turns=1),
    ]
    return build("x", [env(i + 1, e) for i, e in enumerate(events)])


@pytest.mark.parametrize(("language", "said"), FAILURES)
def test_an_agent_that_fails_says_so_and_hangs_up_settled_the_call(language: str, said: str) -> None:
    view = _hung_up(said, language)
    assert view.started is not None and view.started.persona is not None
    assert unsettled_hangup(view, view.started.persona) == ""


@pytest.mark.parametrize(("language", "said"), WAITS)
def test_an_agent_that_only_says_it_waits_and_hangs_up_did_not(language: str, said: str) -> None:
    view = _hung_up(said, language)
    assert view.started is not None and view.started.persona is not None
    assert "without settling" in unsettled_hangup(view, view.started.persona)


def test_the_rows_cover_every_language() -> None:
    for rows in (FAILURES, WAITS, REPORTS):
        assert {lang for lang, _ in rows} == set(LANGUAGES)
