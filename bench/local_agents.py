"""AIDE and mini-swe-agent against a local model on embedded competitions (on demand; not a test).

    PYTHONPATH=$PWD .venv/bin/python bench/local_agents.py [--model qwen2.5-coder-1.5b]
        [--agents aide,mini-swe] [--competitions titanic] [--time-limit 600] [--threads 1]
        [--out bench-local-agents.json]

Starts ONE local model server (``mlebench model serve``'s code and defaults: the model's own
context, answers capped at 4,096 tokens unless a request sets its own) and runs each agent on
each competition with the real plugin, the local backend and the built-in agent folder as a user
names it (``--mle-agent aide:MODEL --mle-gateway-upstream openai=local:PORT``), one run after the
other. The agents' packages come from their locks (the ``tests/aide`` and ``tests/mini_swe`` site
folders, built once in the user cache) in front of this interpreter, which has numpy, pandas and
scikit-learn for the code the agents write.

Per run it prints a Markdown row: the outcome, whether the submission was valid, the agent's
steps (AIDE: the journal's nodes; mini-swe-agent: its model calls), the model calls, input and
output tokens, output tokens per second of call time (the gateway transcript's latencies, prompt
processing included), the answers cut at their cap, the forced calls that could not be bridged,
the agent's stop reason and the wall time of the whole pytest run. The load average is read
before and after. docs/benchmarks.md has the figures.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pytest_mlebench.local_model import LocalModelServer, ServerOptions  # noqa: E402
from pytest_mlebench.local_model.catalog import resolve_model  # noqa: E402
from pytest_mlebench.local_model.probe import probe_server  # noqa: E402
from tests.factories import bench_command  # noqa: E402
from tests.real_model.conftest import free_port  # noqa: E402

PACKAGES = {"aide": ("aide-test", "aide"), "mini-swe": ("mini-swe-test", "minisweagent")}


def agent_site(agent: str) -> Path:
    """The folder holding the agent's locked packages (built once, as its tests build it)."""
    from pytest_mlebench.agents.aide_folder import AIDE_FOLDER
    from pytest_mlebench.agents.mini_swe_folder import MINI_SWE_FOLDER
    from tests.aide.conftest import locked_site

    folder = AIDE_FOLDER if agent == "aide" else MINI_SWE_FOLDER
    cache, package = PACKAGES[agent]
    return locked_site(folder / "requirements.lock", cache, package)


def shim(site: Path, root: Path) -> Path:
    """A folder whose ``python3`` is this interpreter with ``site`` importable."""
    folder = root / "bin"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "python3").write_text(
        f'#!/bin/sh\nPYTHONPATH="{site}" exec "{sys.executable}" "$@"\n'
    )
    (folder / "python3").chmod(0o755)
    return folder


def one_run(
    agent: str, model: str, competition: str, port: int, limit: int, root: Path, sandbox: str
) -> Any:
    """Run ``agent`` on ``competition``; the figures of its record and transcript."""
    root.mkdir(parents=True)
    env = {
        **os.environ,
        "PATH": f"{shim(agent_site(agent), root)}{os.pathsep}{os.environ['PATH']}",
        "OPENAI_API_KEY": "unused-by-the-local-server",
        "PYTHONPATH": str(ROOT),
    }
    command = bench_command(
        root,
        "-p",
        "no:randomly",
        "-k",
        competition,
        "--mle-sandbox",
        sandbox,
        "--mle-agent",
        f"{agent}:{model}",
        "--mle-gateway-upstream",
        f"openai=local:{port}",
        "--mle-time-limit",
        str(limit),
        "--mle-data-dir",
        str(root / "data"),
        "--mle-results",
        str(root / "reports" / "results.jsonl"),
    )
    started = time.monotonic()
    done = subprocess.run(command, cwd=root, env=env, capture_output=True, text=True)
    wall = time.monotonic() - started
    (root / "pytest.log").write_text(done.stdout + done.stderr)
    lines = (root / "reports" / "results.jsonl").read_text().splitlines()
    record = json.loads(lines[-1])
    return figures(agent, competition, record, wall)


