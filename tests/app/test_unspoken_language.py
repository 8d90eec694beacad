"""A persona with no ``language`` whose goal and fact keys are in another pack's language: said before the calls.

The brief's Croatian suite ("My adresa is Ilica 12.") and a German one written the same way:
with no ``language`` on the persona or the noise, the caller speaks English, says "Hi. I'd
like to prijaviti kvar interneta." and answers "Kako se zovete?" with "Sorry, I don't have
that": every call fails on the simulator's muddle. The run now names the persona and the line.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from polygon.app.gating import unspoken_languages
from polygon.cli.main import cli
from polygon.suite import load_suite

AGENT = "python:polygon.examples.clinic.agents:make_v1"


def _suite(tmp_path: Path, persona: str, noise: str = "") -> Path:
    path = tmp_path / "suite.yaml"
    path.write_text(
        f"name: t\nconfigs: {{v1: {{agent: '{AGENT}'}}}}\n{noise}"
        f"personas:\n  - {{id: p, type: cooperative, {persona}}}\nscenarios: [{{id: s, persona: p}}]\n",
        "utf-8",
    )
    return path


@pytest.mark.parametrize(
    ("persona", "code"),
    [
        ("goal: prijaviti kvar interneta, facts: {ime: Ana Kovačević, adresa: Ilica 12}", "hr"),
        ("goal: ein Rezept nachbestellen, facts: {name: Anna Berg, geburtsdatum: '1980-03-12'}", "de"),
        ("goal: reservar una mesa para dos, facts: {nombre: Ana, hora: '21:00'}", "es"),
        ("goal: перенести поездку на другую дату, facts: {name: Анна}", "ru"),
    ],
)
def test_a_persona_written_in_another_language_is_named_with_the_line_to_add(
    tmp_path: Path, persona: str, code: str
) -> None:
    suite = _suite(tmp_path, persona)
    (warning,) = unspoken_languages(load_suite(suite))
    assert warning == (
        f"warning: {suite}: persona p has no language, so its caller speaks English, but its goal and fact "
        f"keys read as {code}: add `language: {code}` to it (or `language: en` to keep English)"
    )


@pytest.mark.parametrize(
    "persona",
    [
        "goal: book a table for two, facts: {name: Ana Kovačević, party_size: '2'}",  # a Croatian name
        "goal: block my lost card, facts: {name: Jürgen Müller, card_last4: '4821', dob: '1980-03-12'}",
        "goal: find out where my parcel is, facts: {tracking_no: RZ-48213, postcode: '10115'}",
        "goal: prijaviti kvar interneta, language: en, facts: {ime: Ana}",  # English chosen
        "goal: prijaviti kvar interneta, language: hr, facts: {ime: Ana}",
    ],
)
def test_an_english_persona_or_one_with_a_language_draws_none(tmp_path: Path, persona: str) -> None:
    assert unspoken_languages(load_suite(_suite(tmp_path, persona))) == []


def test_the_noise_language_is_the_personas_default_and_draws_none(tmp_path: Path) -> None:
    persona = "goal: prijaviti kvar interneta, facts: {ime: Ana Kovačević, adresa: Ilica 12}"
    assert unspoken_languages(load_suite(_suite(tmp_path, persona, "noise: {language: hr}\n"))) == []


def test_the_run_says_it_before_its_calls(tmp_path: Path) -> None:
    suite = _suite(tmp_path, "goal: prijaviti kvar interneta, facts: {ime: Ana Kovačević, adresa: Ilica 12}")
    res = CliRunner().invoke(cli, ["--log", str(tmp_path / "log"), "run", str(suite), "--no-progress"])
    assert res.exit_code == 0, res.output
    assert "persona p has no language, so its caller speaks English" in res.output
    assert "add `language: hr` to it" in res.output
