"""Model references (``provider/model``) resolved into clients.

``openai/…`` goes to any OpenAI-compatible server (base URL from the suite, a flag or
``OPENAI_BASE_URL``; key from ``OPENAI_API_KEY``), ``local/gemma-3-270m`` runs in process
through llama-cpp-python (the optional ``local`` extra), and ``scripted/…`` are the offline
baselines, which need no client. With ``cache`` on, a recorded answer to an identical
request is reused instead of calling again.

The hub hands out recorded clients only (``hub.client(ref, sink=…, role=…)``, or a
:class:`~polygon.models.recorded.Recorder` for a judge or a probe answerer, which records
into each conversation's sink): "every model call is recorded" holds by construction. This
module is the one place that tells an offline ``scripted/…`` name from a model.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from polygon.errors import UserInputError
from polygon.models import ModelClient
from polygon.models.cache import CachedClient
from polygon.models.recorded import RecordedClient, Recorder

if TYPE_CHECKING:
    from polygon.models.openai import OpenAIClient
    from polygon.recording import Sink

DEFAULT_OPENAI_URL = "https://api.openai.com/v1"


@dataclass(frozen=True)
class ModelSettings:
    """Where models live; read once at the CLI edge (environment, flags, suite)."""

    base_url: str = ""
    api_key: str = field(default="", repr=False)
    concurrency: int = 16
    cache: bool = False
    timeout_s: float = 60.0
    """Per attempt (``POLYGON_MODEL_TIMEOUT``); a slow local model on a small machine needs more."""


def split_ref(ref: str) -> tuple[str, str]:
    """``provider/model`` → (provider, model), refusing anything else."""
    provider, sep, name = ref.partition("/")
    if not sep or not name or provider not in ("openai", "local", "scripted"):
        raise UserInputError(
            f"model {ref!r}: expected provider/model with provider openai, local or scripted"
        )
    return provider, name


def is_scripted(ref: str) -> bool:
    """An offline scripted baseline (``scripted/…``): deterministic code, never a model call."""
    return ref.startswith("scripted/")


class ModelHub:
    """One client per provider, shared by every call of a run."""

    def __init__(
        self,
        settings: ModelSettings = ModelSettings(),
        *,  # noqa: B008 - frozen
        recorded: dict[str, dict[str, Any]] | None = None,
    ) -> None:
        self.settings = settings
        self._recorded = recorded or {}
        self._cache = settings.cache
        self._clients: dict[str, ModelClient] = {}
        self._servers: list[OpenAIClient] = []

    def remember(self, recorded: dict[str, dict[str, Any]]) -> None:
        """Reuse these recorded answers for identical requests from now on (resume)."""
        self._recorded.update(recorded)
        self._cache = self._cache or bool(recorded)

    def client(self, ref: str, *, sink: Sink, role: str, conversation_id: str = "") -> RecordedClient:
        """A client for a model reference whose every call is written to ``sink`` as ``role``."""
        return self.recorder(ref, role=role).to(sink, conversation_id)

    def recorder(self, ref: str, *, role: str) -> Recorder:
        """Calls to a model as ``role``, recorded into the sink each conversation gives."""
        return Recorder(self._client(ref), role=role, model=ref)

    def resolve(self, ref: str, *, role: str) -> Recorder | None:
        """The one resolver of judges and probe answerers: None for an offline baseline.

        Which baselines a role accepts is the role's business (``make_judge``,
        ``make_answerer``); a model reference is resolved here, so a missing server or an
        unknown provider is refused before any call starts.
        """
        return None if is_scripted(ref) else self.recorder(ref, role=role)

    def check(self, ref: str) -> None:
        """Refuse a reference no client can serve, calling nothing (offline baselines pass)."""
        if not is_scripted(ref):
            self._client(ref)

    def _client(self, ref: str) -> ModelClient:
        provider, _ = split_ref(ref)
        if provider == "scripted":
            raise UserInputError(f"{ref} is an offline scripted baseline, not a model")
        if provider not in self._clients:
            self._clients[provider] = self._make(provider)
        inner = self._clients[provider]
        return CachedClient(inner, self._recorded) if self._cache else inner

    def _make(self, provider: str) -> ModelClient:
        if provider == "openai":
            if not self.settings.base_url:
                # Never send a prompt (or a key) to a public endpoint nobody named.
                raise UserInputError(
                    "openai/… models need a server: set openai_base_url in the suite, pass --base-url, "
                    f"or set OPENAI_BASE_URL (for OpenAI itself, say {DEFAULT_OPENAI_URL} on purpose)"
                )
            from polygon.models.openai import OpenAIClient, RetryPolicy  # httpx: only when used

            timeout = self.settings.timeout_s
            server = OpenAIClient(
                self.settings.base_url,
                self.settings.api_key,
                concurrency=self.settings.concurrency,
                policy=RetryPolicy(attempt_timeout_s=timeout, deadline_s=max(120.0, 2 * timeout)),
            )
            self._servers.append(server)
            return server
        from polygon.models.llama import LocalLlamaClient

        return LocalLlamaClient()

    def failing(self) -> tuple[int, str]:
        """The longest run of failed connections a server has now, and its URL (0 when none)."""
        worst = max(self._servers, key=lambda s: s.failed_connections, default=None)
        return (worst.failed_connections, worst.base_url) if worst is not None else (0, "")

    def refused(self) -> str:
        """Why a model server refused our key (401/403; empty when none has)."""
        return next((s.refused for s in self._servers if s.refused), "")

    def unreachable(self) -> str:
        """Why a model server is taken as down (empty when none is): the run stops on it."""
        return next((s.dead for s in self._servers if s.dead), "")

    async def aclose(self) -> None:
        """Close every client that holds a connection pool."""
        for client in self._clients.values():
            await client.aclose()
        self._clients.clear()
