"""The local model server: load time, tokens/s, memory, and one AIDE step through the gateway
(on demand; not a test).

    .venv/bin/python bench/local_model.py [--model smollm2-135m] [--threads 1] [--repeats 3]
                                          [--prompt-words 600] [--answer-tokens 128] [--no-aide]

Starts the local model server (``mlebench model serve``'s code) with ``--model`` and measures:

- **load**: from starting the child to the first answer of ``GET /v1/models``;
- **tokens/s**: ``--repeats`` chat completions of a ``--prompt-words`` prompt (prompt caching off)
  answering ``--answer-tokens`` tokens; prompt and generation speed are the server's own
  ``timings``, medians shown;
- **memory**: the server process's resident set after the calls, and its peak;
- **one AIDE step**: the real plugin runs ``titanic`` with the AIDE folder for one step, local
  backend, through the run's gateway to this server (as ``tests/real_model`` does); the wall time
  of the whole pytest run and the calls and tokens its record holds.

The load average is read before and after. Prints one Markdown table; docs/benchmarks.md has the
figures.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import statistics
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pytest_mlebench.local_model import LocalModelServer, ServerOptions  # noqa: E402
from pytest_mlebench.local_model.catalog import resolve_model  # noqa: E402
from tests.real_model.conftest import free_port  # noqa: E402

WORDS = ("the", "passenger", "class", "fare", "age", "cabin", "embarked", "survived", "ticket")


def prompt(words: int) -> str:
    body = " ".join(WORDS[i % len(WORDS)] for i in range(words))
    return f"Summarise these column notes in one sentence: {body}"


def timed_call(base_url: str, words: int, tokens: int) -> dict[str, Any]:
    payload = {
        "messages": [{"role": "user", "content": prompt(words)}],
        "max_tokens": tokens,
        "cache_prompt": False,
        "temperature": 0,
        "ignore_eos": True,  # always generate the full answer, so runs are comparable
    }
    request = urllib.request.Request(
        base_url + "/chat/completions",
        data=json.dumps(payload).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=900) as answer:
        body: dict[str, Any] = json.loads(answer.read())
    return body


def memory_mib(pid: int) -> tuple[float, float]:
    """(resident, peak resident) of ``pid`` in MiB, from /proc."""
    fields = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        name, _, value = line.partition(":")
        fields[name] = value.strip()
    return int(fields["VmRSS"].split()[0]) / 1024, int(fields["VmHWM"].split()[0]) / 1024


def aide_step(server: LocalModelServer, model: str, root: Path) -> dict[str, Any]:
    """One AIDE step on titanic through the gateway to ``server``; wall time and the record."""
    from tests.aide.conftest import LOCK, _built_site
    from tests.aide.test_aide_runs import aide_copy, only_record, run_titanic

    digest = hashlib.sha256(LOCK.read_bytes()).hexdigest()[:16]
    cache = Path.home() / ".cache" / "pytest-mlebench" / "aide-test" / digest
    cache.mkdir(parents=True, exist_ok=True)
    site = _built_site(cache)
    shim_dir = root / "aide-bin"
    shim_dir.mkdir(parents=True)
    (shim_dir / "python3").write_text(
        f'#!/bin/sh\nPYTHONPATH="{site}" exec "{sys.executable}" "$@"\n'
    )
    (shim_dir / "python3").chmod(0o755)
    port = server.base_url.rsplit(":", 1)[1].split("/")[0]
    os.environ.update(
        PATH=f"{shim_dir}{os.pathsep}{os.environ['PATH']}",
        OPENAI_API_KEY="sk-bench-host-only",
        MLEBENCH_GATEWAY_UPSTREAM=f"openai=local:{port}",
        PYTHONPATH=str(ROOT),
    )
    started = time.monotonic()
    run_titanic(root, "--mle-agent", f"{aide_copy(root, steps=1, model=model)}:aide")
    wall = time.monotonic() - started
    record = only_record(root)
    return {"wall": wall, "gateway": record["gateway"], "outcome": record["outcome"]}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="smollm2-135m")
    parser.add_argument("--threads", type=int, default=ServerOptions().threads)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--prompt-words", type=int, default=600)
    parser.add_argument("--answer-tokens", type=int, default=128)
    parser.add_argument("--no-aide", action="store_true")
    args = parser.parse_args()
    load_before = os.getloadavg()
    root = Path(tempfile.mkdtemp(prefix="bench-local-model-"))
    options = ServerOptions(free_port(), 8192, args.threads, 160)
    with LocalModelServer(resolve_model(args.model), options, root / "server.log") as server:
        calls = [
            timed_call(server.base_url, args.prompt_words, args.answer_tokens)
            for _ in range(args.repeats)
        ]
        assert server.pid is not None
        rss, peak = memory_mib(server.pid)
        step = None if args.no_aide else aide_step(server, args.model, root / "aide")
    load_after = os.getloadavg()
    timings = [call["timings"] for call in calls]
    print(
        f"machine: {platform.machine()}, {os.cpu_count()} CPUs; model {args.model}; "
        f"{args.threads} thread(s)"
    )
    print(
        f"load average before: {load_before[0]:.2f} {load_before[1]:.2f} {load_before[2]:.2f}; "
        f"after: {load_after[0]:.2f} {load_after[1]:.2f} {load_after[2]:.2f}\n"
    )
    print("| measure | value |\n|---|---|")
    print(f"| load (child start to /v1/models) | {server.load_seconds:.2f} s |")
    print(
        f"| prompt tokens/s (median of {args.repeats}, {timings[0]['prompt_n']} tokens) | "
        f"{statistics.median(t['prompt_per_second'] for t in timings):.1f} |"
    )
    print(
        f"| generated tokens/s (median, {timings[0]['predicted_n']} tokens) | "
        f"{statistics.median(t['predicted_per_second'] for t in timings):.1f} |"
    )
    print(f"| server resident memory / peak | {rss:.0f} MiB / {peak:.0f} MiB |")
    if step is not None:
        gateway = step["gateway"]
        print(f"| one AIDE step through the gateway (whole pytest run) | {step['wall']:.1f} s |")
        print(
            f"| its calls, input / output tokens, outcome | {gateway['calls']}, "
            f"{gateway['input_tokens']} / {gateway['output_tokens']}, {step['outcome']} |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
