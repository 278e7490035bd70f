"""The egress allow-list of ``--mle-network allow:HOST,...``: an internal network and tinyproxy.

The sandbox joins a Docker network of its own created with ``--internal``: the engine gives it no
route out. On the host side of that network (its bridge address) the harness runs Debian's
``tinyproxy`` with ``FilterDefaultDeny``: only the named hosts pass, plain HTTP by the request's
host and HTTPS by the ``CONNECT`` host name. The agent finds the proxy in ``HTTP_PROXY`` /
``HTTPS_PROXY`` (``NO_PROXY`` keeps ``localhost``, the LLM gateway's forwarder, direct). The proxy
logs every attempt to ``egress.log`` in the run folder; :func:`egress_summary` turns it into the
record's ``egress`` entry. Networks carry the sandbox's ownership labels, so the reaper removes
those of crashed runs (:func:`~.cleanup.reap_networks`).
"""

from __future__ import annotations

import contextlib
import ctypes
import logging
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from pytest_mlebench.errors import SandboxError
from pytest_mlebench.sandbox.bounded_read import read_tail, text_lines
from pytest_mlebench.sandbox.docker.cleanup import ownership_labels

log = logging.getLogger(__name__)

PROXY_START_SECONDS = 10
INSTALL_HINT = "apt-get install tinyproxy"
KIND_LABEL = "pytest-mlebench.kind"
REQUEST = re.compile(r"Request \(file descriptor \d+\): (\S+) (\S+)")
REFUSED = re.compile(r'refused on filtered domain "([^"]*)"')
# tinyproxy's line: LEVEL, then its own time stamp (host local time, no year), then the message.
REFUSED_LINE = re.compile(
    r'^\S+\s+(\w{3} +\d+ [\d:.]+) \[\d+\]: Proxying refused on filtered domain "([^"]*)"',
    re.MULTILINE,
)
ESTABLISHED = re.compile(r'Established connection to host "([^"]*)"')
PR_SET_PDEATHSIG = 1
MAX_EGRESS_LOG_BYTES = 256 * 1024**2


class EgressProxy:
    """One run's internal network and allow-list proxy; :meth:`stop` removes both."""

    def __init__(
        self, client: Any, run_id: str, competition_id: str, hosts: tuple[str, ...], log_path: Path
    ) -> None:
        self.client = client
        self.run_id = run_id
        self.competition_id = competition_id
        self.hosts = hosts
        self.log_path = log_path
        self.network: Any = None
        self.url: str | None = None
        self._process: subprocess.Popen[bytes] | None = None
        self._config_dir: Path | None = None

    def start(self) -> str:
        """Create the network and start the proxy; returns the network's name.

        Raises:
            SandboxError: tinyproxy is missing or does not start (the message has its log).
        """
        binary = shutil.which("tinyproxy")
        if binary is None:
            raise SandboxError(f"--mle-network allow: needs tinyproxy on the host: {INSTALL_HINT}")
        name = f"mlebench-egress-{self.run_id}"[:60]
        labels = {**ownership_labels(self.run_id, self.competition_id), KIND_LABEL: "egress"}
        self.network = self.client.networks.create(
            name, driver="bridge", internal=True, labels=labels
        )
        self.network.reload()
        address = str(self.network.attrs["IPAM"]["Config"][0]["Gateway"])
        port = _free_port(address)
        self._config_dir = Path(tempfile.mkdtemp(prefix="mlebench-egress-"))
        config = write_proxy_config(self._config_dir, address, port, self.hosts)
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        with self.log_path.open("ab") as output:
            self._process = subprocess.Popen(
                [binary, "-d", "-c", str(config)],
                stdin=subprocess.DEVNULL,
                stdout=output,
                stderr=subprocess.STDOUT,
                preexec_fn=_die_with_parent,
            )
        self._wait_until_listening(address, port)
        self.url = f"http://{address}:{port}"
        return str(self.network.name)

    def env(self) -> dict[str, str]:
        """Proxy variables for the agent (both spellings; ``localhost`` stays direct)."""
        if self.url is None:
            return {}
        keep_direct = "localhost,127.0.0.1,::1"
        return {
            "HTTP_PROXY": self.url,
            "HTTPS_PROXY": self.url,
            "http_proxy": self.url,
            "https_proxy": self.url,
            "NO_PROXY": keep_direct,
            "no_proxy": keep_direct,
        }

    def _wait_until_listening(self, address: str, port: int) -> None:
        deadline = time.monotonic() + PROXY_START_SECONDS
        while time.monotonic() < deadline:
            if self._process is not None and self._process.poll() is not None:
                break
            with contextlib.suppress(OSError), socket.create_connection((address, port), 0.5):
                return
            time.sleep(0.1)
        try:
            tail = read_tail(self.log_path, 1500).decode("utf-8", errors="replace")
        except OSError:
            tail = ""
        raise SandboxError(
            f"the egress proxy (tinyproxy) did not start on {address}:{port}:\n{tail}"
        )

    def stop(self) -> None:
        """Stop the proxy and remove the network (after the container is gone); safe twice."""
        process, self._process = self._process, None
        if process is not None:
            process.terminate()
            try:
                process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        network, self.network = self.network, None
        if network is not None:
            try:
                network.remove()
            except Exception as exc:  # an engine error must not hide the run's result
                log.warning("could not remove the egress network %s: %s", network.name, exc)
        if self._config_dir is not None:
            shutil.rmtree(self._config_dir, ignore_errors=True)
            self._config_dir = None

    def summary(self) -> dict[str, Any]:
        return egress_summary(self.hosts, self.log_path)


