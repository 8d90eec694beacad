"""The client for OpenAI-compatible servers (OpenAI, vLLM, llama.cpp server, Ollama, LM Studio).

One httpx connection pool; a concurrency limit per provider; per-attempt timeouts inside a
total deadline; capped exponential backoff with full jitter on 429 (honouring Retry-After),
5xx, timeouts, connection errors and broken bodies; no retry on other 4xx. A server that
rejects JSON-schema structured output gets the request again in JSON mode. The API key
goes into a header and nowhere else: requests, events and errors never carry it.

Every failure ends in a :class:`ModelAnswer` with the errors listed — never an exception
that kills a run.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import httpx
import msgspec

from polygon.boundary import mask, mask_value
from polygon.models import ModelAnswer, answer_from_body

Sleep = Callable[[float], Awaitable[None]]
_JSON = msgspec.json.Encoder()


@dataclass(frozen=True)
class RetryPolicy:
    """How hard to try."""

    max_attempts: int = 5
    base_delay_s: float = 0.5
    max_delay_s: float = 8.0
    deadline_s: float = 120.0
    attempt_timeout_s: float = 60.0
    dead_after: int = 6
    """Consecutive failed connections (across all calls) after which the server is taken as
    down: every later call fails at once instead of retrying for minutes (see ``dead``)."""


class _Retry(Exception):
    def __init__(self, message: str, wait: float | None = None) -> None:
        super().__init__(message)
        self.wait = wait


class _Fatal(Exception):
    pass


class _FormatRejected(Exception):
    pass


class OpenAIClient:
    """Chat completions against ``base_url`` (``…/v1``)."""

    def __init__(
        self,
        base_url: str,
        api_key: str = "",
        *,
        http: httpx.AsyncClient | None = None,
        policy: RetryPolicy = RetryPolicy(),  # noqa: B008 - frozen dataclass, safe to share
        concurrency: int = 16,
        sleep: Sleep = asyncio.sleep,
        rng: random.Random | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self._key = api_key
        self._secrets = [api_key] if api_key else []
        self._http = http or httpx.AsyncClient(limits=httpx.Limits(max_connections=max(concurrency, 1)))
        self._owns_http = http is None
        self.policy = policy
        self._gate = asyncio.Semaphore(max(1, concurrency))
        self._sleep = sleep
        self._rng = rng or random.Random(0)  # jitter only spreads retries; it never shapes results
        self._clock = clock
        self._json_mode = False  # learnt once per server: it refuses JSON-schema output
        self._failed_connections = 0
        self.dead = ""
        """Why the server is taken as down (empty while it is not); the run stops on it."""
        self.refused = ""
        """Why the server refused our credentials (401/403; empty while it has not)."""

    async def aclose(self) -> None:
        """Close the pool if this client made it."""
        if self._owns_http:
            await self._http.aclose()

    async def complete(self, request: dict[str, Any]) -> ModelAnswer:
        """One chat completion, with retries; failures come back inside the answer."""
        async with self._gate:
            return await self._complete(dict(request))  # shallow: only response_format is ever replaced

    async def _complete(self, request: dict[str, Any]) -> ModelAnswer:
        errors: list[str] = []
        started = self._clock()
        attempt = 0
        if self._json_mode and _wants_schema(request):
            _to_json_mode(request)
        while attempt < self.policy.max_attempts:
            if self.dead:
                errors.append(self.dead)
                break
            attempt += 1
            t0 = self._clock()
            try:
                body = await self._attempt(request)
            except _Retry as retry:
                errors.append(f"attempt {attempt}: {retry}")
                wait = retry.wait if retry.wait is not None else self._backoff(attempt)
                if self._clock() + wait - started > self.policy.deadline_s:
                    errors.append(f"gave up: the {self.policy.deadline_s:g} s deadline would pass")
                    break
                await self._sleep(wait)
                continue
            except _FormatRejected as rejected:
                errors.append(f"attempt {attempt}: {rejected}; retrying in JSON mode")
                self._json_mode = True
                _to_json_mode(request)
                continue
            except _Fatal as fatal:
                errors.append(f"attempt {attempt}: {fatal}")
                break
            answer = answer_from_body(mask_value(body, self._secrets))
            return ModelAnswer(
                text=answer.text,
                response=answer.response,
                usage=answer.usage,
                latency_ms=round((self._clock() - t0) * 1000, 3),
                attempts=attempt,
                errors=self._masked(errors),
                tool_calls=answer.tool_calls,
            )
        return ModelAnswer(text=None, response=None, attempts=attempt, errors=self._masked(errors))

    def _masked(self, errors: list[str]) -> list[str]:
        # Proxies echo the key in 401 bodies: no text from the server reaches the log with it.
        return [mask(e, self._secrets) for e in errors]

    @property
    def failed_connections(self) -> int:
        """Connections that failed in a row, up to now (a success resets it)."""
        return self._failed_connections

    def _connection_failed(self) -> None:
        self._failed_connections += 1
        if self._failed_connections >= self.policy.dead_after and not self.dead:
            self.dead = (
                f"model server {self.base_url} is unreachable: {self._failed_connections} connections "
                "in a row failed"
            )

    def _backoff(self, attempt: int) -> float:
        cap = min(self.policy.max_delay_s, self.policy.base_delay_s * 2 ** (attempt - 1))
        return self._rng.uniform(0, cap)

    async def _attempt(self, request: dict[str, Any]) -> dict[str, Any]:
        headers = {"content-type": "application/json"}
        if self._key:
            headers["authorization"] = f"Bearer {self._key}"
        try:
            response = await self._http.post(
                f"{self.base_url}/chat/completions",
                content=_JSON.encode(request),
                headers=headers,
                timeout=self.policy.attempt_timeout_s,
            )
        except httpx.TimeoutException:
            raise _Retry(f"timed out after {self.policy.attempt_timeout_s:g} s") from None
        except httpx.TransportError as exc:
            self._connection_failed()
            raise _Retry(f"connection failed: {type(exc).__name__}") from None
        self._failed_connections = 0
        status = response.status_code
        if status >= 400 and _rejects_schema(request, response.text):
            raise _FormatRejected(f"{status}: the server does not take JSON-schema output")
        if status == 429:
            raise _Retry("429 Too Many Requests", _retry_after(response))
        if status >= 500:
            raise _Retry(f"{status} server error: {_snippet(response.text)}")
        if status in (401, 403) and not self.refused:
            self.refused = f"model server {self.base_url} answered {status}: the API key is missing or wrong"
        if status >= 400:
            raise _Fatal(f"{status}: {_snippet(response.text)}")
        try:
            body = msgspec.json.decode(response.content)
        except msgspec.DecodeError:
            raise _Retry(f"malformed JSON body: {_snippet(response.text)}") from None
        if not isinstance(body, dict) or not isinstance(body.get("choices"), list) or not body["choices"]:
            raise _Retry(f"body is not a chat completion: {_snippet(response.text)}")
        return body


def _wants_schema(request: dict[str, Any]) -> bool:
    fmt = request.get("response_format")
    return isinstance(fmt, dict) and fmt.get("type") == "json_schema"


def _retry_after(response: httpx.Response) -> float | None:
    value = response.headers.get("retry-after")
    try:
        return max(0.0, float(value)) if value is not None else None
    except ValueError:
        return None


def _snippet(text: str) -> str:
    return " ".join(text.split())[:200]


def _rejects_schema(request: dict[str, Any], body: str) -> bool:
    """Servers without JSON-schema output say so in many ways (400, 422, even 500)."""
    fmt = request.get("response_format")
    said = body.lower()
    return (
        isinstance(fmt, dict)
        and fmt.get("type") == "json_schema"
        and "response_format" in said
        and ("json_schema" in said or "schema" in said)
    )


def _to_json_mode(request: dict[str, Any]) -> None:
    """JSON mode, keeping the schema for servers that constrain JSON mode by it (llama.cpp)."""
    schema = request["response_format"].get("json_schema", {}).get("schema")
    request["response_format"] = {"type": "json_object", **({"schema": schema} if schema else {})}
