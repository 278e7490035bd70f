#!/usr/bin/env bash
# The oracle: a gunicorn-served Flask app on $PORT with /healthz, validated /predict and one JSON
# log line per request in $APP_LOG.
set -euo pipefail
cat > app.py <<'PY'
"""The prediction service: /healthz and /predict over model.pkl, one JSON log line per request.

Run by start.sh under gunicorn. Settings come from the environment: APP_LOG (the log file; its
directory is created) and, for gunicorn, PORT.
"""

import json
import os
import pickle
import time
from datetime import datetime, timezone
from pathlib import Path

import numpy as np
from flask import Flask, g, jsonify, request

HERE = Path(__file__).resolve().parent
with (HERE / "model.pkl").open("rb") as handle:
    MODEL = pickle.load(handle)
FEATURES = json.loads((HERE / "model" / "params.json").read_text("utf-8"))["features"]
LOG_PATH = Path(os.environ.get("APP_LOG") or HERE / "logs" / "app.log")
LOG_PATH.parent.mkdir(parents=True, exist_ok=True)

app = Flask(__name__)


@app.before_request
def start_clock():
    g.started = time.perf_counter()


@app.after_request
def log_request(response):
    record = {
        "time": datetime.now(timezone.utc).isoformat(),
        "method": request.method,
        "path": request.path,
        "status": response.status_code,
        "latency_ms": round((time.perf_counter() - g.get("started", time.perf_counter())) * 1000, 3),
        "pid": os.getpid(),
    }
    # one short write in append mode: lines of several workers do not interleave
    with LOG_PATH.open("a", encoding="utf-8") as log:
        log.write(json.dumps(record) + "\n")
    return response


@app.get("/healthz")
def healthz():
    return jsonify(status="ok")


def _valid(rows):
    return (
        isinstance(rows, list)
        and rows
        and all(
            isinstance(row, list)
            and len(row) == len(FEATURES)
            and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in row)
            for row in rows
        )
    )


@app.post("/predict")
def predict():
    payload = request.get_json(silent=True)
    rows = payload.get("rows") if isinstance(payload, dict) else None
    if not _valid(rows):
        message = f"send JSON {{\"rows\": [[{', '.join(FEATURES)}], ...]}}"
        return jsonify(error=message), 400
    labels = MODEL.predict(np.asarray(rows, dtype=float))
    return jsonify(predictions=[str(label) for label in labels])
PY
cat > start.sh <<'SH'
#!/usr/bin/env bash
# Entry point: pickles the model with this image's scikit-learn if needed, then serves app:app
# with gunicorn on $PORT (2 workers: one may die, the master replaces it; --preload imports the
# app and scikit-learn once in the master, so starting and replacing workers is quick).
set -euo pipefail
cd "$(dirname "$0")"
[ -f model.pkl ] || python3 model/build.py
exec gunicorn --workers 2 --preload --bind "0.0.0.0:${PORT:?set PORT}" --timeout 30 app:app
SH
chmod +x start.sh
python3 model/build.py
