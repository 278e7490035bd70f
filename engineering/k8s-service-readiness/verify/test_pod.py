"""The emulated pod: traffic through the Service's ports, the readiness probe's meaning."""

from __future__ import annotations

import pytest
from emulation import app_ready, get


@pytest.mark.check("F3")
def test_service_port_reaches_the_api(pod, api_target, evidence) -> None:  # type: ignore[no-untyped-def]
    """Service port 80 → targetPort → containerPort: /predict answers there once the app is up."""
    assert app_ready(pod), f"the app never became ready: {pod.tail()}"
    status, body = get(api_target, "/predict?x=0.5")
    evidence(f"Service :80 → {api_target}; GET /predict → {status} {body[:60]}")
    assert status == 200 and '"score"' in body


@pytest.mark.check("F4")
def test_ready_means_serving(pod, evidence) -> None:  # type: ignore[no-untyped-def]
    """The first time the readiness probe succeeds, the Service already serves /predict."""
    evidence(
        f"probe {pod.probe_path} on {pod.probe_port}: ready after {pod.ready_after_s}, "
        f"/predict then {pod.predict_when_ready[0]} (first probes {pod.probes[:3]})"
    )
    assert pod.ready_after_s is not None, "the readiness probe never succeeded"
    assert pod.predict_when_ready[0] == 200


@pytest.mark.check("F4")
def test_probe_fails_while_loading(pod, evidence) -> None:  # type: ignore[no-untyped-def]
    """A readiness probe that passes before the model is loaded sends traffic to a pod that
    cannot serve it: before its first success the probe must have reached the app and been
    refused (503 while the model loads, 1.5 s here)."""
    answered = [status for _, status in pod.probes if status]
    evidence(f"probe answers up to the first success: {answered[:6]}")
    assert answered and answered[0] >= 400


@pytest.mark.check("R2")
def test_metrics_port(pod, metrics_target, evidence) -> None:  # type: ignore[no-untyped-def]
    """The second Service port (9100, metrics) reaches the app's metrics endpoint."""
    app_ready(pod)
    status, body = get(metrics_target, "/metrics")
    evidence(f"Service :9100 → {metrics_target}; GET /metrics → {status}")
    assert status == 200 and "scorer_requests_total" in body
