"""The one place a ``model.called`` event is written, for every role.

Every model call of a run (agent, caller, judge, probe, persona, lint, drafter) goes
through a :class:`RecordedClient`, which records the request and the answer as
``model.called`` *before* the answer is used: replay and ``--resume`` read it back, and a
crash after the call but before its use never asks the model twice. The model hub hands
out nothing else: a :class:`RecordedClient` bound to a sink, or a :class:`Recorder` that
binds one per conversation (a judge or a probe answerer serves many calls).
"""

from __future__ import annotations

from typing import Any

from polygon.events import ModelCalled, model_call_kind
from polygon.models import ModelAnswer, ModelClient, request_hash
from polygon.recording import Sink


def model_called(
    role: str,
    model: str,
    request: dict[str, Any],
    answer: ModelAnswer,
    *,
    conversation_id: str = "",
    turn: int = 0,
) -> ModelCalled:
    """The ``model.called`` event of one request and its answer."""
    return ModelCalled(
        role=role,
        model=model,
        request_hash=request_hash(request),
        request=request,
        response=answer.response,
        conversation_id=conversation_id,
        turn=turn,
        usage=answer.usage,
        latency_ms=answer.latency_ms,
        attempts=answer.attempts,
        errors=answer.errors,
        cached=answer.cached,
    )


class RecordedClient:
    """A model client that writes each call to a sink as ``model.called`` before returning it."""

    def __init__(
        self, inner: ModelClient, sink: Sink, *, role: str, model: str, conversation_id: str = ""
    ) -> None:
        self._inner = inner
        self._sink = sink
        self.role = role
        self.model = model
        self.conversation_id = conversation_id

    async def complete(
        self,
        request: dict[str, Any],
        *,
        turn: int = 0,
        index: int = 0,
        key: str = "",
        conversation_id: str | None = None,
    ) -> ModelAnswer:
        """Ask the inner client; record the call at (turn, index), its kind qualified by ``key``."""
        answer = await self._inner.complete(request)
        conversation = self.conversation_id if conversation_id is None else conversation_id
        self._sink.emit(
            model_call_kind(self.role, key),
            model_called(
                self.role, self.model, request, answer, conversation_id=conversation, turn=turn
            ),
            turn=turn,
            index=index,
        )
        return answer

    async def aclose(self) -> None:
        """The inner client belongs to whoever made it (the hub): nothing to release here."""


class Recorder:
    """A model's calls for one role, recorded into whichever sink a conversation gives.

    It has no ``complete`` of its own: the only way to call the model is through
    :meth:`to`, so no call goes unrecorded.
    """

    def __init__(self, inner: ModelClient, *, role: str, model: str) -> None:
        self._inner = inner
        self.role = role
        self.model = model

    def to(self, sink: Sink, conversation_id: str = "") -> RecordedClient:
        """A client whose calls are written to ``sink``."""
        return RecordedClient(
            self._inner, sink, role=self.role, model=self.model, conversation_id=conversation_id
        )
