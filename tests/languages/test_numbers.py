"""Numbers spelled as num2words spells them, from the table shipped beside the language files.

The table must say exactly what num2words says for every shipped file's language (``make
docs`` writes it; the reference-docs test fails on a stale one), a language it lacks is asked
of num2words, and the noise and detectors read the table without loading num2words.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from polygon.languages import LANGUAGES, load_language
from polygon.languages.numbers import HIGHEST, spelled, spelled_by_num2words


@pytest.mark.parametrize("code", LANGUAGES)
def test_the_table_spells_as_num2words_does(code: str) -> None:
    language = load_language(code).num2words
    assert spelled(language) == spelled_by_num2words(language)
    assert len(spelled(language)) == HIGHEST + 1


def test_a_language_the_table_lacks_is_spelled_by_num2words() -> None:
    assert spelled("fr")[:3] == ("zéro", "un", "deux")
    assert spelled("fr")[999] == "neuf cent quatre-vingt-dix-neuf"


def test_the_noise_and_the_detectors_read_numbers_without_loading_num2words() -> None:
    code = (
        "import sys\n"
        "from polygon.simulate.noise.packs import pack\n"
        "from polygon.score.detectors import number_words\n"
        "assert pack('hr').number_words['sto'] == 100\n"
        "assert number_words()[('nine', 'hundred', 'ninety', 'nine')] == '999'\n"
        "print('num2words' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
