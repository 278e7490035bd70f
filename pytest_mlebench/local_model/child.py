"""The local model server's own process: load the GGUF file into llama.cpp's server and serve.

Run as ``python -m pytest_mlebench.local_model.child MODEL_FILE NAME PORT CONTEXT THREADS
MAX_TOKENS`` by :class:`~pytest_mlebench.local_model.model_server.LocalModelServer`, never imported
by the harness itself (``xllamacpp`` is imported only here). It serves until SIGTERM or SIGINT, or
until its parent is gone (a harness killed outright leaves no server behind).
"""

from __future__ import annotations

import os
import signal
import sys
import threading
from typing import Any

NOT_INSTALLED = 3
PARENT_CHECK_SECONDS = 1.0


def serve(model: str, name: str, port: int, context: int, threads: int, max_tokens: int) -> Any:
    """Start llama.cpp's HTTP server on ``127.0.0.1:port``; the server object keeps it running."""
    import xllamacpp

    params = xllamacpp.CommonParams()
    params.model.path = model
    params.model_alias = {name}
    params.hostnames = ["127.0.0.1"]  # loopback only: nothing outside this machine reaches it
    params.port = port
    params.n_ctx = context
    params.n_parallel = 1
    params.n_predict = max_tokens  # the cap of every answer that asks for no max_tokens
    params.cpuparams.n_threads = threads
    params.cpuparams_batch.n_threads = threads
    params.verbosity = 1
    return xllamacpp.Server(params)


def main(arguments: list[str]) -> int:
    model, name, port, context, threads, max_tokens = arguments
    try:
        import xllamacpp  # noqa: F401
    except ImportError as exc:
        print(
            f"local model: xllamacpp cannot be imported ({exc}); "
            "install it with: pip install 'pytest-mlebench[local-model]'",
            file=sys.stderr,
        )
        return NOT_INSTALLED
    parent = os.getppid()
    stop = threading.Event()
    for number in (signal.SIGTERM, signal.SIGINT):
        signal.signal(number, lambda *_: stop.set())
    server = serve(model, name, int(port), int(context), int(threads), int(max_tokens))
    print(f"local model: {name} serving on 127.0.0.1:{port}", flush=True)
    while not stop.wait(PARENT_CHECK_SECONDS) and os.getppid() == parent:
        pass
    del server
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
