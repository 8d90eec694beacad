from __future__ import annotations

from polygon.events import Pending, identity
from polygon.events.families import TurnSpoken


def turn(conv: str, n: int, text: str = "hello", *, index: int = 0) -> Pending:
    return Pending(
        stream=f"conv/{conv}",
        identity=identity(run="r", conversation=conv, turn=n, kind="turn", index=index),
        event=TurnSpoken(conversation_id=conv, turn=n, speaker="caller", text=text),
    )
