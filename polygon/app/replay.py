"""Use case: read one conversation back from the log (never calls an agent or a model)."""

from __future__ import annotations

from polygon.errors import UnknownIdError
from polygon.events import CheckRecorded, EventLog, conversation_of_stream, conversation_stream
from polygon.projections import ConversationView, build, fold_conversation_head


def load_conversation(log: EventLog, conversation_id: str) -> ConversationView:
    """The conversation's view; an id the log lacks is a user error naming close matches."""
    stream = conversation_stream(conversation_id)
    if not log.stream_length(stream):
        close = [conversation_of_stream(s) for s in log.streams(conversation_stream(conversation_id[:9]))][:5]
        hint = f" (did you mean {', '.join(close)}?)" if close else ""
        raise UnknownIdError(f"no conversation {conversation_id!r} in the log{hint}")
    return build(conversation_id, log.read_stream(stream))


def broken_policies(log: EventLog, conversation_id: str) -> list[CheckRecorded]:
    """The suite policies the call broke, by the latest scoring pass that checked each."""
    head = fold_conversation_head(log.read_stream(conversation_stream(conversation_id)))
    return head.broken_policies() if head else []
