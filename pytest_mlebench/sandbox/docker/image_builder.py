"""The harness's image builder: an agent's Dockerfile built on the host's engine, fenced in.

An engineering task that packages software (``dockerfile-fix``) needs images built from what the
agent wrote; the agent has no engine. :class:`ImageBuilder` builds a context folder with the
engine's classic builder through the API (``docs/sandbox.md``, "Building the agent's images",
says why not BuildKit or a builder container):

- the Dockerfile is read first (:mod:`~pytest_mlebench.sandbox.dockerfile_rules`): every ``FROM``
  must name an allowed tag that exists on this engine, no ``ADD`` of a URL, no ``RUN --mount`` of
  a bind, ssh or secret; refused builds never reach the engine, which therefore never pulls;
- ``networkmode=none`` for every ``RUN``; memory (swap off) and CPU quota of the task; no build
  arguments, no extra hosts, no pull, no privileged step (the classic builder has none);
- the context honours ``.dockerignore`` and is capped in size; the build is killed at its
  timeout (the engine cancels a build whose client hangs up, and removes its step container);
- every image it builds carries the harness's labels and a per-run tag, and
  :meth:`ImageBuilder.remove_all` removes exactly those (their untagged parents go with them
  unless another image still uses them).

A build's outcome is a :class:`BuildResult` of plain facts: ok, the log (capped), wall time, the
image's id and size, its ``docker image inspect`` document and history, which steps came from
the cache, the context's files.
"""

from __future__ import annotations

import json
import logging
import re
import socket
import tempfile
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from pytest_mlebench.sandbox.docker.engine import import_docker
from pytest_mlebench.sandbox.dockerfile_rules import read_dockerfile
from pytest_mlebench.sandbox.memory_sizes import size_in_bytes

log = logging.getLogger(__name__)

BUILD_REPOSITORY = "pytest-mlebench-build"
BUILD_LABEL = "pytest-mlebench.build"
CPU_PERIOD = 100_000
STEP = re.compile(r"^Step (\d+)/(\d+) : (.*)$")


@dataclass(frozen=True)
class BuildLimits:
    """What a build may do (a task's ``builder:`` block, ``docs/engineering.md``).

    Attributes:
        allowed_from: The local tags a ``FROM`` may name.
        timeout_s: Seconds before the build is killed.
        memory: Memory of each build step (swap off), Docker's units.
        cpus: CPUs of each build step (a CFS quota).
        max_context_bytes: The context's size cap, after ``.dockerignore``.
        max_log_bytes: The build log kept (its end).
    """

    allowed_from: tuple[str, ...]
    timeout_s: float = 180.0
    memory: str = "1g"
    cpus: float = 1.0
    max_context_bytes: int = 64 * 1024**2
    max_log_bytes: int = 256 * 1024


@dataclass(frozen=True)
class BuildResult:
    """One build's facts. ``refused`` says why the build never reached the engine."""

    ok: bool
    log: str
    wall_s: float
    tag: str | None = None
    image_id: str | None = None
    size: int | None = None
    refused: str | None = None
    timed_out: bool = False
    steps: tuple[dict[str, Any], ...] = ()
    context_files: tuple[str, ...] = ()
    context_bytes: int = 0
    inspect: dict[str, Any] | None = None
    history: tuple[dict[str, Any], ...] = ()

    def summary(self) -> dict[str, Any]:
        """The facts without the log, the inspect document and the history (for records)."""
        return {
            "ok": self.ok,
            "wall_s": round(self.wall_s, 3),
            "tag": self.tag,
            "image_id": self.image_id,
            "size": self.size,
            "refused": self.refused,
            "timed_out": self.timed_out,
            "context_bytes": self.context_bytes,
            "cached_steps": sum(1 for step in self.steps if step.get("cached")),
            "steps": len(self.steps),
        }


