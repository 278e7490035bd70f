"""Harness overhead and throughput of runs on a local Ray cluster (on demand; not a test).

    .venv/bin/python bench/ray_overhead.py [--runs 20] [--throughput-runs 40] [--nap 5]
                                           [--payload-mb 50] [--workdir DIR]

Starts a real Ray cluster on this machine (one head without CPUs; worker nodes each offering one
CPU and one ``mlebench_docker`` slot, as ``tests/ray`` does) and runs the benchmark test in pytest
subprocesses, as a user would:

- **overhead**: ``--runs`` dummy-agent runs (seeds of one toy competition whose public folder
  carries a ``--payload-mb`` file) one after another, on the local Docker backend, then through
  Ray with the data in the object store, then through Ray with ``--mle-ray-data-dir``. Per run,
  the test's own time (setup + call + teardown, from ``--junitxml``); the medians are compared.
  The first fetch of the data on each node is reported apart (the record's ``data_seconds``).
- **throughput**: ``--throughput-runs`` runs of an agent that sleeps ``--nap`` seconds in the
  sandbox, under ``pytest -n 2``, on a cluster with one worker node, then with two.

Prints one Markdown table per part; docs/benchmarks.md has the figures and the machine's load.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ElementTree
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.factories import BENCH_MODULE, TOY_PREPARE, write_competition  # noqa: E402
from tests.ray.conftest import napper_agent  # noqa: E402
from tests.ray.local_cluster import LocalCluster  # noqa: E402

PAYLOAD_PREPARE = (
    TOY_PREPARE
    + """
    with open(public / "payload.bin", "wb") as handle:
        handle.write(bytes(range(256)) * (4096 * {payload_mb}))
"""
)


def competitions(root: Path, payload_mb: int) -> Path:
    defs = root / "defs"
    prepare = PAYLOAD_PREPARE.replace("{payload_mb}", str(payload_mb))
    write_competition(
        defs, "bench-overhead", prepare=prepare, splits={"overhead": ["bench-overhead"]}
    )
    write_competition(defs, "bench-nap", splits={"nap": ["bench-nap"]})
    return defs


def pytest_run(work: Path, name: str, *args: str) -> list[float]:
    """Run the benchmark test in ``work/name``; each test's time in seconds (junit XML)."""
    folder = work / name
    folder.mkdir(parents=True)
    (folder / "test_bench.py").write_text(BENCH_MODULE)
    junit = folder / "junit.xml"
    command = [
        sys.executable, "-m", "pytest", "test_bench.py", "-p", "no:cacheprovider", "-q",
        "--junitxml", str(junit), "--mle-data-dir", str(work / "data"),
        "--mle-results", str(folder / "results.jsonl"), "--mle-progress", "0",
        "--mle-cpus", "1", "--mle-memory", "1g", *args,
    ]  # fmt: skip
    env = {key: value for key, value in os.environ.items() if key != "RAY_ADDRESS"}
    env["PYTHONPATH"] = str(ROOT)
    done = subprocess.run(command, cwd=folder, capture_output=True, text=True, env=env)
    if done.returncode != 0:
        raise SystemExit(f"{name} failed:\n{done.stdout[-3000:]}\n{done.stderr[-2000:]}")
    cases = ElementTree.parse(junit).getroot().iter("testcase")
    return [float(case.get("time", "nan")) for case in cases]


def data_seconds(work: Path, name: str) -> list[float]:
    lines = (work / name / "results.jsonl").read_text().splitlines()
    records = [json.loads(line) for line in lines if line.strip()]
    return [r["node"]["data_seconds"] for r in records if r["node"]["data_seconds"] > 0]


def overhead(work: Path, defs: Path, runs: int, address: str) -> None:
    common = ["-m", "overhead", "--mle-competitions-dir", str(defs), "--mle-seeds", str(runs)]
    shared = work / "shared"
    shared.mkdir()
    pytest_run(work, "warm-up", *common[:4], "--mle-seeds", "1", "--mle-sandbox", "docker")
    ray = ["--mle-ray", address]
    rows = [
        ("local Docker", pytest_run(work, "docker", *common, "--mle-sandbox", "docker"), None),
        ("Ray, object store", pytest_run(work, "ray-store", *common, *ray), "ray-store"),
        (
            "Ray, --mle-ray-data-dir",
            pytest_run(work, "ray-shared", *common, *ray, "--mle-ray-data-dir", str(shared)),
            "ray-shared",
        ),
    ]
    base = statistics.median(rows[0][1])
    print(
        "\n| backend | runs | median s per run | more than local Docker | first fetch per node s |"
    )
    print("|---|---|---|---|---|")
    for label, times, fetched in rows:
        median = statistics.median(times)
        fetch = ", ".join(f"{s:.2f}" for s in data_seconds(work, fetched)) if fetched else "-"
        print(f"| {label} | {len(times)} | {median:.2f} | {median - base:+.2f} | {fetch} |")


def throughput(work: Path, defs: Path, runs: int, nap: float, root: Path, ray_bin: Path) -> None:
    agent = napper_agent(work / "napper", nap)
    print("\n| worker nodes | runs | wall s | runs per minute | speed-up |")
    print("|---|---|---|---|---|")
    first = None
    for nodes in (1, 2):
        names = ("a", "b")[:nodes]
        cluster = LocalCluster(
            root / f"tp{nodes}", ray_bin, workers=names, cpus_per_worker=1, docker_slots=1
        )
        cluster.start()
        try:
            args = ["-m", "nap", "--mle-competitions-dir", str(defs), "--mle-seeds", str(runs)]
            started = time.monotonic()
            pytest_run(work, f"throughput-{nodes}", *args, "--mle-agent", str(agent),
                       "--mle-ray", cluster.address, "-n", "2")  # fmt: skip
            wall = time.monotonic() - started
        finally:
            cluster.stop()
        first = first or wall
        print(f"| {nodes} | {runs} | {wall:.1f} | {runs / wall * 60:.1f} | {first / wall:.2f}x |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--throughput-runs", type=int, default=40)
    parser.add_argument("--nap", type=float, default=5.0)
    parser.add_argument("--payload-mb", type=int, default=50)
    parser.add_argument("--workdir", type=Path, default=None)
    parser.add_argument("--skip", choices=("overhead", "throughput"), default=None)
    args = parser.parse_args()
    work = args.workdir or Path(tempfile.mkdtemp(prefix="mlebench-ray-bench-"))
    os.environ["PYTHONPATH"] = str(ROOT)  # the nodes import this checkout, as the controller
    ray_bin = Path(sys.executable).with_name("ray")
    print(f"machine: {platform.platform()}, {os.cpu_count()} CPUs, load {os.getloadavg()}")
    defs = competitions(work, args.payload_mb)
    try:
        if args.skip != "overhead":
            cluster = LocalCluster(
                work / "cluster", ray_bin, workers=("a",), cpus_per_worker=1, docker_slots=1
            )
            cluster.start()
            try:
                overhead(work, defs, args.runs, cluster.address)
            finally:
                cluster.stop()
        if args.skip != "throughput":
            throughput(work, defs, args.throughput_runs, args.nap, work, ray_bin)
    finally:
        print(f"load after: {os.getloadavg()}")
        if args.workdir is None:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
