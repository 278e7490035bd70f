"""Visible checks: train.py ends under spawn with CPU_COUNT workers and writes its outputs."""

import json
import math
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def run_train(out_dir, cpu_count, start_method="spawn"):
    env = dict(os.environ, CPU_COUNT=str(cpu_count))
    subprocess.run(
        [sys.executable, "train.py", "--out-dir", str(out_dir), "--start-method", start_method],
        cwd=ROOT,
        env=env,
        check=True,
        timeout=60,
    )
    return json.loads((Path(out_dir) / "losses.json").read_text())


def test_train_in_the_main_process(tmp_path):
    losses = run_train(tmp_path, 0)
    assert losses and all(math.isfinite(value) for value in losses)


def test_train_with_spawned_workers(tmp_path):
    losses = run_train(tmp_path, 2, "spawn")
    assert losses and all(math.isfinite(value) for value in losses)
