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

from polygon import score as _score  # the rubric (pydantic, checks, languages) loads when read
from polygon.suite import NEWEST_GATING  # the face loads only polygon.suite.names, no models

if TYPE_CHECKING:  # an import without --suite reads NEWEST_GATING and loads no suite models
    from polygon.score import Rubric
    from polygon.suite import LoadedSuite

__all__ = ["NEWEST_GATING", "ungated_rules"]


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
