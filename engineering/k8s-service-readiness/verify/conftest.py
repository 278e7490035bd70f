"""Fixtures of k8s-service-readiness's verifier: the manifests, yamllint, one emulated pod, and
the switch of the real-cluster variant (tests marked ``k8s``).

The ``k8s`` variant runs only where a cluster is configured: ``KUBECONFIG`` (or ~/.kube/config)
exists, ``kubectl`` is on PATH and answers ``kubectl version`` within 10 s. Elsewhere (always in
the harness's offline verifier container) its tests are deselected before the check plugin counts
them, so an absent cluster costs no score, and the reason is printed in the log's header; run
explicitly with ``-m k8s`` they are collected and skipped with that reason.
"""

from __future__ import annotations

import functools
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from emulation import Pod, container, documents, find, resolve, run_pod, service_port
from mlebench_agent_run import run_agent

LINT_CONFIG = "{extends: default, rules: {line-length: {max: 120}, document-start: disable}}"
K8S_MARK = "k8s"


@functools.lru_cache(maxsize=1)
def cluster_missing() -> str | None:
    """Why no real cluster can be used here (None when one answers)."""
    config = os.environ.get("KUBECONFIG") or str(Path.home() / ".kube" / "config")
    if not all(Path(p).is_file() for p in config.split(os.pathsep) if p):
        return f"no kubeconfig ({config} not found): set KUBECONFIG to a cluster's config"
    if shutil.which("kubectl") is None:
        return "kubectl is not on PATH"
    done = run_agent(["kubectl", "version", "--request-timeout=10s"], env=kube_env(), timeout_s=15)
    if done.timed_out:
        return "kubectl version timed out: the cluster does not answer"
    return None if done.returncode == 0 else f"kubectl version failed: {done.stderr.strip()[:200]}"


def kube_env() -> dict[str, str]:
    """The cluster's config for kubectl, which runs in the door's fresh environment."""
    return {"KUBECONFIG": os.environ.get("KUBECONFIG") or str(Path.home() / ".kube" / "config")}


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", f"{K8S_MARK}: needs a real Kubernetes cluster (KUBECONFIG)")


def pytest_report_header(config: pytest.Config) -> str:
    reason = cluster_missing()
    return f"k8s real-cluster variant: {'runs' if reason is None else 'skipped — ' + reason}"


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """The variant's state in the log even under ``-q`` (which hides the header)."""
    reason = cluster_missing()
    state = "ran" if reason is None else f"deselected or skipped — {reason}"
    terminalreporter.write_line(f"k8s real-cluster variant (test_cluster.py): {state}")


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Without a cluster, drop the k8s tests unless ``-m`` asked for them (then they skip)."""
    if cluster_missing() is None or K8S_MARK in (config.getoption("markexpr") or ""):
        return
    dropped = [item for item in items if item.get_closest_marker(K8S_MARK)]
    if dropped:
        items[:] = [item for item in items if not item.get_closest_marker(K8S_MARK)]
        config.hook.pytest_deselected(items=dropped)


@pytest.fixture
def cluster() -> None:
    reason = cluster_missing()
    if reason is not None:
        pytest.skip(f"no real cluster: {reason}")


@pytest.fixture(scope="session")
def manifests_dir() -> Path:
    return Path(os.environ["WORK_DIR"]) / "k8s"


@pytest.fixture(scope="session")
def docs(manifests_dir: Path) -> list[tuple[Path, dict[str, Any]]]:
    try:
        return documents(manifests_dir)
    except yaml.YAMLError as error:
        pytest.fail(f"the manifests do not parse: {error}")


@pytest.fixture(scope="session")
def deployment(docs: list[tuple[Path, dict[str, Any]]]) -> dict[str, Any]:
    found = find(docs, "Deployment", "scorer")
    assert found is not None, "no Deployment named scorer in k8s/"
    return found


@pytest.fixture(scope="session")
def service(docs: list[tuple[Path, dict[str, Any]]]) -> dict[str, Any]:
    found = find(docs, "Service", "scorer")
    assert found is not None, "no Service named scorer in k8s/"
    return found


@pytest.fixture(scope="session")
def spec(deployment: dict[str, Any]) -> dict[str, Any]:
    return container(deployment)


@pytest.fixture(scope="session")
def api_target(service: dict[str, Any], spec: dict[str, Any]) -> int | None:
    port = service_port(service, "http", 80)
    return None if port is None else resolve(port.get("targetPort", port.get("port")), spec)


@pytest.fixture(scope="session")
def metrics_target(service: dict[str, Any], spec: dict[str, Any]) -> int | None:
    port = service_port(service, "metrics", 9100)
    return None if port is None else resolve(port.get("targetPort", port.get("port")), spec)


@pytest.fixture(scope="session")
def pod(spec: dict[str, Any], api_target: int | None) -> Iterator[Pod]:
    started = run_pod(Path(os.environ["PRISTINE_DIR"]), spec, api_target)
    yield started
    started.stop()


@pytest.fixture(scope="session")
def lint_problems(manifests_dir: Path) -> list[tuple[str, int, str, str]]:
    """yamllint with the verifier's own configuration (the workspace's is ignored)."""
    from yamllint import linter
    from yamllint.config import YamlLintConfig

    config = YamlLintConfig(LINT_CONFIG)
    problems = []
    for path in sorted([*manifests_dir.glob("*.yaml"), *manifests_dir.glob("*.yml")]):
        for problem in linter.run(path.read_text("utf-8"), config):
            problems.append(
                (path.name, problem.line, str(problem.level), f"{problem.rule}: {problem.desc}")
            )
    return problems
