#!/usr/bin/env bash
# The oracle: Prometheus metrics in multiprocess mode. Each gunicorn worker writes its samples to
# a per-process file in $PROMETHEUS_MULTIPROC_DIR (a fresh folder per start); /metrics sums every
# worker's files, so a scrape answered by any worker shows every request.
set -euo pipefail
cat > metrics.py <<'PY'
"""Request metrics for the Flask app: counts, errors and latency, shared by every gunicorn worker.

With PROMETHEUS_MULTIPROC_DIR set (start.sh does), samples go to per-process files there and a
scrape aggregates all of them; without it (tests, a single process) the default registry is used.
Labels are bounded: ``endpoint`` is the matched route's rule (``/models/<name>``), never the raw
path, and ``unmatched`` when no route matched.
"""

import os
import time

from flask import Flask, Response, g, request
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Histogram,
    generate_latest,
    multiprocess,
)

DEFAULT_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)


def buckets_from_env() -> tuple[float, ...]:
    """LATENCY_BUCKETS ("0.01,0.1,1") in seconds, sorted; the defaults when unset."""
    raw = os.environ.get("LATENCY_BUCKETS", "").strip()
    if not raw:
        return DEFAULT_BUCKETS
    return tuple(sorted(float(part) for part in raw.split(",") if part.strip()))


REQUESTS = Counter(
    "http_requests_total", "HTTP requests answered, by method, route and status code.",
    ["method", "endpoint", "status"],
)  # fmt: skip
ERRORS = Counter(
    "http_request_errors_total", "HTTP requests answered with a 5xx status (server errors).",
    ["method", "endpoint"],
)  # fmt: skip
LATENCY = Histogram(
    "http_request_duration_seconds", "Time from request start to response, in seconds.",
    ["method", "endpoint"], buckets=buckets_from_env(),
)  # fmt: skip


def _endpoint() -> str:
    rule = request.url_rule
    return rule.rule if rule is not None else "unmatched"


def _start_timer() -> None:
    g.metrics_started = time.perf_counter()


def _observe(response: Response) -> Response:
    if request.path == "/metrics":
        return response
    started = g.get("metrics_started")
    endpoint, method = _endpoint(), request.method
    if started is not None:
        LATENCY.labels(method, endpoint).observe(time.perf_counter() - started)
    REQUESTS.labels(method, endpoint, str(response.status_code)).inc()
    if response.status_code >= 500:
        ERRORS.labels(method, endpoint).inc()
    return response


def _metrics() -> Response:
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)
    else:
        registry = REGISTRY
    return Response(generate_latest(registry), mimetype=CONTENT_TYPE_LATEST)


def instrument(app: Flask) -> None:
    """Time and count every request of ``app`` and serve GET /metrics."""
    app.before_request(_start_timer)
    app.after_request(_observe)
    app.add_url_rule("/metrics", "metrics", _metrics, methods=["GET"])
PY
python3 - <<'PY'
from pathlib import Path

app = Path("app.py")
text = app.read_text()
text = text.replace(
    "from flask import Flask, abort, jsonify, request\n",
    "from flask import Flask, abort, jsonify, request\n\nfrom metrics import instrument\n",
)
text = text.replace("app = Flask(__name__)\n", "app = Flask(__name__)\ninstrument(app)\n")
app.write_text(text)
PY
cat > gunicorn.conf.py <<'PY'
"""gunicorn settings: a dead worker's live gauges are dropped from the shared metrics."""

from prometheus_client import multiprocess


def child_exit(server, worker):
    multiprocess.mark_process_dead(worker.pid)
PY
cat > start.sh <<'SH'
#!/usr/bin/env bash
# Entry point: serves app:app with gunicorn on $PORT with $WORKERS sync workers. The metrics of
# all workers meet in a fresh PROMETHEUS_MULTIPROC_DIR, created here for each start (stale files
# of an earlier start would add old counts), before any worker imports prometheus_client.
set -euo pipefail
cd "$(dirname "$0")"
PROMETHEUS_MULTIPROC_DIR="$(mktemp -d)"
export PROMETHEUS_MULTIPROC_DIR
exec gunicorn --config gunicorn.conf.py --workers "${WORKERS:-2}" \
  --bind "0.0.0.0:${PORT:?set PORT}" app:app
SH
chmod +x start.sh
