"""The scoring service: a few named logistic models behind a small Flask API.

Routes: ``GET /healthz``, ``GET /models``, ``GET /models/<name>``, ``POST /predict`` and two debug
routes the load tests use (``GET /debug/delay?ms=N`` sleeps, ``GET /debug/fail`` raises).
``start.sh`` serves it with gunicorn.
"""

import json
import math
import time
from pathlib import Path

from flask import Flask, abort, jsonify, request

HERE = Path(__file__).resolve().parent
MODELS = json.loads((HERE / "models.json").read_text("utf-8"))["models"]
MAX_DELAY_MS = 2000

app = Flask(__name__)


@app.get("/healthz")
def healthz():
    return jsonify(status="ok")


@app.get("/models")
def list_models():
    return jsonify(models=sorted(MODELS))


@app.get("/models/<name>")
def describe_model(name):
    if name not in MODELS:
        abort(404)
    return jsonify(name=name, features=MODELS[name]["features"])


def _score(model, row):
    z = model["intercept"] + sum(w * x for w, x in zip(model["coef"], row, strict=True))
    return 1.0 / (1.0 + math.exp(-z))


def _valid_rows(rows, width):
    return (
        isinstance(rows, list)
        and rows
        and all(
            isinstance(row, list)
            and len(row) == width
            and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in row)
            for row in rows
        )
    )


@app.post("/predict")
def predict():
    payload = request.get_json(silent=True)
    if not isinstance(payload, dict) or payload.get("model") not in MODELS:
        return jsonify(error='send {"model": NAME, "rows": [[...], ...]}'), 400
    model = MODELS[payload["model"]]
    if not _valid_rows(payload.get("rows"), len(model["features"])):
        return jsonify(error=f"each row needs {len(model['features'])} numbers"), 400
    return jsonify(scores=[round(_score(model, row), 6) for row in payload["rows"]])


@app.get("/debug/delay")
def debug_delay():
    milliseconds = min(request.args.get("ms", default=0, type=int), MAX_DELAY_MS)
    time.sleep(milliseconds / 1000)
    return jsonify(slept_ms=milliseconds)


@app.get("/debug/fail")
def debug_fail():
    raise RuntimeError("deliberate failure (alerting drill)")
