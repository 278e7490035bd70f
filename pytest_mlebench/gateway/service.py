"""The LLM gateway attached beside a sandbox, as a host service (:mod:`~.sandbox.services`).

:class:`GatewayService` serves the run's :class:`~pytest_mlebench.gateway.Gateway` on a socket in
the sandbox's service folder, puts the forwarder script beside it, runs every agent command inside
the forwarder (which listens on ``localhost`` and sets ``OPENAI_BASE_URL`` /
``ANTHROPIC_BASE_URL``) and hands the agent the run's token in place of every provider key. The
gateway is *required*: a sandbox that cannot reach host services refuses the run rather than
start an agent with no model. It pickles stopped, with only the secrets its providers name
(:meth:`Gateway.__getstate__ <pytest_mlebench.gateway.Gateway.__getstate__>`), so it travels to a
Ray node in the spec and comes back with its ledger.
"""

from __future__ import annotations

import shutil
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from pytest_mlebench.gateway import FORWARDER_NAME, FORWARDER_SCRIPT, SOCKET_NAME, Gateway
from pytest_mlebench.sandbox.services import HostService, Services, ServiceSite

#: The forwarder's port in a sandbox with a ``localhost`` of its own (elsewhere: any free one).
GATEWAY_PORT = 8765
PROVIDER_KEY_NAMES = ("OPENAI_API_KEY", "ANTHROPIC_API_KEY")


@dataclass(eq=False)
class GatewayService(HostService):
    """One run's gateway, served beside its sandbox (see the module docstring)."""

    name: ClassVar[str] = "gateway"
    required: ClassVar[bool] = True
    gateway: Gateway

    def start(self, site: ServiceSite) -> None:
        """Serve on ``gateway.sock`` in the site; :class:`~pytest_mlebench.gateway.GatewayError`
        when a provider's secret is missing or the socket cannot be made."""
        self.gateway.start(site.host_dir / SOCKET_NAME)
        forwarder = site.host_dir / FORWARDER_NAME
        shutil.copyfile(FORWARDER_SCRIPT, forwarder)
        forwarder.chmod(0o644)

    def stop(self) -> None:
        self.gateway.stop()

    def env(self, site: ServiceSite) -> dict[str, str]:
        return dict.fromkeys(PROVIDER_KEY_NAMES, self.gateway.token)

    def wrap(self, command: Sequence[str], site: ServiceSite) -> list[str]:
        if not self.gateway.started:
            return list(command)
        port = GATEWAY_PORT if site.own_localhost else 0
        return [
            site.python,
            site.inside(FORWARDER_NAME),
            "--socket",
            site.inside(SOCKET_NAME),
            "--port",
            str(port),
            "--",
            *command,
        ]


def gateway_service(gateway: Gateway | None) -> GatewayService | None:
    """The service for the run's gateway (``None``: the agent uses none)."""
    return GatewayService(gateway) if gateway is not None else None


def attached_gateway(services: Services) -> Gateway | None:
    """The gateway attached among ``services`` (``None``: none)."""
    service = services.get(GatewayService)
    return service.gateway if service is not None else None
