"""``DockerSandbox``: one container per run, the agent as ``nonroot``, answers never inside.

The container idles (a lease keeper under an init, :mod:`.expiry`: it stops the container at the
run's deadline plus a grace unless the harness renews it) while the harness runs the agent's
commands in it as Docker execs (:mod:`.execution`). Public data is bind-mounted read-only at
``/home/data`` (copied in, root-owned, when the engine is remote); the private answers are never
mounted or copied. The host services of the spec (:mod:`~pytest_mlebench.sandbox.services`: the
validator behind ``/home/validate_submission.sh``, the image builder, the LLM gateway, ...) put
their sockets and scripts in one folder per sandbox, mounted read-only at ``/run/mlebench`` (not
reachable with a remote engine: then the required ones refuse the run). No network unless the
spec asks for ``bridge``, or for ``allow`` (an internal network whose only way out is the
allow-list proxy, :mod:`.egress`); limits on CPUs, memory, shared memory and processes; GPUs by
explicit id.
"""

from __future__ import annotations

import logging
import shutil
import tarfile
import tempfile
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

from pytest_mlebench.errors import SandboxError
from pytest_mlebench.sandbox.copy_budget import CopyBudget
from pytest_mlebench.sandbox.docker.archive_copy import copy_from_container
from pytest_mlebench.sandbox.docker.cleanup import ownership_labels, remember, remove_container
from pytest_mlebench.sandbox.docker.container_options import (
    DEFAULT_PIDS_LIMIT as DEFAULT_PIDS_LIMIT,  # re-exported for older imports
)
from pytest_mlebench.sandbox.docker.container_options import (
    container_name as container_name,
)
from pytest_mlebench.sandbox.docker.container_options import (
    resource_options as resource_options,
)
from pytest_mlebench.sandbox.docker.container_options import security_options
from pytest_mlebench.sandbox.docker.egress import EgressProxy
from pytest_mlebench.sandbox.docker.engine import docker_client, engine_is_remote, import_docker
from pytest_mlebench.sandbox.docker.execution import run_exec
from pytest_mlebench.sandbox.docker.expiry import Lease, keeper_command, lease_seconds, renew_lease
from pytest_mlebench.sandbox.docker.image import image_tag
from pytest_mlebench.sandbox.docker.killer import (
    AGENT_UID,
    AGENT_USER,
    AgentExecs,
    kill_agent_processes,
)
from pytest_mlebench.sandbox.docker.recipe import image_exists
from pytest_mlebench.sandbox.docker.storage import layer_limit_options, refused_layer_limit
from pytest_mlebench.sandbox.interface import ContractPaths, ExecResult, Sandbox, SandboxSpec
from pytest_mlebench.sandbox.leftovers import make_socket_dir
from pytest_mlebench.sandbox.services import ServiceSite

log = logging.getLogger(__name__)

AGENT_HOME = "/home/nonroot"
SERVICES_DIR = "/run/mlebench"  # the host services' folder, as the agent sees it
SPOOL_BYTES = 16 * 1024**2
# The whole environment of the harness's own commands in the container (HOME is root's).
HARNESS_ENV = {
    "PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
    "HOME": "/root",
    "LANG": "C.UTF-8",
}
PATHS = ContractPaths(
    home="/home",
    data="/home/data",
    submission="/home/submission",
    logs="/home/logs",
    code="/home/code",
    agent="/home/agent",
    instructions="/home/instructions.md",
    validate="/home/validate_submission.sh",
    work="/home/work",
)


