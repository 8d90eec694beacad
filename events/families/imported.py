"""Import events: where an imported conversation came from."""

from __future__ import annotations

from typing import Any

from polygon.events.registry import Event, event_type


@event_type(version=1)
class TranscriptImported(Event, frozen=True, kw_only=True, tag="import.transcript_imported"):
    """A production transcript became a conversation of an imported run."""

    run_id: str
    """The imported run."""
    conversation_id: str
    """The conversation created."""
    source_file: str
    """File it came from."""
    line: int
    """First line of the record in that file (1-based)."""
    format: str
    """``polygon-jsonl``, ``openai-chat``, ``text``, or a platform's: ``vapi``, ``retell``,
    ``elevenlabs``, ``livekit``, ``otel-genai``."""
    source_hash: str = ""
    """Hash of the record's text (re-import is idempotent)."""
    redacted: bool = False
    """True when phone numbers, e-mails and card-like numbers were masked."""
    system_prompt: str = ""
    """The system message the transcript carried (the agent's prompt), if any."""
    source_id: str = ""
    """The platform's id of the call (Vapi call id, Retell call_id, …), if it has one."""
    source_end_reason: str = ""
    """How the platform said the call ended, as it said it (``endedReason=customer-ended-call``);
    ``conversation.ended`` has it mapped onto Polygon's end reasons."""
    tools: list[dict[str, Any]] = []
    """Tool definitions the export carried (the judge's context for this call)."""
