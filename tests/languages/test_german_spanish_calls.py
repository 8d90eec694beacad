"""German and Spanish end to end: a suite each, a correct line and two buggy ones.

Leuchtturm Versicherung (a German claims line, ``suites/versicherung.yaml``) and Clínica
Dental Sonrisa (a Spanish dentist's booking line, ``suites/dentista.yaml``), every caller
type speaking the persona's language, run offline with the scripted caller and judge:

* the scripted caller says nothing in English — no English word of its file or its
  sentences reaches a German or Spanish call ("My adresa is Ilica 12." is the bug class),
  even when the agent speaks English to it;
* the correct line passes every call and ``policy:agent_language`` hears its language;
* the line that acts before verifying fails exactly the calls where it did (the
  benchmark's truth, read from each call's events), and no other;
* the line that answers in English fails every call, on ``policy:agent_language``;
* a suite in a language with no file (French) is refused before any call.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest

from polygon.app.queries import load_run
from polygon.app.run import RunOptions, run_suite
from polygon.errors import SuiteError
from polygon.events import CheckRecorded, MemoryLog, PersonaSnapshot, TurnSpoken
from polygon.events.streams import conversation_stream
from polygon.languages import Language, load_language
from polygon.projections.report import make_report
from polygon.score.agent_language import hear
from polygon.simulate.callers.scripted import ScriptedCaller
from polygon.simulate.plan import check_references
from polygon.suite.loading import load_suite
from polygon.transcript import ConversationView, build
from tests.bench.accuracy.line import Line
from tests.bench.accuracy.truth import truth
from tests.languages.suites import dentista, versicherung

HERE = Path(__file__).parent / "suites"
SUITES = {"de": ("versicherung.yaml", versicherung.LINE), "es": ("dentista.yaml", dentista.LINE)}
_WORD = re.compile(r"[^\W\d_]+")

SHARED_SPELLING = {"de": {"also", "will", "name", "extra"}, "es": {"he"}}
"""Words of the language that English spells the same ("Also, noch einmal", "Ich will …",
"He tenido …"): not a leak."""


@dataclass(frozen=True)
class Call:
    """One call of a suite: its config, verdict, view and the checks scored on it."""

    config: str
    verdict: str
    view: ConversationView
    checks: dict[str, CheckRecorded]
    caller: tuple[str, ...]


@cache
def calls(code: str) -> tuple[Call, ...]:
    """Every call of the language's suite (run once per test session)."""
    name, _ = SUITES[code]
    log = MemoryLog()
    summary = run_suite(load_suite(HERE / name), log, RunOptions(run_id=f"lang-{code}"), now=lambda: "")
    report = make_report(load_run(log, summary.run_id), None)
    out = []
    for row in report.conversations:
        cid = row.record.conversation_id
        events = list(log.read_stream(conversation_stream(cid)))
        checks = {e.payload.check: e.payload for e in events if isinstance(e.payload, CheckRecorded)}
        said = tuple(
            e.payload.text for e in events if isinstance(e.payload, TurnSpoken) and e.payload.speaker == "caller"
        )
        verdict = row.verdict.verdict if row.verdict else "unjudged"
        out.append(Call(row.record.config, verdict, build(cid, iter(events)), checks, said))
    return tuple(out)


def _words(texts: list[str]) -> set[str]:
    return {w.lower() for t in texts for w in _WORD.findall(t)}


def _sentences(pack: Language) -> list[str]:
    """Every sentence the caller of ``pack`` can say."""
    talk = pack.small_talk
    said = [*pack.say.model_dump().values(), *talk.digressions, *talk.complaints, *talk.threats, *talk.worries]
    return said + [s for m in pack.types.values() for s in m.model_dump().values()]


def english_only(code: str) -> set[str]:
    """Words of English's file and sentences that the language ``code`` does not have."""
    en, lang = load_language("en"), load_language(code)
    english = en.stop_words | en.signature.words | en.wh_words | en.weekdays | _words(_sentences(en))
    own = lang.stop_words | lang.signature.words | lang.wh_words | lang.weekdays | SHARED_SPELLING[code]
    return set(english - own)


@pytest.mark.parametrize("code", sorted(SUITES))
def test_the_caller_speaks_only_the_calls_language(code: str) -> None:
    leaks = english_only(code)
    assert {"my", "is", "the", "address", "please", "bye", "sorry"} <= leaks  # the bug class is watched
    assert SHARED_SPELLING[code] <= _words(_sentences(load_language(code)))  # each is the language's own word
    for call in calls(code):
        assert call.caller, call.view.conversation_id
        for text in call.caller:
            assert not _words([text]) & leaks, (call.config, call.view.conversation_id, text)


