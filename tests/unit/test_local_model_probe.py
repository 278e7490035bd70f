"""What the doctor and ``model serve`` read of a model server (its ``/models`` answer), and the
server's defaults: the model's own context, the machine's cores, a cap that fits AIDE's answers."""

from __future__ import annotations

import os

import pytest

from pytest_mlebench.local_model import ServerOptions
from pytest_mlebench.local_model.probe import ServerFacts, probe_server, server_facts

LLAMA_CPP_MODELS = {  # llama.cpp's answer, as the real server gave it (cut to what is read)
    "object": "list",
    "data": [
        {
            "id": "qwen2.5-coder-1.5b",
            "object": "model",
            "owned_by": "llamacpp",
            "meta": {"n_ctx": 32768, "n_ctx_train": 32768, "n_params": 1543714304},
        }
    ],
}


@pytest.mark.parametrize(
    ("listing", "facts"),
    [
        (LLAMA_CPP_MODELS, ServerFacts(("qwen2.5-coder-1.5b",), 32768, 32768)),
        ({"data": [{"id": "a"}, {"id": "b"}]}, ServerFacts(("a", "b"))),  # vLLM, Ollama
        ({"data": [{"id": "a", "meta": {"n_ctx": -1}}]}, ServerFacts(("a",))),
        ({"error": "no"}, None),
        ([1, 2], None),
    ],
)
def test_the_models_answer_gives_the_models_and_the_context(
    listing: object, facts: ServerFacts | None
) -> None:
    assert server_facts(listing) == facts


def test_nothing_listening_is_none() -> None:
    assert probe_server("http://127.0.0.1:9/v1", timeout=1) is None


def test_the_server_defaults_fit_the_agents() -> None:
    options = ServerOptions()
    assert options.context == 0  # the model's own trained context
    assert options.threads == len(os.sched_getaffinity(0))
    assert options.max_tokens == 4096
