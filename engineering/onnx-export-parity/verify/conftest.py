"""Shared fixtures of onnx-export-parity's hidden checks.

The reference is the *pristine* ``model.py`` + ``weights.npz`` (from ``/pristine``) in eval mode,
so nothing the agent changed in its copy of the model can move the target.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

TOLERANCE = 1e-5


def env_path(name: str) -> Path:
    """A verifier path for session-scoped fixtures (the plugin's path fixtures are per test)."""
    return Path(os.environ[name])


def load_pristine_model(pristine: Path) -> Any:
    spec = importlib.util.spec_from_file_location("pristine_model", pristine / "model.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["pristine_model"] = module
    spec.loader.exec_module(module)
    return module.load_model(pristine).eval()


@pytest.fixture(scope="session")
def reference() -> Callable[[np.ndarray], np.ndarray]:
    import torch

    model = load_pristine_model(env_path("PRISTINE_DIR"))

    def run(x: np.ndarray) -> np.ndarray:
        with torch.no_grad():
            return model(torch.from_numpy(x)).numpy()

    return run


@pytest.fixture(scope="session")
def hidden() -> dict[str, np.ndarray]:
    with np.load(env_path("PRIVATE_DIR") / "hidden_inputs.npz") as arrays:
        return {name: arrays[name] for name in arrays.files}


def make_session(path: Path) -> Any:
    import onnxruntime

    if not path.is_file():
        pytest.fail(f"{path} does not exist")
    return onnxruntime.InferenceSession(str(path), providers=["CPUExecutionProvider"])


def run_session(session: Any, x: np.ndarray) -> np.ndarray:
    return np.asarray(session.run(None, {session.get_inputs()[0].name: x})[0])


@pytest.fixture(scope="session")
def onnx_path() -> Path:
    return env_path("WORK_DIR") / "export" / "model.onnx"


@pytest.fixture(scope="session")
def session(onnx_path: Path) -> Any:
    return make_session(onnx_path)


@pytest.fixture(scope="session")
def measured(session: Any, hidden: dict[str, np.ndarray], reference: Callable) -> float:
    """The largest |Δ| the verifier sees over every hidden input (NaN when a batch fails)."""
    worst = 0.0
    batches = [hidden["b1"], hidden["b3"], hidden["b17"], *hidden["single"]]
    for x in batches:
        try:
            worst = max(worst, float(np.abs(run_session(session, x) - reference(x)).max()))
        except Exception:  # a static batch axis: the measurement is undefined
            return float("nan")
    return worst
