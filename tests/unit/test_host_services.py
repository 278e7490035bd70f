"""The host-service mechanism itself (:mod:`pytest_mlebench.sandbox.services`), without a sandbox.

The backends' side (a service reaches the agent, whatever it is) is in the conformance suite
(:mod:`pytest_mlebench.sandbox.conformance.host_services`), run on every backend.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

import pytest

from pytest_mlebench.errors import SandboxError
from pytest_mlebench.gateway import Gateway, GatewayConfig, Provider, load_price_table
from pytest_mlebench.gateway.service import GATEWAY_PORT, GatewayService, attached_gateway
from pytest_mlebench.sandbox.build_endpoint import BuilderService, BuildReply, builder_service
from pytest_mlebench.sandbox.services import HostService, Services, ServiceSite


class FakeService(HostService):
    """A fake host service that writes what happens to it into a shared diary."""

    def __init__(self, name: str, diary: list[str], *, fails: bool = False) -> None:
        self.name = name  # type: ignore[misc]  # an instance per name, for the tests
        self.diary, self.fails = diary, fails

    def start(self, site: ServiceSite) -> None:
        if self.fails:
            raise SandboxError(f"{self.name} cannot start")
        self.diary.append(f"start {self.name}")

    def stop(self) -> None:
        self.diary.append(f"stop {self.name}")

    def env(self, site: ServiceSite) -> dict[str, str]:
        return {"SHARED": self.name, self.name.upper(): site.inside(self.name)}

    def wrap(self, command: Sequence[str], site: ServiceSite) -> list[str]:
        return [self.name, *command]


class FakeRequiredService(FakeService):
    required = True


def site(tmp_path: Path, *, own_localhost: bool = True) -> ServiceSite:
    return ServiceSite(tmp_path / "services", "/run/mlebench", "python3", own_localhost)


def test_a_name_attached_twice_is_refused_with_the_name() -> None:
    with pytest.raises(ValueError, match="host service\\(s\\) a attached twice"):
        Services.of(FakeService("a", []), FakeService("a", []))


def test_of_leaves_out_unused_services_and_with_service_replaces_by_name() -> None:
    a, b, new_a = FakeService("a", []), FakeService("b", []), FakeService("a", [])
    services = Services.of(a, None, b)
    assert list(services) == [a, b]
    assert list(services.with_service(new_a)) == [b, new_a]
    assert services.get(FakeService) is a and services.get(FakeRequiredService) is None


def test_services_start_in_order_wrap_first_outermost_and_later_env_wins(tmp_path: Path) -> None:
    diary: list[str] = []
    services = Services.of(FakeService("a", diary), FakeService("b", diary))
    where = site(tmp_path)
    services.start(where)
    assert diary == ["start a", "start b"] and where.host_dir.is_dir()
    assert services.wrap(["agent"], where) == ["a", "b", "agent"]
    assert services.env(where) == {"SHARED": "b", "A": "/run/mlebench/a", "B": "/run/mlebench/b"}
    services.stop()
    assert diary[2:] == ["stop b", "stop a"]


def test_a_service_that_cannot_start_stops_the_ones_started_before(tmp_path: Path) -> None:
    diary: list[str] = []
    services = Services.of(FakeService("a", diary), FakeService("b", diary, fails=True))
    with pytest.raises(SandboxError, match="b cannot start"):
        services.start(site(tmp_path))
    assert diary == ["start a", "stop b", "stop a"]


def test_unreachable_services_refuse_the_run_only_when_one_is_required() -> None:
    Services.of(FakeService("optional", [])).unreachable("remote engine")  # nothing raised
    services = Services.of(FakeService("optional", []), FakeRequiredService("needed", []))
    with pytest.raises(SandboxError, match="the needed service\\(s\\) cannot be reached: remote"):
        services.unreachable("remote engine")


def fake_gateway(tmp_path: Path) -> Gateway:
    """A gateway to a FAKE provider (never called here)."""
    config = GatewayConfig(
        {"openai": Provider("openai", "http://127.0.0.1:9/v1", "${{ secrets.FAKE_KEY }}")}
    )
    environ = {"FAKE_KEY": "sk-fake", "UNRELATED_SECRET": "never travels"}
    return Gateway(config, load_price_table(), tmp_path / "gateway.jsonl", environ=environ)


def test_the_gateway_service_hands_the_token_and_wraps_in_the_forwarder(tmp_path: Path) -> None:
    gateway = fake_gateway(tmp_path)
    service = GatewayService(gateway)
    docker, local = site(tmp_path), site(tmp_path, own_localhost=False)
    assert service.wrap(["agent"], docker) == ["agent"]  # not started: nothing to forward to
    assert service.env(docker) == {
        "OPENAI_API_KEY": gateway.token,
        "ANTHROPIC_API_KEY": gateway.token,
    }
    docker.host_dir.mkdir()
    service.start(docker)
    try:
        assert (docker.host_dir / "gateway_forwarder.py").is_file()
        assert service.wrap(["agent"], docker)[:6] == [
            "python3",
            "/run/mlebench/gateway_forwarder.py",
            "--socket",
            "/run/mlebench/gateway.sock",
            "--port",
            str(GATEWAY_PORT),
        ]
        assert service.wrap(["agent"], local)[5:] == ["0", "--", "agent"]  # any free port
    finally:
        service.stop()
    assert attached_gateway(Services.of(service)) is gateway
    assert attached_gateway(Services()) is None


def never_builds(context: Path, dockerfile: str) -> BuildReply:
    return BuildReply(ok=False, log="this fake builder never builds", wall_s=0.0)


def test_the_builder_service_puts_its_script_in_the_site_and_names_it(tmp_path: Path) -> None:
    assert builder_service(None) is None
    service = builder_service(never_builds, interval=2.0)
    assert isinstance(service, BuilderService) and service.interval == 2.0
    where = site(tmp_path)
    Services.of(service).start(where)
    try:
        script = where.host_dir / "build_image.sh"
        assert os.access(script, os.X_OK)
        assert "python3 /run/mlebench/build_client.py" in script.read_text()
        assert service.env(where) == {
            "BUILD_IMAGE": "/run/mlebench/build_image.sh",
            "MLEBENCH_BUILD_SOCKET": "/run/mlebench/build.sock",
        }
    finally:
        service.stop()
    assert service.calls == [] and service.refused == 0
