"""Host services: harness endpoints that run beside a sandbox, attached through one mechanism.

A host service is something of the harness's that the agent reaches from inside its sandbox while
the service itself stays on the host, with what the agent must not have: the validator behind
``validate_submission.sh`` (it needs the answers), the image builder behind ``build_image.sh``
(it needs a Docker engine), the LLM gateway (it needs the provider keys). Each is three things:

- a host-side endpoint, started before the agent runs and stopped with the sandbox (usually a
  unix-socket server, :class:`~pytest_mlebench.sandbox.socket_endpoint.SocketEndpoint`);
- the files it puts in the **service folder**, which the sandbox sees at a path of its own (the
  socket, a client script);
- the environment variables that tell the agent where they are (and, for a service that must sit
  between the agent and its command, a wrapper around that command).

A backend knows nothing of any particular service. It offers one :class:`ServiceSite` (a host
folder it makes visible inside the sandbox, read-only for the agent) and, in its lifecycle, calls
:meth:`Services.start` in ``start``, adds :meth:`Services.env` to each agent command's environment
and runs the command through :meth:`Services.wrap`, and calls :meth:`Services.stop` in ``stop``.
A backend that cannot offer a site (a remote Docker engine cannot reach a socket on this machine)
calls :meth:`Services.unreachable`, which refuses the run only when a service the agent cannot do
without is attached. A new service is a new :class:`HostService` subclass put into
:attr:`SandboxSpec.services <pytest_mlebench.sandbox.interface.SandboxSpec.services>`; no backend,
no spec field and no conformance check changes (``docs/sandbox.md``, "Adding a host service").

Services travel with the spec to other machines (a Ray node): a service must pickle while it is
not started (drop threads and servers in ``__getstate__``, as the gateway does).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, ClassVar, Generic, Protocol, TypeVar

from pytest_mlebench.errors import SandboxError


@dataclass(frozen=True)
class ServiceSite:
    """Where a backend lets its services appear: one folder, seen from both sides.

    Attributes:
        host_dir: The folder on the host; services put their sockets and client files here.
        sandbox_dir: The same folder as the agent sees it (``/run/mlebench`` in Docker).
        python: The interpreter that runs a service's client script inside the sandbox.
        own_localhost: Whether the sandbox has a ``localhost`` of its own, so a service may
            listen on a fixed port there (Docker); else it must take any free one (local).
    """

    host_dir: Path
    sandbox_dir: str
    python: str
    own_localhost: bool

    def inside(self, name: str) -> str:
        """The path of ``name`` in the folder, as the agent sees it."""
        return f"{self.sandbox_dir}/{name}"


class HostService(ABC):
    """One harness endpoint the agent reaches from its sandbox (see the module docstring).

    Attributes:
        name: The service's name, unique within a spec (``validator``, ``builder``, ``gateway``);
            it names its files in the service folder and its facts in messages.
        required: Whether a run may not go on without it (the agent cannot work without the
            gateway; a missing validator only answers with an error).
    """

    name: ClassVar[str]
    required: ClassVar[bool] = False

    @abstractmethod
    def start(self, site: ServiceSite) -> None:
        """Serve in ``site.host_dir`` and put what the agent needs there; idempotent.

        Raises an :class:`~pytest_mlebench.errors.MLEBenchError` naming the fix when the service
        cannot start (the sandbox then stops what it started and the run is an error).
        """

    @abstractmethod
    def stop(self) -> None:
        """Stop serving; safe to call twice, and before :meth:`start`. What the service logged
        (its calls, its ledger) stays readable."""

    def env(self, site: ServiceSite) -> dict[str, str]:
        """Variables naming the service inside the sandbox (added to every agent command)."""
        return {}

    def wrap(self, command: Sequence[str], site: ServiceSite) -> list[str]:
        """The agent's command as it must run with this service (unchanged by default)."""
        return list(command)


C = TypeVar("C")