def write_proxy_config(folder: Path, address: str, port: int, hosts: tuple[str, ...]) -> Path:
    """tinyproxy's config and filter file in ``folder``: listen on ``address:port``, deny all
    hosts but ``hosts`` (matched whole, for plain HTTP and for CONNECT)."""
    filter_file = folder / "allowed-hosts"
    filter_file.write_text("".join(f"{host}\n" for host in hosts), "utf-8")
    config = folder / "tinyproxy.conf"
    config.write_text(
        f"Port {port}\n"
        f"Listen {address}\n"
        "Timeout 600\n"
        "MaxClients 64\n"
        "LogLevel Connect\n"
        "FilterDefaultDeny Yes\n"
        "FilterType fnmatch\n"
        "FilterCaseSensitive No\n"
        f'Filter "{filter_file}"\n'
        "DisableViaHeader Yes\n",
        "utf-8",
    )
    return config


def egress_summary(hosts: tuple[str, ...], log_path: Path) -> dict[str, Any]:
    """The record's ``egress`` entry from tinyproxy's log: every attempt, allowed or denied.

    The log grows with the agent's requests, so it is read in batches of bounded lines, at most
    :data:`MAX_EGRESS_LOG_BYTES` of it (``log_truncated`` says when it was longer).
    """
    requests, allowed, denied = 0, Counter[str](), Counter[str]()
    attempts: dict[str, dict[str, Any]] = {}
    for text in _log_batches(log_path):
        requests += len(REQUEST.findall(text))
        allowed.update(ESTABLISHED.findall(text))
        denied.update(REFUSED.findall(text))
        _add_attempts(attempts, text)
    size = log_path.stat().st_size if log_path.is_file() else 0
    return {
        "mode": "allow",
        "allowed_hosts": list(hosts),
        "isolated": True,
        "requests": requests,
        "allowed": dict(allowed),
        "denied": dict(denied),
        "denied_attempts": list(attempts.values()),
        "log": log_path.name if log_path.is_file() else None,
        **({"log_truncated": True} if size > MAX_EGRESS_LOG_BYTES else {}),
    }


def _log_batches(log_path: Path, lines_per_batch: int = 10_000) -> Iterator[str]:
    batch: list[str] = []
    for line in text_lines(log_path, MAX_EGRESS_LOG_BYTES, 4096):
        batch.append(line)
        if len(batch) >= lines_per_batch:
            yield "\n".join(batch)
            batch.clear()
    if batch:
        yield "\n".join(batch)


def denied_attempts(text: str) -> list[dict[str, Any]]:
    """Per refused host of a tinyproxy log: how many attempts, the first and the last one's time.

    The times are tinyproxy's own stamps as logged (``Nov 30 17:26:46.114``, the host's local
    time): the log has no year, and guessing one would make them look more exact than they are.
    """
    hosts: dict[str, dict[str, Any]] = {}
    _add_attempts(hosts, text)
    return list(hosts.values())


def _add_attempts(hosts: dict[str, dict[str, Any]], text: str) -> None:
    for stamp, host in REFUSED_LINE.findall(text):
        entry = hosts.setdefault(host, {"host": host, "count": 0, "first": stamp, "last": stamp})
        entry["count"] += 1
        entry["last"] = stamp


def _free_port(address: str) -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind((address, 0))
        return int(probe.getsockname()[1])


def _die_with_parent() -> None:
    """In the proxy's process: take SIGTERM when the harness dies (no orphaned proxy)."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