@pytest.mark.parametrize("code", sorted(SUITES))
def test_the_correct_line_passes_every_call_in_its_language(code: str) -> None:
    correct = [c for c in calls(code) if c.config == "correct"]
    assert len(correct) == 12
    for call in correct:
        assert call.verdict == "pass", call.view.conversation_id
        heard = call.checks["policy:agent_language"]
        assert heard.outcome == "pass" and f"all in {code}" in heard.detail, heard.detail
        assert truth(call.view, _line(code)).bugs == ()


@pytest.mark.parametrize("code", sorted(SUITES))
def test_acting_before_verifying_fails_the_calls_it_happened_in(code: str) -> None:
    early = [c for c in calls(code) if c.config == "acts_early"]
    acted = [c for c in early if "acts_early" in truth(c.view, _line(code)).bugs]
    assert len(acted) == 6  # cooperative, distrustful, confused: two trials each
    for call in early:
        assert call.verdict == ("fail" if call in acted else "pass"), call.view.conversation_id
    for call in acted:
        policy = next(c for name, c in call.checks.items() if name.startswith("policy:verify_before"))
        assert policy.outcome == "fail", policy.detail
        assert call.checks["policy:agent_language"].outcome == "pass"  # it broke the order, not the language


@pytest.mark.parametrize("code", sorted(SUITES))
def test_answering_in_english_fails_every_call(code: str) -> None:
    english = [c for c in calls(code) if c.config == "english"]
    assert len(english) == 12
    for call in english:
        assert call.verdict == "fail", call.view.conversation_id
        heard = call.checks["policy:agent_language"]
        assert heard.outcome == "fail", heard.detail
        assert f"the agent spoke en, the call's language is {code}" in heard.detail


def _line(code: str) -> Line:
    return SUITES[code][1]


def test_a_language_without_a_file_is_refused_before_any_call(tmp_path: Path) -> None:
    suite = tmp_path / "suite.yaml"
    suite.write_text((HERE / "versicherung.yaml").read_text("utf-8").replace("language: de,", "language: fr,"))
    with pytest.raises(SuiteError, match=r"personas\[coop-schaden\]\.language: .* 'fr' \(available: de, en, es, hr, ru\)"):
        check_references(load_suite(suite))


@pytest.mark.parametrize(
    ("text", "call", "told"),
    [
        # German and Spanish words an earlier language has tell nothing in their own calls ...
        ("Was? In Ordnung, so machen wir das am besten.", "de", None),
        ("Sí, se lo confirmo: su cita se ha cancelado, si quiere se la cambio.", "es", "es"),
        ("Si me dice su número de paciente, se lo miro.", "es", "es"),
        # ... and English is still told in them, and in its own calls as before German came
        ("Your claim was filed in March. Is there anything else?", "de", "en"),
        ("Your order is in transit. Anything else?", "en", "en"),
        ("Your order is in transit. Anything else?", "hr", "en"),
        ("Alles klar, ich habe Sie am Montag um 10 Uhr eingetragen.", "en", "de"),
        ("Buenos días, ¿en qué le puedo ayudar hoy?", "hr", "es"),
    ],
)
def test_a_borrowed_word_tells_the_earlier_language_except_in_the_borrowers_calls(
    text: str, call: str, told: str | None
) -> None:
    heard = hear(text, call)
    assert (heard.language if heard else None) == told, heard


@pytest.mark.parametrize(
    ("code", "goal", "facts", "line", "answer"),
    [  # a greeting's "Tag" / "días" asks for no date: the caller states its goal
        ("de", "einen Schaden melden", {"schadensdatum": "2026-11-28"}, "Guten Tag, was kann ich für Sie tun?",
         "Ich möchte einen Schaden melden."),
        ("es", "reservar una cita", {"fecha": "2026-12-03"}, "Buenos días, ¿en qué puedo ayudarle?",
         "Quisiera reservar una cita."),
        ("es", "reservar una cita", {"fecha": "2026-12-03"}, "¿Qué día le viene bien?", "Mi fecha es 2026-12-03."),
        ("de", "einen Termin vereinbaren", {"datum": "2026-12-03"}, "Wann passt es Ihnen?", "Datum: 2026-12-03."),
    ],
)
def test_a_greeting_asks_for_no_date(code: str, goal: str, facts: dict[str, str], line: str, answer: str) -> None:
    persona = PersonaSnapshot(
        persona_id="p", type="cooperative", outcome="success", difficulty=1, goal=goal, facts=facts, language=code
    )
    caller = ScriptedCaller(persona, 1)
    caller.next(None)
    assert caller.next(line).text == answer
