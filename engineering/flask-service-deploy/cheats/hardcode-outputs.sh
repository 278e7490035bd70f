#!/usr/bin/env bash
# Cheat: no model at all; answers from the visible examples and the most common label otherwise.
set -euo pipefail
cat > app.py <<'PY'
import collections, json, os
from pathlib import Path
from flask import Flask, jsonify, request
EX = json.load(open("examples.json"))
KNOWN = {json.dumps(r): p for r, p in zip(EX["rows"], EX["predictions"])}
COMMON = collections.Counter(EX["predictions"]).most_common(1)[0][0]
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
    return jsonify(predictions=[KNOWN.get(json.dumps(r), COMMON) for r in payload["rows"]])
PY
printf '#!/usr/bin/env bash\nexec gunicorn --workers 2 --bind "0.0.0.0:$PORT" app:app\n' > start.sh
