"""LLM usage in every report, and the cost gate, from real plugin runs.

The agent (``tests.gateway.test_gateway_runs.llm_agent``) calls the gateway with the standard
library; the gateway forwards to a FAKE upstream on loopback that answers every call with
``INPUT_TOKENS`` in and ``OUTPUT_TOKENS`` out. ``gpt-4o-mini`` costs $0.15 / $0.60 per million
tokens in the shipped price table, so two calls cost $0.000072.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from pytest_mlebench.cli import main
from pytest_mlebench.report.allure import TRANSCRIPT_ATTACHMENT
from tests.gateway.conftest import PROVIDER_KEY
from tests.gateway.fake_upstream import INPUT_TOKENS, OUTPUT_TOKENS
from tests.gateway.test_gateway_runs import llm_agent, upstream
from tests.plugin.conftest import ExampleProject

__all__ = ["upstream"]  # the fixture: a FAKE upstream named by MLEBENCH_GATEWAY_UPSTREAM

TOKENS_PER_CALL = INPUT_TOKENS + OUTPUT_TOKENS
COST_PER_CALL = (INPUT_TOKENS * 0.15 + OUTPUT_TOKENS * 0.6) / 1e6
BOTH = ("-m", "toys", "-k", "toy-a or toy-b")


def load(path: Path) -> Any:
    return json.loads(path.read_text())


def reports(project: ExampleProject) -> Path:
    return project.root / "reports"


def allure_result(folder: Path, story: str) -> dict[str, Any]:
    for path in folder.glob("*-result.json"):
        data: dict[str, Any] = load(path)
        if {"name": "story", "value": story} in data["labels"]:
            return data
    raise AssertionError(f"no Allure result for {story} in {folder}")


def test_terminal_summary_json_and_markdown_carry_usage_per_run_competition_and_session(
    project: ExampleProject, upstream: Any
) -> None:
    agent = llm_agent(project.root, calls=2)
    result = project.run(*BOTH, "--mle-agent", str(agent))
    result.assert_outcomes(passed=2)
    run = f"2 calls, {2 * TOKENS_PER_CALL} tokens, $0.0001"
    result.stdout.fnmatch_lines(
        [
            f"toy-a*passed*LLM {run}*",
            f"toy-b*passed*LLM {run}*",
            f"LLM: 4 calls, {4 * INPUT_TOKENS} input + {4 * OUTPUT_TOKENS} output tokens, "
            "$0.0001 over 2 run(s), $0.0001 per medal",
            "medal table:",
            f"  toy-a * medals 0/1*LLM {run}",
            f"  toy-b * medals 1/1*LLM {run} ($0.0001 per medal)",
        ]
    )
    summary = load(reports(project) / "summary.json")
    assert summary["llm_usage"]["calls"] == 4
    assert summary["llm_usage"]["cost_usd"] == pytest.approx(4 * COST_PER_CALL)
    assert summary["llm_usage"]["cost_per_medal_usd"] == pytest.approx(4 * COST_PER_CALL)
    entries = {entry["competition_id"]: entry for entry in summary["competitions"]}
    assert entries["toy-b"]["llm_usage"]["cost_per_medal_usd"] == pytest.approx(2 * COST_PER_CALL)
    assert entries["toy-a"]["llm_usage"]["cost_per_medal_usd"] is None
    assert entries["toy-a"]["runs"][0]["llm_usage"]["input_tokens"] == 2 * INPUT_TOKENS
    markdown = (reports(project) / "summary.md").read_text()
    assert "| LLM usage |" in markdown
    assert f"| {run} |" in markdown and f"{run} ($0.0001 per medal)" in markdown


def test_the_html_page_shows_usage_and_cost_per_medal(
    project: ExampleProject, upstream: Any, tmp_path: Path
) -> None:
    agent = llm_agent(project.root, calls=2)
    project.run(*BOTH, "--mle-agent", str(agent)).assert_outcomes(passed=2)
    out = tmp_path / "html"
    assert main(["report", str(reports(project) / "summary.json"), "--html", str(out)]) == 0
    page = (out / "index.html").read_text()
    assert "LLM usage of all runs: 4 calls" in page
    assert "LLM usage of agent llm-agent: 4 calls" in page and "per medal)" in page
    assert "<th>LLM usage</th>" in page
    assert f"LLM 2 calls, {2 * TOKENS_PER_CALL} tokens, $0.0001" in page


def test_allure_gets_usage_parameters_and_the_transcript_without_keys(
    project: ExampleProject, upstream: Any
) -> None:
    alluredir = project.root / "allure"
    agent = llm_agent(project.root, calls=3)
    result = project.run("-k", "toy-b", "--mle-agent", str(agent), "--alluredir", str(alluredir))
    result.assert_outcomes(passed=1)
    data = allure_result(alluredir, "toy-b")
    params = {p["name"]: p for p in data["parameters"]}
    assert params["llm_calls"]["value"] == "'3'"
    assert params["llm_tokens"]["value"] == f"'{3 * TOKENS_PER_CALL}'"
    assert params["llm_cost_usd"]["value"] == "'0.0001'"
    assert all(params[name]["excluded"] for name in ("llm_calls", "llm_tokens", "llm_cost_usd"))
    [attachment] = [a for a in data["attachments"] if a["name"] == TRANSCRIPT_ATTACHMENT]
    assert attachment["type"] == "text/plain"
    attached = (alluredir / attachment["source"]).read_text()
    [record] = [json.loads(line) for line in (reports(project) / "results.jsonl").open()]
    assert attached == (Path(record["run_dir"]) / "gateway.jsonl").read_text()
    assert len(attached.splitlines()) == 3
    assert PROVIDER_KEY not in attached and "mlebench-run-" not in attached


def test_a_budget_exhausted_run_is_tagged_in_allure(project: ExampleProject, upstream: Any) -> None:
    alluredir = project.root / "allure"
    agent = llm_agent(project.root, calls=3)
    budget = ("--mle-token-budget", str(TOKENS_PER_CALL))
    allure = ("--alluredir", str(alluredir))
    result = project.run("-k", "toy-b", "--mle-agent", str(agent), *budget, *allure)
    result.assert_outcomes(passed=1)
    labels = allure_result(alluredir, "toy-b")["labels"]
    tags = {label["value"] for label in labels if label["name"] == "tag"}
    assert "llm:budget-exhausted" in tags
    result.stdout.fnmatch_lines(["toy-b*LLM 1 calls*, budget exhausted*"])


def gated(
    project: ExampleProject, agent: Path | None, baseline: Path, limit: str
) -> pytest.RunResult:
    """A run of ``agent`` (the dummy when ``None``) into its own results file, gated on cost."""
    results = project.root / "gated" / limit.replace("$", "usd") / "results.jsonl"
    chosen = ("--mle-agent", str(agent)) if agent is not None else ()
    return project.run(
        "-k", "toy-a", *chosen, "--mle-results", str(results), "--mle-baseline", str(baseline),
        "--mle-gate", "rate-drop", "--mle-max-cost-increase", limit,
    )  # fmt: skip


def baseline_of(project: ExampleProject) -> Path:
    baseline = project.root / "baseline.json"
    shutil.copy(reports(project) / "summary.json", baseline)
    return baseline


def test_the_gate_fails_on_a_cost_increase_beyond_the_limit(
    project: ExampleProject, upstream: Any
) -> None:
    project.run("-k", "toy-a", "--mle-agent", str(llm_agent(project.root, calls=2)))
    baseline = baseline_of(project)
    dearer = llm_agent(project.root, calls=4)  # twice the calls: twice the cost per run
    failed = gated(project, dearer, baseline, "0.2")
    assert failed.ret == pytest.ExitCode.TESTS_FAILED
    failed.stdout.fnmatch_lines(
        [
            "  cost: llm-agent: LLM cost per run $0.0001 -> $0.0001 (+100.0 %) over 1 matched "
            "run(s), more than the allowed +20 %  FAIL",
            "GATE FAILED: llm-agent: LLM cost per run*more than the allowed +20 %",
        ]
    )
    markdown = (project.root / "gated" / "0.2" / "summary.md").read_text()
    assert (
        "## Gate: FAILED — cost increase" in markdown
        and "- cost: llm-agent: LLM cost per run" in markdown
    )
    passed = gated(project, dearer, baseline, "100%")
    assert passed.ret == pytest.ExitCode.OK
    passed.stdout.fnmatch_lines(["  cost: *within the allowed +100 %  ok", "gate passed"])
    assert gated(project, dearer, baseline, "$0.001").ret == pytest.ExitCode.OK


def test_a_baseline_without_cost_fails_the_cost_gate_and_says_so(
    project: ExampleProject, upstream: Any
) -> None:
    project.run("-k", "toy-a").assert_outcomes(passed=1)  # the dummy agent: no LLM, no usage
    baseline = baseline_of(project)
    result = gated(project, llm_agent(project.root), baseline, "0.2")
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.stdout.fnmatch_lines(
        ["GATE FAILED: llm-agent: cost not compared: the baseline carries no LLM usage*"
         "write a new baseline, or drop --mle-max-cost-increase"]
    )  # fmt: skip


def test_a_session_without_cost_fails_the_cost_gate_and_says_so(
    project: ExampleProject, upstream: Any
) -> None:
    project.run("-k", "toy-a", "--mle-agent", str(llm_agent(project.root)))
    baseline = baseline_of(project)
    result = gated(project, None, baseline, "0.2")
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.stdout.fnmatch_lines(
        ["GATE FAILED: *dummy: cost not compared: this session carries no LLM usage*"]
    )


def test_unknown_cost_is_not_compared_and_says_how_to_price_it(
    project: ExampleProject, upstream: Any
) -> None:
    project.run("-k", "toy-a", "--mle-agent", str(llm_agent(project.root, model="my-llama")))
    baseline = baseline_of(project)
    result = gated(project, llm_agent(project.root, model="my-llama"), baseline, "0.2")
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.stdout.fnmatch_lines(
        ["*cost not compared: every matched run has an unknown cost*--mle-price-table FILE*"]
    )


def test_a_bad_cost_limit_is_a_usage_error_naming_the_forms(project: ExampleProject) -> None:
    result = project.run("--mle-max-cost-increase", "a lot")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(
        ["*--mle-max-cost-increase*expected a fraction of the baseline's cost such as 0.2*$0.05*"]
    )
