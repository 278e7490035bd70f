"""AIDE end to end: the real plugin, the real aideml, a FAKE upstream.

The benchmark runs ``titanic`` with the built-in AIDE folder, copied with its steps cut to two to
keep the test short; AIDE's model calls go through the run's LLM gateway to the scripted FAKE
upstream (``scripted_aide.py``), whose code answer solves titanic.

Local backend: AIDE's locked packages are put in front of this interpreter (``aide_on_path``).
Docker backend: the harness builds the folder's Dockerfile, FROM the ``base`` profile rather than
the folder's ``ml`` (the generated titanic code needs only pandas and scikit-learn, which base
has), so CI builds a small image: the base image plus AIDE's lock.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml

from pytest_mlebench.agents import FolderAgent
from pytest_mlebench.agents.aide_folder import AIDE_FOLDER
from tests.aide.scripted_aide import CALL_TOKENS, INPUT_TOKENS, OUTPUT_TOKENS
from tests.factories import bench_command
from tests.gateway.conftest import PROVIDER_KEY
from tests.gateway.fake_upstream import FakeUpstream
from tests.sandbox.conftest import docker_image

__all__ = ["docker_image"]  # the session's base image, built once (tests/sandbox)

pytestmark = pytest.mark.usefixtures("aide_on_path")

CALLS_PER_STEP = 2  # plan-and-code, then the review of the program's output
STEPS = 2
MEDALS = ("bronze", "silver", "gold")


def aide_copy(
    root: Path, steps: int = STEPS, model: str = "gpt-4o-mini", max_tokens: int | None = None
) -> Path:
    """The built-in AIDE folder with ``steps`` and ``model``, its image built FROM ``base``;
    ``max_tokens`` replaces the folder's answer cap (``0``: the server's)."""
    folder = root / "aide-agent"
    shutil.copytree(AIDE_FOLDER, folder)
    config = yaml.safe_load((folder / "config.yaml").read_text())
    config["aide"]["kwargs"]["agent.steps"] = steps
    if max_tokens is not None:
        config["aide"]["kwargs"]["agent.max_tokens"] = max_tokens
    config["aide"]["image"] = "base"
    for key in ("agent.code.model", "agent.feedback.model"):
        config["aide"]["kwargs"][key] = model
    (folder / "config.yaml").write_text(yaml.safe_dump(config))
    return folder


def run_titanic(
    tmp_path: Path, *args: str, backend: str = "local"
) -> subprocess.CompletedProcess[str]:
    command = bench_command(
        tmp_path,
        "-p",
        "no:randomly",
        "-k",
        "titanic",
        "--mle-sandbox",
        backend,
        "--mle-data-dir",
        str(tmp_path / "data"),
        "--mle-results",
        str(tmp_path / "reports" / "results.jsonl"),
        *args,
    )
    return subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, timeout=900)


def only_record(tmp_path: Path) -> dict[str, Any]:
    lines = (tmp_path / "reports" / "results.jsonl").read_text().splitlines()
    assert len(lines) == 1
    record: dict[str, Any] = json.loads(lines[0])
    return record


def builds_agent_images() -> bool:
    """Whether the Docker backend builds an agent folder's own Dockerfile (``image`` field)."""
    return "image" in getattr(FolderAgent, "__dataclass_fields__", {})


@pytest.mark.parametrize("backend", ["local", "docker"])
def test_aide_solves_titanic_through_the_gateway(
    tmp_path: Path, fake_aide_upstream: FakeUpstream, backend: str, request: pytest.FixtureRequest
) -> None:
    if backend == "docker":
        if not builds_agent_images():
            pytest.skip("the Docker backend does not build agent Dockerfiles in this version")
        request.getfixturevalue("docker_image")
    agent = aide_copy(tmp_path)
    done = run_titanic(
        tmp_path, "--mle-agent", f"{agent}:aide", "--mle-require", "bronze", backend=backend
    )
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    record = only_record(tmp_path)
    assert record["outcome"] == "passed"
    if backend == "docker":  # the folder's own image ran, not the plain agent image
        assert str(record.get("image")).startswith("pytest-mlebench-agent-aide:")
    assert record["grade"]["valid_submission"] is True
    assert record["grade"]["award"]["medal"] in MEDALS
    calls = STEPS * CALLS_PER_STEP
    gateway = record["gateway"]
    assert (gateway["calls"], gateway["input_tokens"], gateway["output_tokens"]) == (
        calls,
        calls * INPUT_TOKENS,
        calls * OUTPUT_TOKENS,
    )
    assert gateway["cost_usd"] == pytest.approx(
        calls * (INPUT_TOKENS * 0.15 + OUTPUT_TOKENS * 0.6) / 1e6
    )
    run_dir = Path(record["run_dir"])
    transcript = [json.loads(line) for line in (run_dir / "gateway.jsonl").read_text().splitlines()]
    assert [entry["model"] for entry in transcript] == ["gpt-4o-mini"] * calls
    assert any(entry["request"].get("tools") for entry in transcript)  # AIDE's review calls
    assert (run_dir / "code" / "best_solution.py").read_text().count("HistGradientBoosting") >= 1
    assert list((run_dir / "logs" / "aide").glob("*-run/journal.json"))
    received = fake_aide_upstream.received
    assert [r.headers["Authorization"] for r in received] == [f"Bearer {PROVIDER_KEY}"] * calls
    assert all(r.body["max_tokens"] == 4096 for r in received)  # the folder's answer cap
    assert record["stop_reason"] == f"steps done after {STEPS} step(s); {STEPS} working program(s)"


def test_a_token_budget_cuts_aide_off_and_its_submission_is_graded(
    tmp_path: Path, fake_aide_upstream: FakeUpstream
) -> None:
    # gpt-4.1-mini is not among the models aideml 0.2.0 offers its review function to: run_aide.py
    # must allow it, or the first review would stop AIDE before any submission.
    agent = aide_copy(tmp_path, steps=5, model="gpt-4.1-mini")
    budget = str(CALLS_PER_STEP * CALL_TOKENS)  # exactly one step's calls
    done = run_titanic(tmp_path, "--mle-agent", f"{agent}:aide", "--mle-token-budget", budget)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    record = only_record(tmp_path)
    assert record["gateway"]["budget_exhausted"] is True
    assert "budget_exhausted" in record["reason"]
    assert record["gateway"]["refused_calls"] == 1  # AIDE stops at the first refusal
    assert len(fake_aide_upstream.received) == CALLS_PER_STEP
    assert record["grade"]["valid_submission"] is True  # the first step's submission
    assert record["grade"]["award"]["medal"] in MEDALS
    assert "LLM budget spent" in (Path(record["run_dir"]) / "agent.log").read_text()
    assert str(record["stop_reason"]).startswith("LLM budget spent")
