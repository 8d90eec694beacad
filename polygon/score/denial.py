"""Whether a tool call was refused: the domain-free reading ``expect.before`` relies on.

``before: [[verify_owner, book_appointment]]`` asks that the action come after the
prerequisite *succeeded*: a verification that answered ``{"verified": false}`` is not a
verification (trial39 defect 3: an agent booked after a failed check and passed at 100).

Only answers about the call itself count as a refusal — an error, an invalid call, or a
result whose success/permission flag is false or whose status says it failed. A result
about the world (``found: false``, ``available: false``) is an answer, not a refusal: a
lookup that found nothing is a call that worked, so it never makes ``before`` fail.
"""

from __future__ import annotations

from typing import Any

from polygon.transcript import ToolView

REFUSAL_FLAGS = frozenset(
    {
        "ok",
        "success",
        "succeeded",
        "verified",
        "authorized",
        "authorised",
        "authenticated",
        "approved",
        "allowed",
        "permitted",
    }
)
"""Result keys whose ``false`` says the call itself was refused (compared lower-case)."""
REFUSAL_STATUSES = frozenset(
    {"error", "failed", "failure", "denied", "refused", "rejected", "unauthorized", "unauthorised"}
    | {"forbidden"}
)
"""Values of a ``status`` key that say the call failed (compared lower-case)."""


def refusal(call: ToolView) -> str:
    """Why ``call`` was refused, in a few words ("" when it was not)."""
    if not call.valid:
        return "its arguments were invalid"
    if call.error:
        return f"it answered an error: {call.error[:80]}"
    return _refused_result(call.result)


def failed_answer(call: ToolView) -> str:
    """Why the tool's own answer says ``call`` failed ("" when it did not).

    :func:`refusal` without the schema's word: an imported call our suite's schema calls
    invalid may well have been answered ``{"ok": true}`` by the real tool (an answer over an
    invalid call is ``invalid_tool_answer``'s to judge).
    """
    if call.error:
        return f"it answered an error: {call.error[:80]}"
    if call.fault:  # an injected ``malformed`` answer carries no error, and no usable result
        return f"it answered a {call.fault} fault"
    return _refused_result(call.result)


def _refused_result(result: Any) -> str:
    if not isinstance(result, dict):
        return ""
    for key, value in result.items():
        name = str(key).lower()
        if name in REFUSAL_FLAGS and value is False:
            return f"it answered {key}: false"
        if name == "error" and value not in (None, False, "", {}, []):
            return f"it answered error: {str(value)[:80]}"
        if name == "status" and isinstance(value, str) and value.lower() in REFUSAL_STATUSES:
            return f"it answered status: {value}"
    return ""
