"""The failure summary against a REAL model: SmolLM2-135M on the local model server.

One failed run's record and folder (an invalid submission, an agent log that says why), asked
through the gateway as ``--mle-summarize`` asks at a session's end. What is asserted is the
plumbing with a real server (a non-empty answer recorded in the results file and the run's
folder, its tokens counted), not the quality of a 135M model's prose.
"""

from __future__ import annotations

import json
from pathlib import Path

from pytest_mlebench.failure_summary import summarize_failures
from pytest_mlebench.local_model import LocalModelServer
from pytest_mlebench.records.grade_report import GradeReport
from pytest_mlebench.records.run_record import RunRecord, append_record
from tests.real_model.conftest import MODEL

KEY = "sk-host-only-0123456789-SUMMARYKEY"


def test_a_failed_run_is_summarised_by_the_real_model(
    model_server: LocalModelServer, tmp_path: Path
) -> None:
    run_dir = tmp_path / "runs" / "r1"
    run_dir.mkdir(parents=True)
    (run_dir / "agent.log").write_text(
        "loading train.csv\nKeyError: 'label'\nwrote no predictions\n"
    )
    grade = GradeReport.invalid(
        "toy", "no submission file", None, lower_is_better=False,
        submission_exists=False, submission_path="submission.csv", created_at="t",
    )  # fmt: skip
    record = RunRecord(
        session_id="s", run_id="r1", test_id="toy", competition_id="toy", seed=0, agent="a",
        outcome="failed", reason="no submission", sandbox="local", isolated=False,
        started_at="t", finished_at="t", grade=grade, run_dir=str(run_dir),
    )  # fmt: skip
    results = tmp_path / "results.jsonl"
    append_record(results, record)
    upstreams = {"openai": model_server.base_url}
    [done] = summarize_failures(
        [record], "s", MODEL, upstreams, None, results, {"OPENAI_API_KEY": KEY}
    )
    entry = done.failure_summary
    assert entry is not None and entry["error"] is None, entry
    assert entry["text"].strip() and entry["input_tokens"] > 0 and entry["output_tokens"] > 0
    assert json.loads(results.read_text())["failure_summary"]["text"] == entry["text"]
    assert json.loads((run_dir / "failure-summary.json").read_text())["text"] == entry["text"]
    transcript = (run_dir / "failure-summary.jsonl").read_text()
    assert KEY not in transcript
