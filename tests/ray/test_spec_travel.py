"""The nested sandbox spec travels to a Ray node and back as Ray sends task arguments.

Ray pickles a task's arguments with its ``cloudpickle``; the controller's job carries the run's
:class:`~pytest_mlebench.sandbox.sandbox_spec.SandboxSpec` with its limits, network and host
services. No cluster is started here: the round trip is the serialisation itself (the runs on a
real cluster are in ``test_ray_cluster.py`` and ``test_ray_gateway.py``).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_mlebench.gateway.service import GatewayService, attached_gateway
from pytest_mlebench.sandbox.build_endpoint import BuilderService, BuildReply
from pytest_mlebench.sandbox.conformance import FakeEchoService
from pytest_mlebench.sandbox.interface import Limits, ResourceGrant, SandboxSpec
from pytest_mlebench.sandbox.services import Services, ServiceSite
from pytest_mlebench.values.network_policy import NetworkPolicy
from tests.unit.test_host_services import fake_gateway

cloudpickle = pytest.importorskip(
    "ray.cloudpickle", reason="ray is not installed: pip install 'pytest-mlebench[ray]'"
)


def never_builds(context: Path, dockerfile: str) -> BuildReply:
    return BuildReply(ok=False, log="this fake builder never builds", wall_s=0.0)


def travelled(value: object) -> object:
    return cloudpickle.loads(cloudpickle.dumps(value))


def full_spec(tmp_path: Path) -> SandboxSpec:
    return SandboxSpec(
        run_id="toy-s0-abc",
        subject="toy",
        seed=3,
        public_dir=tmp_path / "public",
        limits=Limits(90, ResourceGrant(cpus=2, memory="2g", shm="1g", pids=64), 45.0),
        network=NetworkPolicy("allow", ("pypi.org",)),
        services=Services.of(
            GatewayService(fake_gateway(tmp_path)),
            BuilderService(never_builds, interval=7.0),
            FakeEchoService(),
        ),
        labels={"pytest-mlebench.session": "s"},
        env={"TASK_ID": "toy"},
        hidden_paths=(tmp_path / "data",),
        log_dir=tmp_path / "run",
        workspace=True,
    )


def test_the_nested_spec_round_trips_through_ray_serialisation(tmp_path: Path) -> None:
    spec = full_spec(tmp_path)
    back = travelled(spec)
    assert isinstance(back, SandboxSpec)
    plain = ("run_id", "subject", "kind", "seed", "public_dir", "limits", "network", "labels")
    assert all(getattr(back, name) == getattr(spec, name) for name in plain)
    assert (back.env, back.hidden_paths, back.log_dir, back.workspace) == (
        spec.env,
        spec.hidden_paths,
        spec.log_dir,
        spec.workspace,
    )
    assert [service.name for service in back.services] == ["gateway", "builder", "fake-echo"]
    gateway, sent = attached_gateway(back.services), attached_gateway(spec.services)
    assert gateway is not None and sent is not None and gateway is not sent
    assert gateway.token == sent.token
    assert dict(gateway.environ) == {"FAKE_KEY": "sk-fake"}  # only the secret its provider names
    builder = back.services.get(BuilderService)
    assert builder is not None and builder.interval == 7.0
    assert builder.build(tmp_path, "Dockerfile").log == "this fake builder never builds"


def test_a_started_service_travels_as_a_stopped_copy_and_keeps_serving_here(
    tmp_path: Path,
) -> None:
    echo = FakeEchoService()
    Services.of(echo).start(ServiceSite(tmp_path / "s", str(tmp_path / "s"), "python3", False))
    try:
        copy = travelled(echo)
        assert isinstance(copy, FakeEchoService) and copy.endpoint is None
        assert echo.endpoint is not None and echo.endpoint.socket_path.exists()
    finally:
        echo.stop()
