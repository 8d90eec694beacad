"""Loading the packaged model in process: without llama.cpp's repacked weights, and it decodes.

A build of llama.cpp for the machine's own CPU crashed (a segfault in the first decode) on a
CPU with AMX and AVX-512 when the weights were repacked; these tests load and decode the real
packaged model the way `polygon lint` and the local judge do.
"""

from __future__ import annotations

import pytest

pytest.importorskip("llama_cpp")

from polygon.lint.surprisal import LlamaScorer  # noqa: E402
from polygon.models import open_llama, packaged_model_path  # noqa: E402


def test_the_model_loads_without_repacked_weights_and_the_defaults_are_put_back() -> None:
    import llama_cpp.llama_cpp as low

    llm = open_llama(packaged_model_path(), n_ctx=64, verbose=False)
    assert llm.model_params.use_extra_bufts is False
    # only this load: llama-cpp-python's own defaults are as they were
    assert low.llama_model_default_params().use_extra_bufts is True
    assert low.llama_model_default_params.__name__ == "llama_model_default_params"


def test_the_loaded_model_decodes_a_prompt() -> None:
    text = "Thank you for calling Smile Dental. How can I help you today?"
    tokens = LlamaScorer(n_ctx=256).surprisals(text)
    assert tokens and tokens[-1].end == len(text)
