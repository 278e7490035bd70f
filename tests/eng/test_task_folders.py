"""The engineering task folders are sound: the loader's rules (docs/engineering.md), a
deterministic prepare(), proofs.

The lint and the determinism run everywhere (stdlib + numpy, no Docker). The full proof — oracle
passes every gate with a score of at least 0.95, the noop agent and every cheat fail a gate, each
in Docker with a fresh verifier container — takes minutes per task, so it runs only with
``MLEBENCH_ENG_PROVE=1`` and an image that has the tools (``MLEBENCH_ENG_IMAGE``, default
``engprobe:1``; onnx-export-parity needs onnxruntime in it, see ``engprobe-ort.Dockerfile``).
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.eng.prove_task import lint, prepared_digest, prove

ROOT = Path(__file__).resolve().parents[2]
TASKS = ROOT / "engineering"
PROVEN_HERE = sorted(p.name for p in TASKS.iterdir() if (p / "config.yaml").is_file())


@pytest.mark.parametrize("task", PROVEN_HERE)
def test_task_folder_follows_the_contract(task: str) -> None:
    assert lint(TASKS / task) == []


@pytest.mark.parametrize("task", PROVEN_HERE)
def test_prepare_is_deterministic_per_seed(task: str) -> None:
    first = prepared_digest(TASKS / task, 0)
    assert prepared_digest(TASKS / task, 0) == first
    assert prepared_digest(TASKS / task, 1) != first


def _image() -> str:
    return os.environ.get("MLEBENCH_ENG_IMAGE", "engprobe:1")


@pytest.mark.skipif(not os.environ.get("MLEBENCH_ENG_PROVE"), reason="set MLEBENCH_ENG_PROVE=1")
@pytest.mark.parametrize("task", PROVEN_HERE)
def test_oracle_passes_and_every_cheat_is_caught(task: str) -> None:
    if shutil.which("docker") is None:
        pytest.skip("no docker command")
    image = _image()
    if subprocess.run(["docker", "image", "inspect", image], capture_output=True).returncode:
        pytest.skip(f"image {image} is not built")
    cheats = sorted((TASKS / task / "cheats").glob("*.sh"))
    oracle = prove(TASKS / task, "oracle", 0, image)
    assert oracle.passed and oracle.score >= 0.95, oracle.log
    for agent in ["noop", *(f"cheat:{path.stem}" for path in cheats)]:
        proof = prove(TASKS / task, agent, 0, image)
        assert proof.exit_status in (0, 1), proof.log
        assert not proof.passed, f"{agent} passed every gate of {task}"