@dataclass
class ImageBuilder:
    """Builds for one run: its tags ``pytest-mlebench-build:<run>-<n>``, removed by
    :meth:`remove_all`."""

    run_id: str
    limits: BuildLimits
    labels: Mapping[str, str] = field(default_factory=dict)
    built: list[str] = field(default_factory=list)
    closed: bool = False
    _count: int = 0
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def build(self, context: Path, dockerfile: str = "Dockerfile") -> BuildResult:
        """Build ``context`` (a folder on this machine) with its ``dockerfile``."""
        started = time.monotonic()
        if self.closed:
            return BuildResult(False, "refused: the builder is closed\n", 0.0, refused="closed")
        with self._lock:
            self._count += 1
            tag = f"{BUILD_REPOSITORY}:{_tag_safe(self.run_id)}-{self._count}"
        refused = self._refusal(context, dockerfile)
        if refused is not None:
            log.warning("image build refused (%s): %s", self.run_id, refused)
            wall = time.monotonic() - started
            return BuildResult(False, f"refused: {refused}\n", wall, refused=refused)
        files, size = context_listing(context, dockerfile)
        if size > self.limits.max_context_bytes:
            refused = (
                f"the build context is {size} bytes after .dockerignore, over the "
                f"{self.limits.max_context_bytes} byte limit"
            )
            wall = time.monotonic() - started
            return BuildResult(
                False,
                f"refused: {refused}\n",
                wall,
                refused=refused,
                context_files=files,
                context_bytes=size,
            )
        result = self._engine_build(context, dockerfile, tag, files)
        return _with(result, wall_s=time.monotonic() - started, context_bytes=size)

    def _refusal(self, context: Path, dockerfile: str) -> str | None:
        path = (context / dockerfile).resolve()
        if not path.is_relative_to(context.resolve()) or not path.is_file():
            return f"no Dockerfile at {dockerfile} in the build context"
        refusals, used = read_dockerfile(
            path.read_text("utf-8", "replace"), self.limits.allowed_from
        )
        if refusals:
            return "; ".join(refusals)
        missing = [tag for tag in used if not _local_image(tag)]
        if missing:
            return f"the allowed base image {missing[0]} is not on this engine (it is never pulled)"
        return None

    def _engine_build(
        self, context: Path, dockerfile: str, tag: str, files: tuple[str, ...]
    ) -> BuildResult:
        docker = import_docker()
        api = docker.APIClient(version="auto", timeout=int(self.limits.timeout_s) + 30)
        try:
            with tempfile.TemporaryFile() as archive:
                docker.utils.build.create_archive(str(context), files=list(files), fileobj=archive)
                archive.seek(0)
                lines, image_id, timed_out = self._stream(api, archive, dockerfile, tag)
            if image_id:
                self.built.append(tag)
                if self.closed:  # the phase ended while this build ran: its image goes now
                    self.remove_all()
                    image_id = None
                    lines.append("error: the builder was closed before the build finished\n")
            text = _cap("".join(lines), self.limits.max_log_bytes)
            if image_id is None:
                return BuildResult(
                    False, text, 0.0, timed_out=timed_out, steps=_steps(lines), context_files=files
                )
            inspect = api.inspect_image(image_id)
            history = tuple(api.history(image_id))
            return BuildResult(
                True,
                text,
                0.0,
                tag=tag,
                image_id=image_id,
                size=int(inspect.get("Size") or 0),
                steps=_steps(lines),
                context_files=files,
                inspect=inspect,
                history=history,
            )
        finally:
            api.close()

    def _stream(
        self, api: Any, archive: Any, dockerfile: str, tag: str
    ) -> tuple[list[str], str | None, bool]:
        """Send the build; its log lines, the image id (``None``: failed), whether it timed out."""
        labels = {BUILD_LABEL: self.run_id, **self.labels}
        memory = size_in_bytes(self.limits.memory)
        params = {
            "t": tag, "dockerfile": dockerfile, "rm": "1", "forcerm": "1",
            "networkmode": "none", "labels": json.dumps(labels), "memory": memory,
            "memswap": memory, "cpuperiod": CPU_PERIOD,
            "cpuquota": int(self.limits.cpus * CPU_PERIOD),
        }  # fmt: skip
        headers = {"Content-Type": "application/x-tar"}
        url = api._url("/build")
        response = api._post(url, data=archive, params=params, stream=True, headers=headers)
        expired = threading.Event()
        done = threading.Event()
        raw = api._get_raw_response_socket(response)
        watchdog = threading.Thread(
            target=_hang_up, args=(raw, self.limits.timeout_s, done, expired), daemon=True
        )
        watchdog.start()
        lines: list[str] = []
        image_id = None
        failed = False
        try:
            for chunk in api._stream_helper(response, decode=True):
                if "stream" in chunk:
                    lines.append(str(chunk["stream"]))
                if "error" in chunk:
                    failed = True
                    lines.append(f"error: {chunk['error']}\n")
                if isinstance(chunk.get("aux"), dict) and chunk["aux"].get("ID"):
                    image_id = str(chunk["aux"]["ID"])
        except Exception as exc:  # the hang-up, or the engine went away
            failed = True
            if not expired.is_set():
                lines.append(f"error: the build's stream broke ({exc})\n")
        finally:
            done.set()
            response.close()
        if expired.is_set():
            lines.append(f"error: the build was killed after {self.limits.timeout_s:.0f} s\n")
        return lines, None if failed or expired.is_set() else image_id, expired.is_set()

    def close(self) -> int:
        """Remove every image built so far and every image a build still running makes (the
        agent's phase ended); later builds are refused. How many were removed now."""
        self.closed = True
        return self.remove_all()

    def remove_all(self) -> int:
        """Remove every image this builder tagged; how many were removed."""
        if not self.built:
            return 0
        docker = import_docker()
        api = docker.APIClient(version="auto")
        removed = 0
        try:
            for tag in list(self.built):
                try:
                    api.remove_image(tag, force=True)
                    removed += 1
                except docker.errors.NotFound:
                    pass
                except docker.errors.APIError as exc:
                    log.warning("could not remove the built image %s: %s", tag, exc)
                self.built.remove(tag)
        finally:
            api.close()
        return removed


