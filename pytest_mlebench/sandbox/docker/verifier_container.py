"""The verifier of an engineering run in a fresh Docker container (see :mod:`..verifier_phase`).

The container runs the verifier image as root with ``--network none``, ``no-new-privileges``
(no setuid program turns the agent's code, run as ``nobody``, back into root) and the task's
verify limits. ``/verify``, ``/private`` and ``/pristine`` are read-only bind mounts, ``/work`` a
bind mount of a fresh copy of the agent's workspace (visible tests restored), and the verifier's
pytest plugin is mounted at its fixed path ``/opt/mlebench-verify`` (the eng image also bakes it
there). ``/out`` is a folder of the container itself: the harness reads ``/out/checks.json`` and
``/out/verify.log`` with the engine's copy API after the container exited, and removes it.

The run's key goes into the created container, before it starts, as :data:`KEY_PATH`: a file
``0400`` in a folder ``0700``, both root's, written through the engine (never on the host's disk,
never in the environment or a command line, which ``/proc`` shows). The plugin reads and deletes
it only after it has killed every other process of the container.
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
from pytest_mlebench.sandbox.docker.container_options import resource_options
from pytest_mlebench.sandbox.docker.engine import docker_client, engine_is_remote, import_docker
from pytest_mlebench.sandbox.docker.recipe import image_exists
from pytest_mlebench.sandbox.verifier_phase import (
    IMAGE_PLUGIN_DIR,
    LOG_NAME,
    PLUGIN_DIR,
    PYTEST_ARGS,
    VerifierError,
    VerifierJob,
    VerifierResult,
    stage_workspace,
    verifier_env,
)
from pytest_mlebench.sandbox.verifier_results import (
    RESULTS_NAME,
    accept_results,
    new_key,
    time_out,
)

PATHS = {
    "verify": "/verify", "private": "/private", "pristine": "/pristine", "work": "/work",
    "build": "/build",
}  # fmt: skip
OUT = "/out"
MAX_READ_BYTES = 16 * 1024**2
KEY_PATH = "/run/mlebench-verify/key"  # the plugin's own constant names the same file


def run_docker_verifier(job: VerifierJob) -> VerifierResult:
    """Run ``job`` in a fresh container: its results when they can be trusted;
    :class:`VerifierError` when it could not run (the engine's or the image's fault),
    :class:`~pytest_mlebench.sandbox.verifier_results.VerifierRejected` when it ran but its
    results cannot be trusted (killed, broken, past its limit, no seal of this run)."""
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
        key = new_key()
        put_key(container, key)
        started = time.monotonic()
        container.start()
        status = _wait(container, job.time_limit)
        wall = time.monotonic() - started
        _keep_log(container, job)
        if status is None:
            raise time_out(job.time_limit, None, wall)
        text = _read(container, f"{OUT}/{RESULTS_NAME}")
        document = accept_results(text, status, key, f"log: {job.log_path}", wall)
        return VerifierResult(document, status, wall, job.image, str(job.log_path))
    except (docker.errors.DockerException, OSError) as exc:
        raise VerifierError(f"the verifier container failed: {exc}") from exc
    finally:
        if container is not None:
            remove_container(container, graceful=False)
        client.close()
        shutil.rmtree(staging, ignore_errors=True)


def put_key(container: Any, key: bytes) -> None:
    """Write ``key`` (hex) to :data:`KEY_PATH` in the created container: root's, ``0400`` in a
    ``0700`` folder, so no other user of the container can open it."""
    folder, _, name = KEY_PATH.rpartition("/")
    data = key.hex().encode()
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as archive:
        entries = [
            (folder.lstrip("/"), tarfile.DIRTYPE, 0o700, b""),
            (f"{folder.lstrip('/')}/{name}", tarfile.REGTYPE, 0o400, data),
        ]
        for path, kind, mode, content in entries:
            info = tarfile.TarInfo(path)
            info.type, info.mode, info.uid, info.gid = kind, mode, 0, 0
            info.size = len(content)
            info.mtime = int(time.time())
            archive.addfile(info, io.BytesIO(content) if content else None)
    if not container.put_archive("/", buffer.getvalue()):
        raise VerifierError("the verifier's key could not be written into its container")


def _keep_log(container: Any, job: VerifierJob) -> None:
    log_text = _read(container, f"{OUT}/{LOG_NAME}")
    job.log_path.parent.mkdir(parents=True, exist_ok=True)
    job.log_path.write_text(log_text or "", "utf-8")


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
        security_opt=["no-new-privileges:true"],
        **resources,
    )


def _wait(container: Any, limit: float) -> int | None:
    """The container's exit status; ``None`` when it still ran at ``limit`` seconds (it is then
    killed); :class:`VerifierError` when the engine failed (the harness's fault)."""
    errors = import_docker().errors
    try:
        outcome = container.wait(timeout=limit)
    except Exception as exc:  # requests' ReadTimeout is an OSError, not a DockerException
        if "timeout" not in type(exc).__name__.lower() and "timed out" not in str(exc).lower():
            raise VerifierError(f"the engine failed while the verifier ran: {exc}") from exc
        container.reload()
        if container.status == "exited":  # it ended as the wait gave up
            return int(container.attrs.get("State", {}).get("ExitCode", -1))
        if container.status != "running":
            raise VerifierError(
                f"the verifier container is {container.status!r} at its {limit:.0f} s limit, "
                "not running: the engine lost it"
            ) from None
        try:
            container.kill()
        except errors.APIError:
            pass  # it ended meanwhile: still past its limit
        return None
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
