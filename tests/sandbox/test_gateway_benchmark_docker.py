"""The benchmark test in Docker with an agent that calls the LLM gateway (FAKE upstream), end to
end through the plugin: the record carries calls, tokens and cost; the transcript is in the run
folder; the network stays ``none``."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from tests.gateway.conftest import PROVIDER_KEY
from tests.gateway.fake_upstream import INPUT_TOKENS, FakeUpstream
from tests.gateway.test_gateway_runs import llm_agent
from tests.sandbox.test_benchmark_docker import benchmark_command

pytestmark = pytest.mark.usefixtures("docker_image")


def test_an_llm_agent_in_docker_is_counted_and_graded(tmp_path: Path) -> None:
    agent = llm_agent(tmp_path, calls=3)
    with FakeUpstream() as fake:
        env = {
            **os.environ,
            "TEST_PROVIDER_KEY": PROVIDER_KEY,
            "MLEBENCH_GATEWAY_UPSTREAM": f"openai={fake.url}",
        }
        done = subprocess.run(
            benchmark_command(
                tmp_path,
                "-m",
                "smoke",
                "-k",
                "digits",
                "--mle-agent",
                str(agent),
                "--mle-token-budget",
                str(2 * INPUT_TOKENS),
            ),
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            timeout=900,
        )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    [record] = [json.loads(line) for line in (tmp_path / "results.jsonl").read_text().splitlines()]
    assert (record["sandbox"], record["network"], record["isolated"]) == ("docker", "none", True)
    gateway = record["gateway"]
    assert (gateway["calls"], gateway["refused_calls"], gateway["budget_exhausted"]) == (2, 1, True)
    assert gateway["input_tokens"] == 2 * INPUT_TOKENS and gateway["cost_usd"] > 0
    assert record["grade"]["valid_submission"] is True
    run_dir = Path(record["run_dir"])
    assert len((run_dir / "gateway.jsonl").read_text().splitlines()) == 3
    assert PROVIDER_KEY not in (run_dir / "logs" / "env.txt").read_text()
    assert "LLM: 2 calls" in done.stdout
