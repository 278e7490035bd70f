"""The service under test, started by the verifier from the agent's ``bash start.sh``.

Each start gets a port, a worker count and a bucket list chosen here (never the agent's
``$PORT``/``$WORKERS``/``$LATENCY_BUCKETS``), runs as an unprivileged user in its own process
group and is killed at the end. ``Scrape`` parses ``/metrics`` with prometheus_client's own
parser, so a text the real Prometheus server would reject fails here too.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import socket
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from mlebench_agent_run import AgentProcess, start_agent
from prometheus_client.parser import text_string_to_metric_families

READY_WITHIN_S = 30.0
REQUESTS = "http_requests_total"
ERRORS = "http_request_errors_total"
LATENCY = "http_request_duration_seconds"
BUCKET_CHOICES = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0]
RNG = random.Random()  # a fresh draw every verifier run: nothing to learn from earlier runs


@dataclass
class Reply:
    status: int
    body: bytes
    headers: dict[str, str]
    elapsed: float


@dataclass
class Scrape:
    """One parsed ``/metrics`` text: its families (name → type) and samples by name."""

    families: dict[str, str]
    samples: dict[str, list[tuple[dict[str, str], float]]]
    label_names: dict[str, set[str]]

    def values(self, sample: str, keys: tuple[str, ...]) -> dict[tuple[str, ...], float]:
        """``sample``'s values keyed by the label values ``keys`` (summed over other labels)."""
        table: dict[tuple[str, ...], float] = {}
        for labels, value in self.samples.get(sample, []):
            key = tuple(labels.get(k, "") for k in keys)
            table[key] = table.get(key, 0.0) + value
        return table


def parse_metrics(text: str) -> Scrape:
    families: dict[str, str] = {}
    samples: dict[str, list[tuple[dict[str, str], float]]] = {}
    label_names: dict[str, set[str]] = {}
    for family in text_string_to_metric_families(text):
        families[family.name] = family.type
        for sample in family.samples:
            samples.setdefault(sample.name, []).append((dict(sample.labels), sample.value))
            label_names.setdefault(family.name, set()).update(sample.labels)
    return Scrape(families, samples, label_names)


def delta(
    after: dict[tuple[str, ...], float], before: dict[tuple[str, ...], float]
) -> dict[tuple[str, ...], float]:
    keys = set(after) | set(before)
    return {k: after.get(k, 0.0) - before.get(k, 0.0) for k in keys}


def pick_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def pick_buckets(avoid: list[list[float]]) -> list[float]:
    """Two bounds under 0.1 s (the delay checks need one under 0.15 s) and three above; differs
    from every list in ``avoid``."""
    while True:
        low = RNG.sample([b for b in BUCKET_CHOICES if b < 0.1], 2)
        high = RNG.sample([b for b in BUCKET_CHOICES if b >= 0.1], 3)
        chosen = sorted(low + high)
        if chosen not in avoid:
            return chosen


