"""A real local Ray cluster for the tests of this folder: one head, two worker nodes.

Skipped, with the reason, when the ``ray`` package (the ``ray`` extra) or a Docker engine with the
agent image is missing. The cluster is started once per test session and stopped at its end; no
test here fakes Ray.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.factories import bench_command
from tests.ray.local_cluster import LocalCluster
from tests.sandbox.conftest import docker_skip_reason

NAPPER_CONFIG = "napper:\n  start: start.sh\n  env_vars:\n    NAP_SECONDS: '{nap}'\n"
NAPPER_START = (
    'echo "agent-started on $(hostname)"\nsleep "$NAP_SECONDS"\n'
    'cp "$DATA_DIR/sample_submission.csv" "$SUBMISSION_DIR/submission.csv"\n'
)


def ray_skip_reason() -> str | None:
    if importlib.util.find_spec("ray") is None:
        return "ray is not installed: pip install 'pytest-mlebench[ray]'"
    return docker_skip_reason()


@pytest.fixture(scope="session")
def ray_cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalCluster]:
    """One head (no CPUs) and worker nodes ``a`` and ``b`` (2 CPUs, 2 Docker slots each)."""
    reason = ray_skip_reason()
    if reason:
        pytest.skip(f"ray cluster: {reason}")
    from pytest_mlebench.sandbox.docker import ensure_image

    root = tmp_path_factory.mktemp("ray-cluster")
    ensure_image(lock_dir=root.parent)
    ray_bin = Path(sys.executable).with_name("ray")
    cluster = LocalCluster(root, ray_bin)
    try:
        yield cluster.start()
    finally:
        cluster.stop()


def napper_agent(folder: Path, nap: float) -> Path:
    """An agent folder that sleeps ``nap`` seconds, then submits the sample submission."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "config.yaml").write_text(NAPPER_CONFIG.format(nap=nap))
    (folder / "start.sh").write_text(NAPPER_START)
    return folder


def benchmark_command(tmp_path: Path, data_dir: Path, *args: str) -> list[str]:
    """The benchmark test run as a user would (results and runs under ``tmp_path``)."""
    return bench_command(
        tmp_path,
        f"--mle-data-dir={data_dir}",  # one word: the shared folder lies outside tmp_path
        "--mle-results",
        str(tmp_path / "results.jsonl"),
        "--mle-progress",
        "0",
        "--mle-cpus",
        "1",
        "--mle-memory",
        "1g",
        *args,
    )


def run_benchmark(tmp_path: Path, data_dir: Path, *args: str) -> subprocess.CompletedProcess[str]:
    tmp_path.mkdir(parents=True, exist_ok=True)
    env = {key: value for key, value in os.environ.items() if key != "RAY_ADDRESS"}
    return subprocess.run(
        benchmark_command(tmp_path, data_dir, *args),
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=900,
        env=env,
    )


def read_records(tmp_path: Path) -> list[dict[str, object]]:
    lines = (tmp_path / "results.jsonl").read_text().splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def cluster_resources(address: str) -> tuple[dict[str, float], dict[str, float]]:
    """Total and available resources of the cluster, asked from a separate driver."""
    script = (
        f"import json, ray; ray.init(address={address!r}, logging_level='ERROR'); "
        "print(json.dumps([ray.cluster_resources(), ray.available_resources()]))"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=True
    )
    total, available = json.loads(done.stdout.strip().splitlines()[-1])
    return total, available
