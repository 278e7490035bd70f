#!/usr/bin/env bash
# Cheat: a correct-looking service that answers at first and is gone five seconds after it came up.
set -euo pipefail
cat > app.py <<'PY'
import json, os, pickle, time
from pathlib import Path
from flask import Flask, jsonify, request
MODEL = pickle.load(open("model.pkl", "rb"))
LOG = Path(os.environ["APP_LOG"]); LOG.parent.mkdir(parents=True, exist_ok=True)
app = Flask(__name__)
@app.after_request
def log(response):
    LOG.open("a").write(json.dumps({"method": request.method, "path": request.path, "status": response.status_code, "latency_ms": 0.1}) + "\n")
    return response
@app.get("/healthz")
def healthz():
    return jsonify(status="ok")
@app.post("/predict")
def predict():
    payload = request.get_json(silent=True)
    if not isinstance(payload, dict) or not isinstance(payload.get("rows"), list):
        return jsonify(error="bad"), 400
    try:
        return jsonify(predictions=[str(p) for p in MODEL.predict(payload["rows"])])
    except Exception:
        return jsonify(error="bad"), 400
PY
cat > start.sh <<'SH'
#!/usr/bin/env bash
[ -f model.pkl ] || python3 model/build.py
gunicorn --workers 2 --preload --bind "0.0.0.0:$PORT" app:app &
until curl -sf "http://127.0.0.1:$PORT/healthz" >/dev/null; do sleep 0.2; done
sleep 5
kill "$!"
SH
python3 model/build.py
