"""Bad input around the gateway (issue 11's list), end to end with the real plugin.

Each case must give a clear message and lose no record. Already covered elsewhere, and not
repeated here: a missing secret and a gateway that cannot start
(``test_gateway_runs.py``: an ``error`` record each), an unknown model's ``cost_usd: null``
(``test_gateway_runs.py``), a malformed allow-list host as a usage error
(``test_network_setting.py``). This file adds what those do not check: what the terminal,
the record and the transcript say after a provider error or an unreachable provider, what the
reports say of an unpriced run, and that a usage error leaves the earlier records alone.
"""

from __future__ import annotations

import json
import socket
from typing import Any

import pytest

from tests.gateway.conftest import PROVIDER_KEY
from tests.gateway.test_gateway_runs import llm_agent, records, run_dir, upstream
from tests.plugin.conftest import ExampleProject

__all__ = ["upstream"]  # the fixture: a FAKE upstream named by MLEBENCH_GATEWAY_UPSTREAM


def transcript_entries(record: dict[str, Any]) -> list[dict[str, Any]]:
    path = run_dir(record) / record["gateway"]["transcript"]
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_a_provider_error_is_counted_said_and_kept_in_the_transcript(
    project: ExampleProject, upstream: Any
) -> None:
    result = project.run(
        "-k", "toy-a", "--mle-agent", str(llm_agent(project.root, 1, "status-500"))
    )
    result.assert_outcomes(passed=1)  # the agent's submission is still graded
    [record] = records(project)
    assert (record["gateway"]["calls"], record["gateway"]["failed_calls"]) == (1, 1)
    result.stdout.fnmatch_lines(["LLM: 1 LLM call(s) failed (HTTP 500 x1); the agent got each *"])
    [entry] = transcript_entries(record)
    assert entry["status"] == 500
    assert entry["response"]["error"]["message"] == "fake upstream says 500"


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port  # closed again: nothing listens there


def test_an_unreachable_provider_is_a_counted_502_naming_the_url(
    project: ExampleProject, upstream: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = f"http://127.0.0.1:{closed_port()}/v1"
    monkeypatch.setenv("MLEBENCH_GATEWAY_UPSTREAM", f"openai={url}")
    result = project.run("-k", "toy-a", "--mle-agent", str(llm_agent(project.root, 2)))
    result.assert_outcomes(passed=1)
    [record] = records(project)
    statuses = json.loads((run_dir(record) / "logs" / "statuses.json").read_text())
    assert statuses == [502, 502]
    assert (record["gateway"]["calls"], record["gateway"]["failed_calls"]) == (2, 2)
    result.stdout.fnmatch_lines(["LLM: 2 LLM call(s) failed (HTTP 502 x2)*"])
    entries = transcript_entries(record)
    assert [e["error"]["type"] for e in entries] == ["upstream_unreachable"] * 2
    assert f"could not reach {url}/chat/completions" in entries[0]["error"]["message"]


def test_an_unpriced_model_shows_cost_unknown_in_every_report(
    project: ExampleProject, upstream: Any
) -> None:
    result = project.run("-k", "toy-a", "--mle-agent", str(llm_agent(project.root, 1, "my-llama")))
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines(
        [
            "toy-a*LLM 1 calls, * tokens, cost unknown*",
            "LLM: 1 calls, * cost unknown over 1 run(s)",
            "LLM: model 'my-llama' is not in the price table: its cost is unknown (add it with "
            "--mle-price-table FILE)",
        ]
    )
    summary = json.loads((project.root / "reports" / "summary.json").read_text())
    assert summary["llm_usage"]["cost_usd"] is None
    assert summary["llm_usage"]["runs_cost_unknown"] == 1
    assert "cost unknown" in (project.root / "reports" / "summary.md").read_text()


def test_a_malformed_host_loses_no_earlier_record(project: ExampleProject, upstream: Any) -> None:
    project.run("-k", "toy-a", "--mle-agent", str(llm_agent(project.root))).assert_outcomes(
        passed=1
    )
    reports = project.root / "reports"
    before = {name: (reports / name).read_text() for name in ("results.jsonl", "summary.json")}
    result = project.run("-k", "toy-a", "--mle-network", "allow:pypi.org,bad_host!")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*'bad_host!' is not a host name or IP address*"])
    assert {name: (reports / name).read_text() for name in before} == before


def test_a_missing_secret_errors_every_run_keeps_each_record_and_writes_no_key(
    project: ExampleProject, upstream: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("TEST_PROVIDER_KEY")
    agent = str(llm_agent(project.root))
    result = project.run("-m", "toys", "-k", "toy-a or toy-b", "--mle-agent", agent)
    result.assert_outcomes(failed=2)
    runs = records(project)
    assert [r["outcome"] for r in runs] == ["error", "error"]
    assert all("export TEST_PROVIDER_KEY=" in r["reason"] for r in runs)
    summary = json.loads((project.root / "reports" / "summary.json").read_text())
    assert summary["agents"]["llm-agent"]["overall"]["runs"] == 2
    assert PROVIDER_KEY not in (project.root / "reports" / "results.jsonl").read_text()
