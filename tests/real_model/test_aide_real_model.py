"""AIDE and the LLM judge against a REAL model: SmolLM2-135M on the local model server.

The real plugin runs ``titanic`` with the built-in AIDE folder for ONE step (its calls: the draft,
and the review, which forces a function call the gateway bridges for llama.cpp), then the LLM
judge on that run, all through the run's gateway to the session's server. What is asserted is the
plumbing, not a medal (the 135M model's code rarely runs): every call and token is the server's
own count, in the record, the transcript, summary.json and Allure; the provider key stays on the
host; a broken program ends as a recorded outcome with a reason; a token budget stops AIDE at the
first refusal, and the run page built from that run's folder has the transcript's turns.

The AIDE step and the judge run in the Docker sandbox (the folder's image, built FROM the
``base`` profile as in ``tests/aide``; skipped where Docker is missing); the budget run uses the
local backend (AIDE's locked packages in front of this interpreter), so the tier still drives
AIDE against the real model on a machine without Docker, and the gateway, upstream and key
handling are the same code on both backends.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pytest_mlebench.local_model import LocalModelServer
from pytest_mlebench.report.allure import TRANSCRIPT_ATTACHMENT
from pytest_mlebench.report.run_page.assemble import load_run_page
from tests.aide.conftest import aide_on_path, aide_site
from tests.aide.test_aide_runs import aide_copy, builds_agent_images, only_record, run_titanic
from tests.gateway.test_usage_reports import allure_result
from tests.real_model.conftest import MODEL
from tests.real_model.test_forced_tool_call import port_of
from tests.sandbox.conftest import docker_image

# AIDE's packages for the local backend, built once (tests/aide); the session's base image
__all__ = ["aide_on_path", "aide_site", "docker_image"]

pytestmark = [
    pytest.mark.real_model,
    pytest.mark.timeout(900),
    pytest.mark.usefixtures("aide_on_path"),
]

HOST_KEY = "sk-host-only-0123456789-REALMODELKEY"
JUDGE_POLICY = """judge:
  hand_labelling: high
  llm_predictions: high
  unauthorised_access: medium
  max_code_chars: 3000
  max_log_chars: 3000
