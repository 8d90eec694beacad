"""One check's outcome as the event it is recorded as (shared by every module of checks)."""

from __future__ import annotations

from collections.abc import Sequence

from polygon.events import CheckRecorded, Evidence
from polygon.transcript import ConversationView


def check_recorded(
    view: ConversationView,
    check: str,
    outcome: str,
    detail: str = "",
    evidence: Sequence[Evidence] = (),
    simulator: bool = False,
) -> CheckRecorded:
    """``check``'s ``outcome`` on the call ``view`` shows (``simulator``: a check on the caller)."""
    return CheckRecorded(
        conversation_id=view.conversation_id,
        check=check,
        outcome=outcome,
        detail=detail,
        evidence=list(evidence),
        simulator=simulator,
    )
