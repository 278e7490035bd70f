"""``--mle-network allow:HOST``: only the named host passes the proxy; every attempt is logged.

The "outside" is two test HTTP servers on a Docker network this test creates. The sandbox sits on
its own internal network: through the harness's tinyproxy it reaches the allowed server (plain
HTTP and CONNECT), the other one is refused and logged, and without the proxy it reaches neither.
"""

from __future__ import annotations

import shutil
import socket
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pytest_mlebench.sandbox.conformance import SandboxFactory
from tests.sandbox.conftest import TEST_SESSION

pytestmark = pytest.mark.skipif(shutil.which("tinyproxy") is None, reason="tinyproxy not installed")

PROBE = r"""
import socket, sys, urllib.error, urllib.request
allowed, denied = sys.argv[1], sys.argv[2]
def get(url, opener):
    try:
        return opener.open(url, timeout=5).status
    except urllib.error.HTTPError as error:
        return error.code
    except OSError as error:
        return type(error).__name__
proxied = urllib.request.build_opener()  # HTTP_PROXY from the environment
direct = urllib.request.build_opener(urllib.request.ProxyHandler({}))
print("PROXY-ALLOWED", get(f"http://{allowed}:8000/", proxied))
print("PROXY-DENIED", get(f"http://{denied}:8000/", proxied))
print("DIRECT-ALLOWED", get(f"http://{allowed}:8000/", direct))
host, port = sys.argv[3].rsplit(":", 1)
tunnel = socket.create_connection((host, int(port)), timeout=5)
tunnel.sendall(f"CONNECT {allowed}:8000 HTTP/1.1\r\nHost: {allowed}:8000\r\n\r\n".encode())
print("CONNECT", tunnel.recv(200).split(b"\r\n")[0].decode())
tunnel.sendall(f"GET / HTTP/1.0\r\nHost: {allowed}\r\n\r\n".encode())
print("TUNNELLED", tunnel.recv(200).split(b"\r\n")[0].decode())
"""


@pytest.fixture
def outside(docker_image: str) -> Iterator[tuple[str, str]]:
    """Two HTTP servers on a (routable) network of this test: their addresses."""
    from pytest_mlebench.sandbox.docker.engine import docker_client

    client = docker_client()
    name = f"mlebench-test-outside-{uuid.uuid4().hex[:8]}"
    network = client.networks.create(name, driver="bridge")
    labels = {"pytest-mlebench.session": TEST_SESSION, "pytest-mlebench.managed": "true"}
    servers: list[Any] = []
    try:
        for _ in range(2):
            server = client.containers.run(
                docker_image, ["python3", "-m", "http.server", "8000"], detach=True,
                network=name, labels=labels, working_dir="/home",
            )  # fmt: skip
            servers.append(server)
            server.reload()
        addresses = [s.attrs["NetworkSettings"]["Networks"][name]["IPAddress"] for s in servers]
        for address in addresses:
            _wait_for(address, 8000)
        yield addresses[0], addresses[1]
    finally:
        for server in servers:
            server.remove(force=True)
        network.remove()
        client.close()


def _wait_for(host: str, port: int) -> None:
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        try:
            socket.create_connection((host, port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.2)
    raise AssertionError(f"test server {host}:{port} did not start")


def test_only_the_allowed_host_passes_and_every_attempt_is_logged(
    docker_sandbox_factory: SandboxFactory, outside: tuple[str, str], tmp_path: Path
) -> None:
    allowed, denied = outside
    sandbox = docker_sandbox_factory(network=f"allow:{allowed}", log_dir=tmp_path)
    proxy = sandbox.egress.url  # type: ignore[attr-defined]
    assert proxy is not None
    script = tmp_path / "probe.py"
    script.write_text(PROBE)
    sandbox.copy_in(script, "/home/agent/probe.py")
    address = proxy.removeprefix("http://")
    result = sandbox.exec(["python3", "/home/agent/probe.py", allowed, denied, address], timeout=60)
    output = result.output_tail
    assert "PROXY-ALLOWED 200" in output, output
    assert "PROXY-DENIED 403" in output, output
    assert "DIRECT-ALLOWED 200" not in output and "DIRECT-ALLOWED" in output, output
    assert "CONNECT HTTP/1.0 200 Connection established" in output, output
    assert "TUNNELLED HTTP/1.0 200 OK" in output, output
    sandbox.stop()
    summary = sandbox.egress_summary()
    assert summary is not None
    assert summary["allowed_hosts"] == [allowed]
    assert summary["allowed"].get(allowed) == 2  # the plain GET and the CONNECT
    assert summary["denied"] == {denied: 1}
    [attempt] = summary["denied_attempts"]
    assert (attempt["host"], attempt["count"]) == (denied, 1)
    assert attempt["first"] == attempt["last"] and attempt["first"]  # tinyproxy's time stamp
    assert summary["requests"] == 3
    assert (tmp_path / "egress.log").is_file()


def test_the_egress_network_is_removed_with_the_sandbox(
    docker_sandbox_factory: SandboxFactory, tmp_path: Path
) -> None:
    from pytest_mlebench.sandbox.docker.engine import docker_client

    sandbox = docker_sandbox_factory(network="allow:example.org", log_dir=tmp_path)
    name = sandbox.egress.network.name  # type: ignore[attr-defined]
    sandbox.stop()
    client = docker_client()
    try:
        assert client.networks.list(names=[name]) == []
    finally:
        client.close()
