"""HTTP agents: one POST per agent step to an endpoint the team runs."""

from __future__ import annotations

from typing import Any

import httpx
import msgspec

from polygon.simulate.agents import AgentError, AgentReply, AgentStep


class HttpAgent:
    """POSTs each step as JSON to an endpoint; the answer is an :class:`AgentReply` object.

    The body is the :class:`AgentStep` plus ``config`` (the configuration's name), ``prompt``
    and ``params``, so one endpoint can serve every configuration of a suite.
    """

    def __init__(
        self,
        url: str,
        client: httpx.AsyncClient,
        timeout_s: float = 30.0,
        *,
        config: str = "",
        prompt: str = "",
        params: dict[str, Any] | None = None,
    ) -> None:
        self._url = url
        self._client = client
        self._timeout = timeout_s
        self._context = {"config": config, "prompt": prompt, "params": params or {}}

    async def step(self, request: AgentStep) -> AgentReply:
        """One HTTP round trip."""
        body = {**msgspec.to_builtins(request), **self._context}
        try:
            response = await self._client.post(
                self._url,
                content=msgspec.json.encode(body),
                timeout=self._timeout,
                headers={"content-type": "application/json"},
            )
        except httpx.HTTPError as exc:
            raise AgentError(f"agent endpoint {self._url}: {type(exc).__name__}: {exc}") from None
        if response.status_code != 200:
            raise AgentError(f"agent endpoint {self._url} answered HTTP {response.status_code}")
        return decode_reply(response.content, self._url)

    async def aclose(self) -> None:
        """The shared client is closed by its owner."""


def decode_reply(content: bytes, where: str) -> AgentReply:
    """An HTTP agent's answer as a reply, or :class:`AgentError` saying what was wrong with it."""
    try:
        return msgspec.json.decode(content, type=AgentReply)
    except (msgspec.DecodeError, msgspec.ValidationError, RecursionError) as exc:
        raise AgentError(f"agent endpoint {where} answered malformed JSON: {exc}") from None
