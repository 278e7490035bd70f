from __future__ import annotations

import json
import os
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from mlebench_agent_run import run_agent, suite_command


def get(url: str) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=3) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as exc:
        return exc.code, b""


@pytest.mark.check("F1")
def test_echo_has_the_seed_prefix(service, private_dir, evidence):
    prefix = (private_dir / "prefix.txt").read_text()
    status, body = get(f"{service}/echo?text=hello")
    evidence(f"GET /echo?text=hello -> {status} {body[:80]!r}")
    assert status == 200 and json.loads(body) == {"echo": prefix + "hello"}


@pytest.mark.check("F2")
def test_the_visible_tests_pass(work_dir, evidence):
    result = run_agent(suite_command(work_dir, "-q", "tests"), cwd=work_dir, timeout_s=60)
    evidence(result.stdout.strip().splitlines()[-1] if result.stdout.strip() else "no output")
    assert result.returncode == 0


@pytest.mark.check("R1")
def test_healthz(service):
    assert get(f"{service}/healthz") == (200, b"ok")


@pytest.mark.check("X1")
def test_one_log_line_per_request(service):
    for _ in range(3):
        get(f"{service}/echo?text=x")
    log = Path(os.environ["APP_LOG"])
    lines = log.read_text().splitlines() if log.is_file() else []
    assert len(lines) >= 3 and all("path" in json.loads(line) for line in lines)
