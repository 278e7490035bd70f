"""A visible smoke test: the exported file runs in ONNX Runtime and matches PyTorch on one sample.

Run it with ``python3 -m pytest tests``. The hidden checks are stricter (see instruction.md).
"""

from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_sample_matches() -> None:
    ort = pytest.importorskip("onnxruntime")
    import sys

    sys.path.insert(0, str(ROOT))
    import torch
    from model import load_model

    sample = np.load(ROOT / "sample_input.npy")
    model = load_model().eval()
    with torch.no_grad():
        expected = model(torch.from_numpy(sample)).numpy()
    session = ort.InferenceSession(
        str(ROOT / "export" / "model.onnx"), providers=["CPUExecutionProvider"]
    )
    got = session.run(None, {session.get_inputs()[0].name: sample})[0]
    assert np.abs(got - expected).max() <= 1e-5
