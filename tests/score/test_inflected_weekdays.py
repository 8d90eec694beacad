"""A weekday said in another case or without its accent is that weekday (numwords43, "Noticed").

``agent_contradicts_tools`` read only each pack's dictionary names: "u srijedu u 9",
"в пятницу в 9:00", "el miercoles a las 9" (no accent) were no weekday, so an agent that moved
the caller's test to the wrong day passed. The packs' ``spoken.weekday_forms`` add the cases
and unaccented spellings. numwords43's guards hold for every form: no number in the sentence,
beside today/tomorrow, or the caller's own weekday is no contradiction; a habitual form
("petkom", on Fridays) names the business's week and is not read.
"""

from __future__ import annotations

import pytest

from polygon.score.spoken import claims
from polygon.score.tool_facts import WEEKDAY, agent_contradicts_tools, values_in
from tests.support.calls import call, tool


def outcome(language: str, caller: str, agent: str, slot: str) -> str:
    made = [tool("rebook_test", {"test": "blood"}, {"slot": slot})]
    view = call([(caller, agent, made)], facts={"name": "Ana Kos"}, language=language)
    return agent_contradicts_tools(view).outcome


WRONG = [
    ("hr", "Možete li premjestiti termin?", "Vaš termin je sada u srijedu u 9.", "četvrtak 9:00"),
    ("hr", "Možete li premjestiti termin?", "Termin je premješten na subotu u 8:40.", "petak 8:40"),
    ("hr", "Možete li premjestiti termin?", "Prvi slobodan je od petka u 10.", "ponedjeljak 10:00"),
    ("ru", "Можно перенести запись?", "Ваша запись теперь в пятницу в 9:00.", "четверг 9:00"),
    ("ru", "Можно перенести запись?", "Перенесла на среду в 10:30.", "вторник 10:30"),
    ("es", "¿Me cambia la cita?", "Su cita queda el miercoles a las 9.", "jueves 9:00"),
    ("es", "¿Me cambia la cita?", "Le he puesto el sabado a las 8:40.", "viernes 8:40"),
]


@pytest.mark.parametrize(("language", "caller", "agent", "slot"), WRONG)
def test_a_wrong_weekday_in_another_form_is_a_contradiction(
    language: str, caller: str, agent: str, slot: str
) -> None:
    assert outcome(language, caller, agent, slot) == "fail", agent


RIGHT = [
    ("hr", "Možete li premjestiti termin?", "Vaš termin je sada u četvrtak u 9.", "četvrtak 9:00"),
    ("hr", "Možete li premjestiti termin?", "Vaš termin je u srijedu u 9.", "srijeda 9:00"),
    ("ru", "Можно перенести запись?", "Ваша запись теперь в четверг в 9:00.", "четверг 9:00"),
    ("ru", "Можно перенести запись?", "Ваша запись в пятницу в 9:00.", "пятница 9:00"),
    ("es", "¿Me cambia la cita?", "Su cita queda el miercoles a las 9.", "miércoles 9:00"),
    # numwords43's guards, in the new forms
    ("hr", "Možete li premjestiti termin?", "Danas je srijeda, termin je u četvrtak u 9.", "četvrtak 9:00"),
    ("ru", "Можно перенести запись?", "Завтра, в пятницу, всё занято; четверг в 9:00.", "четверг 9:00"),
    (
        "hr",
        "Može li u srijedu u 9?",
        "Srijeda u 9 je zauzeta, ali četvrtak u 9 je slobodan.",
        "četvrtak 9:00",
    ),
    ("ru", "Можно в пятницу в 9?", "В пятницу в 9 занято, в четверг в 9:00 свободно.", "четверг 9:00"),
    ("hr", "Možete li premjestiti termin?", "U subotu ne radimo. Termin je u četvrtak u 9.", "četvrtak 9:00"),
    (
        "hr",
        "Možete li premjestiti termin?",
        "Radimo petkom do 16. Termin je u četvrtak u 9.",
        "četvrtak 9:00",
    ),
]


@pytest.mark.parametrize(("language", "caller", "agent", "slot"), RIGHT)
def test_a_right_sourced_or_habitual_weekday_is_no_contradiction(
    language: str, caller: str, agent: str, slot: str
) -> None:
    assert outcome(language, caller, agent, slot) == "pass", agent


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("u srijedu u 9", "wednesday"),
        ("do petka u 10", "friday"),
        ("в пятницу в 9:00", "friday"),
        ("до среды в 10", "wednesday"),
        ("el miercoles a las 9", "wednesday"),
        ("el sabado a las 9", "saturday"),
        ("am Sonnabend um 9", "saturday"),
    ],
)
def test_a_weekday_form_reads_as_its_weekday(text: str, day: str) -> None:
    assert [v.value for v in values_in(text) if v.kind == WEEKDAY] == [day]
    assert list(claims(text).weekdays) == [day]


@pytest.mark.parametrize(
    "text", ["Radimo petkom od 8 do 16.", "Работаем пятницей до 16.", "Abrimos los sábados de 9 a 14."]
)
def test_a_habitual_form_is_no_weekday(text: str) -> None:
    assert not [v for v in values_in(text) if v.kind == WEEKDAY]
