"""``mlebench model``: serve a local model on loopback (``serve``), list the known ones (``list``).

``serve`` starts the server, prints the base URL and the ``--mle-gateway-upstream`` value that
points a benchmark run at it, and keeps it running until Ctrl-C (or SIGTERM), then stops it.
"""

from __future__ import annotations

import argparse
import signal
import tempfile
import time
from pathlib import Path
from types import FrameType

from pytest_mlebench.local_model.catalog import (
    KNOWN_MODELS,
    LARGE_MODEL,
    resolve_model,
)
from pytest_mlebench.local_model.model_error import LocalModelError
from pytest_mlebench.local_model.model_server import (
    DEFAULT_PORT,
    LocalModelServer,
    ServerOptions,
)
from pytest_mlebench.local_model.probe import probe_server

WATCH_SECONDS = 1.0


def add_model_command(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``model serve`` and ``model list`` on the ``mlebench`` parser's ``commands``."""
    parser = commands.add_parser("model", help="serve a local model for the agents and the judge")
    actions = parser.add_subparsers(title="actions", metavar="ACTION")
    serve = actions.add_parser("serve", help="start an OpenAI-compatible server on 127.0.0.1")
    serve.add_argument(
        "--model",
        metavar="FILE|NAME",
        help=f"a .gguf file or a known model ({', '.join(KNOWN_MODELS)}); default: smollm2-135m",
    )
    defaults = ServerOptions()
    serve.add_argument("--port", type=int, default=DEFAULT_PORT, help="default: %(default)s")
    serve.add_argument(
        "--context",
        type=int,
        default=defaults.context,
        help="context tokens (default: the model's own, 0)",
    )
    serve.add_argument(
        "--threads",
        type=int,
        default=defaults.threads,
        help="CPU threads (default: this machine's cores, %(default)s)",
    )
    serve.add_argument(
        "--max-tokens",
        type=int,
        default=defaults.max_tokens,
        help="cap of answers whose request sets none (default: %(default)s)",
    )
    serve.add_argument("--log", type=Path, help="the server's log file (default: a temp file)")
    serve.set_defaults(handler=cmd_serve)
    listing = actions.add_parser("list", help="the known models and whether they are installed")
    listing.set_defaults(handler=cmd_list)
    parser.set_defaults(handler=lambda _args: _usage(parser))


def _usage(parser: argparse.ArgumentParser) -> int:
    parser.print_help()
    return 2


def cmd_serve(args: argparse.Namespace) -> int:
    model = resolve_model(args.model)
    options = ServerOptions(args.port, args.context, args.threads, args.max_tokens)
    log = args.log or Path(tempfile.gettempdir()) / f"mlebench-model-{args.port}.log"
    server = LocalModelServer(model, options, log)
    signal.signal(signal.SIGTERM, _interrupt)
    print(f"mlebench model: loading {model.path} ...", flush=True)
    with server:
        facts = probe_server(server.base_url)
        context = facts.context if facts is not None else None
        print(
            f"mlebench model: {model.name} on {server.base_url} (loaded in "
            f"{server.load_seconds} s; context {context or 'unknown'} tokens, answers capped at "
            f"{options.max_tokens} tokens unless a request sets max_tokens, "
            f"{options.threads} threads; log {log})\n"
            f"  run the benchmark against it: --mle-gateway-upstream openai=local:{args.port}\n"
            "  stop it with Ctrl-C",
            flush=True,
        )
        while server.running():
            time.sleep(WATCH_SECONDS)
    raise LocalModelError(f"the local model server stopped by itself; its log: {log}")


def _interrupt(number: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt


def cmd_list(args: argparse.Namespace) -> int:
    from pytest_mlebench.local_model.weights import weights_status

    for name in KNOWN_MODELS:
        try:  # the chunked model is not joined just to be listed
            where = weights_status() if name == LARGE_MODEL else str(resolve_model(name).path)
        except LocalModelError as exc:
            where = f"not installed: {exc}"
        print(f"{name:<20} {where}")
    return 0
