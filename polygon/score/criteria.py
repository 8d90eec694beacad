"""The rubric's eight criteria, in the order every rubric and report lists them.

A module of its own, without the rubric's loading (pydantic, YAML, the agent checks): the
verdict fold orders a call's criteria by it, and every view of a run imports that fold
(~0.3 CPU s of imports a ``report`` or ``compare`` did not use).
"""

from __future__ import annotations

CRITERIA = (
    "goal_achievement",
    "instruction_adherence",
    "tool_use",
    "factual_accuracy",
    "dialogue_quality",
    "robustness",
    "safety",
    "persona_tone",
)
