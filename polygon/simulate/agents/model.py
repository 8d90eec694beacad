"""The model-driven agent under test: prompt + model + parameter profile + the suite's tools.

Tool calls go to the stubs like any agent's. Two built-in functions let the model end the
call: ``end_call`` (hang up) and ``transfer_to_human`` (transfer). Every request and answer
is a ``model.called`` event before it is used.
"""

from __future__ import annotations

import json
from typing import Any

from polygon.events import content_hash
from polygon.models import RecordedClient
from polygon.simulate.agents import AgentError, AgentReply, AgentStep, Message, ToolCall

END_CALL = "end_call"
TRANSFER = "transfer_to_human"
_ENDINGS = {END_CALL: "hangup", TRANSFER: "transfer"}
BUILTIN_TOOLS = [
    {
        "type": "function",
        "function": {
            "name": END_CALL,
            "description": "Say goodbye and hang up the call.",
            "parameters": {"type": "object", "properties": {"reason": {"type": "string"}}},
        },
    },
    {
        "type": "function",
        "function": {
            "name": TRANSFER,
            "description": "Transfer the caller to a human colleague.",
            "parameters": {"type": "object", "properties": {"reason": {"type": "string"}}},
        },
    },
]
PARAMETERS = ("temperature", "top_p", "max_tokens", "seed", "presence_penalty", "frequency_penalty")


def profile_hash(
    model: str,
    prompt: str,
    params: dict[str, Any],
    tools: list[dict[str, Any]],
    headers: dict[str, str] | None = None,
) -> str:
    """The immutable version of an agent profile: model, prompt, parameters, tools (and headers).

    An HTTP agent's headers count as their templates (``Bearer ${TOKEN}``), never their values:
    a rotated token is the same profile. A profile without headers hashes as it always has.
    """
    profile: dict[str, Any] = {"model": model, "prompt": prompt, "params": params, "tools": tools}
    if headers:
        profile["headers"] = headers
    return content_hash(profile)


def to_openai(history: list[Message]) -> list[dict[str, Any]]:
    """Polygon's history as OpenAI chat messages."""
    out: list[dict[str, Any]] = []
    for m in history:
        if m.role == "tool":
            out.append({"role": "tool", "tool_call_id": m.tool_call_id, "content": m.content})
        elif m.tool_calls:
            out.append(
                {
                    "role": "assistant",
                    "content": m.content or None,
                    "tool_calls": [
                        {
                            "id": c.id,
                            "type": "function",
                            "function": {
                                "name": c.name,
                                "arguments": json.dumps(c.arguments, sort_keys=True),
                            },
                        }
                        for c in m.tool_calls
                    ],
                }
            )
        else:
            out.append({"role": m.role, "content": m.content})
    return out


class ModelAgent:
    """An agent whose every step is one chat completion."""

    def __init__(self, client: RecordedClient, prompt: str, params: dict[str, Any]) -> None:
        self._client = client
        self._model = client.model
        self._prompt = prompt
        self._params = {k: v for k, v in params.items() if k in PARAMETERS}
        self._calls = 0

    async def step(self, req: AgentStep) -> AgentReply:
        """Ask the model; reply, call tools, or end the call on its built-in functions.

        An ending function in the same answer as other tool calls ends the call after them
        (the first ending named wins); alone, it ends the call at once.
        """
        request: dict[str, Any] = {
            "model": self._model.split("/", 1)[-1],
            "messages": [{"role": "system", "content": self._prompt}, *to_openai(req.history)],
            "tools": [*req.tools, *BUILTIN_TOOLS],
            **self._params,
        }
        answer = await self._client.complete(
            request, turn=req.turn, index=self._calls, conversation_id=req.conversation_id
        )
        self._calls += 1
        if answer.text is None and not answer.tool_calls:
            raise AgentError(f"the model gave no answer: {'; '.join(answer.errors) or 'empty response'}")
        text = (answer.text or "").strip()
        calls = [
            ToolCall(id=c["id"], name=c["name"], arguments=c["arguments"])
            for c in answer.tool_calls
            if c["name"] not in _ENDINGS
        ]
        ending = next((c["name"] for c in answer.tool_calls if c["name"] in _ENDINGS), "")
        if ending and not calls:
            farewell = text or ("Goodbye." if ending == END_CALL else "I'm transferring you now.")
            return AgentReply(reply=farewell, end=_ENDINGS[ending])
        # Beside other calls an ending waits for them: the engine runs them, then ends the call.
        return AgentReply(reply=text, tool_calls=calls, end=_ENDINGS.get(ending, ""))

    async def aclose(self) -> None:
        """The client is shared; its owner closes it."""