"""


@pytest.fixture
def real_upstream(model_server: LocalModelServer, monkeypatch: pytest.MonkeyPatch) -> str:
    """The run's gateway points at the session's server by name; a key exists on the host only."""
    monkeypatch.setenv("OPENAI_API_KEY", HOST_KEY)
    value = f"openai=local:{port_of(model_server)}"
    monkeypatch.setenv("MLEBENCH_GATEWAY_UPSTREAM", value)
    return value


def transcript_of(record: dict[str, Any], name: str = "gateway.jsonl") -> list[dict[str, Any]]:
    path = Path(record["run_dir"]) / name
    return [json.loads(line) for line in path.read_text().splitlines()]


def files_under(folder: Path) -> list[Path]:
    return [p for p in folder.rglob("*") if p.is_file()]


def test_one_aide_step_and_the_judge_against_the_real_model(
    tmp_path: Path, real_upstream: str, request: pytest.FixtureRequest
) -> None:
    if not builds_agent_images():
        pytest.skip("the Docker backend does not build agent Dockerfiles in this version")
    request.getfixturevalue("docker_image")  # skips, naming why, where Docker is missing
    agent = aide_copy(tmp_path, steps=1, model=MODEL, max_tokens=0)  # the server's cap: cheap
    policy = tmp_path / "policy.yaml"
    policy.write_text(JUDGE_POLICY)
    done = run_titanic(
        tmp_path,
        "--mle-agent",
        f"{agent}:aide",
        "--mle-judge",
        MODEL,
        "--mle-integrity-policy",
        str(policy),
        "--alluredir",
        str(tmp_path / "allure"),
        backend="docker",
    )
    output = done.stdout[-4000:] + done.stderr[-2000:]
    record = only_record(tmp_path)
    assert str(record.get("image")).startswith("pytest-mlebench-agent-aide:"), output
    # A recorded outcome either way; the 135M model's program usually breaks: no submission.
    assert record["outcome"] in ("passed", "failed"), output
    if not (record.get("grade") or {}).get("valid_submission"):
        assert record["outcome"] == "failed"
        assert "submission" in str(record["reason"]).lower(), record["reason"]
    gateway = record["gateway"]
    calls = transcript_of(record)
    assert gateway["calls"] == len(calls) >= 2  # the draft (retried if it had no code), the review
    assert all(entry["status"] == 200 and entry["model"] == MODEL for entry in calls)
    assert all(entry["usage"]["reported"] for entry in calls)  # the server's own counts
    assert gateway["input_tokens"] == sum(e["usage"]["input_tokens"] for e in calls) > 0
    assert gateway["output_tokens"] == sum(e["usage"]["output_tokens"] for e in calls) > 0
    assert gateway["cost_usd"] == 0.0
    reviews = [entry for entry in calls if "bridged" in entry]
    # AIDE's forced review call: answered as the call it asked for, with JSON arguments; or, when
    # the 135M model's answer ran into the cap, a 502 bridged_call_invalid, asked once more
    assert 1 <= len(reviews) <= 2
    for review in reviews:
        if review.get("status_to_agent") == 502:
            assert review["error"]["type"] == "bridged_call_invalid"
            continue
        (call,) = review["response"]["choices"][0]["message"]["tool_calls"]
        assert call["function"]["name"] == "submit_review"
        assert isinstance(json.loads(call["function"]["arguments"]), dict)
    invalid = sum(1 for review in reviews if review.get("status_to_agent") == 502)
    assert gateway["invalid_bridged_calls"] == invalid
    run_dir = Path(record["run_dir"])
    (journal,) = (run_dir / "logs" / "aide").glob("*-run/journal.json")
    assert len(json.loads(journal.read_text())["nodes"]) == 1  # one step, reviewed
    leaked = [p for p in files_under(run_dir) if HOST_KEY in p.read_text(errors="replace")]
    assert leaked == []  # the provider key never reached the sandbox nor the records
    usage = json.loads((tmp_path / "reports" / "summary.json").read_text())["llm_usage"]
    assert (usage["calls"], usage["input_tokens"], usage["output_tokens"]) == (
        gateway["calls"],
        gateway["input_tokens"],
        gateway["output_tokens"],
    )
    allure = allure_result(tmp_path / "allure", "titanic")
    params = {p["name"]: p["value"] for p in allure["parameters"]}
    assert params["llm_calls"] == f"'{gateway['calls']}'"
    [attachment] = [a for a in allure["attachments"] if a["name"] == TRANSCRIPT_ATTACHMENT]
    attached = (tmp_path / "allure" / attachment["source"]).read_text()
    assert attached == (run_dir / "gateway.jsonl").read_text()
    judge = record["integrity"]["judge"]
    assert judge["model"] == MODEL and judge["provider"] == "openai"
    judge_calls = transcript_of(record, "integrity/judge.jsonl")
    assert len(judge_calls) == 1 and judge_calls[0]["usage"]["reported"]
    assert judge["input_tokens"] == judge_calls[0]["usage"]["input_tokens"] > 0
    assert judge["output_tokens"] == judge_calls[0]["usage"]["output_tokens"] > 0
    status = record["integrity"]["checks"]["judge"]
    assert status == "ran" or status.startswith("judge-error: "), status  # a 135M judge may ramble


def test_a_token_budget_stops_aide_at_the_first_refusal(tmp_path: Path, real_upstream: str) -> None:
    agent = aide_copy(tmp_path, steps=3, model=MODEL, max_tokens=0)
    done = run_titanic(tmp_path, "--mle-agent", f"{agent}:aide", "--mle-token-budget", "1")
    record = only_record(tmp_path)
    gateway = record["gateway"]
    assert gateway["budget_exhausted"] is True, done.stdout[-3000:]
    assert gateway["refused_calls"] == 1  # AIDE stops at once, it does not retry the 429
    answered = [entry for entry in transcript_of(record) if entry["status"] == 200]
    assert len(answered) == 1  # the call that started under the budget ran to its end
    assert gateway["input_tokens"] == answered[0]["usage"]["input_tokens"] > 0
    assert "budget_exhausted" in record["reason"]
    assert "LLM budget spent" in (Path(record["run_dir"]) / "agent.log").read_text()
    assert_the_page_shows_the_transcript(record)  # the answered call and the refused one


def assert_the_page_shows_the_transcript(record: dict[str, Any]) -> None:
    """The run page built from the run's folder has one LLM turn per transcript line, in order,
    each with that call's status, tokens (where the gateway counted any) and answer id."""
    calls = transcript_of(record)
    page = load_run_page(Path(record["run_dir"]))
    turns = [step for step in page.steps if step.kind == "llm"]
    assert (
        len(turns) == len(calls) == record["gateway"]["calls"] + record["gateway"]["refused_calls"]
    )
    for turn, call in zip(turns, calls, strict=True):
        assert f"status {call['status']}" in turn.facts
        usage = call.get("usage") or {}
        if usage.get("input_tokens") is not None:
            tokens = f"{usage['input_tokens']} in / {usage.get('output_tokens', 0)} out"
            assert tokens in turn.facts
        assert turn.answer_id == (call.get("response") or {}).get("id")
        assert turn.failed == (call["status"] >= 400)
        assert turn.parts[0].label == "prompt"
