"""Smoke test: a short training run ends, its losses are finite, the model predicts."""

import json
import math
import subprocess
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]


def test_short_training_run(tmp_path):
    subprocess.run(
        [sys.executable, "train.py", "--epochs", "2", "--out-dir", str(tmp_path)],
        cwd=ROOT,
        check=True,
    )
    losses = json.loads((tmp_path / "losses.json").read_text())
    assert losses and all(math.isfinite(value) for value in losses)
    sys.path.insert(0, str(ROOT))
    from predict import predict

    x = np.load(ROOT / "data" / "val.npz")["X"][:10]
    assert predict(tmp_path, x).shape == (10,)
