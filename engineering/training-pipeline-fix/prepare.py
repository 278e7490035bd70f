"""Per-seed data of training-pipeline-fix: a 3-class tabular problem shipped as .npz.

``prepare`` writes ``data/train.npz`` and ``data/val.npz`` into the workspace and, into
``private/``, the hidden validation set of the same problem (``hidden.npz``) and a second
problem drawn from another seed (``alt/train.npz``, ``alt/hidden.npz``) for the robustness check.
Column ``CONSTANT_COLUMN`` is constant (its standard deviation is 0: the planted NaN) and the
columns have very different scales. Only numpy is used; .npz is read the same by every numpy.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

N_FEATURES = 16
N_CLASSES = 3
CONSTANT_COLUMN = 7


def problem(seed: int, sizes: dict[str, int]) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """One problem: a random 2-layer teacher labels Gaussian inputs; columns are rescaled."""
    rng = np.random.default_rng(seed)
    hidden_w = rng.normal(size=(N_FEATURES, 12))
    out_w = rng.normal(size=(12, N_CLASSES))
    scales = 10.0 ** rng.uniform(-1, 2, size=N_FEATURES)
    offsets = rng.normal(scale=5.0, size=N_FEATURES)
    parts = {}
    for name, n in sizes.items():
        z = rng.normal(size=(n, N_FEATURES))
        z[:, CONSTANT_COLUMN] = 0.0
        logits = np.tanh(z @ hidden_w / 2.0) @ out_w * 2.5
        logits += rng.gumbel(size=logits.shape) * 0.25
        y = logits.argmax(axis=1).astype(np.int64)
        x = (z * scales + offsets).astype(np.float32)
        x[:, CONSTANT_COLUMN] = 1.0
        parts[name] = (x, y)
    return parts


def _save(path: Path, x: np.ndarray, y: np.ndarray) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    # labels stored as float, as the upstream export did: the script must cast them
    np.savez(path, X=x, y=y.astype(np.float32))


def prepare(workspace: Path, private: Path, seed: int) -> dict[str, str]:
    main = problem(1000 + seed, {"train": 1200, "val": 400, "hidden": 1000})
    alt = problem(5000 + seed, {"train": 1200, "hidden": 1000})
    _save(workspace / "data" / "train.npz", *main["train"])
    _save(workspace / "data" / "val.npz", *main["val"])
    _save(private / "hidden.npz", *main["hidden"])
    _save(private / "alt" / "train.npz", *alt["train"])
    _save(private / "alt" / "hidden.npz", *alt["hidden"])
    (private / "facts.json").write_text(json.dumps({"seed": seed, "n_features": N_FEATURES}))
    return {}
