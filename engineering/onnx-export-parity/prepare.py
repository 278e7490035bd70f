"""Per-seed variant of onnx-export-parity: the network's shape, its weights, the hidden inputs.

The host has no torch, so the weights are drawn with numpy and shipped as ``weights.npz`` (keys =
the state-dict names of ``model.py``'s ``SmallCNN``); ``model.py`` loads them inside the image.
The BatchNorm running statistics are far from 0/1 and the Dropout rate is high, so an export in
training mode is visibly wrong.
"""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path

import numpy as np


def save_npz(path: Path, arrays: dict[str, np.ndarray]) -> None:
    """``np.savez`` with fixed zip dates, so a seed always gives the same bytes."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED) as archive:
        for name, array in arrays.items():
            buffer = io.BytesIO()
            np.lib.format.write_array(buffer, np.asarray(array), allow_pickle=False)
            archive.writestr(
                zipfile.ZipInfo(f"{name}.npy", date_time=(2020, 1, 1, 0, 0, 0)), buffer.getvalue()
            )


def _conv(rng: np.random.Generator, out: int, inp: int) -> np.ndarray:
    return (rng.standard_normal((out, inp, 3, 3)) * np.sqrt(2.0 / (inp * 9))).astype(np.float32)


def _batchnorm(rng: np.random.Generator, prefix: str, n: int) -> dict[str, np.ndarray]:
    return {
        f"{prefix}.weight": (1.0 + 0.2 * rng.standard_normal(n)).astype(np.float32),
        f"{prefix}.bias": (0.1 * rng.standard_normal(n)).astype(np.float32),
        f"{prefix}.running_mean": (0.5 * rng.standard_normal(n)).astype(np.float32),
        f"{prefix}.running_var": rng.uniform(0.3, 2.0, n).astype(np.float32),
        f"{prefix}.num_batches_tracked": np.array(1000, dtype=np.int64),
    }


def _weights(
    rng: np.random.Generator, channels: int, width: int, classes: int
) -> dict[str, np.ndarray]:
    weights = {
        "features.0.weight": _conv(rng, width, channels),
        "features.0.bias": (0.05 * rng.standard_normal(width)).astype(np.float32),
        "features.4.weight": _conv(rng, 2 * width, width),
        "features.4.bias": (0.05 * rng.standard_normal(2 * width)).astype(np.float32),
        "head.2.weight": (rng.standard_normal((classes, 2 * width)) / np.sqrt(2 * width)).astype(
            np.float32
        ),
        "head.2.bias": (0.1 * rng.standard_normal(classes)).astype(np.float32),
    }
    weights.update(_batchnorm(rng, "features.1", width))
    weights.update(_batchnorm(rng, "features.5", 2 * width))
    return weights


def prepare(workspace: Path, private: Path, seed: int) -> dict[str, str]:
    rng = np.random.default_rng(20_240_000 + seed)
    config = {
        "channels": 3,
        "height": int(rng.choice([16, 20, 24])),
        "width": int(rng.choice([16, 20, 24])),
        "filters": int(rng.choice([6, 8])),
        "classes": int(rng.choice([4, 5, 7])),
        "dropout": 0.5,
    }
    shape = (config["channels"], config["height"], config["width"])
    (workspace / "model_config.json").write_text(json.dumps(config, indent=2) + "\n", "utf-8")
    save_npz(workspace / "weights.npz", _weights(rng, 3, config["filters"], config["classes"]))
    np.save(workspace / "sample_input.npy", rng.standard_normal((1, *shape)).astype(np.float32))
    hidden = {
        "single": rng.standard_normal((4, 1, *shape)).astype(np.float32),
        "b1": rng.standard_normal((1, *shape)).astype(np.float32),
        "b3": rng.standard_normal((3, *shape)).astype(np.float32),
        "b17": rng.standard_normal((17, *shape)).astype(np.float32),
    }
    save_npz(private / "hidden_inputs.npz", hidden)
    return {}