@dataclass
class Service:
    port: int
    workers: int
    buckets: list[float]
    process: AgentProcess
    output: Path
    ready: bool = False
    settled: list[int] | None = None

    def call(self, method: str, path: str, payload: Any = None, timeout: float = 10) -> Reply:
        body = json.dumps(payload).encode() if payload is not None else None
        headers = {"Content-Type": "application/json"} if body is not None else {}
        request = urllib.request.Request(
            f"http://127.0.0.1:{self.port}{path}", data=body, method=method, headers=headers
        )
        started = time.monotonic()
        try:
            with urllib.request.urlopen(request, timeout=timeout) as reply:
                status, raw, head = reply.status, reply.read(), dict(reply.headers)
        except urllib.error.HTTPError as error:
            status, raw, head = error.code, error.read(), dict(error.headers)
        return Reply(status, raw, head, time.monotonic() - started)

    def parallel(self, paths: list[str]) -> list[Reply]:
        """GET every path at once, one thread each (sync workers: each lands on its own worker
        while the others are busy)."""
        replies: list[Reply | None] = [None] * len(paths)

        def fetch(index: int, path: str) -> None:
            replies[index] = self.call("GET", path)

        threads = [threading.Thread(target=fetch, args=item) for item in enumerate(paths)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(30)
        assert all(r is not None for r in replies), "a parallel request did not finish"
        return [r for r in replies if r is not None]

    def scrape(self) -> Scrape:
        reply = self.call("GET", "/metrics")
        assert reply.status == 200, f"/metrics answered {reply.status}"
        return parse_metrics(reply.body.decode("utf-8"))

    def healthy(self) -> bool:
        try:
            return self.call("GET", "/healthz", timeout=2).status == 200
        except OSError:
            return False

    def wait_ready(self, within: float = READY_WITHIN_S) -> bool:
        deadline = time.monotonic() + within
        while time.monotonic() < deadline and self.process.poll() is None:
            if self.healthy():
                self.ready = True
                return True
            time.sleep(0.2)
        return False

    def tail(self) -> str:
        try:
            return self.output.read_text("utf-8", "replace")[-500:]
        except OSError:
            return ""

    def workers_now(self) -> list[int]:
        return gunicorn_workers(self.process.pid)

    def settled_workers(self, within: float = 5.0) -> list[int]:
        """The worker pids once there are ``self.workers`` of them (the first answer may come
        while the others still boot), or whatever is there after ``within`` seconds; waited
        for once per start, so a service with too few workers costs that wait only once."""
        if self.settled is None:
            deadline = time.monotonic() + within
            while True:
                self.settled = self.workers_now()
                if len(self.settled) == self.workers or time.monotonic() > deadline:
                    break
                time.sleep(0.2)
        return self.settled

    def stop(self) -> None:
        self.process.stop()


def start_service(work: Path, workers: int, buckets: list[float]) -> Service:
    """``bash start.sh`` in ``work`` with a fresh port, ``workers`` and ``buckets``."""
    port = pick_port()
    folder = Path(tempfile.mkdtemp(prefix="svc-"))
    output = folder / "start.out"
    env = {
        "PORT": str(port),
        "WORKERS": str(workers),
        "LATENCY_BUCKETS": ",".join(f"{b:g}" for b in buckets),
        "TMPDIR": str(folder),
    }
    process = start_agent(
        ["bash", "start.sh"], log=output, cwd=work, writable=(work, folder), env=env, home=folder
    )
    return Service(port=port, workers=workers, buckets=buckets, process=process, output=output)


def gunicorn_workers(group: int) -> list[int]:
    """Worker pids of the service started as process group ``group``: gunicorn processes whose
    parent is a gunicorn process too."""
    table: dict[int, tuple[int, int, str]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmd = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            table[int(entry.name)] = (int(fields[1]), int(fields[2]), cmd)
        except (OSError, ValueError, IndexError):
            continue
    return sorted(
        pid
        for pid, (ppid, pgid, cmd) in table.items()
        if pgid == group and "gunicorn" in cmd and "gunicorn" in table.get(ppid, (0, 0, ""))[2]
    )


@pytest.fixture(scope="session")
def models() -> dict[str, Any]:
    """The seed's models as the agent received them (never the agent's edited copy)."""
    pristine = Path(os.environ["PRISTINE_DIR"])
    return json.loads((pristine / "models.json").read_text("utf-8"))["models"]


@pytest.fixture(scope="session")
def services() -> Iterator[dict[str, Service]]:
    """The main instance (2 workers) and the starting code (for the overhead baseline), started
    together so that their start-up waits overlap."""
    work = Path(os.environ["WORK_DIR"])
    baseline_copy = Path(tempfile.mkdtemp(prefix="baseline-")) / "app"
    baseline_copy.parent.chmod(0o755)  # the agent's user must reach the copy
    shutil.copytree(os.environ["PRISTINE_DIR"], baseline_copy)
    buckets = pick_buckets([])
    started = {
        "main": start_service(work, 2, buckets),
        "baseline": start_service(baseline_copy, 2, buckets),
    }
    for service in started.values():
        service.wait_ready()
    yield started
    for service in started.values():
        service.stop()


@pytest.fixture
def main(services: dict[str, Service]) -> Service:
    service = services["main"]
    if not service.ready:
        pytest.fail(f"bash start.sh never answered /healthz within 30 s: {service.tail()}")
    return service


@pytest.fixture(scope="session")
def second(services: dict[str, Service]) -> Iterator[Service]:
    """A later start with 3 workers and other buckets, after the main instance has stopped."""
    services["main"].stop()
    services["baseline"].stop()
    avoid = [services["main"].buckets]
    service = start_service(Path(os.environ["WORK_DIR"]), 3, pick_buckets(avoid))
    service.wait_ready()
    yield service
    service.stop()


@pytest.fixture
def second_ready(second: Service) -> Service:
    if not second.ready:
        pytest.fail(f"the second start never answered /healthz: {second.tail()}")
    return second
