"""Every language is one data file with every section, and the loader holds them to it.

Parity across languages (the same sections, each list filled, markers in the lower case they
are matched in), the loader's refusals (an unknown code, a file that names another language,
a missing section, a broken pattern), and the readers seeing exactly the file's words.
"""

from __future__ import annotations

import subprocess
import sys
from importlib import resources
from typing import Any

import pytest
import regex
import yaml

from polygon.languages import LANGUAGES, LanguagePackError, load_language, parse_language
from polygon.lint.lexicon import code_of, lexicon
from polygon.lint.reading import detect_language, stem
from polygon.simulate.noise.packs import languages, pack


def _raw(code: str) -> dict[str, object]:
    text = resources.files("polygon.languages").joinpath(f"{code}.yaml").read_text("utf-8")
    data = yaml.safe_load(text)
    assert isinstance(data, dict)
    return data


# Maps keyed by words of the language, not by field names: their keys differ by design.
_WORD_KEYED = {
    "question_hints",
    "demands",
    "labels",
    "soundalikes",
    "number_words",
    "spellings",
    "first_person",
    "clock_times",
    "repeats",
}


def _fields(value: object) -> object:
    """The field names of a file, nested, without the words."""
    if isinstance(value, dict):
        return {k: None if k in _WORD_KEYED else _fields(v) for k, v in value.items()}
    return None


def test_every_file_has_the_same_fields_as_english() -> None:
    english = _fields(_raw("en"))
    for code in LANGUAGES:
        assert _fields(_raw(code)) == english, code


def test_the_package_holds_a_file_for_each_language_and_no_other() -> None:
    files = sorted(p.name for p in resources.files("polygon.languages").iterdir() if p.name.endswith(".yaml"))
    assert files == sorted(f"{code}.yaml" for code in LANGUAGES)
    assert languages() == sorted(LANGUAGES)


@pytest.mark.parametrize("code", LANGUAGES)
def test_lint_markers_are_lower_case_distinct_and_the_patterns_match_a_negative_imperative(code: str) -> None:
    lex = lexicon(code)
    for name in ("must", "never", "allow", "vague", "weak_vague", "without", "suffixes"):
        markers = getattr(lex, name)
        assert markers, (code, name)
        assert all(m == m.lower() and m == m.strip() for m in markers), (code, name)  # matched lower-cased
        assert len(set(markers)) == len(markers), (code, name)
    assert all(w == w.lower() for w in lex.stop)
    assert code_of(lex) == code
    assert not set(lex.must) & set(lex.never), code
    rules = lex.rules
    assert all(m == m.lower() for m in (*rules.should, *rules.tell, *rules.generic, *rules.verb_endings))
    assert all(w == w.lower() for w in rules.verbs | rules.not_verbs | rules.skip_words)


@pytest.mark.parametrize("code", LANGUAGES)
def test_a_signature_is_a_script_or_lower_case_words_and_letters_of_its_own(code: str) -> None:
    sign = load_language(code).signature
    assert all(w == w.lower() and w.strip() == w for w in sign.words), code  # matched lower-cased
    assert bool(sign.script) != bool(sign.words), code  # a script tells alone; words tell the rest apart
    for pattern in (sign.script, sign.letters):
        assert not pattern or not regex.match(pattern, ""), code  # an empty match would count everywhere
    others = [load_language(c).signature for c in LANGUAGES if c != code]
    assert not any(sign.words & o.words for o in others), code  # a shared word tells nothing


@pytest.mark.parametrize(("code", "sentence"), [("ru", "не называйте цену"), ("hr", "ne spominjite cijenu")])
def test_the_never_patterns_catch_an_imperative_no_word_list_holds(code: str, sentence: str) -> None:
    assert any(regex.search(p, sentence) for p in lexicon(code).never_patterns)


@pytest.mark.parametrize("code", LANGUAGES)
def test_noise_words_are_whole_for_each_language(code: str) -> None:
    noise = pack(code)
    assert len(noise.digits) == len(set(noise.digits)) == 10
    assert noise.fillers and noise.soundalikes
    assert all(k == k.lower() and k != v for k, v in noise.soundalikes.items())
    # num2words spells every number 0-100 in the language the file names
    assert sorted(set(noise.number_words.values())) == list(range(101))
    assert noise.number_words[noise.digits[7]] == 7