class LoggingServer(Protocol[C]):
    """What a :class:`LoggingService` reads of its server: the calls it answered, the requests
    its rate limit turned away (a :class:`~.socket_endpoint.SocketEndpoint` subclass)."""

    calls: list[C]
    refused: int

    def stop(self) -> None: ...


class LoggingService(HostService, Generic[C]):
    """A service whose socket server logs each call the agent made (the validator, the image
    builder): stopping, the calls and refusals read after the run, and a picklable copy that is
    not serving, written once for both."""

    server: LoggingServer[C] | None

    def stop(self) -> None:
        if self.server is not None:
            self.server.stop()

    @property
    def calls(self) -> list[C]:
        """The calls the agent made so far (kept after :meth:`stop`)."""
        return list(self.server.calls) if self.server is not None else []

    @property
    def refused(self) -> int:
        """Requests the rate limit turned away (attempts that are not in :attr:`calls`)."""
        return self.server.refused if self.server is not None else 0

    def call_log(self) -> list[dict[str, Any]]:
        """:attr:`calls` as the run record keeps them (each call is a dataclass)."""
        return [asdict(call) for call in self.calls]  # type: ignore[call-overload]

    def __getstate__(self) -> dict[str, Any]:
        return {**self.__dict__, "server": None}  # a copy for another machine: not serving


S = TypeVar("S", bound=HostService)


@dataclass(frozen=True)
class Services:
    """The host services attached to one sandbox, in the order they start.

    The tuple is fixed; the services in it are per-run objects that hold their own state (a
    started server, the calls it answered), read after the run with :meth:`get`.
    """

    attached: tuple[HostService, ...] = ()

    def __post_init__(self) -> None:
        names = [service.name for service in self.attached]
        twice = sorted({name for name in names if names.count(name) > 1})
        if twice:
            raise ValueError(f"host service(s) {', '.join(twice)} attached twice to one sandbox")

    @classmethod
    def of(cls, *services: HostService | None) -> Services:
        """The services given, ``None`` (a service this run does not use) left out."""
        return cls(tuple(service for service in services if service is not None))

    def __iter__(self) -> Iterator[HostService]:
        return iter(self.attached)

    def __len__(self) -> int:
        return len(self.attached)

    def get(self, kind: type[S]) -> S | None:
        """The attached service of type ``kind`` (``None``: not attached)."""
        for service in self.attached:
            if isinstance(service, kind):
                return service
        return None

    def with_service(self, service: HostService) -> Services:
        """These services with ``service`` in place of the one of the same name (or added)."""
        kept = tuple(other for other in self.attached if other.name != service.name)
        return Services((*kept, service))

    def start(self, site: ServiceSite) -> None:
        """Start every service in ``site``; if one fails, stop those started and re-raise."""
        site.host_dir.mkdir(parents=True, exist_ok=True)
        try:
            for service in self.attached:
                service.start(site)
        except BaseException:
            self.stop()
            raise

    def stop(self) -> None:
        """Stop every service (safe twice); one that breaks does not keep the others serving."""
        failures: list[BaseException] = []
        for service in reversed(self.attached):
            try:
                service.stop()
            except Exception as exc:  # the others must still stop
                failures.append(exc)
        if failures:
            raise failures[0]

    def env(self, site: ServiceSite) -> dict[str, str]:
        """Every service's variables (a later service's win over an earlier one's)."""
        merged: dict[str, str] = {}
        for service in self.attached:
            merged.update(service.env(site))
        return merged

    def wrap(self, command: Sequence[str], site: ServiceSite) -> list[str]:
        """``command`` wrapped by every service, the first attached outermost."""
        wrapped = list(command)
        for service in reversed(self.attached):
            wrapped = service.wrap(wrapped, site)
        return wrapped

    def unreachable(self, why: str) -> None:
        """Say that this sandbox cannot reach host services (``why``): fine for optional ones,
        which then go unserved, a :class:`SandboxError` naming the required ones."""
        required = [service.name for service in self.attached if service.required]
        if required:
            raise SandboxError(f"the {', '.join(required)} service(s) cannot be reached: {why}")
