"""Host side of ``build_image.sh``: a unix-socket server that builds images, never scores.

Like the validator (:mod:`.validator`), it listens on a socket in the folder mounted into the
sandbox. The client (:mod:`.build_client`, standard library only) sends a tar of a folder (the
workspace by default); the server unpacks it into a private temp folder (no absolute paths, no
``..``, no links or devices pointing out of it), hands it to the harness's builder
(:mod:`~pytest_mlebench.sandbox.docker.image_builder`, behind the :data:`ContextBuild` callable)
and answers with the build's log, whether it built, its wall time, image id and size: the facts a
``docker build`` prints, never a verdict or a score. Calls are rate-limited (``min_interval``
seconds apart); every answered call is logged with its time, the context's fingerprint (SHA-256 of
the tar as sent), whether it built and its wall time, so the run record shows how the agent used
it; refused requests are counted. :class:`BuilderService` attaches it beside a sandbox
(:mod:`.services`): the socket, the client and ``build_image.sh`` in the service folder, named by
``BUILD_IMAGE`` and ``MLEBENCH_BUILD_SOCKET``.
"""

from __future__ import annotations

import shutil
import socket
import tarfile
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO, ClassVar

from pytest_mlebench.sandbox.services import LoggingService, ServiceSite
from pytest_mlebench.sandbox.socket_endpoint import (
    SocketEndpoint,
    accept_body,
    client_script,
    header_text,
    receive_body,
    request_size,
)
from pytest_mlebench.timestamps import utc_timestamp

CLIENT_SCRIPT = Path(__file__).with_name("build_client.py")
SOCKET_NAME = "build.sock"
SCRIPT_NAME = "build_image.sh"
CLIENT_NAME = "build_client.py"
MAX_UPLOAD_BYTES = 256 * 1024**2
MAX_CONTEXT_BYTES = 2 * MAX_UPLOAD_BYTES  # unpacked, by apparent size
MAX_CONTEXT_MEMBERS = 50_000


@dataclass(frozen=True)
class BuildReply:
    """What the agent learns of one build: what ``docker build`` would have printed."""

    ok: bool
    log: str
    wall_s: float
    image_id: str | None = None
    size: int | None = None


ContextBuild = Callable[[Path, str], BuildReply]
"""Builds the context folder with the named Dockerfile (the harness's builder)."""


@dataclass(frozen=True)
class BuildCall:
    """One answered build request, as the run record keeps it."""

    time: str
    sha256: str
    bytes: int
    dockerfile: str
    ok: bool
    wall_s: float


class BuildServer(SocketEndpoint):
    """Serve builds over ``socket_path`` in a background thread until :meth:`stop`."""

    thread_name = "mlebench-builder"
    backlog = 2
    request_timeout_s = 600.0
    bad_request = (OSError, ValueError, KeyError, tarfile.TarError)

    def __init__(
        self,
        socket_path: Path,
        build: ContextBuild,
        min_interval: float = 5.0,
        max_upload: int = MAX_UPLOAD_BYTES,
    ) -> None:
        super().__init__(socket_path, min_interval)
        self.build = build
        self.max_upload = max_upload
        self.calls: list[BuildCall] = []

    def handle(self, header: dict[str, Any], reader: BinaryIO, conn: socket.socket) -> Any:
        size = request_size(header)
        dockerfile = header_text(header, "dockerfile", "Dockerfile")
        refused = self.refusal(size, self.max_upload, "context")
        if refused is not None:
            return refused
        accept_body(conn)
        with tempfile.TemporaryDirectory(prefix="mlebench-build-") as tmp:
            archive = Path(tmp) / "context.tar"
            digest = receive_body(reader, archive, size)
            context = Path(tmp) / "context"
            unpack_context(archive, context)
            reply = self.build(context, dockerfile)
            self.mark_call()  # the interval counts from the build's end
        self.calls.append(
            BuildCall(utc_timestamp(), digest, size, dockerfile, reply.ok, round(reply.wall_s, 3))
        )
        return {
            "ok": reply.ok,
            "log": reply.log,
            "wall_s": round(reply.wall_s, 3),
            "image_id": reply.image_id,
            "size": reply.size,
        }


def unpack_context(
    archive: Path,
    target: Path,
    max_bytes: int = MAX_CONTEXT_BYTES,
    max_members: int = MAX_CONTEXT_MEMBERS,
) -> None:
    """Unpack the agent's tar into ``target``: regular files, folders and links that stay
    inside it, nothing else (``tarfile``'s ``data`` filter: no absolute paths, no ``..``, no
    devices, no modes beyond the user's), at most ``max_members`` members and ``max_bytes``
    of unpacked (apparent) size: a sparse member of a small tar may claim a terabyte.

    Raises:
        tarfile.FilterError: The context is over one of the bounds (an error answer).
    """
    target.mkdir()
    seen = {"bytes": 0, "members": 0}

    def bounded(member: tarfile.TarInfo, path: str) -> tarfile.TarInfo | None:
        seen["members"] += 1
        seen["bytes"] += member.size
        if seen["members"] > max_members or seen["bytes"] > max_bytes:
            raise ContextTooLarge(
                f"the context unpacks to more than {max_members} files or {max_bytes} bytes"
            )
        return tarfile.data_filter(member, path)

    with tarfile.open(archive) as tar:
        tar.extractall(target, filter=bounded)


class ContextTooLarge(tarfile.FilterError):
    """A build context over the unpacking bounds."""


build_script = client_script  # the text of ``build_image.sh``


@dataclass(eq=False)
class BuilderService(LoggingService[BuildCall]):
    """``build_image.sh``'s host side for one run (a task whose ``config.yaml`` declares
    ``builder:``), attached beside its sandbox.

    Attributes:
        build: The harness's builder (:mod:`~pytest_mlebench.sandbox.docker.image_builder`).
        interval: Seconds between two answered build requests (the rate limit).
    """

    name: ClassVar[str] = "builder"
    build: ContextBuild
    interval: float = 5.0
    server: BuildServer | None = field(default=None, init=False, repr=False)

    def start(self, site: ServiceSite) -> None:
        if self.server is not None:
            return
        self.server = BuildServer(site.host_dir / SOCKET_NAME, self.build, self.interval)
        self.server.start()
        client = site.host_dir / CLIENT_NAME
        shutil.copyfile(CLIENT_SCRIPT, client)
        client.chmod(0o644)
        script = site.host_dir / SCRIPT_NAME
        script.write_text(build_script(site.inside(CLIENT_NAME), site.python), "utf-8")
        script.chmod(0o755)

    def env(self, site: ServiceSite) -> dict[str, str]:
        return {
            "BUILD_IMAGE": site.inside(SCRIPT_NAME),
            "MLEBENCH_BUILD_SOCKET": site.inside(SOCKET_NAME),
        }


def builder_service(build: ContextBuild | None, interval: float = 5.0) -> BuilderService | None:
    """The builder service for ``build`` (``None``: a task without a builder)."""
    return BuilderService(build, interval) if build is not None else None
