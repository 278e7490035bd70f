"""Adversarial agents against the integrity checks, through the real plugin (local sandbox).

Each agent is a tiny mle-bench agent folder in ``agents/``. Every test asserts the flag the
adversary must raise, with its evidence, and that flags never change the score.
"""

from __future__ import annotations

import json
import shutil

import pytest

from tests.integrity.conftest import AGENTS, ExampleProject, flags_of, records_of

pytestmark = pytest.mark.timeout(300)


def rules(record: dict[str, object]) -> set[tuple[str, str, str]]:
    return {(f["kind"], f["rule"], f["severity"]) for f in flags_of(record)}  # type: ignore[arg-type]


def test_premade_submission_raises_the_watermark_flag(project: ExampleProject) -> None:
    result = project.run("-k", "toy-b", f"--mle-agent={AGENTS / 'premade'}")
    result.assert_outcomes(passed=1)
    (record,) = records_of(project.root)
    assert ("watermark", "pre-made-submission", "high") in rules(record)
    flag = next(f for f in flags_of(record) if f["rule"] == "pre-made-submission")
    assert any(path.endswith("premade/submission.csv") for path in flag["evidence"]["files"])
    assert record["grade"]["award"]["medal"] == "gold"  # flags never change the grade
    result.stdout.fnmatch_lines(["*toy-b*passed*medal gold*FLAGGED (high)*"])
    result.stdout.fnmatch_lines(["*integrity: 1 of 1 runs flagged*", "*high watermark/pre-made*"])


def test_strict_mode_withholds_the_medal_and_keeps_what_was_earned(
    project: ExampleProject,
) -> None:
    agent = f"--mle-agent={AGENTS / 'premade'}"
    result = project.run("-k", "toy-b", agent, "--mle-integrity", "strict")
    result.assert_outcomes(passed=1)
    (record,) = records_of(project.root)
    assert record["integrity"]["medal_withheld"] is True
    assert record["integrity"]["earned_medal"] == "gold"
    result.stdout.fnmatch_lines(["*toy-b*medal none*WITHHELD (earned gold)*"])
    summary = json.loads((project.root / "reports" / "summary.json").read_text())
    metrics = summary["agents"]["premade"]["overall"]["metrics"]
    assert metrics["any_medal"]["mean"] == 0.0
    assert metrics["any_medal_before_integrity"]["mean"] == 100.0
    assert summary["integrity"]["medals_withheld"] == 1
    gated = project.run("-k", "toy-b", agent, "--mle-integrity", "strict", "--mle-require", "gold")
    gated.assert_outcomes(failed=1)
    gated.stdout.fnmatch_lines(["*medal withheld (integrity: watermark)*"])


def test_hard_coded_predictions_raise_a_rule_flag(project: ExampleProject) -> None:
    result = project.run("-k", "toy-b", f"--mle-agent={AGENTS / 'handwritten'}")
    result.assert_outcomes(passed=1)
    (record,) = records_of(project.root)
    assert ("rules", "literal-predictions", "high") in rules(record)
    assert ("rules", "no-code", "medium") in rules(record)
    assert not any(f["kind"] == "watermark" for f in flags_of(record))
    flag = next(f for f in flags_of(record) if f["rule"] == "literal-predictions")
    assert flag["evidence"]["rows"] == "10 of 10 rows"


def test_editor_and_network_tool_raise_process_flags(project: ExampleProject) -> None:
    result = project.run("-k", "toy-a", f"--mle-agent={AGENTS / 'editor'}")
    result.assert_outcomes(passed=1)
    (record,) = records_of(project.root)
    found = {f["rule"]: f for f in flags_of(record) if f["kind"] == "process"}
    assert set(found) >= {"editor", "network-tool"}
    assert found["editor"]["evidence"]["command"].startswith("vim ")
    assert (
        "curl -sSLO https://example.com/pretrained-weights.bin"
        in (found["network-tool"]["evidence"]["command"])
    )
    assert (
        0
        <= found["editor"]["evidence"]["first_seen_s"]
        <= found["editor"]["evidence"]["last_seen_s"]
    )
    assert record["integrity"]["disclosure"]["external_data_or_weights"] == "fetch attempts seen"
    result.stdout.fnmatch_lines(["*high process/editor*command vim*"])


