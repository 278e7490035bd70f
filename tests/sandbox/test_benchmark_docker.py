"""The real benchmark test in Docker, end to end: smoke competitions pass, Ctrl-C leaves nothing.

Runs the plugin in a pytest subprocess exactly as a user would (``--mle-sandbox docker``).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
import uuid
from pathlib import Path

import pytest

from tests.factories import bench_command, write_competition
from tests.sandbox.conftest import answer_ctrl_c, containers_with

pytestmark = pytest.mark.usefixtures("docker_image")

SLEEPER_CONFIG = "sleeper:\n  start: start.sh\n"
SLEEPER_START = "echo agent-started\nsleep 3600\n"


def benchmark_command(tmp_path: Path, *args: str) -> list[str]:
    return bench_command(
        tmp_path,
        "--mle-sandbox",
        "docker",
        "--mle-data-dir",
        str(tmp_path / "data"),
        "--mle-results",
        str(tmp_path / "results.jsonl"),
        *args,
    )


def test_smoke_competitions_pass_in_docker(tmp_path: Path) -> None:
    from pytest_mlebench.sandbox.docker import SESSION_LABEL

    done = subprocess.run(
        benchmark_command(tmp_path, "-m", "smoke", "--mle-agent", "dummy"),
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert "2 passed" in done.stdout
    records = [json.loads(line) for line in (tmp_path / "results.jsonl").read_text().splitlines()]
    assert sorted(r["competition_id"] for r in records) == ["digits", "titanic"]
    for record in records:
        assert record["sandbox"] == "docker" and record["isolated"] is True
        assert record["grade"]["valid_submission"] is True
        assert record["validation_calls"] and record["validation_calls"][0]["valid"] is True
        assert record["resources"]["memory"]
        # the submission was copied out of the container while the agent ran, then graded
        assert record["anytime"]["copies"][-1]["score"] == record["grade"]["score"]
    assert containers_with(SESSION_LABEL, records[0]["session_id"]) == []


@pytest.mark.parametrize("xdist", [[], ["-n", "2"]], ids=["plain", "xdist"])
def test_ctrl_c_mid_run_leaves_no_container(tmp_path: Path, xdist: list[str]) -> None:
    from pytest_mlebench.sandbox.docker import COMPETITION_LABEL

    competition = f"ctrl-c-{uuid.uuid4().hex[:8]}"
    write_competition(tmp_path / "defs", competition, splits={"interrupted": [competition]})
    agent = tmp_path / "sleeper"
    agent.mkdir()
    (agent / "config.yaml").write_text(SLEEPER_CONFIG)
    (agent / "start.sh").write_text(SLEEPER_START)
    command = benchmark_command(
        tmp_path,
        "-m",
        "interrupted",
        "--mle-agent",
        str(agent),
        "--mle-competitions-dir",
        str(tmp_path / "defs"),
        *xdist,
    )
    run = subprocess.Popen(
        command,
        cwd=tmp_path,
        start_new_session=True,
        preexec_fn=answer_ctrl_c,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    give_up = time.monotonic() + 300
    logs = tmp_path / "runs"
    while not any("agent-started" in p.read_text() for p in logs.glob("*/agent.log")):
        assert run.poll() is None, (run.stdout.read() if run.stdout else b"").decode()[-3000:]
        assert time.monotonic() < give_up, "the agent never started"
        time.sleep(0.2)
    if not containers_with(COMPETITION_LABEL, competition):
        os.killpg(run.pid, signal.SIGINT)
        output, _ = run.communicate(timeout=120)
        pytest.fail(
            "no container while the agent runs; the run said:\n"
            + output.decode(errors="replace")[-3000:]
        )
    interrupted = time.monotonic()
    os.killpg(run.pid, signal.SIGINT)
    output, _ = run.communicate(timeout=120)
    assert run.returncode != 0, output.decode(errors="replace")[-2000:]
    # Stopped by the interrupt, not by the 60 s deadline of the competition.
    assert time.monotonic() - interrupted < 30, output.decode(errors="replace")[-2000:]
    assert containers_with(COMPETITION_LABEL, competition) == []
