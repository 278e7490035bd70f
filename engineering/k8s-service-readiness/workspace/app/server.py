"""The scorer service that the container image runs: an API port and a metrics port.

Environment: HTTP_PORT (the API), METRICS_PORT (Prometheus text), WARMUP_SECONDS (how long loading
the model takes, default 3), BIND_ADDRESS (default 0.0.0.0).

API port: GET /healthz is 200 as soon as the process runs (liveness); GET /ready is 503 until the
model is loaded, then 200 (readiness); GET /predict?x=NUMBER answers {"score": ...} once the model
is loaded and 503 before. Metrics port: GET /metrics.
"""

from __future__ import annotations

import json
import math
import os
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlparse

LOADED = threading.Event()
REQUESTS = {"count": 0}


def load_model(seconds: float) -> None:
    time.sleep(seconds)
    LOADED.set()


class Api(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        REQUESTS["count"] += 1
        url = urlparse(self.path)
        if url.path == "/healthz":
            self.reply(200, {"status": "alive"})
        elif url.path == "/ready":
            self.reply(200 if LOADED.is_set() else 503, {"ready": LOADED.is_set()})
        elif url.path == "/predict":
            if not LOADED.is_set():
                self.reply(503, {"error": "model not loaded yet"})
                return
            try:
                x = float(parse_qs(url.query)["x"][0])
            except (KeyError, ValueError):
                self.reply(400, {"error": "x must be a number"})
                return
            self.reply(200, {"score": 1 / (1 + math.exp(-0.8 * x))})
        else:
            self.reply(404, {"error": "not found"})

    def reply(self, status: int, body: dict[str, object]) -> None:
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args: object) -> None:
        pass


class Metrics(Api):
    def do_GET(self) -> None:
        if urlparse(self.path).path != "/metrics":
            self.reply(404, {"error": "not found"})
            return
        text = f"# TYPE scorer_requests_total counter\nscorer_requests_total {REQUESTS['count']}\n"
        data = text.encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/plain; version=0.0.4")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


def main() -> None:
    try:
        api_port, metrics_port = int(os.environ["HTTP_PORT"]), int(os.environ["METRICS_PORT"])
    except (KeyError, ValueError):
        sys.exit("HTTP_PORT and METRICS_PORT must be set to port numbers")
    address = os.environ.get("BIND_ADDRESS", "0.0.0.0")
    threading.Thread(
        target=load_model, args=(float(os.environ.get("WARMUP_SECONDS", "3")),), daemon=True
    ).start()
    metrics = ThreadingHTTPServer((address, metrics_port), Metrics)
    threading.Thread(target=metrics.serve_forever, daemon=True).start()
    ThreadingHTTPServer((address, api_port), Api).serve_forever()


if __name__ == "__main__":
    main()
