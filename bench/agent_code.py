"""What the verifier pays for running the agent's code in a child process (``mlebench_agent_code``).

Measures, against importing the same module in the verifier's own process: the start of the child
(a Python start plus the module's imports), a request that returns a scalar, a request that returns
a 100,000 × 8 float array (as ``.npy``, no pickle) and one that returns a 20,000-row pandas frame.

    PYTHONPATH=$PWD .venv/bin/python bench/agent_code.py [--repeat 200]
"""

from __future__ import annotations

import argparse
import importlib
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "pytest_mlebench" / "eng" / "verifier"))

import mlebench_agent_code  # noqa: E402

MODULE = """
import numpy as np
import pandas as pd

ARRAY = np.random.default_rng(0).normal(size=(100_000, 8))
FRAME = pd.DataFrame({"id": range(20_000), "p": np.linspace(0, 1, 20_000), "s": ["x"] * 20_000})

def scalar():
    return 1.5

def array():
    return ARRAY

def frame():
    return FRAME
"""


def timed(action: Callable[[], Any], repeat: int) -> float:
    """The median wall time of ``action`` in milliseconds."""
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        action()
        times.append(time.perf_counter() - started)
    return statistics.median(times) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=200, help="requests per measurement")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="agent-code-bench-"))
    (work / "bench_agent.py").write_text(MODULE, "utf-8")
    started = time.perf_counter()
    child = mlebench_agent_code.agent_module("bench_agent", work)
    start_ms = (time.perf_counter() - started) * 1000
    sys.path.insert(0, str(work))
    started = time.perf_counter()
    local = importlib.import_module("bench_agent")
    local_ms = (time.perf_counter() - started) * 1000
    rows = [
        ("start (child) / import (in-process)", start_ms, local_ms),
        ("scalar", timed(child.scalar, args.repeat), timed(local.scalar, args.repeat)),
        ("array 100,000 x 8", timed(child.array, args.repeat // 4),
         timed(local.array, args.repeat // 4)),
        ("frame 20,000 x 3", timed(child.frame, args.repeat // 4),
         timed(local.frame, args.repeat // 4)),
    ]  # fmt: skip
    print(f"{'operation':40} {'child ms':>10} {'in-process ms':>14}")
    for name, remote_ms, local_ms in rows:
        print(f"{name:40} {remote_ms:10.3f} {local_ms:14.4f}")


if __name__ == "__main__":
    main()
