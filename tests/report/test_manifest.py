"""The manifest of a session's records and the comparability of two: pure, built from records."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any, cast

import pytest

from pytest_mlebench.known_issues import KnownIssue
from pytest_mlebench.manifest import session_facts
from pytest_mlebench.manifest.comparability import comparability
from pytest_mlebench.manifest.from_records import build_manifest
from pytest_mlebench.manifest.render import manifest_lines
from pytest_mlebench.manifest.session_facts import content_digest, gpu_types, with_session_facts
from pytest_mlebench.records.run_record import RunRecord
from pytest_mlebench.report.baseline_gate import gate_lines, run_gate
from pytest_mlebench.report.merge import merge_records
from pytest_mlebench.report.summary_json import build_summary
from pytest_mlebench.values.manifest_keys import (
    COMPARED_KEYS,
    KEY_NAMES,
    allowed_differences,
)
from tests.report.builders import record

LIMITS = {"cpus": 2.0, "memory": "4g", "shm": "1g", "pids": 4096, "gpus": []}
CALL = {"valid": True, "reason": None, "rows": 10, "sha256": "ab", "time": "t"}


def run(cid: str, seed: int = 0, **extra: Any) -> RunRecord:
    values: dict[str, Any] = {"time_limit": 600, "resources": dict(LIMITS), "network": "none"}
    values.update(extra)
    return record(cid, seed, **values)


def summary_of(*records: RunRecord) -> dict[str, Any]:
    return build_summary(merge_records(records))


def test_a_shared_condition_is_one_value_and_a_differing_one_is_mixed_never_picked() -> None:
    manifest = build_manifest([run("a", time_limit=600), run("b", time_limit=1200)])
    assert manifest["time_limit"] == {"mixed": [1200, 600]}
    assert manifest["by_competition"]["time_limit"] == {"a": 600, "b": 1200}
    assert manifest["resources"] == {"cpus": 2.0, "memory": "4g", "shm": "1g", "pids": 4096}
    assert manifest["network"] == {"policy": "none", "allow_list": []}
    assert manifest["competitions"]["ids"] == ["a", "b"]
    assert len(manifest["competitions"]["sha256"]) == 64
    assert "conditions: time limit mixed(1200 s | 600 s)" in manifest_lines(manifest)[0]


def test_models_network_gpus_and_images_come_from_what_the_runs_recorded() -> None:
    gateway = {"models": {"gpt-4o": {"calls": 3}, "o3-mini": {"calls": 1}}}
    egress = {"mode": "allow", "allowed_hosts": ["api.openai.com"]}
    manifest = build_manifest(
        [
            run("a", gateway=gateway, network="allow:api.openai.com", egress=egress,
                resources={**LIMITS, "gpus": ["0", "1"]}, image="mlebench-agent:abc123"),
        ]
    )  # fmt: skip
    assert manifest["models"] == {"models": ["gpt-4o", "o3-mini"], "providers": None}
    assert manifest["network"] == {"policy": "allow", "allow_list": ["api.openai.com"]}
    assert manifest["gpu"] == {"count": 2, "type": None}
    assert manifest["images"] == ["mlebench-agent:abc123"]


def test_score_feedback_says_no_with_the_validators_answers_as_evidence() -> None:
    invalid = {**CALL, "valid": False, "reason": "missing column"}
    feedback = build_manifest(
        [run("a", validation_calls=[CALL, invalid]), run("b", validation_calls=[CALL])]
    )["score_feedback"]
    assert feedback["reached_agent"] is False
    assert (feedback["validation_calls"], feedback["valid_answers"]) == (3, 2)
    assert feedback["answer_fields"] == ["valid", "reason"]
    assert "3 validation call(s) in 2 run(s), answered 2 valid / 1 invalid" in feedback["evidence"]
    assert "never a score" in feedback["evidence"]
    scored = build_manifest([run("a", validation_calls=[{**CALL, "score": 0.9}])])
    assert scored["score_feedback"]["reached_agent"] is True


def test_skipped_runs_are_not_in_the_manifest() -> None:
    skipped = run("z", outcome="skipped", graded=False, time_limit=None, resources={})
    manifest = build_manifest([run("a"), skipped])
    assert manifest["time_limit"] == 600 and manifest["competitions"]["ids"] == ["a"]


def test_sessions_with_different_time_limits_are_refused_naming_the_key_and_both_values() -> None:
    base = summary_of(run("a", time_limit=600), run("b", time_limit=600))
    new = summary_of(run("a", time_limit=60), run("b", time_limit=60))
    result = run_gate(base, new, baseline="base.json")
    assert (result.ok, result.verdict) == (False, "not comparable")
    (line,) = gate_lines(result)
    assert line == (
        "GATE FAILED: not comparable: the baseline base.json and this session: the manifests "
        "differ on time_limit, which change results: time_limit: 600 (baseline) vs 60 (new); "
        "compare anyway with --allow-different time_limit "
        "(pytest: --mle-allow-different time_limit)"
    )
    allowed = run_gate(base, new, baseline="base.json", allow_different={"time_limit"})
    assert allowed.verdict != "not comparable" and allowed.ok
    assert "  note: manifest: allowed to differ: time_limit: 600 (baseline) vs 60 (new)" in (
        gate_lines(allowed)
    )


def test_every_differing_condition_is_named_not_only_the_first() -> None:
    base = summary_of(run("a"))
    new = summary_of(run("a", time_limit=60, resources={**LIMITS, "memory": "8g"}))
    refusal = comparability(base, new).refusal() or ""
    assert refusal.startswith("the manifests differ on time_limit, resources, which change")
    assert "memory=4g" in refusal and "memory=8g" in refusal
    assert comparability(base, new, {"time_limit"}).refusal() is not None
    assert comparability(base, new, {"time_limit", "resources"}).refusal() is None
    unused = comparability(base, new, {"time_limit", "resources", "gpu"}).notes()
    assert "manifest: --allow-different gpu: the two agree on it" in unused


def test_a_competitions_own_limit_is_compared_on_the_competitions_both_ran() -> None:
    # a has 600 s, b 1200 s in both sessions: a subset is no change of conditions
    base = summary_of(run("a", time_limit=600), run("b", time_limit=1200))
    assert comparability(base, summary_of(run("a", time_limit=600))).refusal() is None
    refused = comparability(base, summary_of(run("a", time_limit=60))).refusal()
    assert refused is not None and "600 (baseline) vs 60 (new)" in refused


def test_the_agent_seeds_and_competition_set_are_noted_never_refused() -> None:
    base = summary_of(run("a"), run("b"))
    new = summary_of(run("a", 1, agent="other"))
    verdict = comparability(base, new)
    assert verdict.refusal() is None
    noted = {difference.key for difference in verdict.noted}
    assert noted == {"agent", "competitions", "seeds"}


def test_a_key_one_side_did_not_record_is_said_not_checked() -> None:
    base, new = summary_of(run("a")), summary_of(run("a"))
    new["manifest"] = {**new["manifest"], "harness": {"version": "1.2.0", "major": "1"}}
    verdict = comparability(base, new)
    assert verdict.refusal() is None and verdict.unknown == ("harness",)
    base["manifest"] = {**base["manifest"], "harness": {"version": "0.9.0", "major": "0"}}
    assert "harness: 0 (baseline) vs 1 (new)" in (comparability(base, new).refusal() or "")


def test_an_older_summary_without_a_manifest_is_compared_with_a_warning() -> None:
    base, new = summary_of(run("a")), summary_of(run("a"))
    del base["manifest"]
    result = run_gate(base, new, baseline="old.json")
    assert result.ok
    warning = [line for line in gate_lines(result) if "WARNING" in line]
    assert warning == [
        "  note: manifest: WARNING: the baseline has no manifest (written before manifests "
        "existed): the time limit, resources, GPUs and network of the two sessions "
        "were not checked"
    ]


def test_allow_different_takes_compared_keys_and_names_the_valid_ones_otherwise() -> None:
    assert allowed_differences(["time_limit,gpu", "network"]) == {"time_limit", "gpu", "network"}
    assert allowed_differences([]) == frozenset()
    with pytest.raises(ValueError) as caught:
        allowed_differences(["timelimit"])
    assert str(caught.value) == (
        "unknown manifest key 'timelimit'; the keys that can differ are: "
        + ", ".join(COMPARED_KEYS)
    )
    with pytest.raises(ValueError, match="^seeds never refuse a comparison"):
        allowed_differences(["seeds"])
    assert set(COMPARED_KEYS) < set(KEY_NAMES)


def test_the_agent_digest_changes_with_its_files(tmp_path: Any) -> None:
    (tmp_path / "start.sh").write_text("echo one\n")
    first = content_digest(tmp_path)
    assert first.startswith("sha256:") and first == content_digest(tmp_path)
    (tmp_path / "start.sh").write_text("echo two\n")
    assert content_digest(tmp_path) != first


def test_gpu_type_is_read_from_the_driver_listing_of_the_granted_devices() -> None:
    listing = (
        "GPU 0: NVIDIA H100 80GB HBM3 (UUID: GPU-1)\nGPU 1: NVIDIA A100-SXM4-40GB (UUID: GPU-2)\n"
    )
    assert gpu_types(["0"], listing) == "NVIDIA H100 80GB HBM3"
    assert gpu_types(["0", "1"], listing) == "NVIDIA A100-SXM4-40GB+NVIDIA H100 80GB HBM3"
    assert gpu_types(["7"], listing) is None


def test_the_session_adds_harness_digest_providers_gpu_type_and_known_issues(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "start.sh").write_text("echo hi\n")
    gateway = SimpleNamespace(providers={"openai": object()})
    leaky = SimpleNamespace(known_issues=(KnownIssue("leak", "a column tells", removed=True),))
    fake_session = SimpleNamespace(  # a stand-in for MLEBenchSession: the two fields read
        agent=SimpleNamespace(name="dummy", folder=tmp_path, gateway=gateway),
        registry=SimpleNamespace(competitions={"a": leaky, "b": SimpleNamespace(known_issues=())}),
    )
    monkeypatch.setattr(session_facts, "_smi_listing", lambda: "GPU 0: NVIDIA L4 (UUID: x)\n")
    records = [run("a", resources={**LIMITS, "gpus": ["0"]}), run("b")]
    manifest = with_session_facts(build_manifest(records), cast(Any, fake_session), ["0"])
    assert manifest["harness"]["major"] == manifest["harness"]["version"].split(".")[0]
    assert manifest["agent"] == {"name": "dummy", "digest": content_digest(tmp_path)}
    assert manifest["models"]["providers"] == ["openai"]
    assert manifest["gpu"] == {
        "mixed": [{"count": 0, "type": None}, {"count": 1, "type": "NVIDIA L4"}]
    }
    assert manifest["by_competition"]["gpu"]["a"] == {"count": 1, "type": "NVIDIA L4"}
    assert manifest["known_issues"] == {"a": ["leak (fixed)"]}
    assert "known issues a leak (fixed)" in manifest_lines(manifest)[1]
