"""What a suite says that its run will not do as meant: said before the run, not discovered in CI.

A suite's policies and ``expect:`` are checked on every call whatever the rubric, but only a
rubric that gates on ``check:policy`` / ``check:goal_reached`` turns a broken one into a
``fail``; under rubric v1 a call that reads a card number aloud against a ``never_say``
policy is graded by its composite alone (``warn`` or even ``pass``), which a CI job reading
the exit code lets through. The suite author asked for the rule, so the run says when the
rubric they chose will not enforce it.

The same holds for two more things a suite says that its run would not do as meant, each found
by a new user as wrong verdicts: a stub that fails on purpose where no hand-off is accepted
(:func:`unanswered_faults`) and a persona written in a language it will not speak
(:func:`unspoken_languages`).
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from polygon import score as _score  # the rubric (pydantic, checks, languages) loads when read
from polygon.suite import NEWEST_GATING  # the face loads only polygon.suite.names, no models

if TYPE_CHECKING:  # an import without --suite reads NEWEST_GATING and loads no suite models
    import regex

    from polygon.score import Rubric
    from polygon.suite import LoadedSuite, StubSpec

__all__ = ["NEWEST_GATING", "suite_warnings", "unanswered_faults", "ungated_rules", "unspoken_languages"]


def suite_warnings(loaded: LoadedSuite, rubric: Rubric) -> list[str]:
    """Everything said before a run (or a sweep, once) about what it will not do as the suite meant."""
    return [*ungated_rules(loaded, rubric), *unanswered_faults(loaded), *unspoken_languages(loaded)]


def ungated_rules(loaded: LoadedSuite, rubric: Rubric) -> list[str]:
    """One warning per kind of rule the suite states that ``rubric`` (its judge's) does not gate on."""
    suite = loaded.suite
    gates = set(rubric.gates)
    built_in = _built_in(loaded)
    policies = len(suite.policies) + len(built_in)
    stated = {
        "check:policy": (_counted(policies, "policy", "policies") + f" (built in: {', '.join(built_in)})"),
        "check:goal_reached": _counted(
            sum(1 for s in suite.scenarios if s.expect is not None),
            "scenario with expect:",
            "scenarios with expect:",
        ),
    }
    return [
        f"warning: {loaded.path}: {what}, but rubric {rubric.version} does not gate on "
        f"{gate}: a call that breaks one is graded by its score alone and can pass "
        f"(rubric {NEWEST_GATING} gates on it: judge: {{rubric: {NEWEST_GATING}}})"
        for gate, what in stated.items()
        if what and gate not in gates
    ]


def _counted(count: int, one: str, many: str) -> str:
    """``"2 policies"``, or ``""`` for none."""
    return f"{count} {one if count == 1 else many}" if count else ""


def _built_in(loaded: LoadedSuite) -> list[str]:
    """The built-in policies the run's calls hold without the suite naming them.

    ``policy:agent_language`` is on every simulated call (so a suite that chooses v1–v3 is
    always told: its calls can answer in the wrong language and pass), and
    ``policy:prompt_forbids`` when a prompt forbids a promise and it is on.
    """
    on = loaded.suite.policies_from_prompt
    forbids = on and any(_score.prohibitions(prompt) for prompt in loaded.prompts.values())
    return ["policy:agent_language"] + (["policy:prompt_forbids"] if forbids else [])


def unanswered_faults(loaded: LoadedSuite) -> list[str]:
    """One warning per stub with injected faults that scenarios expect a call to, without ``fallback_end``.

    A scenario that expects a call to a tool whose stub fails on purpose can pass a call the
    fault hits only when a retry gets through: a correct agent that hands the caller on
    while the tool is down fails ``goal_reached``. That is right only if the suite means it,
    so the run says so before the calls (a new user's workshop suite met it as a false fail).
    """
    suite = loaded.suite
    faulty = {t.name: _fault_rates(t.stub) for t in suite.tools}
    warnings = []
    for tool, rates in faulty.items():
        bare = [
            s.id
            for s in suite.scenarios
            if rates and s.expect is not None and tool in s.expect.calls and not s.expect.fallback_end
        ]
        if bare:
            warnings.append(
                f"warning: {loaded.path}: tool {tool} injects faults ({rates}) and "
                f"{_counted(len(bare), 'scenario', 'scenarios')} ({_listed(bare)}) expect a call to it "
                "without fallback_end: a call where every try fails passes only if a retry gets through; "
                "if handing the caller on is right while the tool is down, add `fallback_end: [transfer]` "
                "to their expect"
            )
    return warnings


def _fault_rates(stub: StubSpec) -> str:
    """``"timeout 0.05, server_error 0.1"``: the faults a stub injects, or ``""`` for none."""
    faults = stub.faults
    rates = {"timeout": faults.timeout, "server_error": faults.server_error, "malformed": faults.malformed}
    return ", ".join(f"{name} {rate:g}" for name, rate in rates.items() if rate)


def _listed(ids: list[str], shown: int = 3) -> str:
    """The first ``shown`` ids, then how many more."""
    more = len(ids) - shown
    return ", ".join(ids[:shown]) + (f" and {more} more" if more > 0 else "")


def unspoken_languages(loaded: LoadedSuite) -> list[str]:
    """One warning per persona with no ``language`` whose goal and fact keys read as another pack's.

    Such a persona speaks English ("Hi. I'd like to prijaviti kvar interneta.", "My ime is …")
    and cannot hear the agent's questions in its own language: every call is then the caller's
    muddle, judged as the agent's. Told from the packs' own words: the goal's stop and
    signature words, letters only one language has, a script of its own, and fact keys that
    name a pack's concepts (``ime``, ``adresa``, ``nombre``) where English's do not.
    """
    suite = loaded.suite
    quiet = suite.noise.language != "en"  # the personas without one speak the noise language
    found = [(p.id, _read_as(p.goal, list(p.facts))) for p in suite.personas if not p.language and not quiet]
    return [
        f"warning: {loaded.path}: persona {pid} has no language, so its caller speaks English, but its "
        f"goal and fact keys read as {code}: add `language: {code}` to it (or `language: en` to keep English)"
        for pid, code in found
        if code
    ]


def _read_as(goal: str, keys: list[str]) -> str:
    """The language other than English that ``goal`` and ``keys`` read as, or ``""``."""
    from polygon.languages import LANGUAGES

    words = [w.lower() for w in _WORDS.findall(goal)]
    tokens = [t.lower() for key in keys for t in _KEY_PARTS.split(key) if t]
    english = _signs("en").stems
    evidence = {}
    for code in LANGUAGES:
        signs = _signs(code)
        script, letters, stems = signs.script, signs.letters, signs.stems
        if script and words and sum(1 for w in words if script.search(w)) > len(words) / 2:
            return code if code != "en" else ""
        evidence[code] = (
            sum(1 for w in words if w in signs.own)
            + sum(1 for w in [*words, *tokens] if letters and letters.search(w))
            # str.startswith(tuple): any of the stems, in one call
            + sum(1 for t in tokens if t.startswith(stems) and (code == "en" or not t.startswith(english)))
        )
    best = max((c for c in evidence if c != "en"), key=lambda c: evidence[c])
    return best if evidence[best] >= 2 and evidence[best] > evidence["en"] else ""


@dataclass(frozen=True)
class _Signs:
    """What tells a persona's goal and fact keys as one language: made once per language.

    Every persona without a language is read against every language, so building these
    per persona (the stems, the patterns looked up in regex's cache) cost ~0.28 ms a
    persona: ~10% of the run thread's CPU in the bench, where each call has its own persona.
    """

    script: regex.Pattern[str] | None
    letters: regex.Pattern[str] | None
    own: frozenset[str]
    stems: tuple[str, ...]


@functools.cache
def _signs(code: str) -> _Signs:
    """Language ``code``'s signs (a pack is loaded once per process: so are they)."""
    import regex  # the packs' patterns (\p{…}), loaded with them when a suite is run, not at a start

    from polygon.languages import load_language

    pack = load_language(code)
    signature = pack.signature
    return _Signs(
        script=regex.compile(signature.script) if signature.script else None,
        letters=regex.compile(signature.letters) if signature.letters else None,
        own=frozenset(pack.stop_words | signature.words),
        stems=tuple(s for stems in pack.understand.concepts.values() for s in stems if len(s) >= 3),
    )


_WORDS = re.compile(r"[^\W\d_]+")
_KEY_PARTS = re.compile(r"[_\W\d]+|(?<=[a-z])(?=[A-Z])")
