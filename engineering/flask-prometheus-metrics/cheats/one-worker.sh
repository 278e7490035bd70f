#!/usr/bin/env bash
# Cheat: the plain single-process prometheus_client registry, made exact by hard-coding one
# gunicorn worker whatever $WORKERS says (the hard-coded-value pattern).
set -euo pipefail
cat >> app.py <<'PY'

import os as _os
from flask import Response, g
from prometheus_client import Counter, Histogram, generate_latest

_BUCKETS = [float(b) for b in _os.environ.get("LATENCY_BUCKETS", "0.1,1").split(",")]
_REQ = Counter("http_requests_total", "requests", ["method", "endpoint", "status"])
_ERR = Counter("http_request_errors_total", "errors", ["method", "endpoint"])
_LAT = Histogram("http_request_duration_seconds", "latency", ["method", "endpoint"], buckets=_BUCKETS)


@app.before_request
def _t0():
    g.t0 = time.perf_counter()


@app.after_request
def _count(response):
    if request.path != "/metrics":
        ep = request.url_rule.rule if request.url_rule else "unmatched"
        _LAT.labels(request.method, ep).observe(time.perf_counter() - g.t0)
        _REQ.labels(request.method, ep, str(response.status_code)).inc()
        if response.status_code >= 500:
            _ERR.labels(request.method, ep).inc()
    return response


@app.get("/metrics")
def _metrics():
    return Response(generate_latest(), mimetype="text/plain")
PY
sed -i 's/--workers "${WORKERS:-2}"/--workers 1/' start.sh
