"""Rules a suite states that its rubric does not gate on: said before a run, not discovered in CI.

A suite's policies and ``expect:`` are checked on every call whatever the rubric, but only a
rubric that gates on ``check:policy`` / ``check:goal_reached`` turns a broken one into a
``fail``; under rubric v1 a call that reads a card number aloud against a ``never_say``
policy is graded by its composite alone (``warn`` or even ``pass``), which a CI job reading
the exit code lets through. The suite author asked for the rule, so the run says when the
rubric they chose will not enforce it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from polygon.score import load_rubric, prohibitions

if TYPE_CHECKING:  # an import without --suite reads NEWEST_GATING and loads no suite models
    from polygon.suite import LoadedSuite

NEWEST_GATING = "v5"
"""The newest bundled rubric: it gates on policies, expect:, loops and values a tool contradicts."""


def ungated_rules(loaded: LoadedSuite) -> list[str]:
    """One warning per kind of rule the suite states that its rubric does not gate on."""
    suite = loaded.suite
    rubric = load_rubric(suite.judge.rubric).rubric
    gates = set(rubric.gates)
    stated = {
        "check:policy": (len(suite.policies) + _from_prompts(loaded), "policy", "policies"),
        "check:goal_reached": (
            sum(1 for s in suite.scenarios if s.expect is not None),
            "scenario with expect:",
            "scenarios with expect:",
        ),
    }
    warnings = []
    for gate, (count, one, many) in stated.items():
        if count and gate not in gates:
            what = f"{count} {one if count == 1 else many}"
            warnings.append(
                f"warning: {loaded.path}: {what}, but rubric {rubric.version} does not gate on "
                f"{gate}: a call that breaks one is graded by its score alone and can pass "
                f"(rubric {NEWEST_GATING} gates on it: judge: {{rubric: {NEWEST_GATING}}})"
            )
    return warnings


def _from_prompts(loaded: LoadedSuite) -> int:
    """1 when the built-in ``policy:prompt_forbids`` holds: a prompt forbids a promise, and it is on."""
    on = loaded.suite.policies_from_prompt
    return int(on and any(prohibitions(prompt) for prompt in loaded.prompts.values()))
