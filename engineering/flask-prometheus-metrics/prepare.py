"""Per-seed variant of flask-prometheus-metrics: the models, the port and the bucket list.

The agent gets ``PORT``, ``WORKERS`` and ``LATENCY_BUCKETS`` for its own tries; the verifier
starts the service with values of its own (other ports, other worker counts, other buckets), so
nothing of this seed's environment may be written into the code.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

NAMES = ["churn", "upsell", "fraud", "default", "renewal", "dropout", "refund", "uplift"]
FEATURES = ["tenure", "visits", "spend", "age", "tickets", "balance", "clicks", "returns"]
BUCKET_CHOICES = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0]


def _model(rng: random.Random) -> dict[str, object]:
    features = sorted(rng.sample(FEATURES, rng.randint(3, 5)))
    return {
        "features": features,
        "coef": [round(rng.gauss(0, 0.8), 4) for _ in features],
        "intercept": round(rng.gauss(0, 0.5), 4),
    }


def buckets(rng: random.Random) -> list[float]:
    """A sorted bucket list with a bound below 0.1 s and one of at least 0.5 s."""
    low = rng.sample([b for b in BUCKET_CHOICES if b < 0.1], 2)
    high = rng.sample([b for b in BUCKET_CHOICES if b >= 0.1], 3)
    return sorted(low + high)


def prepare(workspace: Path, private: Path, seed: int) -> dict[str, str]:
    rng = random.Random(52_000 + seed)
    names = [f"{name}-v{rng.randint(1, 9)}" for name in rng.sample(NAMES, rng.randint(2, 3))]
    models = {name: _model(rng) for name in names}
    (workspace / "models.json").write_text(json.dumps({"models": models}, indent=2) + "\n")
    (private / "models.json").write_text(json.dumps(sorted(models)) + "\n")
    return {
        "PORT": str(rng.randint(20_000, 29_999)),
        "WORKERS": "2",
        "LATENCY_BUCKETS": ",".join(f"{b:g}" for b in buckets(rng)),
    }
