"""A local model provider: an OpenAI-compatible server on loopback, run from a GGUF file.

:mod:`.catalog` names the models the harness knows (the test models and their packages) and
resolves ``--model FILE|NAME`` to a file; :mod:`.weights` joins and checks the chunked weights of
the larger test model; :mod:`.server` starts llama.cpp's server (the ``xllamacpp`` package) in a
child process the harness owns and stops it; :mod:`.child` is that process. ``mlebench model
serve`` and the test tier's session fixture use them; the gateway reaches the server as the
upstream ``openai=local[:PORT]``. ``docs/local-models.md`` describes all of it.
"""

from __future__ import annotations

from pytest_mlebench.local_model.catalog import (
    DEFAULT_MODEL,
    EXTRA,
    KNOWN_MODELS,
    ModelFile,
    resolve_model,
)
from pytest_mlebench.local_model.model_error import LocalModelError
from pytest_mlebench.local_model.model_server import DEFAULT_PORT, LocalModelServer, ServerOptions

__all__ = [
    "DEFAULT_MODEL",
    "DEFAULT_PORT",
    "EXTRA",
    "KNOWN_MODELS",
    "LocalModelError",
    "LocalModelServer",
    "ModelFile",
    "ServerOptions",
    "resolve_model",
]
