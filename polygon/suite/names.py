"""Names a suite file may use for built-in behaviour, kept as data at the bottom layer.

The schema validates a suite against these names without importing the code that
implements them (``polygon.score`` and ``polygon.probe`` sit above ``polygon.suite``);
each implementation imports its names from here, and a test keeps the registries equal.
"""

from __future__ import annotations

NEWEST_GATING = "v5"
"""The newest bundled rubric that gates on policies, ``expect:``, loops and values a tool contradicts.

A suite that names no ``judge.rubric`` is scored under it (not v1, which gates only on a
forbidden phrase and safety: a hand-written suite got green verdicts on calls that broke its
policies). One name in one place: a bundled v6 that gates on more moves it here."""

DETECTOR_PREFIX = "detector:"
"""How ``forbidden_phrases`` names a detector instead of a literal phrase."""

TEXT_DETECTORS = ("card_number", "email", "iban", "phone_number")
"""The built-in detectors over one agent turn's words (``polygon.score.detectors``), in order."""
GROUNDED_DETECTORS = ("disclosure",)
"""Built-in detectors that read a turn against the whole call (``polygon.score.disclosure``):
personal data the agent says that neither the caller, nor the business, nor the caller's own
records put in the call."""
SPEECH_DETECTORS = TEXT_DETECTORS + GROUNDED_DETECTORS
"""Every built-in detector a policy or ``forbidden_phrases`` may name."""

PROBE_DETECTORS = (
    "reask_after_garble",
    "reason_for_refusal",
    "unkeepable_promise",
    "confirmed_details",
    "stayed_on_goal",
    "offered_transfer",
)
"""The built-in probe detectors (``polygon.probe.library``), in order."""

FALLBACK_ENDS = ("transfer", "caller_done", "hangup")
"""Ends ``expect.fallback_end`` may name: the agent handed the caller on or the call closed."""

POLICY_KINDS = ("requires", "order", "never", "max_calls", "never_say", "must_say")
"""The kinds of policy (``polygon.score.policies``): a policy is exactly one of them."""
