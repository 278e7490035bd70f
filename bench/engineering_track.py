"""The engineering track's cost: each task's verifier, and the session that proves the tasks.

Runs, in Docker, the session the CI proof of the shipped tasks runs
(``tests/eng/test_core_tasks.py``): ``--mle-agent 'oracle,noop,cheat:*'`` over every task of
``engineering/`` with ``-n WORKERS``; or one session per ``--agents`` value (``oracle noop
'cheat:*'`` runs the three apart, sharing one data folder). Prints each session's wall time, the
verifier's median per agent kind and, per run, the agent phase's and the verifier's wall time
from the records. The eng image must be built (``mlebench sandbox build --profile eng``).

    PYTHONPATH=$PWD .venv/bin/python bench/engineering_track.py [--workers 2]
        [--agents 'oracle,noop,cheat:*']
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]


def session(
    agent: str, workers: int, folder: Path, data: Path
) -> tuple[float, list[dict[str, Any]]]:
    """Wall seconds of one session and its records; ``data`` is shared by the sessions, as in
    CI, so each task is prepared once (the first session pays for it)."""
    results = folder / "results.jsonl"
    command = [
        sys.executable, "-m", "pytest", str(REPO / "benchmarks" / "test_engineering.py"),
        "-m", "engineering", "-p", "no:randomly", "-p", "no:cacheprovider", "-q",
        "--mle-agent", agent, "--mle-sandbox", "docker", "--mle-results", str(results),
        f"--mle-data-dir={data}", "-n", str(workers),
    ]  # fmt: skip
    started = time.monotonic()
    subprocess.run(
        command, capture_output=True, env={**os.environ, "PYTHONPATH": str(REPO)}, cwd=folder
    )
    wall = time.monotonic() - started
    records = [json.loads(line) for line in results.read_text().splitlines() if line.strip()]
    return wall, records


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--agents", nargs="+", default=["oracle,noop,cheat:*"])
    args = parser.parse_args()
    print(f"load average before: {os.getloadavg()[0]:.1f}")
    shared = tempfile.TemporaryDirectory(prefix="mlebench-eng-bench-data-")
    for agent in args.agents:
        with tempfile.TemporaryDirectory(prefix="mlebench-eng-bench-") as tmp:
            wall, records = session(agent, args.workers, Path(tmp), Path(shared.name))
        verifier = [
            float((r.get("engineering") or {}).get("verifier", {}).get("wall_s") or 0)
            for r in records
        ]
        print(
            f"{agent}: {len(records)} runs in {wall:.1f} s with -n {args.workers}; verifier "
            f"median {statistics.median(verifier):.1f} s, max {max(verifier):.1f} s, "
            f"total {sum(verifier):.1f} s"
        )
        kinds = sorted({str(r["agent"]).partition(":")[0] for r in records})
        for kind in kinds:
            times = [
                float((r.get("engineering") or {}).get("verifier", {}).get("wall_s") or 0)
                for r in records
                if str(r["agent"]).partition(":")[0] == kind
            ]
            print(f"  {kind}: {len(times)} runs, verifier median {statistics.median(times):.1f} s")
        for record in sorted(records, key=lambda r: (str(r["competition_id"]), str(r["agent"]))):
            block = record.get("engineering") or {}
            print(
                f"  {record['competition_id']:<26} {record['agent']:<26} {record['outcome']:<7} "
                f"agent {float(record.get('wall_seconds') or 0):5.1f} s  verifier "
                f"{float(block.get('verifier', {}).get('wall_s') or 0):5.1f} s"
            )
    print(f"load average after: {os.getloadavg()[0]:.1f}")
    shared.cleanup()


if __name__ == "__main__":
    main()
