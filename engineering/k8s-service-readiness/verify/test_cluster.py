"""The real-cluster variant (mark ``k8s``): the same promises checked by a Kubernetes API server.

It runs only where a cluster is configured (see conftest.py); the harness's offline verifier never
has one, so there these tests are deselected and the emulated checks stand alone. With a cluster:
the API server validates every manifest (server-side dry run); and when ``K8S_SCORER_IMAGE`` names
an image holding the workspace's ``app/`` at its working directory, the Deployment is applied in a
throw-away namespace with that image, must roll out, and the Service must list ready endpoints on
the resolved API port.
"""

from __future__ import annotations

import json
import os
import uuid
from collections.abc import Iterator

import pytest
import yaml
from conftest import kube_env
from mlebench_agent_run import Finished, run_agent

pytestmark = [pytest.mark.k8s, pytest.mark.usefixtures("cluster")]
ROLLOUT_TIMEOUT_S = 120


def kubectl(*args: str, stdin: str | None = None, timeout: int = 60) -> Finished:
    """``kubectl ARGS`` through the verifier's door (it reads the agent's manifests)."""
    return run_agent(["kubectl", *args], env=kube_env(), stdin=stdin, timeout_s=timeout)


@pytest.fixture
def namespace() -> Iterator[str]:
    name = f"mlebench-{uuid.uuid4().hex[:8]}"
    assert kubectl("create", "namespace", name).returncode == 0
    yield name
    kubectl("delete", "namespace", name, "--wait=false")


@pytest.mark.check("F1")
def test_api_server_accepts_the_manifests(manifests_dir, namespace, evidence) -> None:  # type: ignore[no-untyped-def]
    done = kubectl("apply", "--dry-run=server", "-n", namespace, "-f", str(manifests_dir))
    evidence(f"server-side dry run: exit {done.returncode} {(done.stdout + done.stderr)[-200:]}")
    assert done.returncode == 0


@pytest.mark.check("F4")
def test_rollout_and_ready_endpoints(docs, spec, api_target, namespace, evidence) -> None:  # type: ignore[no-untyped-def]
    image = os.environ.get("K8S_SCORER_IMAGE")
    if not image:
        pytest.skip("set K8S_SCORER_IMAGE to an image with app/ in its working directory")
    rendered = []
    for _, doc in docs:
        if doc.get("kind") == "Deployment":
            for item in doc["spec"]["template"]["spec"]["containers"]:
                item["image"] = image
        rendered.append(yaml.safe_dump(doc))
    applied = kubectl("apply", "-n", namespace, "-f", "-", stdin="---\n".join(rendered))
    assert applied.returncode == 0, applied.stderr
    wait = f"--timeout={ROLLOUT_TIMEOUT_S}s"
    rollout = kubectl(
        "rollout",
        "status",
        "deployment/scorer",
        "-n",
        namespace,
        wait,
        timeout=ROLLOUT_TIMEOUT_S + 10,
    )
    assert rollout.returncode == 0, rollout.stderr
    endpoints = json.loads(
        kubectl("get", "endpoints", "scorer", "-n", namespace, "-o", "json").stdout
    )
    ports = [
        p.get("port")
        for subset in endpoints.get("subsets") or []
        for p in subset.get("ports") or []
    ]
    ready = [a for subset in endpoints.get("subsets") or [] for a in subset.get("addresses") or []]
    evidence(f"rolled out; endpoints {len(ready)} ready on ports {ports}")
    assert ready and api_target in ports
