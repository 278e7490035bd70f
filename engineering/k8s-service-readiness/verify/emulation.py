"""An emulated control plane for one Deployment and its Service: manifest semantics, not a cluster.

What it does, in the order a cluster would: the Service's selector picks the Deployment's pods;
each Service port's ``targetPort`` (a number or a container port's name) resolves to a declared
``containerPort``; one pod is "scheduled" by running the app's entry point from the pristine
workspace (the image's content) with the container's ``env``; a "kubelet" polls the readiness
probe (``httpGet`` path and port, the port resolved the same way) every 0.1 s instead of every
``periodSeconds``; traffic to a Service port goes to 127.0.0.1:<resolved containerPort>. No
scheduler, no kube-proxy, no DNS, no image: see the task's README for what is not tested.
"""

from __future__ import annotations

import shutil
import tempfile
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from mlebench_agent_run import AgentProcess, python_script, start_agent, without_refused

WARMUP_SECONDS = 1.5  # the verifier's own value: the model "loads" this long in every run
PROBE_EVERY_S = 0.1
READY_WITHIN_S = 8.0


def documents(folder: Path) -> list[tuple[Path, dict[str, Any]]]:
    """Every YAML document of ``folder``'s *.yaml / *.yml files, with its file."""
    found = []
    for path in sorted([*folder.glob("*.yaml"), *folder.glob("*.yml")]):
        for doc in yaml.safe_load_all(path.read_text("utf-8")):
            if isinstance(doc, dict):
                found.append((path, doc))
    return found


def find(docs: list[tuple[Path, dict[str, Any]]], kind: str, name: str) -> dict[str, Any] | None:
    for _, doc in docs:
        if doc.get("kind") == kind and (doc.get("metadata") or {}).get("name") == name:
            return doc
    return None


def container(deployment: dict[str, Any], name: str = "scorer") -> dict[str, Any]:
    containers = deployment["spec"]["template"]["spec"]["containers"]
    return next((c for c in containers if c.get("name") == name), containers[0])  # type: ignore[no-any-return]


def pod_labels(deployment: dict[str, Any]) -> dict[str, str]:
    return dict((deployment["spec"]["template"].get("metadata") or {}).get("labels") or {})


def selects(selector: dict[str, Any] | None, labels: dict[str, str]) -> bool:
    """A non-empty equality selector that every pod label it names matches."""
    return bool(selector) and all(labels.get(k) == str(v) for k, v in (selector or {}).items())


def container_ports(spec: dict[str, Any]) -> dict[str, int]:
    """name -> containerPort (unnamed ports under their number)."""
    ports = {}
    for port in spec.get("ports") or []:
        number = port.get("containerPort")
        if isinstance(number, int):
            ports[str(port.get("name", number))] = number
    return ports


def resolve(target: Any, spec: dict[str, Any]) -> int | None:
    """A targetPort or probe port: a number must be a declared containerPort, a name name one."""
    ports = container_ports(spec)
    if isinstance(target, int):
        return target if target in ports.values() else None
    if isinstance(target, str):
        return ports.get(target)
    return None


def service_port(service: dict[str, Any], name: str, number: int) -> dict[str, Any] | None:
    for port in (service.get("spec") or {}).get("ports") or []:
        if port.get("name") == name or port.get("port") == number:
            return port  # type: ignore[no-any-return]
    return None


def container_env(spec: dict[str, Any]) -> dict[str, str]:
    """The container's literal env values (valueFrom needs a cluster: left out, so it fails)."""
    return {e["name"]: str(e["value"]) for e in spec.get("env") or [] if "value" in e}


def get(port: int | None, path: str, timeout: float = 1.0) -> tuple[int, str]:
    """(status, body) of GET 127.0.0.1:port/path; status 0 when nothing answers."""
    if port is None:
        return 0, "unresolved port"
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=timeout) as reply:
            return reply.status, reply.read().decode("utf-8", "replace")
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode("utf-8", "replace")
    except (OSError, ValueError) as error:
        return 0, str(error)


@dataclass
class Pod:
    """One running pod of the Deployment and what the emulated kubelet saw of it."""

    process: AgentProcess
    env: dict[str, str]
    output: Path
    probe_port: int | None = None
    probe_path: str | None = None
    ready_after_s: float | None = None
    predict_when_ready: tuple[int, str] = (0, "never ready")
    probes: list[tuple[float, int]] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)  # manifest env names left out

    def tail(self) -> str:
        try:
            return self.output.read_text("utf-8", "replace")[-300:]
        except OSError:
            return ""

    def stop(self) -> None:
        self.process.stop(grace_s=0)


def run_pod(pristine: Path, spec: dict[str, Any], service_target: int | None) -> Pod:
    """Start the app as the container would, then poll its readiness probe like a kubelet; at the
    first success, send one request through the Service's API port."""
    folder = Path(tempfile.mkdtemp(prefix="pod-"))
    shutil.copytree(pristine / "app", folder / "app")
    # the manifest's env is the agent's: what would change how Python starts is left out
    env, refused = without_refused(container_env(spec))
    env.update({"WARMUP_SECONDS": str(WARMUP_SECONDS), "BIND_ADDRESS": "127.0.0.1"})
    output = folder / "pod.log"
    process = start_agent(
        python_script("app/server.py"), log=output, cwd=folder, writable=(folder,), env=env
    )
    pod = Pod(process, env, output, refused=refused)
    probe = (spec.get("readinessProbe") or {}).get("httpGet") or {}
    pod.probe_path, pod.probe_port = probe.get("path"), resolve(probe.get("port"), spec)
    if not probe or "host" in probe or pod.probe_path is None:
        return pod
    started = time.monotonic()
    while time.monotonic() - started < READY_WITHIN_S and process.poll() is None:
        status, _ = get(pod.probe_port, str(pod.probe_path), timeout=0.5)
        pod.probes.append((round(time.monotonic() - started, 2), status))
        if 200 <= status < 400:
            pod.ready_after_s = time.monotonic() - started
            pod.predict_when_ready = get(service_target, "/predict?x=1.5")
            break
        time.sleep(PROBE_EVERY_S)
    return pod


def app_ready(pod: Pod, within: float = READY_WITHIN_S) -> bool:
    """The verifier's own view: the app's /ready on the port its env names answers 200."""
    port = int(pod.env.get("HTTP_PORT", "0") or 0) or None
    deadline = time.monotonic() + within
    while time.monotonic() < deadline and pod.process.poll() is None:
        if get(port, "/ready", timeout=0.5)[0] == 200:
            return True
        time.sleep(PROBE_EVERY_S)
    return False
