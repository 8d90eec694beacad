"""``polygon explain``: why a conversation got its verdict, point by point.

Rubric version and hash, each criterion's repeats, median, weight and contribution (the
contributions add up to the composite), unscored and missing criteria, each gate with the
events that fired it, every check, and the judge's evidence quotes with turn numbers and
log positions.
"""

from __future__ import annotations

from polygon.events import RubricRecorded
from polygon.projections.verdicts import ConversationVerdict, RunRecord, choose_pass, choose_version, verdicts


def build_explanation(
    state: RunRecord,
    conversation_id: str,
    version: str | None,
    *,
    pass_id: str | None = None,
    judge: str | None = None,
) -> tuple[ConversationVerdict, RubricRecorded]:
    """The verdict row and the rubric it was computed with."""
    chosen = choose_version(state, version, pass_id=pass_id)
    picked = choose_pass(state, chosen, pass_id, judge)
    row = next(r for r in verdicts(state, chosen, picked) if r.record.conversation_id == conversation_id)
    if row.verdict is None:
        from polygon.errors import UserInputError

        raise UserInputError(f"{conversation_id} was not judged under rubric {chosen}")
    first = row.judged[0].event
    rubric = next(
        r for r in state.rubrics if r.version == first.rubric_version and r.rubric_hash == first.rubric_hash
    )
    return row, rubric
