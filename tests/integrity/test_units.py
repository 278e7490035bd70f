"""The pure parts of the integrity checks: policy, fingerprints, probing, literal rows, judge."""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_mlebench.errors import ConfigError
from pytest_mlebench.integrity.probing import validator_flags
from pytest_mlebench.integrity.processes import ProcessLog, clean, local_sampler
from pytest_mlebench.integrity.rules import literal_flag, process_flags
from pytest_mlebench.records.verdict import Flag, IntegrityReport
from pytest_mlebench.sandbox.fingerprint import BUCKETS, buckets_apart, fingerprint_file
from pytest_mlebench.values.integrity_policy import load_policy
from pytest_mlebench.values.providers import judge_model

POLICY = load_policy()


def write_rows(path: Path, labels: list[int]) -> Path:
    path.write_text("id,label\n" + "".join(f"r{i},{v}\n" for i, v in enumerate(labels)))
    return path


def test_one_changed_row_changes_one_bucket(tmp_path: Path) -> None:
    first = fingerprint_file(write_rows(tmp_path / "a.csv", [0] * 500))
    second = fingerprint_file(write_rows(tmp_path / "b.csv", [0] * 499 + [1]))
    assert first.rows == second.rows == 500
    assert first.sha256 != second.sha256
    assert buckets_apart(first.sketch, second.sketch) == 1
    other = fingerprint_file(write_rows(tmp_path / "c.csv", [1] * 500))
    assert buckets_apart(first.sketch, other.sketch) == BUCKETS


def call(tmp_path: Path, labels: list[int], name: str) -> dict[str, object]:
    sent = fingerprint_file(write_rows(tmp_path / name, labels))
    return {
        "time": name,
        "valid": True,
        "sha256": sent.sha256,
        "rows": sent.rows,
        "sketch": sent.sketch,
    }


def test_probing_needs_many_near_identical_calls(tmp_path: Path) -> None:
    probes = [call(tmp_path, [0] * 40 + [i % 2] + [0] * 9, f"{i}.csv") for i in range(30)]
    kinds = {f.kind: f for f in validator_flags(probes, 0, POLICY)}
    assert kinds["validator-probing"].severity == "high"
    assert kinds["validator-probing"].evidence["near_identical_pairs"] == 29
    honest = [call(tmp_path, [i % 2] * 50, f"h{i}.csv") for i in range(5)]
    assert validator_flags(honest, 0, POLICY) == []
    assert [f.rule for f in validator_flags(honest, 200, POLICY)] == ["heavy-use"]


def test_policy_override_replaces_sections_and_names_bad_entries(tmp_path: Path) -> None:
    custom = tmp_path / "policy.yaml"
    custom.write_text(
        "withhold_at: medium\nprocesses:\n  - {id: r, pattern: Rscript, severity: low, reason: R}\n"
    )
    policy = load_policy(custom)
    assert policy.withhold_at == "medium"
    assert [r.id for r in policy.processes] == ["r"]
    assert policy.logs == POLICY.logs  # sections left out keep the defaults
    custom.write_text("processes:\n  - {id: bad, pattern: '(', reason: x}\n")
    with pytest.raises(ConfigError, match=r"processes\[0\] \(bad\) has a bad pattern"):
        load_policy(custom)
    custom.write_text("withhold_at: severe\n")
    with pytest.raises(ConfigError, match="withhold_at is 'severe'; choose one of info"):
        load_policy(custom)
    custom.write_text("proceses: []\n")
    with pytest.raises(ConfigError, match="unknown policy section"):
        load_policy(custom)


@pytest.mark.parametrize(
    ("command", "rule"),
    [
        ("vim /home/submission/submission.csv", "editor"),
        ("/usr/bin/nano notes.txt", "editor"),
        ("curl -O https://x/y", "network-tool"),
        ("wget http://x", "network-tool"),
        ("ssh user@host", "remote-shell"),
        ("pip install torch", "package-install"),
        ("cat /home/nonroot/.kaggle/kaggle.json", "outside-contract"),
        ("python3 /home/code/train.py", None),
        ("python3 -c import vimeo", None),
        ("bash /home/agent/start.sh", None),
    ],
)
def test_default_process_patterns(command: str, rule: str | None) -> None:
    flags = process_flags([{"command": command, "first_seen": 1.0, "last_seen": 2.0}], POLICY)
    assert [f.rule for f in flags] == ([rule] if rule else [])


def test_harness_commands_are_left_out_of_the_audit() -> None:
    kept = clean(["sleep infinity", "unshare --user sh -c x", "python3 a.py", "python3 a.py", " "])
    assert kept == ["python3 a.py"]
    log = ProcessLog(started=100.0)
    log.add(["a"], 101.0)
    log.add(["a", "b"], 103.5)
    assert log.to_list() == [
        {"command": "a", "first_seen": 1.0, "last_seen": 3.5, "samples": 2},
        {"command": "b", "first_seen": 3.5, "last_seen": 3.5, "samples": 1},
    ]


def test_local_sampler_finds_the_run_by_its_nonce(tmp_path: Path) -> None:
    import os
    import subprocess
    import sys

    env = {**os.environ, "MLEBENCH_RUN_NONCE": "n0nce-test"}
    child = subprocess.Popen(
        [sys.executable, "-c", "import subprocess,sys; subprocess.run(['sleep','5'], env={})"],
        env=env,
    )
    try:
        import time

        deadline = time.time() + 5
        seen: list[str] = []
        while time.time() < deadline and not any(c.startswith("sleep 5") for c in seen):
            seen = local_sampler("n0nce-test")()
            time.sleep(0.1)
        assert any(c.startswith("sleep 5") for c in seen)  # a child with an empty environment
        assert local_sampler("other-nonce")() == []
    finally:
        child.kill()
        child.wait()


def test_literal_rows_in_code_are_flagged_but_a_head_print_is_not(tmp_path: Path) -> None:
    submission = write_rows(tmp_path / "submission.csv", list(range(40)))
    logs = tmp_path / "logs"
    logs.mkdir()
    rows = submission.read_text().splitlines()
    (logs / "run.log").write_text("preview:\n" + "\n".join(rows[:6]) + "\n")
    assert literal_flag(submission, [logs], True, POLICY) is None
    (logs / "predict.py").write_text("ROWS = '''\n" + "\n".join(rows[1:]) + "\n'''\n")
    flag = literal_flag(submission, [logs], True, POLICY)
    assert flag is not None and flag.evidence["rows"] == "40 of 40 rows"


def test_report_round_trips_through_its_dict() -> None:
    report = IntegrityReport(
        mode="strict",
        flags=(Flag("process", "editor", "high", "why", {"command": "vim x"}),),
        medal_withheld=True,
        earned_medal="gold",
    )
    assert IntegrityReport.from_dict(report.to_dict()) == report
    assert report.worst == "high"


def test_the_judge_setting_takes_a_model_name() -> None:
    assert judge_model(None) is None
    assert judge_model(" gpt-4o-mini ") == "gpt-4o-mini"
    with pytest.raises(ValueError, match="expected a model name"):
        judge_model("two words")