def context_listing(context: Path, dockerfile: str = "Dockerfile") -> tuple[tuple[str, ...], int]:
    """The context's files after ``.dockerignore`` (as the engine gets them) and their size."""
    docker = import_docker()
    ignore = context / ".dockerignore"
    patterns: list[str] = []
    if ignore.is_file():
        lines = ignore.read_text("utf-8", "replace").splitlines()
        patterns = [line.strip() for line in lines if line.strip() and not line.startswith("#")]
    files = sorted(docker.utils.build.exclude_paths(str(context), patterns, dockerfile=dockerfile))
    size = 0
    for name in files:
        path = context / name
        if path.is_file() and not path.is_symlink():
            size += path.stat().st_size
    return tuple(files), size


def _hang_up(raw: Any, limit: float, done: threading.Event, expired: threading.Event) -> None:
    """At ``limit``, hang up the build's connection: the engine then cancels the build."""
    if done.wait(limit):
        return
    expired.set()
    sock = getattr(raw, "_sock", raw)
    try:
        sock.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass


def _local_image(tag: str) -> bool:
    docker = import_docker()
    api = docker.APIClient(version="auto")
    try:
        api.inspect_image(tag)
        return True
    except docker.errors.NotFound:
        return False
    finally:
        api.close()


def _steps(lines: list[str]) -> tuple[dict[str, Any], ...]:
    """``Step N/M : INSTRUCTION`` and whether its result came from the cache, from the log."""
    steps: list[dict[str, Any]] = []
    for line in "".join(lines).splitlines():
        match = STEP.match(line.strip())
        if match:
            steps.append({"step": int(match.group(1)), "instruction": match.group(3)})
            steps[-1]["cached"] = False
        elif steps and line.strip() == "---> Using cache":
            steps[-1]["cached"] = True
    return tuple(steps)


def _cap(text: str, limit: int) -> str:
    data = text.encode("utf-8", "replace")
    if len(data) <= limit:
        return text
    tail = data[-limit:].decode("utf-8", "replace")
    return f"[... {len(data) - limit} bytes of the build log left out ...]\n{tail}"


def _tag_safe(text: str) -> str:
    return re.sub(r"[^a-zA-Z0-9_.-]", "-", text)[:100]


def _with(result: BuildResult, **changes: Any) -> BuildResult:
    return replace(result, **changes)