@pytest.mark.parametrize(
    ("code", "sentence", "modality", "action"),
    [
        ("en", "read the card number back to the caller", "must", "tell"),
        ("ru", "назовите номер заказа", "must", "tell"),
        ("hr", "recite broj narudžbe", "must", "tell"),
        ("de", "nennen sie dem anrufer die vorgangsnummer", "must", "tell"),
        ("de", "fragen sie nach dem geburtsdatum", "must", "frag"),
        ("es", "indique al paciente el número de la reserva", "must", "tell"),
        ("es", "pregunte siempre el nombre", "must", "pregu"),
    ],
)
def test_a_rule_is_read_with_its_languages_rule_words(code: str, sentence: str, modality: str, action: str) -> None:
    from polygon.lint.modality import read_rule

    lex = lexicon(code)
    rule = read_rule(
        sentence,
        code,
        must=False,
        must_not=False,
        allows=False,
        marker_end=-1,
        stem=lambda w: stem(w, lex),
        content=lambda part: frozenset(),
    )
    assert (rule.modality, rule.action) == (modality, action)


def test_spoken_dates_weekdays_and_numbers_are_whole_and_unambiguous() -> None:
    month_of: dict[str, int] = {}
    for code in LANGUAGES:
        spoken = load_language(code).spoken
        for i, names in enumerate(spoken.months):
            assert names and all(n == n.lower() for n in names), (code, i)
            for name in names:  # one word never names two months, in any two languages
                assert month_of.setdefault(name, i + 1) == i + 1, (code, name)
        # the days scoring reads back are days the caller understands
        assert set(spoken.weekdays) <= load_language(code).understand.weekdays, code
        assert len(set(spoken.weekdays)) == 7


def test_scoring_reads_a_date_a_day_and_a_number_said_in_each_language() -> None:
    from polygon.score.detectors import number_words
    from polygon.score.spoken import claims

    said = {
        "en": "born 12 March 1980, on Tuesday",
        "hr": "rođen 12 ožujka 1980, u utorak",
        "ru": "родился 12 марта 1980, во вторник",
        "de": "geboren am 12. März 1980, an einem Dienstag",
        "es": "nacida el 12 de marzo de 1980, un martes",
    }
    for code, text in said.items():
        c = claims(text)
        assert set(c.dates) == {"1980-03-12"}, code
        assert set(c.weekdays) <= {"tuesday"}, code
    assert set(claims("srijeda").weekdays) == {"wednesday"}
    words = number_words()
    assert words[("oh",)] == "0" and words[("dvije",)] == "2" and words[("две",)] == "2"
    assert words[("sto",)] == "100"  # Croatian through num2words' Serbian Latin tables
    assert words[("zwo",)] == "2" and words[("einundzwanzig",)] == "21"  # German: the phone's "zwo"
    assert words[("una",)] == "1" and words[("noventa", "y", "nueve")] == "99"
    assert set(claims("am Mittwoch").weekdays) == set(claims("el miércoles").weekdays) == {"wednesday"}


def test_the_readers_see_the_files_words() -> None:
    language = load_language("ru")
    assert pack("ru").digits == language.noise.digits
    assert lexicon("ru") is language.lint
    assert detect_language("Кто звонит?") == "ru" and language.signature.script == r"\p{Cyrillic}"
    assert stem("клиентами", lexicon("ru")) == "клиент"  # "ами" off, as the file's suffixes say
    assert stem("prices", lexicon("en")) == "pric"  # silent e, English only
    assert load_language("en") is load_language("en")  # read once per process


def test_an_unknown_language_is_refused() -> None:
    with pytest.raises(LanguagePackError, match="no language file 'fr'"):
        load_language("fr")
    with pytest.raises(Exception, match="no noise language pack 'fr'; available: de, en, es, hr, ru"):
        pack("fr")


