"""The manifest of real sessions (the example project, dummy agent, local backend) and the two
comparisons that read it: the pytest gate (``--mle-baseline``) and ``mlebench report --compare``.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from pytest_mlebench.cli import main
from pytest_mlebench.report.merge import merge_records
from pytest_mlebench.report.summary_json import build_summary
from pytest_mlebench.values.manifest_keys import COMPARED_KEYS, KEY_NAMES
from tests.plugin.conftest import ExampleProject
from tests.report.builders import record

SELECT = ("-m", "toys", "-k", "toy-a")
REFUSED = (
    "GATE FAILED: not comparable: the baseline baseline.json and this session: the manifests "
    "differ on time_limit, which change results: time_limit: 60 (baseline) vs 30 (new); compare "
    "anyway with --allow-different time_limit (pytest: --mle-allow-different time_limit)"
)


def load(path: Path) -> Any:
    return json.loads(path.read_text())


def test_a_session_manifest_holds_its_conditions_and_the_gate_refuses_another_time_limit(
    project: ExampleProject, capsys: pytest.CaptureFixture[str]
) -> None:
    first = project.run(*SELECT, "--mle-time-limit", "60")
    first.assert_outcomes(passed=1)
    reports = project.root / "reports"
    manifest = load(reports / "manifest.json")
    assert set(KEY_NAMES) <= set(manifest)
    assert load(reports / "summary.json")["manifest"] == manifest  # one file carries both
    assert manifest["time_limit"] == 60
    assert set(manifest["resources"]) == {"cpus", "memory", "shm", "pids"}
    assert manifest["gpu"] == {"count": 0, "type": None}
    assert (manifest["sandbox"], manifest["network"]) == (
        "local",
        {"policy": "none", "allow_list": []},
    )
    assert manifest["models"] == {"models": [], "providers": []}
    assert manifest["harness"]["major"] == manifest["harness"]["version"].split(".")[0]
    assert manifest["agent"]["name"] == "dummy"
    assert manifest["agent"]["digest"].startswith("sha256:")  # the built-in's script
    assert manifest["competitions"]["ids"] == ["toy-a"] and manifest["seeds"] == [0]
    assert (manifest["description"], manifest["known_issues"]) == ("standard", {})
    feedback = manifest["score_feedback"]
    assert feedback["reached_agent"] is False and feedback["answer_fields"] == ["valid", "reason"]
    assert feedback["validation_calls"] == feedback["valid_answers"]  # the dummy's file is valid
    first.stdout.fnmatch_lines(
        [
            f"manifest: {reports / 'manifest.json'}",
            "  conditions: time limit 60 s · * · no GPU · sandbox local · network none",
            "  ran: agent dummy (sha256:*) · models - (providers -) · harness *",
            "  over: 1 competition(s) (sha256 *) · seeds 0 · images - · score feedback none (*",
        ]
    )
    assert "## Conditions (manifest)" in (reports / "summary.md").read_text()
    assert "Conditions (manifest)" in (reports / "html" / "index.html").read_text()
    baseline = project.root / "baseline.json"
    shutil.copy(reports / "summary.json", baseline)

    def gated(name: str, *extra: str) -> pytest.RunResult:
        results = str(project.root / name / "results.jsonl")
        return project.run(
            *SELECT, "--mle-time-limit", "30", "--mle-results", results,
            "--mle-baseline", str(baseline), *extra,
        )  # fmt: skip

    refused = gated("refused")
    refused.assert_outcomes(passed=1)
    assert refused.ret == pytest.ExitCode.TESTS_FAILED
    refused.stdout.fnmatch_lines([REFUSED])
    allowed = gated("allowed", "--mle-allow-different", "time_limit")
    assert allowed.ret == pytest.ExitCode.OK
    allowed.stdout.fnmatch_lines(
        [
            "gate against baseline.json*",
            "  note: manifest: allowed to differ: time_limit: 60 (baseline) vs 30 (new)",
            "gate passed*",
        ]
    )
    markdown = (project.root / "allowed" / "summary.md").read_text()
    assert "- note: manifest: allowed to differ: time_limit: 60 (baseline) vs 30 (new)" in markdown

    # the same refusal after the fact, and the same allowance, from mlebench report --compare
    new = project.root / "refused" / "summary.json"
    out = str(project.root / "compared")
    assert main(["report", "--compare", str(baseline), str(new), "--out", out]) == 1
    printed = capsys.readouterr().out
    assert REFUSED.replace("the baseline baseline.json", f"the baseline {baseline}") in printed
    code = main(
        ["report", "--compare", str(baseline), str(new), "--out", out,
         "--allow-different", "time_limit"]
    )  # fmt: skip
    printed = capsys.readouterr().out
    assert code == 0
    assert "  note: manifest: allowed to differ: time_limit: 60 (baseline) vs 30 (new)" in printed


def test_a_bad_key_in_allow_different_is_a_clear_error_listing_the_valid_keys(
    project: ExampleProject, capsys: pytest.CaptureFixture[str]
) -> None:
    valid = ", ".join(COMPARED_KEYS)
    result = project.run(*SELECT, "--mle-allow-different", "time-limit")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert (
        "ERROR: invalid allow-different ['time-limit'] from option --mle-allow-different: "
        f"unknown manifest key 'time-limit'; the keys that can differ are: {valid}"
    ) in result.stderr.str()
    assert "Traceback" not in result.stderr.str()
    capsys.readouterr()  # what the pytest run above printed
    summary = project.root / "summary.json"
    summary.write_text(json.dumps({"schema": "pytest-mlebench/summary/1", "agents": {}}))
    args = ["report", "--compare", str(summary), str(summary), "--allow-different", "gpus"]
    assert main(args) == 2
    error = capsys.readouterr().err
    assert error == (
        "mlebench: error: invalid allow-different ['gpus'] from option --allow-different: "
        f"unknown manifest key 'gpus'; the keys that can differ are: {valid}\n"
    )


def test_report_compare_of_an_older_summary_warns_and_compares(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    summary = build_summary(merge_records([record("a", 0, time_limit=60)]))
    new, old = tmp_path / "new.json", tmp_path / "old.json"
    new.write_text(json.dumps(summary))
    del summary["manifest"]
    old.write_text(json.dumps(summary))
    code = main(["report", "--compare", str(old), str(new), "--out", str(tmp_path / "c")])
    printed = capsys.readouterr().out
    assert code == 0, printed
    assert (
        "  note: manifest: WARNING: the baseline has no manifest (written before manifests "
        "existed): the time limit, resources, GPUs and network of the two sessions were "
        "not checked"
    ) in printed
    assert "gate passed" in printed
    markdown = (tmp_path / "c" / "summary.md").read_text()  # NEW's conditions, NEW's numbers
    assert "## Conditions (manifest)\n\n- conditions: time limit 60 s · " in markdown
