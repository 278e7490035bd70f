"""The benchmark test on a real local Ray cluster (head + two worker nodes, ``conftest.py``).

Every test runs the plugin in a pytest subprocess as a user would, with ``--mle-ray`` pointing at
the cluster: results equal the local Docker backend's, a run whose node is killed is retried on
the other node (from its last snapshot when it took one), Ctrl-C leaves no container and no Ray
task, and bad input is a clear error.
"""

from __future__ import annotations

import os
import signal
import subprocess
import time
import uuid
from pathlib import Path
from typing import Any

import pytest

from tests.factories import write_competition
from tests.ray.conftest import (
    benchmark_command,
    cluster_resources,
    napper_agent,
    read_records,
    run_benchmark,
)
from tests.ray.local_cluster import LocalCluster
from tests.sandbox.conftest import answer_ctrl_c, containers_with

# One local cluster per test session: tests/ray/ is one xdist group (tests/xdist_groups.py), so
# every cluster test stays on one worker.

SELECTION = ("-m", "embedded", "-k", "digits or titanic or telco-churn")


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Prepared data shared by the tests of this module (prepared by the first run)."""
    return tmp_path_factory.mktemp("ray-data")


def outcomes(records: list[dict[str, Any]]) -> dict[tuple[str, int], tuple[Any, ...]]:
    """What must not depend on where a run ran: outcome, validity, score and medal."""
    found = {}
    for record in records:
        grade = record["grade"] or {}
        award = grade.get("award") or {}
        found[(record["competition_id"], record["seed"])] = (
            record["outcome"],
            grade.get("valid_submission"),
            grade.get("score"),
            award.get("medal"),
        )
    return found


def test_results_equal_the_local_docker_backend(
    ray_cluster: LocalCluster, data_dir: Path, tmp_path: Path
) -> None:
    # The baseline agent (it trains and scores) covers what the dummy agent's runs covered here:
    # one agent keeps the cluster tier to one pair of sessions.
    agent = "baseline"
    on_ray = run_benchmark(
        tmp_path / "ray",
        data_dir,
        *SELECTION,
        "--mle-agent",
        agent,
        "--mle-ray",
        ray_cluster.address,
    )
    assert on_ray.returncode == 0, on_ray.stdout[-3000:] + on_ray.stderr[-2000:]
    local = run_benchmark(
        tmp_path / "local", data_dir, *SELECTION, "--mle-agent", agent, "--mle-sandbox", "docker"
    )
    assert local.returncode == 0, local.stdout[-3000:] + local.stderr[-2000:]
    remote_records = read_records(tmp_path / "ray")
    assert len(remote_records) == 3
    assert outcomes(remote_records) == outcomes(read_records(tmp_path / "local"))
    for record in remote_records:
        node = record["node"]
        assert node is not None and node["node_id"] and node["ip"] and node["hostname"]
        assert [attempt["node_id"] for attempt in node["attempts"]] == [node["node_id"]]
        assert record["sandbox"] == "docker" and record["isolated"] is True
        # validate_submission.sh was answered by the controller, which has the answers
        assert record["validation_calls"] and record["validation_calls"][0]["valid"] is True
        run_dir = Path(str(record["run_dir"]))
        assert (run_dir / "submission.csv").is_file() and (run_dir / "agent.log").is_file()
    assert "Ray cluster at" in on_ray.stdout
    assert all(record["node"] is None for record in read_records(tmp_path / "local"))


def test_public_data_is_fetched_once_per_node(
    ray_cluster: LocalCluster, data_dir: Path, tmp_path: Path
) -> None:
    done = run_benchmark(
        tmp_path,
        data_dir,
        "-m",
        "embedded",
        "-k",
        "digits",
        "--mle-seeds",
        "4",
        "--mle-ray",
        ray_cluster.address,
        "-n",
        "2",
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    records = read_records(tmp_path)
    fetched = [r["node"] for r in records if r["node"]["data_seconds"] > 0]
    # at most one fetch per node (per data version): the others found it in the node's cache
    assert len({node["node_id"] for node in fetched}) == len(fetched) <= 2
    for name in ray_cluster.workers:
        versions = list(ray_cluster.node_cache(name).glob("*/digits/*/public"))
        assert len(versions) <= 1


def napping_run(
    cluster: LocalCluster, data_dir: Path, tmp_path: Path, kind: str, nap: float
) -> tuple[str, list[str]]:
    """A fresh toy competition (marked ``kind``) and the command that runs the napper agent
    (sleeps ``nap`` seconds) on it through ``cluster``."""
    competition = f"{kind}-{uuid.uuid4().hex[:8]}"
    write_competition(tmp_path / "defs", competition, splits={kind: [competition]})
    agent = napper_agent(tmp_path / "napper", nap=nap)
    command = benchmark_command(
        tmp_path,
        data_dir,
        *("-m", kind, "--mle-agent", str(agent)),
        *("--mle-competitions-dir", str(tmp_path / "defs")),
        *("--mle-ray", cluster.address),
    )
    return competition, command


def test_a_killed_node_is_retried_on_the_other_node(
    ray_cluster: LocalCluster, data_dir: Path, tmp_path: Path
) -> None:
    competition, command = napping_run(ray_cluster, data_dir, tmp_path, "killed", nap=20)
    run = subprocess.Popen(command, cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        victim = wait_for_node_with(ray_cluster, competition, run)
        ray_cluster.kill_node(victim)
        output, _ = run.communicate(timeout=300)
    finally:
        if run.poll() is None:
            run.kill()
        restart_dead_workers(ray_cluster)
    text = output.decode(errors="replace")
    assert run.returncode == 0, text[-3000:]
    records = read_records(tmp_path)
    assert [r["outcome"] for r in records] == ["passed"], text[-3000:]
    attempts = records[0]["node"]["attempts"]
    assert len(attempts) == 2 and "error" in attempts[0] and "error" not in attempts[1]
    assert attempts[0]["node_id"] != attempts[1]["node_id"] == records[0]["node"]["node_id"]
    from pytest_mlebench.sandbox.docker import COMPETITION_LABEL

    assert containers_with(COMPETITION_LABEL, competition) == []  # the dead node's too


def test_a_killed_node_resumes_from_its_last_snapshot_on_the_other_node(
    ray_cluster: LocalCluster, data_dir: Path, tmp_path: Path
) -> None:
    """The node sends each snapshot to the controller while the run is live; the retry on the
    other node restores the last one, with the time the run had left."""
    from tests.checkpoint.session_driver import AGENT

    competition = f"resumed-{uuid.uuid4().hex[:8]}"
    write_competition(tmp_path / "defs", competition, splits={"resumed": [competition]})
    command = benchmark_command(
        tmp_path,
        data_dir,
        *("-m", "resumed", f"--mle-agent={AGENT}", "--mle-time-limit", "300"),
        *("--mle-checkpoint-every", "1s", "--mle-competitions-dir", str(tmp_path / "defs")),
        *("--mle-ray", ray_cluster.address),
    )
    run = subprocess.Popen(command, cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        victim = wait_for_node_with(ray_cluster, competition, run)
        give_up = time.monotonic() + 120
        while not list(tmp_path.glob("runs/*/checkpoints/0002/snapshot.json")):
            assert run.poll() is None and time.monotonic() < give_up, "no snapshot reached here"
            time.sleep(0.2)
        ray_cluster.kill_node(victim)
        output, _ = run.communicate(timeout=300)
    finally:
        if run.poll() is None:
            run.kill()
        restart_dead_workers(ray_cluster)
    text = output.decode(errors="replace")
    assert run.returncode == 0, text[-3000:]
    [record] = read_records(tmp_path)
    attempts = record["node"]["attempts"]  # type: ignore[index]
    assert len(attempts) == 2 and attempts[0]["node_id"] != attempts[1]["node_id"]
    resumed: Any = record["resumed"]
    snapshot = Path(resumed["snapshot"])
    assert resumed["run_id"] == record["run_id"] and snapshot.parent.parent == Path(
        str(record["run_dir"])
    )
    assert resumed["snapshot_number"] >= 2 and resumed["remaining_seconds"] < 300
    told = dict(
        line.split("=", 1)
        for line in (Path(str(record["run_dir"])) / "logs" / "resumed.txt").read_text().splitlines()
    )
    assert int(told["steps"]) == len((snapshot / "code" / "steps.txt").read_text().splitlines())
    assert int(told["time_limit"]) == resumed["remaining_seconds"] and told["told"] == "yes"
    assert record["grade"]["valid_submission"] is True  # type: ignore[index]


def wait_for_node_with(
    cluster: LocalCluster, competition: str, run: subprocess.Popen[bytes]
) -> str:
    """The worker node whose cache holds ``competition``'s data while its sandbox runs."""
    from pytest_mlebench.sandbox.docker import COMPETITION_LABEL

    give_up = time.monotonic() + 180
    while True:
        assert run.poll() is None, (run.stdout.read() if run.stdout else b"").decode()[-3000:]
        assert time.monotonic() < give_up, "the sandbox never started"
        holders = [
            n for n in cluster.workers if list(cluster.node_cache(n).glob(f"*/{competition}"))
        ]
        if holders and containers_with(COMPETITION_LABEL, competition):
            time.sleep(2)  # let the agent start inside
            return holders[0]
        time.sleep(0.3)


