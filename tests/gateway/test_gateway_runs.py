"""The real plugin runs a tiny agent folder that calls the gateway from inside the sandbox.

The agent's start script uses only the standard library (urllib) against ``OPENAI_BASE_URL``; the
gateway forwards to a FAKE upstream on loopback. Runs use the local backend (fast, everywhere);
the Docker checks are in ``test_gateway_docker.py``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.gateway.conftest import PROVIDER_KEY
from tests.gateway.fake_upstream import INPUT_TOKENS, OUTPUT_TOKENS, FakeUpstream
from tests.plugin.conftest import ExampleProject

AGENT_CONFIG = """
llm-agent:
  start: start.sh
  kwargs: {{calls: {calls}, model: {model}}}
  env_vars:
    OPENAI_API_KEY: ${{{{ secrets.TEST_PROVIDER_KEY }}}}
"""
START = 'exec python3 "$AGENT_DIR/agent.py" "$@"\n'
# The agent: N chat calls with urllib, a record of what it saw, then the sample submission.
AGENT = r"""
import argparse, json, os, shutil, urllib.error, urllib.request
parser = argparse.ArgumentParser()
parser.add_argument("--calls", type=int)
parser.add_argument("--model")
args = parser.parse_args()
seen = []
for _ in range(args.calls):
    request = urllib.request.Request(
        os.environ["OPENAI_BASE_URL"] + "/chat/completions",
        data=json.dumps({"model": args.model, "messages": []}).encode(),
        headers={"Authorization": "Bearer " + os.environ["OPENAI_API_KEY"],
                 "Content-Type": "application/json"})
    try:
        seen.append(urllib.request.urlopen(request, timeout=30).status)
    except urllib.error.HTTPError as error:
        seen.append(error.code)
logs = os.environ["LOGS_DIR"]
with open(os.path.join(logs, "statuses.json"), "w") as handle:
    json.dump(seen, handle)
with open(os.path.join(logs, "env.txt"), "w") as handle:
    handle.write("\n".join(f"{k}={v}" for k, v in sorted(os.environ.items())))
shutil.copy(os.path.join(os.environ["DATA_DIR"], "sample_submission.csv"),
            os.path.join(os.environ["SUBMISSION_DIR"], "submission.csv"))
