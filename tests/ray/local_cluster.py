"""A real Ray cluster on this machine: one head and worker nodes, each a separate ``ray start``.

The head offers no CPUs (runs never land on it; the controller's desk needs none). Each worker
node gets its own node cache (``MLEBENCH_NODE_CACHE``), a custom resource naming it
(``mlebench_node_<name>``), the ``mlebench_docker`` resource, and a fixed node-manager port, so
:meth:`LocalCluster.kill_node` can find that node's processes and kill them.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

OBJECT_STORE_BYTES = 150 * 1024**2
DOCKER_RESOURCE = "mlebench_docker"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class LocalCluster:
    """Start with :meth:`start`, stop with :meth:`stop` (``ray stop`` for this cluster only)."""

    root: Path
    ray_bin: Path
    workers: tuple[str, ...] = ("a", "b")
    cpus_per_worker: int = 2
    docker_slots: int = 2
    port: int = field(default_factory=free_port)
    node_ports: dict[str, int] = field(default_factory=dict)
    # Ray's unix sockets live under the temp dir: keep its path short (a 107-byte limit)
    temp_dir: Path = field(default_factory=lambda: Path(tempfile.mkdtemp(prefix="mlray-")))

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    def node_cache(self, name: str) -> Path:
        return self.root / f"node-{name}" / "cache"

    def _env(self, name: str) -> dict[str, str]:
        env = {**os.environ, "MLEBENCH_NODE_CACHE": str(self.node_cache(name))}
        env.pop("RAY_ADDRESS", None)
        env["RAY_USAGE_STATS_ENABLED"] = "0"
        return env

    def _ray(self, *args: str, name: str = "head") -> None:
        subprocess.run(
            [str(self.ray_bin), *args],
            check=True,
            env=self._env(name),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            timeout=180,
        )

    def start(self) -> LocalCluster:
        common = ["--object-store-memory", str(OBJECT_STORE_BYTES), "--disable-usage-stats"]
        self._ray(
            "start",
            "--head",
            "--port",
            str(self.port),
            "--num-cpus",
            "0",
            "--include-dashboard",
            "false",
            "--temp-dir",
            str(self.temp_dir),
            *common,
        )
        for name in self.workers:
            self.add_worker(name)
        return self

    def add_worker(self, name: str) -> None:
        self.node_ports[name] = free_port()
        resources = {DOCKER_RESOURCE: self.docker_slots, f"mlebench_node_{name}": 1}
        self._ray(
            "start",
            "--address",
            self.address,
            "--num-cpus",
            str(self.cpus_per_worker),
            "--resources",
            json.dumps(resources),
            "--node-manager-port",
            str(self.node_ports[name]),
            "--object-store-memory",
            str(OBJECT_STORE_BYTES),
            "--disable-usage-stats",
            name=name,
        )

    def node_pids(self, name: str) -> list[int]:
        """The raylet of worker ``name`` and every process below it."""
        marker = f"--node_manager_port={self.node_ports[name]}"
        roots = [pid for pid, cmd in _processes().items() if marker in cmd and "raylet" in cmd]
        return _with_descendants(roots)

    def kill_node(self, name: str) -> list[int]:
        """SIGKILL worker node ``name``'s processes (a machine that died)."""
        pids = self.node_pids(name)
        for pid in pids:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        return pids

    def stop(self) -> None:
        pids = [pid for name in self.node_ports for pid in self.node_pids(name)]
        head = [pid for pid, cmd in _processes().items() if str(self.temp_dir) in cmd]
        for pid in _with_descendants(head) + pids:
            try:
                os.kill(pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
        time.sleep(2)
        for pid in _with_descendants(head) + pids:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        shutil.rmtree(self.temp_dir, ignore_errors=True)


def _processes() -> dict[int, str]:
    found: dict[int, str] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                found[int(entry.name)] = (
                    (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
                )
            except OSError:
                continue
    return found


def _parents() -> dict[int, int]:
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            parents[int(entry.name)] = int(stat.rsplit(")", 1)[1].split()[1])
    return parents


def _with_descendants(roots: list[int]) -> list[int]:
    parents = _parents()
    found = list(roots)
    for pid in found:
        found.extend(child for child, parent in parents.items() if parent == pid)
    return found
