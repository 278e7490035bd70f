"""Fixtures of the gateway tests: a FAKE upstream on loopback, a gateway in front of it, and the
plugin tests' example project (``project``)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pytest_mlebench.gateway import (
    FORWARDER_SCRIPT,
    Budget,
    Gateway,
    GatewayConfig,
    Provider,
    load_price_table,
)
from tests.gateway.fake_upstream import FakeUpstream
from tests.plugin.conftest import project

__all__ = ["project"]  # the example project fixture of the plugin tests, used here too

PROVIDER_KEY = "sk-test-0123456789abcdef-PROVIDERKEY"

# A stdlib client run behind the forwarder: sends CALLS (a JSON list of [path, body]) to the
# gateway and prints one JSON line per answer: status, body (JSON or the raw event stream).
CLIENT = r"""
import json, os, sys, urllib.error, urllib.request
root = os.environ["MLEBENCH_GATEWAY_URL"]
for path, body in json.loads(sys.argv[1]):
    request = urllib.request.Request(root + path, data=json.dumps(body).encode(),
        headers={"Authorization": "Bearer " + os.environ["OPENAI_API_KEY"],
                 "Content-Type": "application/json"})
    try:
        answer = urllib.request.urlopen(request, timeout=30)
    except urllib.error.HTTPError as error:
        answer = error
    raw = answer.read().decode()
    try:
        parsed = json.loads(raw)
    except ValueError:
        parsed = raw
    print(json.dumps({"status": answer.status if hasattr(answer, "status") else answer.code,
                      "body": parsed}))
"""


@pytest.fixture
def fake_upstream() -> Iterator[FakeUpstream]:
    with FakeUpstream() as fake:
        yield fake


def make_gateway(
    fake: FakeUpstream, tmp_path: Path, budget: Budget | None = None, **environ: str
) -> Gateway:
    config = GatewayConfig(
        {
            "openai": Provider("openai", fake.url, "${{ secrets.TEST_OPENAI_KEY }}"),
            "anthropic": Provider("anthropic", fake.root, "${{ secrets.TEST_OPENAI_KEY }}"),
        }
    )
    return Gateway(
        config,
        load_price_table(),
        tmp_path / "run" / "gateway.jsonl",
        budget=budget,
        environ={"TEST_OPENAI_KEY": PROVIDER_KEY, **environ},
    )


@pytest.fixture
def gateway(fake_upstream: FakeUpstream, tmp_path: Path) -> Iterator[Gateway]:
    started = make_gateway(fake_upstream, tmp_path)
    started.start(tmp_path / "sock" / "gateway.sock")
    yield started
    started.stop()


def call_through(
    gateway: Gateway, calls: list[tuple[str, dict[str, Any]]], token: str | None = None
) -> list[Any]:
    """Run the stdlib client behind the real forwarder; the answers it printed."""
    assert gateway.socket_path is not None
    command = [
        sys.executable,
        str(FORWARDER_SCRIPT),
        "--socket",
        str(gateway.socket_path),
        "--",
        sys.executable,
        "-c",
        CLIENT,
        json.dumps(calls),
    ]
    env = {"PATH": os.environ["PATH"], "OPENAI_API_KEY": token or gateway.token}
    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return [json.loads(line) for line in done.stdout.splitlines()]


def transcript(gateway: Gateway) -> list[dict[str, Any]]:
    lines = gateway.transcript_path.read_text().splitlines()
    return [json.loads(line) for line in lines]
