"""Stream names: one stream per run and one per conversation."""

from __future__ import annotations


def run_stream(run_id: str) -> str:
    """The run's own stream."""
    return f"run/{run_id}"


def conversation_stream(conversation_id: str) -> str:
    """A conversation's stream."""
    return f"conv/{conversation_id}"
