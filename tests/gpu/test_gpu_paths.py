"""The GPU paths on a machine that has an NVIDIA GPU: detection, the lease pool, the sandbox.

Everything here needs a real GPU and is skipped without one (CI has none; the rest of the suite
tests the same code with a stand-in ``nvidia-smi``). On a GPU machine run
``pytest tests/gpu -p no:cacheprovider``: a competition that declares one GPU leases it from the
pool, the sandbox hands it to the agent, and the agent's PyTorch (when the interpreter running
pytest has it) computes on it.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
import yaml

from pytest_mlebench.sandbox.gpus import detect_gpus
from tests.factories import toy_config, write_competition

DETECTED = detect_gpus()
pytestmark = pytest.mark.skipif(
    not DETECTED, reason="no NVIDIA GPU here (nvidia-smi -L lists none); run on a GPU machine"
)

PROBE = """
import json, os, sys
facts = {"visible": os.environ.get("CUDA_VISIBLE_DEVICES"), "python": sys.executable}
try:
    import torch
except ImportError as exc:
    facts["torch"] = f"missing: {exc}"
else:
    facts["torch"] = torch.__version__
    facts["cuda"] = torch.cuda.is_available()
    if facts["cuda"]:
        facts["device"] = torch.cuda.get_device_name(0)
        x = torch.arange(1 << 20, device="cuda", dtype=torch.float64)
        facts["sum"] = float(x.sum())
with open(os.path.join(os.environ["LOGS_DIR"], "gpu.json"), "w") as handle:
    json.dump(facts, handle)
"""


def gpu_agent(folder: Path) -> Path:
    """An agent folder that records what GPU it sees, then submits the sample submission."""
    folder.mkdir(parents=True)
    (folder / "probe.py").write_text(PROBE)
    (folder / "start.sh").write_text(
        textwrap.dedent(
            f"""\
            set -eu
            {sys.executable} "$AGENT_DIR/probe.py"
            cp "$DATA_DIR/sample_submission.csv" "$SUBMISSION_DIR/submission.csv"
            """
        )
    )
    (folder / "config.yaml").write_text(yaml.safe_dump({"gpu-probe": {"start": "start.sh"}}))
    return folder


def run_suite(pytester: pytest.Pytester, *extra: str) -> tuple[pytest.RunResult, list[dict]]:
    root = pytester.path
    for name in ("gpu-a", "gpu-b"):
        config = toy_config(name, resources={"cpus": 1, "memory": "1g", "gpus": 1})
        write_competition(root / "defs", name, config=config, splits={"gpu": ["gpu-a", "gpu-b"]})
    pytester.makepyfile(test_bench="from pytest_mlebench.benchmark import test_competition\n")
    results = root / "reports" / "results.jsonl"
    result = pytester.runpytest_subprocess(
        "--mle-competitions-dir", str(root / "defs"),
        "--mle-data-dir", str(root / "data"),
        f"--mle-results={results}",
        "--mle-sandbox", "local",
        "--mle-agent", str(gpu_agent(root / "agent")),
        "--mle-gpus", "auto",
        "-m", "gpu",
        *extra,
    )  # fmt: skip
    records = [json.loads(line) for line in results.read_text().splitlines()]
    return result, records


def test_detection_agrees_with_nvidia_smi() -> None:
    listing = subprocess.run(
        [shutil.which("nvidia-smi") or "nvidia-smi", "-L"], capture_output=True, text=True
    ).stdout
    assert len(DETECTED) == sum(line.startswith("GPU ") for line in listing.splitlines())


@pytest.mark.parametrize("workers", [[], ["-n", "2"]], ids=["serial", "xdist-2"])
def test_each_sandbox_gets_a_leased_gpu_its_agent_can_use(
    pytester: pytest.Pytester, workers: list[str]
) -> None:
    result, records = run_suite(pytester, *workers)
    result.assert_outcomes(passed=2)
    for record in records:
        assert record["outcome"] == "passed", record["reason"]
        leased = record["resources"]["gpus"]
        assert len(leased) == 1 and leased[0] in DETECTED
        facts = json.loads((Path(record["run_dir"]) / "logs" / "gpu.json").read_text())
        print(record["competition_id"], leased, facts)
        assert facts["visible"] == leased[0]
        if not str(facts["torch"]).startswith("missing"):
            assert facts["cuda"] is True
            assert facts["sum"] == float((1 << 20) * ((1 << 20) - 1) // 2)