def figures(agent: str, competition: str, record: dict[str, Any], wall: float) -> dict[str, Any]:
    run_dir = Path(record["run_dir"])
    gateway = record.get("gateway") or {}
    transcript = run_dir / "gateway.jsonl"
    entries = (
        [json.loads(line) for line in transcript.read_text().splitlines()]
        if (transcript.is_file())
        else []
    )
    seconds = sum(float(e.get("latency_seconds") or 0) for e in entries)
    grade = record.get("grade") or {}
    return {
        "agent": agent,
        "competition": competition,
        "outcome": record["outcome"],
        "valid": bool(grade.get("valid_submission")),
        "score": grade.get("score"),
        "steps": steps_of(agent, run_dir, gateway),
        "calls": gateway.get("calls"),
        "input_tokens": gateway.get("input_tokens"),
        "output_tokens": gateway.get("output_tokens"),
        "output_tokens_per_s": round(gateway.get("output_tokens", 0) / seconds, 2)
        if seconds
        else None,
        "truncated": gateway.get("truncated_calls"),
        "invalid_bridged": gateway.get("invalid_bridged_calls"),
        "bridged_text_calls": sum(1 for e in entries if "as text" in str(e.get("bridged"))),
        "stop_reason": record.get("stop_reason"),
        "reason": record.get("reason"),
        "wall_s": round(wall, 1),
        "run_dir": str(run_dir),
    }


def steps_of(agent: str, run_dir: Path, gateway: dict[str, Any]) -> int | None:
    """AIDE: the journal's nodes; mini-swe-agent: its model calls (one per step)."""
    if agent == "mini-swe":
        return int(gateway.get("calls") or 0)
    journals = sorted((run_dir / "logs" / "aide").glob("*-run/journal.json"))
    if not journals:
        return 0
    return len(json.loads(journals[-1].read_text()).get("nodes", []))


def row(result: dict[str, Any]) -> str:
    keys = (
        "agent",
        "competition",
        "outcome",
        "valid",
        "steps",
        "calls",
        "input_tokens",
        "output_tokens",
        "output_tokens_per_s",
        "truncated",
        "invalid_bridged",
        "bridged_text_calls",
        "stop_reason",
        "wall_s",
    )
    return "| " + " | ".join(str(result.get(key)) for key in keys) + " |"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="qwen2.5-coder-1.5b")
    parser.add_argument("--agents", default="aide,mini-swe")
    parser.add_argument("--competitions", default="titanic")
    parser.add_argument("--time-limit", type=int, default=600)
    parser.add_argument("--threads", type=int, default=ServerOptions().threads)
    parser.add_argument(
        "--sandbox",
        choices=("docker", "local"),
        default="docker",
        help="docker: the agents' own images (built on first use); local: this interpreter with "
        "the agent's locked packages on PYTHONPATH",
    )
    parser.add_argument("--out", type=Path, default=Path("bench-local-agents.json"))
    args = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="bench-local-agents-"))
    results: list[dict[str, Any]] = []
    load_before = os.getloadavg()
    options = ServerOptions(free_port(), threads=args.threads)
    with LocalModelServer(resolve_model(args.model), options, root / "server.log") as server:
        facts = probe_server(server.base_url)
        print(f"server: {args.model}, {args.threads} thread(s), {facts}; folder {root}", flush=True)
        for agent in args.agents.split(","):
            for competition in args.competitions.split(","):
                where = root / f"{agent}-{competition}"
                result = one_run(
                    agent,
                    args.model,
                    competition,
                    options.port,
                    args.time_limit,
                    where,
                    args.sandbox,
                )
                results.append(result)
                print(row(result), flush=True)
                args.out.write_text(json.dumps(results, indent=1))
    load_after = os.getloadavg()
    print(f"load average {load_before[0]:.2f} before, {load_after[0]:.2f} after", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
