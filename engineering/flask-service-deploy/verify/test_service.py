"""Hidden checks of flask-service-deploy (check ids of config.yaml), in file order.

The second start (port 5000 taken) runs while the main instance idles, inside the 8 s that the
liveness check waits anyway; the worker kill comes last.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import READY_WITHIN_S, Service, gunicorn_workers, log_lines, start_service

ALIVE_AFTER_S = 8.0


@pytest.mark.check("F1")
def test_healthz_within_30s_under_gunicorn(
    service: Service, evidence: Callable[[str], None]
) -> None:
    assert service.ready_at is not None, (
        f"/healthz not 200 within {READY_WITHIN_S:.0f} s: {service.tail()}"
    )
    reply = service.request("GET", "/healthz")
    server = reply.headers.get("Server", "")
    evidence(f"/healthz {reply.status}, Server: {server}")
    assert "gunicorn" in server.lower(), f"the server is {server!r}, not gunicorn"


@pytest.mark.check("F2")
def test_predict_hidden_rows(
    ready: Service, hidden: dict[str, Any], evidence: Callable[[str], None]
) -> None:
    reply = ready.post_json("/predict", {"rows": hidden["rows"]})
    assert reply.status == 200, f"/predict answered {reply.status}"
    got = reply.json()["predictions"]
    wrong = sum(str(a) != b for a, b in zip(got, hidden["predictions"], strict=False))
    evidence(f"{len(hidden['rows']) - wrong}/{len(hidden['rows'])} hidden rows right")
    assert len(got) == len(hidden["rows"]) and wrong == 0


@pytest.mark.check("F2")
def test_predict_single_rows(ready: Service, hidden: dict[str, Any]) -> None:
    for row, label in list(zip(hidden["rows"], hidden["predictions"], strict=True))[:5]:
        reply = ready.post_json("/predict", {"rows": [row]})
        assert reply.status == 200 and [str(p) for p in reply.json()["predictions"]] == [label]


@pytest.mark.check("B1")
@pytest.mark.parametrize(
    "body",
    [b"{not json", b'{"rows": "abc"}', b'{"rows": [[1, 2]]}', b'{"other": []}'],
    ids=["malformed-json", "rows-not-a-list", "wrong-width", "no-rows"],
)
def test_bad_input_is_400(ready: Service, body: bytes, evidence: Callable[[str], None]) -> None:
    reply = ready.request("POST", "/predict", body)
    evidence(f"{body[:20]!r} → {reply.status}")
    assert reply.status == 400


@pytest.mark.check("X1")
def test_one_json_log_line_per_request(
    ready: Service, hidden: dict[str, Any], evidence: Callable
) -> None:
    before = log_lines(ready.log)
    count = 7
    for row in hidden["rows"][:count]:
        assert ready.post_json("/predict", {"rows": [row]}).status == 200
    time.sleep(0.5)
    lines = log_lines(ready.log)
    records = [json.loads(line) for line in lines]  # every line must be JSON
    new = [r for r in records[len(before) :] if r.get("path") == "/predict"]
    evidence(f"{len(lines)} lines in $APP_LOG, {len(new)} new for {count} /predict requests")
    assert len(new) == count
    for record in new:
        assert record.get("method") == "POST" and int(record["status"]) == 200
        assert float(record["latency_ms"]) >= 0


@pytest.mark.check("B4")
def test_port_5000_taken(ready: Service, work_dir: Path, evidence: Callable[[str], None]) -> None:
    blocker = socket.socket()
    blocker.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    blocker.bind(("0.0.0.0", 5000))
    blocker.listen(1)
    second = start_service(work_dir)
    try:
        up = second.wait_ready()
        evidence(
            f"port 5000 held by the verifier; service on {second.port}: {'up' if up else 'down'}"
        )
        assert up, f"not ready on $PORT while port 5000 was taken: {second.tail()}"
    finally:
        second.stop()
        blocker.close()


@pytest.mark.check("B2")
def test_alive_after_8s(ready: Service, evidence: Callable[[str], None]) -> None:
    assert ready.ready_at is not None
    time.sleep(max(0.0, ready.ready_at + ALIVE_AFTER_S - time.monotonic()))
    alive = ready.healthy()
    evidence(f"/healthz {'200' if alive else 'down'} {ALIVE_AFTER_S:.0f} s after it first answered")
    assert alive


@pytest.mark.check("B3")
def test_survives_kill_9_of_a_worker(
    ready: Service, hidden: dict[str, Any], evidence: Callable
) -> None:
    assert ready.healthy(), "the service is down already"
    workers = gunicorn_workers(ready.process.pid)
    assert workers, "no gunicorn worker process found in the service's process group"
    os.kill(workers[0], signal.SIGKILL)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            reply = ready.post_json("/predict", {"rows": hidden["rows"][:3]})
            if reply.status == 200 and reply.json()["predictions"] == hidden["predictions"][:3]:
                evidence(f"killed worker {workers[0]} of {len(workers)}; answered again")
                return
        except OSError:
            pass
        time.sleep(0.3)
    pytest.fail("the service did not answer within 10 s after kill -9 of one worker")
