"""Shared fixtures of training-pipeline-fix's verifier: train once per problem, import predict."""

from __future__ import annotations

import importlib
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

TRAIN_TIMEOUT_S = 60


class Run:
    """One ``python3 train.py`` run of the agent's script on a data folder, by the verifier."""

    def __init__(self, work: Path, data_dir: Path, out_dir: Path, seed: int) -> None:
        started = time.monotonic()
        try:
            done = subprocess.run(
                [sys.executable, "train.py", "--data-dir", str(data_dir), "--out-dir", str(out_dir),
                 "--seed", str(seed)],
                cwd=work, capture_output=True, text=True, timeout=TRAIN_TIMEOUT_S, check=False,
            )  # fmt: skip
            self.returncode = done.returncode
            self.log = (done.stdout + done.stderr)[-800:]
        except subprocess.TimeoutExpired:
            self.returncode, self.log = -1, f"train.py ran past {TRAIN_TIMEOUT_S} s"
        self.wall_s = time.monotonic() - started
        self.out_dir = out_dir


@pytest.fixture(scope="session")
def work() -> Path:
    path = Path(os.environ["WORK_DIR"])
    if str(path) not in sys.path:
        sys.path.insert(0, str(path))
    return path


@pytest.fixture(scope="session")
def scratch(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("runs")


@pytest.fixture(scope="session")
def main_run(work: Path, scratch: Path) -> Run:
    data = scratch / "data"
    shutil.copytree(work / "data", data)
    return Run(work, data, scratch / "main", int(os.environ.get("MLEBENCH_SEED", "0")))


@pytest.fixture(scope="session")
def alt_run(work: Path, scratch: Path) -> Run:
    return Run(work, Path(os.environ["PRIVATE_DIR"]) / "alt", scratch / "alt", 12345)


@pytest.fixture(scope="session")
def predict_module(work: Path):  # type: ignore[no-untyped-def]
    return importlib.import_module("predict")
