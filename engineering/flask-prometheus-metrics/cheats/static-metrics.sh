#!/usr/bin/env bash
# Cheat: /metrics is a canned text with the right names, types and labels and made-up numbers;
# nothing is counted.
set -euo pipefail
cat > canned_metrics.txt <<'TXT'
# HELP http_requests_total HTTP requests.
# TYPE http_requests_total counter
http_requests_total{method="GET",endpoint="/healthz",status="200"} 12.0
http_requests_total{method="POST",endpoint="/predict",status="200"} 5.0
http_requests_total{method="GET",endpoint="/debug/fail",status="500"} 2.0
# HELP http_request_errors_total Server errors.
# TYPE http_request_errors_total counter
http_request_errors_total{method="GET",endpoint="/debug/fail"} 2.0
# HELP http_request_duration_seconds Latency.
# TYPE http_request_duration_seconds histogram
http_request_duration_seconds_bucket{method="GET",endpoint="/healthz",le="0.1"} 12.0
http_request_duration_seconds_bucket{method="GET",endpoint="/healthz",le="+Inf"} 12.0
http_request_duration_seconds_count{method="GET",endpoint="/healthz"} 12.0
http_request_duration_seconds_sum{method="GET",endpoint="/healthz"} 0.03
TXT
cat >> app.py <<'PY'


@app.get("/metrics")
def canned_metrics():
    return (HERE / "canned_metrics.txt").read_text(), 200, {"Content-Type": "text/plain; version=0.0.4"}
PY
