"""HTTP agents: one POST per agent step to an endpoint the team runs."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import msgspec

from polygon.boundary import mask, mask_value, shown_url, url_credentials, url_secrets
from polygon.simulate.agents import AgentError, AgentReply, AgentStep, shape_fault
from polygon.simulate.agents.headers import AgentHeaders

MAX_BODY_BYTES = 4_000_000
"""Largest answer read from an endpoint: past it the step fails (a reply is kept to 100,000
characters anyway, so a bigger body is a broken or hostile endpoint, never read whole)."""


class HttpAgent:
    """POSTs each step as JSON to an endpoint; the answer is an :class:`AgentReply` object.

    The body is the :class:`AgentStep` plus ``config`` (the configuration's name), ``prompt``
    and ``params``, so one endpoint can serve every configuration of a suite. ``timeout_s``
    bounds the whole step (connect, send, every byte of the answer): httpx's own timeout
    restarts on each byte read, so an endpoint dripping its answer would never trip it.
    ``headers`` go with every step; the secrets in them and the URL's credentials
    (:func:`~polygon.boundary.url_credentials`: userinfo, its Basic form, query values) are
    masked in every error and in the answer itself (an endpoint echoing its token must not get
    it into the log), in their echo forms too (:func:`~polygon.boundary.echo_forms`).
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
        headers: AgentHeaders | None = None,
    ) -> None:
        self._url = url
        self._shown = shown_url(url)  # credentials in the URL are never recorded or printed
        self._headers = {**(headers.values if headers else {}), "content-type": "application/json"}
        echoed = {*url_credentials(url), *(headers.secrets if headers else ())}
        # longest first, so a secret that holds another is masked whole
        self._echoed = sorted(echoed, key=len, reverse=True)
        self._secrets = sorted({*url_secrets(url), *echoed}, key=len, reverse=True)
        self._client = client
        self._timeout = timeout_s
        self._context = {"config": config, "prompt": prompt, "params": params or {}}

    async def step(self, request: AgentStep) -> AgentReply:
        """One HTTP round trip, within ``timeout_s`` as a whole."""
        body = msgspec.json.encode({**msgspec.to_builtins(request), **self._context})
        try:
            content = await asyncio.wait_for(self._post(body), self._timeout)
        except TimeoutError:
            raise AgentError(
                f"agent endpoint {self._shown}: ReadTimeout: no whole answer within {self._timeout:g} s"
            ) from None
        except httpx.HTTPError as exc:
            detail = mask(f"{type(exc).__name__}: {exc}", self._secrets)
            raise AgentError(f"agent endpoint {self._shown}: {detail}") from None
        try:
            reply = decode_reply(content, self._shown)
        except AgentError as exc:  # it may name the answer's fields: an echoed secret is masked
            raise AgentError(mask(str(exc), self._secrets)) from None
        if self._echoed:  # none without secrets: such a run's events stay as they were
            reply = msgspec.convert(mask_value(msgspec.to_builtins(reply), self._echoed), AgentReply)
        return reply

    async def _post(self, body: bytes) -> bytes:
        """The answer's body, read in chunks and refused past :data:`MAX_BODY_BYTES`."""
        headers = self._headers
        post = self._client.stream("POST", self._url, content=body, timeout=self._timeout, headers=headers)
        async with post as r:
            if r.status_code != 200:
                raise AgentError(f"agent endpoint {self._shown} answered HTTP {r.status_code}")
            chunks: list[bytes] = []
            size = 0
            async for chunk in r.aiter_bytes():
                size += len(chunk)
                if size > MAX_BODY_BYTES:
                    raise AgentError(f"agent endpoint {self._shown} answered over {MAX_BODY_BYTES:,} bytes")
                chunks.append(chunk)
            return b"".join(chunks)

    async def aclose(self) -> None:
        """The shared client is closed by its owner."""


def decode_reply(content: bytes, where: str) -> AgentReply:
    """An HTTP agent's answer as a reply, or :class:`AgentError` saying what was wrong with it."""
    try:
        answer = msgspec.json.decode(content)
        if fault := shape_fault(answer):
            raise AgentError(f"agent endpoint {where} answered {fault}")
        return msgspec.convert(answer, AgentReply)
    except (msgspec.DecodeError, msgspec.ValidationError, RecursionError) as exc:
        raise AgentError(f"agent endpoint {where} answered malformed JSON: {exc}") from None
