"""The verifier of an engineering run in a fresh Docker container (see :mod:`..verifier_phase`).

The container runs the verifier image as root with ``--network none`` and the task's verify
limits. ``/verify``, ``/private`` and ``/pristine`` are read-only bind mounts, ``/work`` a bind
mount of a fresh copy of the agent's workspace (visible tests restored), and the verifier's
pytest plugin is mounted at its fixed path ``/opt/mlebench-verify`` (the eng image also bakes it
there). ``/out`` is a folder of the container itself: the harness reads ``/out/checks.json`` and
``/out/verify.log`` with the engine's copy API after the container exited, and removes it.
"""

from __future__ import annotations

import io
import os
import shlex
import shutil
import tarfile
import tempfile
import time
from pathlib import Path
from typing import Any

from pytest_mlebench.sandbox.docker.cleanup import ownership_labels, remember, remove_container
from pytest_mlebench.sandbox.docker.engine import docker_client, engine_is_remote, import_docker
from pytest_mlebench.sandbox.docker.recipe import image_exists
from pytest_mlebench.sandbox.docker.sandbox import resource_options
from pytest_mlebench.sandbox.verifier_phase import (
    IMAGE_PLUGIN_DIR,
    LOG_NAME,
    PLUGIN_DIR,
    PYTEST_ARGS,
    RESULTS_NAME,
    VerifierError,
    VerifierJob,
    VerifierResult,
    read_results,
    stage_workspace,
    verifier_env,
)

PATHS = {
    "verify": "/verify", "private": "/private", "pristine": "/pristine", "work": "/work",
    "build": "/build",
}  # fmt: skip
OUT = "/out"
MAX_READ_BYTES = 16 * 1024**2


def run_docker_verifier(job: VerifierJob) -> VerifierResult:
    """Run ``job`` in a fresh container; :class:`VerifierError` when it cannot run or broke."""
    if job.image is None:
        raise VerifierError("the Docker verifier needs an image")
    if engine_is_remote():
        raise VerifierError("the Docker verifier needs an engine on this machine (bind mounts)")
    docker = import_docker()
    client = docker_client()
    staging = Path(tempfile.mkdtemp(prefix=f"mlebench-verify-{job.task_id[:20]}-"))
    container: Any = None
    try:
        if not image_exists(client, job.image):
            raise VerifierError(f"the verifier image {job.image} is missing")
        work = staging / "work"
        stage_workspace(job.work_dir, job.pristine_dir, work)
        work.chmod(0o777)
        hidden = stage_hidden(job, staging)
        container = _create(client, docker, job, work, hidden)
        remember(container)
        started = time.monotonic()
        container.start()
        status = _wait(container, job.time_limit)
        wall = time.monotonic() - started
        log_text = _read(container, f"{OUT}/{LOG_NAME}")
        job.log_path.parent.mkdir(parents=True, exist_ok=True)
        job.log_path.write_text(log_text or "", "utf-8")
        document = read_results(
            _read(container, f"{OUT}/{RESULTS_NAME}"), status, f"log: {job.log_path}"
        )
        return VerifierResult(document, status, wall, job.image, str(job.log_path))
    except (docker.errors.DockerException, OSError) as exc:
        raise VerifierError(f"the verifier container failed: {exc}") from exc
    finally:
        if container is not None:
            remove_container(container, graceful=False)
        client.close()
        shutil.rmtree(staging, ignore_errors=True)


def stage_hidden(job: VerifierJob, staging: Path) -> dict[str, Path]:
    """Copies of ``verify/`` and ``private/`` that only root can open (folders ``0700``).

    The verifier runs as root; the agent's own code it starts (a service, a training script)
    runs as an unprivileged user in the tasks that start one, so it can neither read the hidden
    tests nor the expected outputs, however it looks for them.
    """
    staged = {}
    for name, source in (("verify", job.verify_dir), ("private", job.private_dir)):
        target = staging / name
        shutil.copytree(source, target, symlinks=True, copy_function=link_or_copy)
        for folder in [target, *(p for p in target.rglob("*") if p.is_dir())]:
            folder.chmod(0o700)
        staged[name] = target
    return staged


def link_or_copy(source: str, target: str) -> None:
    """A hard link where the file system allows one, else a copy.

    A task's private files can be large (memory-bounded-aggregation's input is 1.5 GB): a link
    costs nothing, and it gives the verifier no more than a copy would — the mount is read-only,
    and the folders above it are root's alone (``0700``), which is what keeps the agent's code
    out, not the file's own mode."""
    try:
        os.link(source, target)
    except OSError:
        shutil.copy2(source, target)


def _create(client: Any, docker: Any, job: VerifierJob, work: Path, hidden: dict[str, Path]) -> Any:
    mount = docker.types.Mount
    mounts = [
        mount(PATHS["verify"], str(hidden["verify"].resolve()), type="bind", read_only=True),
        mount(PATHS["private"], str(hidden["private"].resolve()), type="bind", read_only=True),
        mount(PATHS["pristine"], str(job.pristine_dir.resolve()), type="bind", read_only=True),
        mount(PATHS["work"], str(work.resolve()), type="bind", read_only=False),
        mount(IMAGE_PLUGIN_DIR, str(PLUGIN_DIR), type="bind", read_only=True),
    ]
    if job.build_dir is not None:
        mounts.append(
            mount(PATHS["build"], str(job.build_dir.resolve()), type="bind", read_only=True)
        )
    env = verifier_env(job, {**PATHS, "out": OUT})
    env["PYTHONPATH"] = IMAGE_PLUGIN_DIR
    env["HOME"] = "/tmp"
    pytest = " ".join(shlex.quote(arg) for arg in ("python3", *PYTEST_ARGS))
    script = f"mkdir -p {OUT} && cd /verify && {pytest} > {OUT}/{LOG_NAME} 2>&1"
    resources = resource_options(job.resources, docker)
    return client.containers.create(
        job.image,
        command=["sh", "-c", script],
        user="root",
        network_mode="none",
        labels={**ownership_labels(f"verify-{job.task_id}", job.task_id), **job.labels},
        mounts=mounts,
        environment=env,
        working_dir="/verify",
        **resources,
    )


def _wait(container: Any, limit: float) -> int:
    """The container's exit status; :class:`VerifierError` past ``limit`` seconds."""
    errors = import_docker().errors
    try:
        outcome = container.wait(timeout=limit)
    except (errors.APIError, OSError) as exc:
        raise VerifierError(f"the verifier ran past its {limit:.0f} s limit ({exc})") from None
    except Exception as exc:  # requests' ReadTimeout is not a DockerException
        if "timed out" in str(exc).lower() or "timeout" in type(exc).__name__.lower():
            raise VerifierError(f"the verifier ran past its {limit:.0f} s limit") from None
        raise
    return int(outcome.get("StatusCode", -1))


def _read(container: Any, path: str) -> str | None:
    """The text of ``path`` in the (stopped) container, through the engine; ``None`` if absent."""
    errors = import_docker().errors
    try:
        stream, _ = container.get_archive(path)
    except errors.NotFound:
        return None
    data = b"".join(stream)
    with tarfile.open(fileobj=io.BytesIO(data)) as archive:
        member = next((m for m in archive.getmembers() if m.isfile()), None)
        if member is None or member.size > MAX_READ_BYTES:
            return None
        handle = archive.extractfile(member)
        return handle.read().decode("utf-8", "replace") if handle is not None else None
