"""Visible tests of the service's routes (Flask's test client): ``python3 -m pytest tests``.

They do not start gunicorn and do not look at /metrics; the hidden checks do (instruction.md).
"""

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app import app  # noqa: E402

client = app.test_client()
MODELS = json.loads((ROOT / "models.json").read_text("utf-8"))["models"]


def test_healthz() -> None:
    assert client.get("/healthz").status_code == 200


def test_every_model_is_listed_and_described() -> None:
    assert client.get("/models").get_json()["models"] == sorted(MODELS)
    for name in MODELS:
        assert client.get(f"/models/{name}").status_code == 200
    assert client.get("/models/no-such-model").status_code == 404


def test_predict_scores_are_probabilities() -> None:
    name, model = sorted(MODELS.items())[0]
    rows = [[0.0] * len(model["features"]), [1.0] * len(model["features"])]
    reply = client.post("/predict", json={"model": name, "rows": rows})
    assert reply.status_code == 200
    assert all(0.0 < s < 1.0 for s in reply.get_json()["scores"])


def test_bad_body_is_400() -> None:
    assert client.post("/predict", data=b"{nope").status_code == 400
    assert client.post("/predict", json={"model": "no-such-model", "rows": []}).status_code == 400


def test_debug_routes() -> None:
    assert client.get("/debug/delay?ms=1").get_json() == {"slept_ms": 1}
    app.config["PROPAGATE_EXCEPTIONS"] = False
    assert client.get("/debug/fail").status_code == 500
