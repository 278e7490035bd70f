"""Static checks of k8s/: schema, lint, selectors, port names, security settings."""

from __future__ import annotations

import copy

import kubernetes_validate
import pytest
from emulation import container_ports, pod_labels, resolve, selects, service_port

K8S_VERSION = "1.37.0"
HOST_FLAGS = ("hostNetwork", "hostPID", "hostIPC")


@pytest.mark.check("F1")
def test_every_document_is_schema_valid(docs, evidence) -> None:  # type: ignore[no-untyped-def]
    """Each document validates against the Kubernetes 1.37 schema (strict: no unknown fields)."""
    errors = []
    for path, doc in docs:
        try:
            kubernetes_validate.validate(doc, K8S_VERSION, strict=True)
        except (
            kubernetes_validate.ValidationError,
            kubernetes_validate.SchemaNotFoundError,
        ) as error:
            errors.append(
                f"{path.name} {doc.get('kind')}: {getattr(error, 'message', error)}"[:160]
            )
    evidence(f"{len(docs)} documents, {len(errors)} invalid: {errors[:3]}")
    assert docs and not errors


@pytest.mark.check("F1")
def test_no_duplicate_keys(lint_problems, evidence) -> None:  # type: ignore[no-untyped-def]
    """A repeated key is silently dropped by YAML loaders; the schema cannot see it."""
    duplicates = [p for p in lint_problems if p[3].startswith("key-duplicates")]
    evidence(f"duplicate keys: {duplicates[:3] or 'none'}")
    assert not duplicates


@pytest.mark.check("X1")
def test_yamllint_clean(lint_problems, evidence) -> None:  # type: ignore[no-untyped-def]
    errors = [p for p in lint_problems if p[2] == "error"]
    evidence(
        f"yamllint: {len(errors)} errors, {len(lint_problems) - len(errors)} warnings {errors[:3]}"
    )
    assert not errors


@pytest.mark.check("F2")
def test_service_selects_the_pods(service, deployment, evidence) -> None:  # type: ignore[no-untyped-def]
    labels = pod_labels(deployment)
    selector = (service.get("spec") or {}).get("selector")
    evidence(f"Service selector {selector}, pod labels {labels}")
    assert selects(selector, labels)


@pytest.mark.check("F2")
def test_deployment_selects_its_template(deployment, evidence) -> None:  # type: ignore[no-untyped-def]
    match = ((deployment["spec"].get("selector") or {}).get("matchLabels")) or {}
    evidence(f"Deployment matchLabels {match}")
    assert selects(match, pod_labels(deployment))


def renumbered(spec: dict, name: str, env_name: str, number: int) -> dict:  # type: ignore[type-arg]
    """The container as the next release might ship it: ``name`` moved to ``number``."""
    moved = copy.deepcopy(spec)
    for port in moved.get("ports") or []:
        if port.get("name") == name:
            port["containerPort"] = number
    for env in moved.get("env") or []:
        if env.get("name") == env_name:
            env["value"] = str(number)
    return moved


@pytest.mark.check("R1")
def test_named_ports_survive_a_renumbering(service, spec, evidence) -> None:  # type: ignore[no-untyped-def]
    """Service targetPorts and the probe port name container ports, so moving a port to another
    number in the Deployment alone keeps traffic and probes on it."""
    moved = renumbered(
        renumbered(spec, "http", "HTTP_PORT", 41234), "metrics", "METRICS_PORT", 42345
    )
    api = service_port(service, "http", 80) or {}
    metrics = service_port(service, "metrics", 9100) or {}
    probe = ((moved.get("readinessProbe") or {}).get("httpGet") or {}).get("port")
    got = (
        resolve(api.get("targetPort"), moved),
        resolve(metrics.get("targetPort"), moved),
        resolve(probe, moved),
    )
    evidence(
        f"after moving http/metrics to 41234/42345: Service → {got[0]}, {got[1]}; probe → {got[2]}"
    )
    assert got == (41234, 42345, 41234)


@pytest.mark.check("R1")
def test_ports_are_declared_by_name(spec, evidence) -> None:  # type: ignore[no-untyped-def]
    ports = container_ports(spec)
    evidence(f"container ports {ports}")
    assert {"http", "metrics"} <= set(ports)


@pytest.mark.check("S1")
def test_no_privileged_or_host_access(deployment, evidence) -> None:  # type: ignore[no-untyped-def]
    pod_spec = deployment["spec"]["template"]["spec"]
    found = [flag for flag in HOST_FLAGS if pod_spec.get(flag)]
    for item in [*(pod_spec.get("initContainers") or []), *(pod_spec.get("containers") or [])]:
        security = item.get("securityContext") or {}
        if security.get("privileged"):
            found.append(f"{item.get('name')}: privileged")
        if security.get("allowPrivilegeEscalation"):
            found.append(f"{item.get('name')}: allowPrivilegeEscalation")
        found += [
            f"{item.get('name')}: hostPort" for p in item.get("ports") or [] if p.get("hostPort")
        ]
    evidence(f"host access / privilege: {found or 'none'}")
    assert not found
