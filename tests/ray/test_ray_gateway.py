"""The LLM gateway and agent folders with their own image on a real local Ray cluster.

An agent folder calls the gateway from a sandbox on a Ray node; the gateway is served on that
node and forwards to a FAKE upstream on loopback (the node processes run on this machine). The
record on the controller carries the node's accounts, and ``gateway.jsonl`` lands in the
controller's run folder. An agent folder with its own Dockerfile gets its image built on the
node, with the tag a local build gives.
"""

from __future__ import annotations

import json
import subprocess
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.gateway.conftest import PROVIDER_KEY
from tests.gateway.fake_upstream import INPUT_TOKENS, OUTPUT_TOKENS, FakeUpstream
from tests.gateway.test_gateway_runs import assert_two_priced_calls, llm_agent
from tests.ray.conftest import read_records, run_benchmark
from tests.ray.local_cluster import LocalCluster

# tests/ray/ is one xdist group (tests/xdist_groups.py): one worker, one cluster.

SELECTION = ("-m", "embedded", "-k", "digits")


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("ray-gateway-data")


@pytest.fixture
def upstream(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeUpstream]:
    """A FAKE provider; its key is set for the controller only (the nodes get it in the task)."""
    with FakeUpstream() as fake:
        monkeypatch.setenv("TEST_PROVIDER_KEY", PROVIDER_KEY)
        monkeypatch.setenv("MLEBENCH_GATEWAY_UPSTREAM", f"openai={fake.url}")
        yield fake


def only_record(tmp_path: Path) -> dict[str, Any]:
    [record] = read_records(tmp_path)
    return record


def test_an_agent_calls_the_gateway_from_a_ray_node(
    ray_cluster: LocalCluster, data_dir: Path, tmp_path: Path, upstream: FakeUpstream
) -> None:
    agent = llm_agent(tmp_path)
    done = run_benchmark(
        tmp_path, data_dir, *SELECTION, f"--mle-agent={agent}", "--mle-ray", ray_cluster.address
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    record = only_record(tmp_path)
    assert record["node"] is not None and record["outcome"] == "passed"
    assert_two_priced_calls(record["gateway"])
    run_dir = Path(str(record["run_dir"]))
    transcript = (run_dir / "gateway.jsonl").read_text()
    assert len(transcript.splitlines()) == 2 and PROVIDER_KEY not in transcript
    assert [r.headers["Authorization"] for r in upstream.received] == [f"Bearer {PROVIDER_KEY}"] * 2
    env = (run_dir / "logs" / "env.txt").read_text()
    assert PROVIDER_KEY not in env and "OPENAI_API_KEY=mlebench-run-" in env
    assert json.loads((run_dir / "logs" / "statuses.json").read_text()) == [200, 200]


def test_a_budget_cut_off_on_a_node_is_recorded(
    ray_cluster: LocalCluster, data_dir: Path, tmp_path: Path, upstream: FakeUpstream
) -> None:
    agent = llm_agent(tmp_path, calls=4)
    budget = str(2 * (INPUT_TOKENS + OUTPUT_TOKENS))
    done = run_benchmark(
        tmp_path,
        data_dir,
        *SELECTION,
        f"--mle-agent={agent}",
        "--mle-token-budget",
        budget,
        "--mle-ray",
        ray_cluster.address,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    record = only_record(tmp_path)
    run_dir = Path(str(record["run_dir"]))
    assert json.loads((run_dir / "logs" / "statuses.json").read_text()) == [200, 200, 429, 429]
    assert record["gateway"]["budget_exhausted"] is True
    assert "budget_exhausted" in str(record["reason"])
    assert record["grade"]["valid_submission"] is True
    assert len(upstream.received) == 2


def test_a_missing_provider_key_stops_the_run_before_the_cluster(
    data_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No cluster needed: an unreachable address shows nothing was submitted."""
    monkeypatch.delenv("TEST_PROVIDER_KEY", raising=False)
    monkeypatch.setenv("MLEBENCH_GATEWAY_UPSTREAM", "openai=http://127.0.0.1:9/v1")
    agent = llm_agent(tmp_path)
    done = run_benchmark(
        tmp_path, data_dir, *SELECTION, f"--mle-agent={agent}", "--mle-ray", "127.0.0.1:9"
    )
    assert done.returncode == 1, done.stdout[-3000:] + done.stderr[-2000:]
    record = only_record(tmp_path)
    assert record["outcome"] == "error" and record["node"] is None
    assert "export TEST_PROVIDER_KEY=" in str(record["reason"])


IMAGED_CONFIG = "imaged:\n  start: start.sh\n  dockerfile: Dockerfile\n"
IMAGED_DOCKERFILE = "ARG BASE_IMAGE\nFROM ${{BASE_IMAGE}}\nRUN echo {marker} > /etc/agent-marker\n"
IMAGED_START = (
    'cat /etc/agent-marker > "$LOGS_DIR/marker.txt"\n'
    'cp "$DATA_DIR/sample_submission.csv" "$SUBMISSION_DIR/submission.csv"\n'
)


@pytest.fixture
def imaged_agent(tmp_path: Path) -> Iterator[tuple[Path, str, str]]:
    """An agent folder with its own Dockerfile (a new tag each time); its image removed after."""
    from pytest_mlebench.agents import load_agent
    from pytest_mlebench.sandbox.docker.agent_image import agent_recipe

    marker = f"baked-{uuid.uuid4().hex[:12]}"
    folder = tmp_path / "imaged"
    folder.mkdir()
    (folder / "config.yaml").write_text(IMAGED_CONFIG)
    (folder / "start.sh").write_text(IMAGED_START)
    (folder / "Dockerfile").write_text(IMAGED_DOCKERFILE.format(marker=marker))
    agent = load_agent(str(folder))
    tag = agent_recipe(agent.image, agent.name).tag  # type: ignore[attr-defined]
    yield folder, tag, marker
    latest = tag.rsplit(":", 1)[0] + ":latest"  # the build also tags the repository's latest
    subprocess.run(["docker", "image", "rm", tag, latest], capture_output=True, check=False)


def test_an_agent_folder_s_own_image_is_built_on_the_node(
    ray_cluster: LocalCluster, data_dir: Path, tmp_path: Path, imaged_agent: tuple[Path, str, str]
) -> None:
    folder, tag, marker = imaged_agent
    done = run_benchmark(
        tmp_path / "out",
        data_dir,
        *SELECTION,
        "--mle-seeds",
        "2",
        "-n",
        "2",
        f"--mle-agent={folder}",
        "--mle-ray",
        ray_cluster.address,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    records = read_records(tmp_path / "out")
    assert len(records) == 2
    for record in records:
        assert record["node"] is not None and record["outcome"] == "passed"
        assert record["image"] == tag  # the content-hash tag a local build gives
        run_dir = Path(str(record["run_dir"]))
        assert (run_dir / "logs" / "marker.txt").read_text().strip() == marker