"""


def llm_agent(root: Path, calls: int = 2, model: str = "gpt-4o-mini") -> Path:
    folder = root / "llm-agent"
    folder.mkdir(exist_ok=True)
    (folder / "config.yaml").write_text(AGENT_CONFIG.format(calls=calls, model=model))
    (folder / "start.sh").write_text(START)
    (folder / "agent.py").write_text(AGENT)
    return folder


@pytest.fixture
def upstream(monkeypatch: pytest.MonkeyPatch) -> Any:
    with FakeUpstream() as fake:
        monkeypatch.setenv("TEST_PROVIDER_KEY", PROVIDER_KEY)
        monkeypatch.setenv("MLEBENCH_GATEWAY_UPSTREAM", f"openai={fake.url}")
        yield fake


def assert_two_priced_calls(gateway: dict[str, Any]) -> None:
    """A record's ``gateway`` entry after ``llm_agent``'s two calls to gpt-4o-mini (priced at
    $0.15 / $0.60 per million input / output tokens in the shipped table), within budget."""
    assert (gateway["calls"], gateway["input_tokens"], gateway["output_tokens"]) == (
        2,
        2 * INPUT_TOKENS,
        2 * OUTPUT_TOKENS,
    )
    assert gateway["cost_usd"] == pytest.approx(
        2 * (INPUT_TOKENS * 0.15 + OUTPUT_TOKENS * 0.6) / 1e6
    )
    assert gateway["budget_exhausted"] is False


def records(project: ExampleProject) -> list[dict[str, Any]]:
    path = project.root / "reports" / "results.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines()]


def run_dir(record: dict[str, Any]) -> Path:
    return Path(record["run_dir"])


def test_the_record_carries_calls_tokens_and_cost(project: ExampleProject, upstream: Any) -> None:
    agent = llm_agent(project.root)
    result = project.run("-k", "toy-a", "--mle-agent", str(agent))
    result.assert_outcomes(passed=1)
    [record] = records(project)
    assert_two_priced_calls(record["gateway"])
    transcript = run_dir(record) / "gateway.jsonl"
    assert len(transcript.read_text().splitlines()) == 2
    assert [r.headers["Authorization"] for r in upstream.received] == [f"Bearer {PROVIDER_KEY}"] * 2
    env = (run_dir(record) / "logs" / "env.txt").read_text()
    assert PROVIDER_KEY not in env
    assert "OPENAI_API_KEY=mlebench-run-" in env
    assert "OPENAI_BASE_URL=http://127.0.0.1:" in env
    assert "LLM: 2 calls" in result.stdout.str()


def test_a_budget_cuts_the_agent_off_and_the_run_is_still_graded(
    project: ExampleProject, upstream: Any
) -> None:
    agent = llm_agent(project.root, calls=4)
    budget = str(2 * (INPUT_TOKENS + OUTPUT_TOKENS))
    result = project.run("-k", "toy-a", "--mle-agent", str(agent), "--mle-token-budget", budget)
    result.assert_outcomes(passed=1)
    [record] = records(project)
    statuses = json.loads((run_dir(record) / "logs" / "statuses.json").read_text())
    assert statuses == [200, 200, 429, 429]
    assert record["gateway"]["budget_exhausted"] is True
    assert "budget_exhausted" in record["reason"]
    assert record["grade"]["valid_submission"] is True
    assert len(upstream.received) == 2


def test_an_unknown_model_is_recorded_with_cost_null(
    project: ExampleProject, upstream: Any
) -> None:
    agent = llm_agent(project.root, calls=1, model="my-local-llama")
    result = project.run("-k", "toy-a", "--mle-agent", str(agent))
    result.assert_outcomes(passed=1)
    [record] = records(project)
    assert record["gateway"]["cost_usd"] is None
    assert record["gateway"]["unpriced_models"] == ["my-local-llama"]
    assert "not in the price table" in result.stdout.str()


def test_a_price_table_override_prices_a_local_model(
    project: ExampleProject, upstream: Any
) -> None:
    table = project.root / "prices.yaml"
    table.write_text("models:\n  my-local-llama: {input: 1000000, output: 0}\n")
    agent = llm_agent(project.root, calls=1, model="my-local-llama")
    project.run("-k", "toy-a", "--mle-agent", str(agent), "--mle-price-table", str(table))
    [record] = records(project)
    assert record["gateway"]["cost_usd"] == pytest.approx(INPUT_TOKENS)


def test_a_provider_error_reaches_the_agent_with_its_status(
    project: ExampleProject, upstream: Any
) -> None:
    agent = llm_agent(project.root, calls=1, model="status-500")
    project.run("-k", "toy-a", "--mle-agent", str(agent))
    [record] = records(project)
    assert json.loads((run_dir(record) / "logs" / "statuses.json").read_text()) == [500]
    assert record["gateway"]["failed_calls"] == 1


def test_a_missing_secret_is_an_error_with_a_record(
    project: ExampleProject, upstream: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("TEST_PROVIDER_KEY")
    agent = llm_agent(project.root)
    result = project.run("-k", "toy-a", "--mle-agent", str(agent))
    result.assert_outcomes(failed=1)  # raised in the test's body; the record says error
    [record] = records(project)
    assert record["outcome"] == "error"
    assert "needs the secret TEST_PROVIDER_KEY" in record["reason"]
    assert "export TEST_PROVIDER_KEY=" in result.stdout.str()


GATEWAY_CANNOT_START = """
from dataclasses import replace

from pytest_mlebench.gateway.service import GatewayService
from pytest_mlebench.sandbox.local import LocalSandbox


class BlockedGatewayService(GatewayService):
    def start(self, site):
        blocker = site.host_dir / "not-a-folder"
        blocker.write_text("a file where the socket's folder should be")
        super().start(replace(site, host_dir=blocker))


def pytest_mlebench_make_sandbox(spec, backend, settings):
    blocked = BlockedGatewayService(spec.services.get(GatewayService).gateway)
    return LocalSandbox(replace(spec, services=spec.services.with_service(blocked)))
"""


def test_a_gateway_that_cannot_start_is_an_error_with_a_record(
    project: ExampleProject, upstream: Any
) -> None:
    project.pytester.makeconftest(GATEWAY_CANNOT_START)
    agent = llm_agent(project.root)
    result = project.run("-k", "toy-a", "--mle-agent", str(agent))
    result.assert_outcomes(failed=1)
    [record] = records(project)
    assert record["outcome"] == "error"
    assert "the LLM gateway cannot listen on" in record["reason"]
    assert record["gateway"]["calls"] == 0


def test_an_agent_without_providers_gets_no_gateway(project: ExampleProject) -> None:
    project.run("-k", "toy-a").assert_outcomes(passed=1)
    [record] = records(project)
    assert record["gateway"] is None