class DockerSandbox(Sandbox):
    """A container for one agent run. See the module docstring for what it isolates."""

    backend = "docker"
    isolated = True

    def __init__(
        self, spec: SandboxSpec, *, image: str | None = None, privileged: bool = False
    ) -> None:
        """Args:
        spec: The run to host.
        image: Image to run; default the tag :func:`~.image.ensure_image` builds.
        privileged: Run privileged. Only for an agent config that asks for it *and* a user who
            allowed it explicitly; never a default.
        """
        super().__init__(spec)
        self.image = image or image_tag()
        self.privileged = privileged
        self.container: Any = None
        self._client: Any = None
        self._socket_dir: Path | None = None
        self.egress: EgressProxy | None = None
        self.lease = Lease(grace=spec.limits.expiry_grace)
        self.agent_execs = AgentExecs()

    @property
    def paths(self) -> ContractPaths:
        return PATHS

    @property
    def python(self) -> str:
        return "python3"

    def start(self) -> None:
        if self.container is not None:
            return
        try:
            self._client = docker_client()
            self._check_inputs()
            self._start_services()
            network = self._start_network()
            first_lease = lease_seconds(self.spec.limits.time_limit, self.lease.grace)
            self.container = self._create_container(network, first_lease)
            remember(self.container)
            self.lease.started(first_lease, time.monotonic())
            self.container.start()
            self._seed_files()
            if self.spec.workspace:
                self._make_workspace()
        except BaseException as exc:
            self.stop()
            if isinstance(exc, (import_docker().errors.DockerException, OSError)):
                raise SandboxError(f"could not start the Docker sandbox: {exc}") from exc
            raise

    def _check_inputs(self) -> None:
        if not self.spec.public_dir.is_dir():
            raise SandboxError(f"public data folder {self.spec.public_dir} does not exist")
        if not image_exists(self._client, self.image):
            raise SandboxError(
                f"the agent image {self.image} is missing: build it with `mlebench sandbox build`"
            )

    @property
    def site(self) -> ServiceSite:
        """The host services' folder (made by :meth:`start`), mounted at :data:`SERVICES_DIR`."""
        if self._socket_dir is None:
            raise SandboxError("the Docker sandbox is not started")
        return ServiceSite(self._socket_dir, SERVICES_DIR, self.python, own_localhost=True)

    def _start_services(self) -> None:
        self._socket_dir = make_socket_dir()  # named for this process: reaped if it is killed
        self._socket_dir.chmod(0o755)  # the agent user must reach the sockets inside
        if engine_is_remote():  # a remote engine cannot mount a socket of this machine
            self.spec.services.unreachable(
                "DOCKER_HOST points at a remote Docker engine, and host services are reached "
                "through a socket mounted from this machine; use a local engine"
            )
            return
        self.spec.services.start(self.site)

    def _start_network(self) -> str:
        """The container's network: ``none``, ``bridge``, or a new egress network (``allow``)."""
        if self.spec.network.mode != "allow":
            return self.spec.network.mode
        log_dir = self.spec.log_dir or self._socket_dir or Path(tempfile.gettempdir())
        self.egress = EgressProxy(
            self._client,
            self.spec.run_id,
            self.spec.subject,
            self.spec.network.hosts,
            log_dir / "egress.log",
        )
        return self.egress.start()

    def egress_summary(self) -> dict[str, Any] | None:
        """The record's ``egress`` entry of an ``allow`` network (``None`` otherwise)."""
        return self.egress.summary() if self.egress is not None else None

    def _create_container(self, network: str, lease: int) -> Any:
        limit = layer_limit_options(self._client)
        try:
            return self._create(network, lease, limit)
        except import_docker().errors.APIError as exc:
            if not limit or not refused_layer_limit(exc):
                raise
        return self._create(network, lease, {})

    def _create(self, network: str, lease: int, layer_limit: dict[str, Any]) -> Any:
        docker = import_docker()
        return self._client.containers.create(
            self.image,
            command=keeper_command(lease),
            name=container_name(self.spec),
            hostname="sandbox",
            labels=self._labels(),
            user="root",
            init=True,
            network_mode=network,
            mounts=self._mounts(docker),
            log_config=docker.types.LogConfig(type="none"),
            **security_options(self.privileged),
            **resource_options(self.spec.limits.resources, docker),
            **layer_limit,
        )

    def _labels(self) -> dict[str, str]:
        # The spec's session/worker labels (the harness's ids) win over the process defaults.
        return {**ownership_labels(self.spec.run_id, self.spec.subject), **self.spec.labels}

    def _mounts(self, docker: Any) -> list[Any]:
        if engine_is_remote():
            return []  # host paths mean nothing to a remote engine: data is copied in instead
        mount = docker.types.Mount
        return [
            mount(PATHS.data, str(self.spec.public_dir.resolve()), type="bind", read_only=True),
            mount(SERVICES_DIR, str(self._socket_dir), type="bind", read_only=True),
        ]

    def _seed_files(self) -> None:
        if engine_is_remote():
            self._put(self.spec.public_dir, PATHS.data, owner=0)

    def _make_workspace(self) -> None:
        """``/home/work``, owned by the agent user (``/home`` itself belongs to root)."""
        script = f"mkdir -p {PATHS.work} && chown {AGENT_UID}:{AGENT_UID} {PATHS.work}"
        code, output = self.container.exec_run(["sh", "-c", script], user="root")
        if code != 0:
            raise SandboxError(f"cannot create {PATHS.work}: {output.decode().strip()}")

    def exec(
        self,
        command: Sequence[str],
        *,
        timeout: float | None = None,
        env: Mapping[str, str] | None = None,
        log_path: Path | None = None,
    ) -> ExecResult:
        container = self._running_container()
        action = f"running {command[0]!r} in the Docker sandbox"
        with self.agent_execs.running(), engine_errors(action):
            renew_lease(container, self.lease, timeout or 0.0)
            result = run_exec(
                container,
                self._wrapped(command),
                user=AGENT_USER,
                env=self._agent_env(env),
                workdir=PATHS.agent,
                timeout=timeout,
                log_path=log_path,
            )
        if result.restarted:
            self.lease.forget()  # the container was restarted: its keeper began a fresh lease
        return result

    def exec_harness(
        self, command: Sequence[str], *, timeout: float | None = None, log_path: Path | None = None
    ) -> ExecResult:
        """``command`` as root (a uid the agent does not own), from ``/``, with only
        :data:`HARNESS_ENV`: none of the agent's variables, no gateway wrapper."""
        container = self._running_container()
        with engine_errors(f"running the harness's {command[0]!r} in the Docker sandbox"):
            renew_lease(container, self.lease, timeout or 0.0)
            result = run_exec(
                container,
                list(command),
                user="root",
                env=dict(HARNESS_ENV),
                workdir="/",
                timeout=timeout,
                log_path=log_path,
                account=False,
                agent=False,
            )
        if result.restarted:
            self.lease.forget()
        return result

    def _running_container(self) -> Any:
        if self.container is None:
            raise SandboxError("the Docker sandbox is not started")
        return self.container

    def _wrapped(self, command: Sequence[str]) -> list[str]:
        """``command`` inside the services' wrappers (none when they were not started)."""
        if engine_is_remote():
            return list(command)
        return self.spec.services.wrap(command, self.site)

    def _agent_env(self, extra: Mapping[str, str] | None) -> dict[str, str]:
        return {
            "HOME": AGENT_HOME,
            "PYTHONUNBUFFERED": "1",
            **self.contract_env(),
            **(self.egress.env() if self.egress is not None else {}),
            **(extra or {}),
            **(self.spec.services.env(self.site) if not engine_is_remote() else {}),
        }

    def kill_agent_processes(self) -> None:
        """SIGKILL every process of the agent user in the container (its init stays), at any
        pids count (:mod:`.killer`); restart the container when some still survive. Nothing
        to do when the last agent exec's own killer left none and no exec started since: only
        an agent exec starts the agent user's processes."""
        if self.container is None or self.agent_execs.none_left:
            return
        if not kill_agent_processes(self.container):
            log.warning(
                "agent processes in %s survived SIGKILL; restarting it", self.container.name
            )
            self.container.restart(timeout=0)
            self.lease.forget()

    def copy_in(self, source: Path, destination: str) -> None:
        container = self._running_container()
        with engine_errors(f"copying {source} into the Docker sandbox"):
            renew_lease(container, self.lease, 0.0)
            self._put(source, destination, owner=AGENT_UID)

    def _put(self, source: Path, destination: str, *, owner: int) -> None:
        """Copy ``source`` to ``destination`` through a tar stream, owned by uid/gid ``owner``;
        its folder is made (as ``owner``) only when the engine says it is missing."""
        parent, _, name = destination.rstrip("/").rpartition("/")
        folder = parent or "/"
        with tempfile.SpooledTemporaryFile(max_size=SPOOL_BYTES) as archive:
            _write_tar(archive, source, name, owner)
            for attempt in (1, 2):
                archive.seek(0)
                try:
                    written = self.container.put_archive(folder, archive)
                    break
                except import_docker().errors.NotFound:
                    if attempt == 2:
                        raise
                    self._make_folder(folder, owner)
            if not written:
                raise SandboxError(f"could not copy {source} to {destination} in the sandbox")

    def _make_folder(self, folder: str, owner: int) -> None:
        user = AGENT_USER if owner == AGENT_UID else "root"
        code, output = self.container.exec_run(["mkdir", "-p", folder], user=user)
        if code != 0:
            raise SandboxError(f"cannot create {folder} in the sandbox: {output.decode().strip()}")

    def copy_out(
        self,
        source: str,
        destination: Path,
        *,
        max_file_bytes: int | None = None,
        budget: CopyBudget | None = None,
    ) -> bool:
        container = self._running_container()
        budget = budget or CopyBudget()
        with engine_errors(f"copying {source} out of the Docker sandbox"):
            renew_lease(container, self.lease, 0.0, must_run=False)
            return copy_from_container(container, source, destination, max_file_bytes, budget)

    def stop(self, interrupted: bool = False) -> None:
        if self.container is not None:
            remove_container(self.container, graceful=not interrupted)
            self.container = None
        if self.egress is not None:
            self.egress.stop()
        try:
            self.spec.services.stop()
        finally:
            self._forget_host_side()

    def _forget_host_side(self) -> None:
        if self._socket_dir is not None:
            shutil.rmtree(self._socket_dir, ignore_errors=True)
            self._socket_dir = None
        if self._client is not None:
            self._client.close()
            self._client = None


@contextmanager
def engine_errors(action: str) -> Iterator[None]:
    """Report failures of the engine or its transport as :class:`SandboxError`."""
    try:
        yield
    except (import_docker().errors.DockerException, OSError) as exc:
        raise SandboxError(f"{action}: {exc}") from exc


def _write_tar(archive: IO[bytes], source: Path, name: str, owner: int) -> None:
    def own(info: tarfile.TarInfo) -> tarfile.TarInfo:
        info.uid = info.gid = owner
        info.uname = info.gname = ""
        return info

    with tarfile.open(fileobj=archive, mode="w") as tar:
        tar.add(source, arcname=name, filter=own)