def _english_with(path: tuple[str, ...], value: object) -> str:
    """English's file with the field at ``path`` set to ``value`` (``None``: removed)."""
    raw: Any = _raw("en")
    node = raw
    for key in path[:-1]:
        node = node[key]
    if value is None:
        del node[path[-1]]
    else:
        node[path[-1]] = value
    return yaml.safe_dump(raw, allow_unicode=True)


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        (("code",), "hr", "the file says it is 'hr'"),
        (("noise",), None, "noise"),
        (("lint", "must"), None, "must"),
        (("lint", "never_patterns"), ["(unclosed"], "never_patterns"),
        (("noise", "digits"), ["zero", "one"], "digits"),
        (("lint", "stop"), 7, "stop"),
        (("lint", "silent_e"), None, "silent_e"),
        (("lint", "rules", "condition"), "^(?:if", "condition"),
        (("lint", "rules", "verbs"), [], "neither an imperative ending nor verbs"),
        (("lint", "rules"), None, "rules"),
        (("spoken", "months"), [["january"]], "months"),
        (("num2words",), None, "num2words"),
        (("signature",), None, "signature"),
        (("signature", "letters"), "[čć", "letters"),
        (("signature", "words"), "", "neither a script nor words"),
        (("signature", "borrowed"), "zzz", "signature.borrowed: zzz not among the file's words"),
    ],
)
def test_a_broken_file_fails_to_load_and_says_where(path: tuple[str, ...], value: object, message: str) -> None:
    assert parse_language("en", yaml.safe_dump(_raw("en"), allow_unicode=True)) == load_language("en")
    with pytest.raises(LanguagePackError, match=regex.escape(message)):
        parse_language("en", _english_with(path, value))


def test_a_file_as_written_parses_to_what_the_loader_returns() -> None:
    """parse_language compiles every pattern (the loader trusts a shipped file's): this is
    where a shipped file's broken pattern fails."""
    for code in LANGUAGES:
        text = resources.files("polygon.languages").joinpath(f"{code}.yaml").read_text("utf-8")
        assert parse_language(code, text) == load_language(code)


def test_only_a_shipped_file_skips_compiling_its_patterns() -> None:
    broken = _english_with(("safety", "instructions"), ["(unclosed"])
    with pytest.raises(LanguagePackError, match="instructions"):
        parse_language("en", broken)
    assert parse_language("en", broken, shipped=True).safety.instructions == ("(unclosed",)


def test_listing_languages_does_not_import_the_model() -> None:
    code = (
        "import sys; import polygon.app.noise as n; n.languages(); "
        "print(sorted(m for m in ('pydantic', 'yaml', 'polygon.languages.model') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def _lists(code: str) -> frozenset[str]:
    lang = load_language(code)
    return lang.stop_words | lang.signature.words | lang.understand.wh_words | lang.weekdays


def test_a_later_language_leaves_the_earlier_ones_told_as_before() -> None:
    from polygon.score.agent_language import _marks

    for i, code in enumerate(LANGUAGES):  # a borrowed word is one an earlier language has
        earlier = frozenset().union(*(_lists(c) for c in LANGUAGES[:i]))
        assert load_language(code).signature.borrowed <= earlier, code
    first = ("en", "hr", "ru")  # the words only one of them has, as before German and Spanish came
    alone = {c: {w for w in _lists(c) if not any(w in _lists(o) for o in first if o != c)} for c in first}
    told = {m.code: m.words for m in _marks()}
    assert {c: told[c] for c in first} == alone
    assert {"in", "was", "so"} <= told["en"] and {"se", "su"} <= told["hr"]
    assert not {"in", "was"} & told["de"] and not {"se", "su", "no"} & told["es"]


def test_german_and_spanish_waits_and_free_charges_are_read() -> None:
    from polygon.score.spoken_values import durations, free_phrases, word_amounts

    assert [m for m, *_ in durations("Der Techniker ist in zwanzig Minuten bei Ihnen.")] == [20]
    assert [m for m, *_ in durations("La grúa llegará en una hora.")] == [60]
    assert [m for m, *_ in durations("Wir melden uns in 2 Tagen.")] == [2880]
    assert list(free_phrases("Die Anfahrt ist kostenlos.")) and list(free_phrases("Es sin coste adicional."))
    assert not list(free_phrases("Die Anfahrt kostet 45 Euro.")) and not list(free_phrases("Cuesta 45 euros."))
    import re

    euro = re.compile(r"\s*(?:euro|euros)\b", re.IGNORECASE)
    assert [v for v, *_ in word_amounts("Das kostet fünfundvierzig Euro.", euro)] == [45]
    assert [v for v, *_ in word_amounts("Son dos mil quinientos euros.", euro)] == [2500]
