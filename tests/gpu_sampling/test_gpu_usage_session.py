"""A session whose sandbox is granted two GPUs records that its agent used one.

The machine has no GPU: a fake ``nvidia-smi`` on the ``PATH`` lists two devices (``-L``) and
answers every ``--query-gpu`` with GPU 0 busy and GPU 1 idle, so the whole path runs for real:
detection, the lease, the sampler the host offers, the record, ``summary.json`` and the terminal.
"""

from __future__ import annotations

import json
import os

import pytest

from tests.factories import toy_config, write_competition

FAKE_SMI = """#!/bin/sh
case "$1" in
  -L) printf 'GPU 0: Fake GPU (UUID: GPU-fake-0)\\nGPU 1: Fake GPU (UUID: GPU-fake-1)\\n' ;;
  *) printf '0, 87, 10240, 23028\\n1, 0, 1, 23028\\n' ;;
esac
"""


def test_granted_two_used_one_in_record_summary_and_terminal(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = pytester.path
    tools = root / "bin"
    tools.mkdir()
    (tools / "nvidia-smi").write_text(FAKE_SMI)
    (tools / "nvidia-smi").chmod(0o755)
    monkeypatch.setenv("PATH", f"{tools}{os.pathsep}{os.environ['PATH']}")
    config = toy_config("gpu-toy", resources={"cpus": 1, "memory": "1g", "gpus": 2})
    write_competition(root / "defs", "gpu-toy", config=config)
    pytester.makepyfile(test_bench="from pytest_mlebench.benchmark import test_competition\n")
    results = root / "reports" / "results.jsonl"
    result = pytester.runpytest_subprocess(
        "--mle-competitions-dir", str(root / "defs"),
        "--mle-data-dir", str(root / "data"),
        f"--mle-results={results}",
        "--mle-sandbox", "local",
        "--mle-gpus", "auto",
        "-k", "gpu-toy",
    )  # fmt: skip
    result.assert_outcomes(passed=1)
    (record,) = [json.loads(line) for line in results.read_text().splitlines()]
    usage = record["gpu_usage"]
    assert (usage["granted"], usage["used"], usage["sampler"]) == (2, 1, "nvidia-smi")
    assert [device["used"] for device in usage["devices"]] == [True, False]
    summary = json.loads((root / "reports" / "summary.json").read_text())
    assert summary["gpus"]["idle_runs"] == [{"run_id": record["run_id"], "granted": 2, "used": 1}]
    result.stdout.fnmatch_lines(["*GPUs: 1 run(s) granted 2, used 1; idle GPUs in: gpu-toy-s0-*"])
