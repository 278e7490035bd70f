"""The LLM gateway inside real sandboxes (local and Docker), against a FAKE upstream on loopback.

The agent side is the standard library only. In Docker (network ``none``) the checks of the
acceptance: the call works through the mounted socket, ``env`` and the file system hold no
provider key, and a direct connection to any outside address fails.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from pytest_mlebench.gateway import Gateway
from pytest_mlebench.gateway.service import GatewayService
from pytest_mlebench.sandbox.conformance import SandboxFactory, run_python
from pytest_mlebench.sandbox.services import Services
from tests.gateway.conftest import PROVIDER_KEY, make_gateway
from tests.gateway.fake_upstream import INPUT_TOKENS, FakeUpstream

CALL = r"""
import json, os, urllib.request
request = urllib.request.Request(os.environ["OPENAI_BASE_URL"] + "/chat/completions",
    data=json.dumps({"model": "gpt-4o-mini", "messages": []}).encode(),
    headers={"Authorization": "Bearer " + os.environ["OPENAI_API_KEY"],
             "Content-Type": "application/json"})
print("ANSWER", json.dumps(json.load(urllib.request.urlopen(request, timeout=30))))
"""
# The key's middle: what a leak would contain; looking for it puts only this fragment in argv.
KEY_FRAGMENT = PROVIDER_KEY[8:28]
DIRECT = r"""
import socket, sys
for host, port in [("1.1.1.1", 443), ("172.17.0.1", 2375), (sys.argv[1], int(sys.argv[2]))]:
    try:
        socket.create_connection((host, port), timeout=3).close()
        print("REACHED", host, port)
    except OSError as exc:
        print("BLOCKED", host, port, type(exc).__name__)
"""


@pytest.fixture
def gateway(tmp_path: Path) -> Iterator[Gateway]:
    with FakeUpstream() as fake:
        yield make_gateway(fake, tmp_path)


def answer_of(output: str) -> dict[str, object]:
    line = next(line for line in output.splitlines() if line.startswith("ANSWER "))
    return dict(json.loads(line.removeprefix("ANSWER ")))


def test_the_agent_reaches_the_gateway_on_localhost(
    sandbox_factory: SandboxFactory, gateway: Gateway
) -> None:
    sandbox = sandbox_factory(services=Services.of(GatewayService(gateway)))
    result = run_python(sandbox, CALL, timeout=60)
    assert result.exit_code == 0, result.output_tail
    assert answer_of(result.output_tail)["model"] == "gpt-4o-mini"
    assert gateway.summary()["input_tokens"] == INPUT_TOKENS


def test_docker_without_network_holds_no_key_and_reaches_nothing_else(
    docker_sandbox_factory: SandboxFactory, gateway: Gateway
) -> None:
    sandbox = docker_sandbox_factory(services=Services.of(GatewayService(gateway)))
    assert run_python(sandbox, CALL, timeout=60).exit_code == 0
    env = sandbox.exec(["env"], timeout=30).output_tail
    assert PROVIDER_KEY not in env and "OPENAI_API_KEY=mlebench-run-" in env
    # as root, so no file is left unread: exit status 1 is "not found anywhere"
    code, found = sandbox.container.exec_run(  # type: ignore[attr-defined]
        ["grep", "-rIl", "--exclude-dir=proc", "--exclude-dir=sys", "--exclude-dir=dev",
         "-e", KEY_FRAGMENT, "/"],
        user="root",
    )  # fmt: skip
    assert code == 1, f"the provider key is in the sandbox: {found.decode()}"
    upstream = gateway.config.providers["openai"].base_url.split("//")[1].split("/")[0]
    host, port = upstream.split(":")
    direct = sandbox.exec(["python3", "-c", DIRECT, host, port], timeout=60).output_tail
    assert "REACHED" not in direct and direct.count("BLOCKED") == 3, direct
