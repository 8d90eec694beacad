"""The caller's languages: one data file each, the same fields, and a caller that speaks them.

Parity (every language has every sentence, with the same blanks), and per language: the
caller's whole side of a call is in that language, fact keys are spoken through labels,
and the agent's questions and outcome reports in it are understood.
"""

from __future__ import annotations

import re
import string

import pytest
import yaml

from polygon.events.families import PersonaSnapshot
from polygon.languages import CALLER_TYPES, LANGUAGES, Language, caller_language
from polygon.languages.acts import read_turn
from polygon.simulate.callers.scripted import ScriptedCaller, spoken_value


def _blanks(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def test_every_language_has_the_same_fields_and_blanks() -> None:
    english = caller_language("en")
    for code in LANGUAGES:
        pack = caller_language(code)
        assert pack.code == code
        for field, template in english.say.model_dump().items():
            theirs = getattr(pack.say, field)
            if field == "date":  # a date's parts, each language in its own order and form
                assert _blanks(theirs) and _blanks(theirs) <= {"day", "month", "year", "dd", "mm"}, (code, theirs)
                continue
            # {label}/{Label} are interchangeable: a language capitalises where its grammar does.
            norm = lambda t: {b.lower() for b in _blanks(t)}  # noqa: E731
            assert norm(theirs) == norm(template), (code, field, theirs)
        assert set(pack.types) == set(CALLER_TYPES)
        for kind in CALLER_TYPES:
            assert _blanks(pack.manner(kind).opening) <= {"goal"}
        for label in pack.labels.values():
            assert "_" not in label and not re.search(r"\d", label), (code, label)


def test_the_files_are_the_package_data_the_loader_reads() -> None:
    from importlib import resources

    for code in LANGUAGES:
        raw = yaml.safe_load(resources.files("polygon.languages").joinpath(f"{code}.yaml").read_text("utf-8"))
        assert Language.model_validate(raw).code == code
    assert caller_language("fr").code == "en"  # a language without a file falls back to English


CALLS = {
    "en": (
        "file a claim for storm damage",
        {"name": "Emma Clarke", "policy_no": "PL-448812", "dob": "1980-03-12", "tel": "0161 496 0732"},
        ["May I have your full name, please?", "What is your policy number?", "And your date of birth, please?",
         "What number can we reach you on?", "Done — your claim is filed under CL-50912."],
    ),
    "hr": (
        "prijaviti da nema struje",
        {"ime": "Željka Babić", "broj_korisnika": "40311872", "dob": "1975-11-02", "tel": "091 234 5678"},
        ["Kako se zovete, molim vas?", "Koji je vaš broj korisnika?", "Vaš datum rođenja, molim.",
         "Na koji broj telefona vas možemo nazvati?", "Gotovo — kvar je prijavljen pod brojem K-7781."],
    ),
    "ru": (
        "продлить рецепт",
        {"имя": "Анна Петрова", "номер_рецепта": "RX-204881", "dob": "1962-04-09", "tel": "8 903 123 4567"},
        ["Как вас зовут, пожалуйста?", "Назовите номер рецепта.", "И вашу дату рождения, пожалуйста.",
         "По какому телефону вам перезвонить?", "Готово — рецепт продлён."],
    ),
    "de": (
        "einen Schaden an meinem Dach melden",
        {"name": "Anna Schmidt", "versicherungsnummer": "VS-448812", "dob": "1980-03-12", "tel": "0171 2345678"},
        ["Wie ist Ihr Name, bitte?", "Wie lautet Ihre Versicherungsnummer?", "Und Ihr Geburtsdatum, bitte.",
         "Unter welcher Telefonnummer können wir Sie erreichen?",
         "Erledigt — Ihr Schaden ist unter SC-50912 aufgenommen."],
    ),
    "es": (
        "reservar una cita para una limpieza dental",
        {"nombre": "Lucía Romero", "numero_de_paciente": "48213", "dob": "1985-07-21", "telefono": "612 345 678"},
        ["¿Cuál es su nombre, por favor?", "¿Me dice su número de paciente?", "Su fecha de nacimiento, por favor.",
         "¿En qué teléfono la podemos localizar?", "Listo — su cita queda reservada para el martes a las 10:30."],
    ),
}
INTRODUCTIONS = {
    "en": "This is Sam speaking.",
    "hr": "Petra na vezi.",
    "ru": "Меня зовут Вера.",
    "de": "Hier spricht Jonas.",
    "es": "Le atiende Marta.",
}
ENGLISH = re.compile(r"\b(I'd|I|My|Sorry|Hi|please|Great|thanks?|Bye|is|the|number)\b")


@pytest.mark.parametrize("language", sorted(CALLS))
@pytest.mark.parametrize("kind", CALLER_TYPES)
def test_a_caller_answers_each_question_in_its_language(language: str, kind: str) -> None:
    goal, facts, lines = CALLS[language]
    for seed in range(6):
        persona = PersonaSnapshot(
            persona_id="p", type=kind, outcome="success", difficulty=2, goal=goal, facts=facts, language=language
        )
        caller = ScriptedCaller(persona, seed)
        said = [caller.next(None).text]
        if kind == "distrustful":
            said.append(caller.next(lines[-1].split("—")[0] + " " + INTRODUCTIONS[language]).text)
        intents = []
        for line in lines:
            out = caller.next(line)
            said.append(out.text)
            intents.append(out.intent)
            if out.ends_call:
                break
        text = " ".join(said)
        for key in facts:  # a key is never spoken: "policy_no", "dob", "tel" are said in words
            if "_" in key or key in ("dob", "tel"):
                assert not re.search(rf"\b{key}\b", text, re.IGNORECASE), (key, said)
        if language != "en":
            assert not ENGLISH.search(text), said
        assert intents[-1] == "goodbye", (said, intents)  # the outcome report is understood
        pack = caller_language(language)
        for value in facts.values():  # a date as its language says it ("2. 11. 1975")
            assert spoken_value(value, pack) in text or kind == "confused", (value, said)


@pytest.mark.parametrize(
    ("language", "sentence", "act"),
    [
        ("en", "Adriatic Bank card services, this is Sam.", "greeting"),
        ("en", "May I have your full name, please?", "question"),
        ("en", "Do you want me to block this card, or to check its status?", "wants"),
        ("en", "Shall I book it?", "offer"),
        ("en", "Is that correct?", "confirm"),
        ("en", "Done — the card is now blocked and can't be used.", "outcome"),
        ("en", "I'm afraid we can't do that, because of our policy.", "refusal"),
        ("en", "I'm putting you through to a colleague.", "transfer"),
        ("en", "Goodbye!", "closing"),
        ("en", "Your order is open.", "filler"),  # a short "your …" statement answers, not asks
        ("en", "Your name, please.", "question"),
        ("en", "And your date of birth, please.", "question"),
        ("hr", "Elektra Sjever, Petra na vezi.", "greeting"),
        ("hr", "Koji je vaš broj korisnika?", "question"),
        ("hr", "Narudžba je zaprimljena, dostava u 18:30.", "outcome"),
        ("hr", "Nažalost, to ne možemo.", "refusal"),
        ("hr", "Je li to točno?", "confirm"),
        ("hr", "Spajam vas s dežurnim dispečerom.", "transfer"),
        ("hr", "Vaš račun je plaćen.", "filler"),
        ("hr", "Vaš poštanski broj.", "question"),
        ("hr", "Koji je vaš broj.", "question"),  # a question word keeps it a question
        ("ru", "Аптека «Здоровье», меня зовут Вера.", "greeting"),
        ("ru", "Назовите, пожалуйста, номер рецепта.", "question"),
        ("ru", "Готово — рецепт продлён.", "outcome"),
        ("ru", "К сожалению, я не могу.", "refusal"),
        ("ru", "Соединяю вас с фармацевтом.", "transfer"),
        ("ru", "До свидания!", "closing"),
        ("ru", "Ваш заказ будет у вас завтра.", "filler"),
        ("de", "Lighthouse Versicherung, Schadenservice, hier spricht Jonas.", "greeting"),
        ("de", "Wie lautet Ihre Versicherungsnummer?", "question"),
        ("de", "Nennen Sie mir bitte Ihr Geburtsdatum.", "question"),
        ("de", "Ihr Geburtsdatum, bitte.", "question"),
        ("de", "Ihr Vertrag ist gültig.", "filler"),  # a verb of being: a statement
        ("de", "Was kann ich für Sie tun?", "wants"),
        ("de", "Soll ich den Termin so eintragen?", "offer"),
        ("de", "Ist das richtig?", "confirm"),
        ("de", "Erledigt — Ihr Schaden ist aufgenommen und kann nicht mehr verloren gehen.", "outcome"),
        ("de", "Leider können wir das nicht telefonisch machen, weil wir eine Unterschrift brauchen.", "refusal"),
        ("de", "Ich verbinde Sie mit einem Sachbearbeiter.", "transfer"),
        ("de", "Wir rufen Sie morgen zurück.", "callback"),
        ("de", "Entschuldigung, das habe ich nicht verstanden.", "repeat"),
        ("de", "Auf Wiederhören!", "closing"),
        ("es", "Clínica Dental Sonrisa, le atiende Marta.", "greeting"),
        ("es", "¿Cuál es su número de paciente?", "question"),
        ("es", "Su fecha de nacimiento, por favor.", "question"),
        ("es", "Su cita es el martes.", "filler"),  # a verb of being: a statement
        ("es", "¿En qué puedo ayudarle?", "wants"),
        ("es", "¿Quiere que le reserve el martes a las 10:30?", "offer"),
        ("es", "¿Es correcto?", "confirm"),
        ("es", "Listo — su cita queda confirmada y no hace falta llamar otra vez.", "outcome"),
        ("es", "Lo siento, no podemos hacer empastes los sábados porque la clínica está cerrada.", "refusal"),
        ("es", "Le paso con la doctora.", "transfer"),
        ("es", "Le llamaremos mañana.", "callback"),
        ("es", "Perdone, ¿puede repetir?", "repeat"),
        ("es", "¡Adiós, que le vaya bien!", "closing"),
    ],
)
def test_dialogue_acts_in_each_language(language: str, sentence: str, act: str) -> None:
    turn = read_turn(sentence, caller_language(language))
    assert [s.act for s in turn.sentences] == [act], turn
