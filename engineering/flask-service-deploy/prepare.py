"""Per-seed variant of flask-service-deploy: the model's features, coefficients, rows and ports.

The host has no scikit-learn of the image's version, so the model ships as fitted parameters
(``model/params.json``) that ``model/build.py`` pickles inside the image. Expected labels are
the argmax of the linear decision function, computed here with numpy; hidden rows whose two best
classes are closer than 0.05 are redrawn, so rounding cannot change a label.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

FEATURES = ["age", "income", "tenure", "visits", "balance", "score", "clicks", "spend"]
CLASSES = ["bronze", "silver", "gold"]


def _rows(rng: np.random.Generator, n: int, mean: np.ndarray, scale: np.ndarray) -> np.ndarray:
    return np.round(mean + scale * rng.standard_normal((n, len(mean))), 2)


def _labels(
    rows: np.ndarray, coef: np.ndarray, intercept: np.ndarray
) -> tuple[list[str], np.ndarray]:
    scores = rows @ coef.T + intercept
    ordered = np.sort(scores, axis=1)
    return [CLASSES[i] for i in scores.argmax(axis=1)], ordered[:, -1] - ordered[:, -2]


def _clear_rows(rng, n, mean, scale, coef, intercept) -> tuple[list[list[float]], list[str]]:
    rows: list[list[float]] = []
    labels: list[str] = []
    while len(rows) < n:
        batch = _rows(rng, n, mean, scale)
        names, margin = _labels(batch, coef, intercept)
        for row, name, gap in zip(batch, names, margin, strict=True):
            if gap > 0.05 and len(rows) < n:
                rows.append([float(v) for v in row])
                labels.append(name)
    return rows, labels


def prepare(workspace: Path, private: Path, seed: int) -> dict[str, str]:
    rng = np.random.default_rng(31_000 + seed)
    n = int(rng.choice([4, 5, 6]))
    features = [FEATURES[i] for i in sorted(rng.choice(len(FEATURES), n, replace=False))]
    mean = np.round(rng.uniform(1, 100, n), 1)
    scale = np.round(mean * rng.uniform(0.1, 0.5, n), 2)
    coef = np.round(rng.standard_normal((len(CLASSES), n)) / scale, 5)
    intercept = np.round(-(coef @ mean) + 0.3 * rng.standard_normal(len(CLASSES)), 5)
    params = {
        "features": features,
        "classes": CLASSES,
        "coef": coef.tolist(),
        "intercept": intercept.tolist(),
    }
    (workspace / "model" / "params.json").write_text(json.dumps(params, indent=2) + "\n", "utf-8")
    rows, labels = _clear_rows(rng, 5, mean, scale, coef, intercept)
    examples = {"features": features, "rows": rows, "predictions": labels}
    (workspace / "examples.json").write_text(json.dumps(examples, indent=2) + "\n", "utf-8")
    rows, labels = _clear_rows(rng, 40, mean, scale, coef, intercept)
    hidden = {"rows": rows, "predictions": labels}
    (private / "hidden_rows.json").write_text(json.dumps(hidden) + "\n", "utf-8")
    port = int(rng.integers(20_000, 29_999))
    return {"PORT": str(port), "APP_LOG": "{WORK_DIR}/logs/app.log"}
