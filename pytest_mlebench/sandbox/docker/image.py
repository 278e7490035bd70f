"""The agent image: assemble the build context, make a base image offline if need be, build once.

The image tag carries a hash of everything that goes into the build (Dockerfile, baked-in scripts,
base image name), so a change to any of them makes ``ensure_image`` build a new image, and an
unchanged tree never rebuilds. Base image: ``debian:bookworm-slim`` when it is present or can be
pulled; otherwise (offline machines) a minimal Debian made with ``debootstrap`` and imported with
``docker import`` as ``pytest-mlebench-base:bookworm``.
"""

from __future__ import annotations

import functools
import hashlib
import logging
import os
import shutil
import subprocess
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from filelock import FileLock

from pytest_mlebench.errors import SandboxError
from pytest_mlebench.sandbox.docker.engine import docker_client, import_docker
from pytest_mlebench.sandbox.docker.recipe import image_exists, remove_old_images, run_build
from pytest_mlebench.sandbox.validator import CLIENT_SCRIPT, validate_script

log = logging.getLogger(__name__)

IMAGE_DIR = Path(__file__).resolve().parent.parent / "image"
IMAGE_REPOSITORY = "pytest-mlebench-agent"
IMAGE_ENV = "MLEBENCH_IMAGE"
BASE_ENV = "MLEBENCH_BASE_IMAGE"
MIRROR_ENV = "MLEBENCH_DEBIAN_MIRROR"
REGISTRY_BASE = "debian:bookworm-slim"
LOCAL_BASE = "pytest-mlebench-base:bookworm"
DEFAULT_MIRROR = "http://deb.debian.org/debian"
CLIENT_IN_IMAGE = "/usr/local/lib/mlebench/validate_client.py"
BUILD_TIMEOUT = 1800

Progress = Callable[[str], None]


def _quiet(line: str) -> None:
    log.info("%s", line)


def context_files() -> dict[str, bytes]:
    """Name → content of every file in the build context."""
    files = {path.name: path.read_bytes() for path in sorted(IMAGE_DIR.iterdir()) if path.is_file()}
    files["validate_client.py"] = CLIENT_SCRIPT.read_bytes()
    files["validate_submission.sh"] = validate_script(CLIENT_IN_IMAGE).encode()
    return files


@functools.cache
def image_tag() -> str:
    """``pytest-mlebench-agent:<hash>`` of the build context (or ``MLEBENCH_IMAGE``).

    Computed once per process, so every sandbox of a session runs the image the session ensured,
    even if the files change while it runs.
    """
    if os.environ.get(IMAGE_ENV):
        return os.environ[IMAGE_ENV]
    digest = hashlib.sha256(_preferred_base().encode())
    for name, content in sorted(context_files().items()):
        digest.update(name.encode() + b"\0" + hashlib.sha256(content).digest())
    return f"{IMAGE_REPOSITORY}:{digest.hexdigest()[:12]}"


def _preferred_base() -> str:
    return os.environ.get(BASE_ENV, REGISTRY_BASE)


def build_image(force: bool = False, progress: Progress = _quiet) -> str:
    """Build the agent image (and its base where needed); returns the tag.

    Args:
        force: Build again without the layer cache even when the tag exists.
        progress: Receives one line of build output at a time.
    """
    client = docker_client(timeout=BUILD_TIMEOUT)
    try:
        tag = image_tag()
        if not force and image_exists(client, tag):
            progress(f"image {tag} is up to date")
            return tag
        base = ensure_base_image(client, progress)
        _build(client, tag, base, nocache=force, progress=progress)
        client.images.get(tag).tag(IMAGE_REPOSITORY, "latest")
        remove_old_images(client, keep=tag, progress=progress, repository=IMAGE_REPOSITORY)
        return tag
    finally:
        client.close()


def ensure_image(lock_dir: Path | None = None, progress: Progress = _quiet) -> str:
    """Build the agent image unless it exists; safe to call from many processes at once."""
    lock_dir = lock_dir or Path(tempfile.gettempdir())
    lock_dir.mkdir(parents=True, exist_ok=True)
    with FileLock(str(lock_dir / "pytest-mlebench-image.lock")):
        return build_image(force=False, progress=progress)


def _build(client: Any, tag: str, base: str, *, nocache: bool, progress: Progress) -> None:
    with tempfile.TemporaryDirectory(prefix="mlebench-image-") as context:
        for name, content in context_files().items():
            (Path(context) / name).write_bytes(content)
        progress(f"building {tag} from {base}")
        run_build(
            client,
            Path(context),
            tag,
            what="the agent image",
            build_args={"BASE_IMAGE": base},
            nocache=nocache,
            progress=progress,
        )


def ensure_base_image(client: Any, progress: Progress) -> str:
    """A Debian bookworm base image: present, pulled, or made here with debootstrap."""
    wanted = _preferred_base()
    if image_exists(client, wanted):
        return wanted
    if wanted == REGISTRY_BASE and image_exists(client, LOCAL_BASE):
        return LOCAL_BASE
    if _try_pull(client, wanted, progress):
        return wanted
    if wanted != REGISTRY_BASE:
        raise SandboxError(
            f"base image {wanted} (from {BASE_ENV}) is not there and cannot be pulled"
        )
    make_base_image(client, LOCAL_BASE, progress)
    return LOCAL_BASE


def _try_pull(client: Any, name: str, progress: Progress) -> bool:
    progress(f"pulling {name}")
    try:
        client.images.pull(name)
    except import_docker().errors.APIError as exc:
        progress(f"cannot pull {name} ({exc}); making a base image with debootstrap instead")
        return False
    return True


def make_base_image(client: Any, name: str, progress: Progress) -> None:
    """``debootstrap --variant=minbase bookworm`` into a temp folder, then ``docker import``."""
    debootstrap = shutil.which("debootstrap") or "/usr/sbin/debootstrap"
    if not Path(debootstrap).exists():
        raise SandboxError(
            "no base image can be pulled and debootstrap is missing: "
            "apt-get install debootstrap (or load debian:bookworm-slim with docker load)"
        )
    if os.geteuid() != 0:
        raise SandboxError("making the base image with debootstrap needs root: run it as root")
    with tempfile.TemporaryDirectory(prefix="mlebench-rootfs-") as work:
        rootfs, archive = Path(work) / "rootfs", Path(work) / "rootfs.tar"
        mirror = os.environ.get(MIRROR_ENV, DEFAULT_MIRROR)
        _run([debootstrap, "--variant=minbase", "bookworm", str(rootfs), mirror], progress)
        _run(["tar", "-C", str(rootfs), "-cf", str(archive), "."], progress)
        repository, _, tag = name.partition(":")
        progress(f"importing {rootfs} as {name}")
        client.api.import_image_from_file(str(archive), repository=repository, tag=tag or "latest")


def _run(command: list[str], progress: Progress) -> None:
    progress("$ " + " ".join(command))
    proc = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, errors="replace"
    )
    assert proc.stdout is not None  # we asked for a pipe
    for line in proc.stdout:
        progress(line.rstrip())
    if proc.wait() != 0:
        raise SandboxError(f"{command[0]} failed with exit status {proc.returncode}")