def restart_dead_workers(cluster: LocalCluster) -> None:
    for name in cluster.workers:
        if not cluster.node_pids(name):
            cluster.add_worker(name)


def test_ctrl_c_leaves_no_container_and_no_ray_task(
    ray_cluster: LocalCluster, data_dir: Path, tmp_path: Path
) -> None:
    from pytest_mlebench.sandbox.docker import COMPETITION_LABEL

    competition, command = napping_run(ray_cluster, data_dir, tmp_path, "interrupted", nap=3600)
    run = subprocess.Popen(
        command,
        cwd=tmp_path,
        start_new_session=True,
        preexec_fn=answer_ctrl_c,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    give_up = time.monotonic() + 180
    while not containers_with(COMPETITION_LABEL, competition):
        assert run.poll() is None, (run.stdout.read() if run.stdout else b"").decode()[-3000:]
        assert time.monotonic() < give_up, "the sandbox never started"
        time.sleep(0.3)
    time.sleep(2)
    os.killpg(run.pid, signal.SIGINT)
    output, _ = run.communicate(timeout=120)
    assert run.returncode != 0, output.decode(errors="replace")[-2000:]
    assert containers_with(COMPETITION_LABEL, competition) == []
    total, available = wait_for_idle(ray_cluster.address)
    assert available.get("CPU") == total.get("CPU"), "a Ray task still holds CPUs"
    assert available.get("mlebench_docker") == total.get("mlebench_docker")


def wait_for_idle(address: str) -> tuple[dict[str, float], dict[str, float]]:
    """The cluster's resources once every task let go (Ray frees them a moment after the end)."""
    give_up = time.monotonic() + 30
    while True:
        total, available = cluster_resources(address)
        if available.get("CPU") == total.get("CPU") or time.monotonic() > give_up:
            return total, available
        time.sleep(1)


def test_bad_input_is_a_clear_error_and_the_batch_goes_on(
    ray_cluster: LocalCluster, data_dir: Path, tmp_path: Path
) -> None:
    unreachable = run_benchmark(
        tmp_path / "unreachable", data_dir, "-m", "smoke", "--mle-ray", "127.0.0.1:9"
    )
    assert "2 failed" in unreachable.stdout, unreachable.stdout[-3000:]
    assert "cannot join the Ray cluster at '127.0.0.1:9'" in unreachable.stdout
    assert "ray start --head" in unreachable.stdout
    assert [r["outcome"] for r in read_records(tmp_path / "unreachable")] == ["error", "error"]
    greedy = run_benchmark(
        tmp_path / "greedy",
        data_dir,
        "-m",
        "smoke",
        "--mle-ray",
        ray_cluster.address,
        "--mle-gpus-per-sandbox",
        "8",
    )
    assert "2 failed" in greedy.stdout, greedy.stdout[-3000:]
    assert "asks for 8 GPUs per sandbox" in greedy.stdout
    assert "--mle-gpus-per-sandbox" in greedy.stdout
    records = read_records(tmp_path / "greedy")
    assert [r["outcome"] for r in records] == ["error", "error"]


def test_a_cluster_without_docker_nodes_is_a_clear_error(
    tmp_path_factory: pytest.TempPathFactory, data_dir: Path, tmp_path: Path
) -> None:
    import sys

    bare = LocalCluster(
        tmp_path_factory.mktemp("bare-cluster"), Path(sys.executable).with_name("ray")
    )
    bare.workers = ()
    bare.start()
    try:
        done = run_benchmark(tmp_path, data_dir, "-m", "smoke", "--mle-ray", bare.address)
    finally:
        bare.stop()
    assert "2 failed" in done.stdout, done.stdout[-3000:]
    assert "no node of the Ray cluster offers the 'mlebench_docker' resource" in done.stdout
    assert "ray start --address HEAD:6379" in done.stdout


def test_ray_not_installed_names_the_extra(data_dir: Path, tmp_path: Path) -> None:
    tmp_path.joinpath("conftest.py").write_text(
        "import sys\nsys.modules['ray'] = None  # this machine has no ray package\n"
    )
    done = run_benchmark(tmp_path, data_dir, "-m", "smoke", "--mle-ray", "auto")
    assert "2 failed" in done.stdout, done.stdout[-3000:]
    assert "pip install 'pytest-mlebench[ray]'" in done.stdout
