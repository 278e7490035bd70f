"""Per-seed variant of dockerfile-fix: the model, its dependency wheel, the inputs and the answer.

Writes into the workspace: ``model.json`` (per-seed feature names, weights, bias),
``wheels/mlb_tinylinear-1.0.0-py3-none-any.whl`` (a tiny pure-Python package written here with
``zipfile``: ``LinearScorer``, a logistic score; "mlb" = pytest-mlebench), ``requirements.txt``
pinning it, ``samples/input.csv`` + ``samples/expected.csv`` (the visible test's pair) and
``data/train.csv`` (about 4 MB of training rows that the image must not carry). Into private:
``hidden/input.csv`` (other rows, the input the verifier's ``docker run`` reads) and
``expected.csv`` (their scores, computed with the wheel's own code). Deterministic.
"""

from __future__ import annotations

import base64
import csv
import hashlib
import io
import json
import random
import zipfile
from pathlib import Path
from typing import Any

NAME, VERSION = "mlb-tinylinear", "1.0.0"
SUMMARY = "Generated for pytest-mlebench's dockerfile-fix task (not a real package)"
CODE = f'''"""{SUMMARY}."""

import math

__version__ = "{VERSION}"


class LinearScorer:
    """A logistic score: 1 / (1 + exp(-(w . x + b)))."""

    def __init__(self, weights, bias):
        self.weights = [float(w) for w in weights]
        self.bias = float(bias)

    def score(self, values):
        if len(values) != len(self.weights):
            raise ValueError(f"{{len(values)}} values for {{len(self.weights)}} weights")
        z = self.bias + sum(w * x for w, x in zip(self.weights, values))
        return 1.0 / (1.0 + math.exp(-z))
'''
FEATURES = ["age", "income", "tenure", "visits", "balance", "region_score", "late_payments"]
TRAIN_ROWS = 100_000


def _record_hash(data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).decode().rstrip("=")
    return f"sha256={digest}"


def write_wheel(folder: Path) -> Path:
    module = NAME.replace("-", "_")
    info = f"{module}-{VERSION}.dist-info"
    metadata = (
        f"Metadata-Version: 2.1\nName: {NAME}\nVersion: {VERSION}\nSummary: {SUMMARY}\n"
        "Requires-Python: >=3.8\n"
    )
    wheel = (
        "Wheel-Version: 1.0\nGenerator: pytest-mlebench prepare\n"
        "Root-Is-Purelib: true\nTag: py3-none-any\n"
    )
    files = {f"{module}/__init__.py": CODE, f"{info}/METADATA": metadata, f"{info}/WHEEL": wheel}
    record = [f"{p},{_record_hash(t.encode())},{len(t.encode())}" for p, t in files.items()]
    files[f"{info}/RECORD"] = "\n".join([*record, f"{info}/RECORD,,"]) + "\n"
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / f"{module}-{VERSION}-py3-none-any.whl"
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as archive:
        for path, text in files.items():
            entry = zipfile.ZipInfo(path, date_time=(2020, 1, 1, 0, 0, 0))
            entry.external_attr = 0o644 << 16
            archive.writestr(entry, text)
    return target


def _scorer(model: dict[str, Any]) -> Any:
    space: dict[str, Any] = {}
    exec(compile(CODE, "mlb_tinylinear", "exec"), space)  # the wheel's own arithmetic
    return space["LinearScorer"](model["weights"], model["bias"])


def _rows(rng: random.Random, features: list[str], count: int, prefix: str) -> list[list[str]]:
    rows = []
    for number in range(count):
        values = [f"{rng.uniform(-3, 3):.3f}" for _ in features]
        rows.append([f"{prefix}{number:05d}", *values])
    return rows


def _csv(header: list[str], rows: list[list[str]]) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(rows)
    return buffer.getvalue()


def _scores(model: dict[str, Any], rows: list[list[str]]) -> str:
    scorer = _scorer(model)
    scored = [[row[0], f"{scorer.score([float(v) for v in row[1:]]):.6f}"] for row in rows]
    return _csv(["id", "score"], scored)


def prepare(workspace: Path, private: Path, seed: int) -> dict[str, str]:
    rng = random.Random(7_300 + seed)
    features = rng.sample(FEATURES, 5)
    model = {
        "features": features,
        "weights": [round(rng.uniform(-1.5, 1.5), 4) for _ in features],
        "bias": round(rng.uniform(-0.5, 0.5), 4),
    }
    (workspace / "model.json").write_text(json.dumps(model, indent=2) + "\n", "utf-8")
    write_wheel(workspace / "wheels")
    (workspace / "requirements.txt").write_text(f"{NAME}=={VERSION}\n", "utf-8")
    header = ["id", *features]
    samples = _rows(rng, features, 8, "s")
    (workspace / "samples").mkdir(exist_ok=True)
    (workspace / "samples" / "input.csv").write_text(_csv(header, samples), "utf-8")
    (workspace / "samples" / "expected.csv").write_text(_scores(model, samples), "utf-8")
    train = [[*row, str(rng.randint(0, 1))] for row in _rows(rng, features, TRAIN_ROWS, "t")]
    (workspace / "data").mkdir(exist_ok=True)
    (workspace / "data" / "train.csv").write_text(_csv([*header, "label"], train), "utf-8")
    hidden = _rows(rng, features, rng.randint(40, 60), "h")
    (private / "hidden").mkdir(parents=True, exist_ok=True)
    (private / "hidden" / "input.csv").write_text(_csv(header, hidden), "utf-8")
    (private / "expected.csv").write_text(_scores(model, hidden), "utf-8")
    return {}