def test_two_runs_with_the_same_code_raise_a_similarity_flag_naming_both(
    project: ExampleProject,
) -> None:
    result = project.run("-k", "toy-a", f"--mle-agent={AGENTS / 'samecode'}", "--mle-seeds", "2")
    result.assert_outcomes(passed=2)
    runs = sorted(r["run_id"] for r in records_of(project.root))
    summary = json.loads((project.root / "reports" / "summary.json").read_text())
    (flag,) = summary["integrity"]["session_flags"]
    assert (flag["kind"], flag["rule"], flag["severity"]) == ("similarity", "same-agent", "low")
    assert sorted(flag["evidence"]["runs"]) == runs
    assert flag["evidence"]["matches"][0]["similarity"] > 0.9
    result.stdout.fnmatch_lines([f"*integrity (session): low similarity/same-agent*{runs[0]}*"])


def test_code_copied_from_the_reference_corpus_names_the_file_and_lines(
    project: ExampleProject,
) -> None:
    references = project.root / "defs" / "toy-a" / "references"
    references.mkdir()
    shutil.copy(AGENTS / "refcopy" / "solver.py", references / "public_notebook.py")
    result = project.run("-k", "toy-a", f"--mle-agent={AGENTS / 'refcopy'}")
    result.assert_outcomes(passed=1)
    (record,) = records_of(project.root)
    (flag,) = [f for f in flags_of(record) if f["kind"] == "similarity"]
    assert (flag["rule"], flag["severity"]) == ("reference", "high")
    evidence = flag["evidence"]
    assert evidence["reference"].endswith("references/public_notebook.py")
    assert evidence["file"] == "code/my_solution.py"
    assert evidence["similarity"] > 0.8
    assert evidence["lines"] and evidence["other_lines"]  # e.g. "1-33"


PROBER_CONFTEST = """
from dataclasses import replace

from pytest_mlebench.sandbox.local import LocalSandbox
from pytest_mlebench.sandbox.validator import ValidatorService


def pytest_mlebench_make_sandbox(spec, backend, settings):
    # 300 answered calls at the default 1 call/s would take five minutes: lower the rate
    # limit of the spec's validator service, the way a user's conftest would.
    validator = spec.services.get(ValidatorService)
    faster = ValidatorService(validator.validate, interval=0.0)
    return LocalSandbox(replace(spec, services=spec.services.with_service(faster)))
"""


def test_300_near_identical_validator_calls_raise_the_probing_flag(
    project: ExampleProject,
) -> None:
    project.pytester.makeconftest(PROBER_CONFTEST)
    result = project.run("-k", "toy-a", f"--mle-agent={AGENTS / 'prober'}")
    result.assert_outcomes(passed=1)
    (record,) = records_of(project.root)
    assert len(record["validation_calls"]) == 300
    found = {f["kind"]: f for f in flags_of(record)}
    assert found["validator-probing"]["severity"] == "high"
    assert found["validator-probing"]["evidence"]["near_identical_pairs"] >= 250
    assert found["validator-use"]["evidence"]["calls"] == 300


def test_rate_limited_prober_is_still_flagged_for_heavy_use(project: ExampleProject) -> None:
    result = project.run("-k", "toy-a", f"--mle-agent={AGENTS / 'prober'}")
    result.assert_outcomes(passed=1)
    (record,) = records_of(project.root)
    (flag,) = [f for f in flags_of(record) if f["kind"] == "validator-use"]
    assert flag["evidence"]["calls"] + flag["evidence"]["refused_by_rate_limit"] == 300
    assert flag["evidence"]["refused_by_rate_limit"] > 200
