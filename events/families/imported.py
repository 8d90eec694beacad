"""Import events: where an imported conversation came from."""

from __future__ import annotations

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
    """``polygon-jsonl``, ``openai-chat`` or ``text``."""
    source_hash: str = ""
    """Hash of the record's text (re-import is idempotent)."""
    redacted: bool = False
    """True when phone numbers, e-mails and card-like numbers were masked."""
    system_prompt: str = ""
    """The system message the transcript carried (the agent's prompt), if any."""
