"""Images built FROM another image with a Dockerfile, a folder of files and an optional lock.

One mechanism for the ``ml`` profile and for agent folders with a Dockerfile: the tag is a hash of
everything that goes in (base tag, Dockerfile name, every file, the lock), so an unchanged recipe
never rebuilds; the lock's wheels come from a wheelhouse on the host (see :mod:`.wheelhouse`) and
enter the build context as ``wheelhouse/``; the base image's tag is the build arg ``BASE_IMAGE``.
"""

from __future__ import annotations

import hashlib
import logging
import tempfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from filelock import FileLock

from pytest_mlebench.errors import SandboxError
from pytest_mlebench.sandbox.docker import wheelhouse
from pytest_mlebench.sandbox.docker.engine import docker_client, import_docker

log = logging.getLogger(__name__)

Progress = Callable[[str], None]
BUILD_TIMEOUT = 3 * 3600
CONTEXT_WHEELS = "wheelhouse"
# A Dockerfile labels its throw-away stages with this; their images are pruned after the build.
STAGE_LABEL = "pytest-mlebench.stage=install"
SKIPPED_NAMES = frozenset({".git", "__pycache__", CONTEXT_WHEELS})


@dataclass(frozen=True)
class Recipe:
    """What an image is built from.

    Attributes:
        what: Names the image in messages ("the ml profile image", "agent aide's image").
        repository: Image repository; the tag is the content hash.
        files: Build context files, relative path → content (the Dockerfile among them).
        base: Tag of the image the Dockerfile is built FROM (build arg ``BASE_IMAGE``).
        lock: Pip lock whose wheels go into ``wheelhouse/`` (``None``: no wheels).
        dockerfile: The Dockerfile's path inside ``files``.
        build_args: Build args besides ``BASE_IMAGE``.
    """

    what: str
    repository: str
    files: Mapping[str, bytes]
    base: str
    lock: Path | None = None
    dockerfile: str = "Dockerfile"
    build_args: Mapping[str, str] = field(default_factory=dict)

    @property
    def tag(self) -> str:
        digest = hashlib.sha256(f"{self.base}\0{self.dockerfile}\0".encode())
        for name, value in sorted(self.build_args.items()):
            digest.update(f"arg\0{name}={value}\0".encode())
        for name, content in sorted(self.files.items()):
            digest.update(name.encode() + b"\0" + hashlib.sha256(content).digest())
        if self.lock is not None:
            digest.update(b"lock\0" + self.lock.read_bytes())
        return f"{self.repository}:{digest.hexdigest()[:12]}"


def folder_files(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` by relative path (no ``.git``, caches or ``wheelhouse/``)."""
    files: dict[str, bytes] = {}
    for path in sorted(folder.rglob("*")):
        relative = path.relative_to(folder)
        if SKIPPED_NAMES.intersection(relative.parts) or not path.is_file():
            continue
        files[relative.as_posix()] = path.read_bytes()
    return files


def image_exists(client: Any, name: str) -> bool:
    """Whether the engine behind ``client`` has the image ``name``."""
    try:
        client.images.get(name)
    except import_docker().errors.ImageNotFound:
        return False
    return True


def remove_old_images(client: Any, keep: str, *, progress: Progress, repository: str) -> list[str]:
    """Untag ``repository``'s images of earlier builds; ones a container still uses stay."""
    removed = []
    for image in client.images.list(name=repository):
        for old in image.tags:
            if old in (keep, f"{repository}:latest"):
                continue
            try:
                client.images.remove(old)
            except import_docker().errors.APIError as exc:
                log.debug("keeping %s: %s", old, exc)
                continue
            progress(f"removed the outdated image {old}")
            removed.append(old)
    return removed


def ensure_recipe(
    recipe: Recipe,
    *,
    wheels_from: Path | None = None,
    force: bool = False,
    progress: Progress,
) -> str:
    """Build ``recipe`` unless its tag exists (or ``force``); returns the tag. Process-safe.

    Args:
        wheels_from: A prepared wheelhouse (air-gapped use); ``None`` fills the cached one with
            the host's pip.
    """
    lock_dir = Path(tempfile.gettempdir())
    with FileLock(str(lock_dir / f"{recipe.repository}.build.lock"), timeout=BUILD_TIMEOUT):
        client = docker_client(timeout=BUILD_TIMEOUT)
        try:
            return _ensure(client, recipe, wheels_from, force, progress)
        finally:
            client.close()


def _ensure(
    client: Any, recipe: Recipe, wheels_from: Path | None, force: bool, progress: Progress
) -> str:
    tag = recipe.tag
    if not force and image_exists(client, tag):
        progress(f"{recipe.what} {tag} is up to date")
        return tag
    if not image_exists(client, recipe.base):
        raise SandboxError(f"{recipe.what}: its base image {recipe.base} is missing")
    wheels = _wheels(recipe.lock, wheels_from, progress)
    with tempfile.TemporaryDirectory(prefix="mlebench-recipe-") as work:
        context = Path(work)
        for name, content in recipe.files.items():
            (context / name).parent.mkdir(parents=True, exist_ok=True)
            (context / name).write_bytes(content)
        wheelhouse.link_wheels(wheels, context / CONTEXT_WHEELS)
        _build(client, recipe, tag, context, force, progress)
    client.images.get(tag).tag(recipe.repository, "latest")
    remove_old_images(client, keep=tag, progress=progress, repository=recipe.repository)
    _prune_install_stages(client, progress)
    return tag


def _prune_install_stages(client: Any, progress: Progress) -> None:
    """Drop the untagged images of install stages (the wheels and a copy of what they made).

    Only images labelled :data:`STAGE_LABEL` that nothing uses are removed; the price is that a
    later change to the Dockerfile runs the install step again instead of taking it from cache.
    """
    pruned = client.images.prune(filters={"dangling": True, "label": STAGE_LABEL})
    reclaimed = int(pruned.get("SpaceReclaimed") or 0)
    if reclaimed:
        progress(f"removed the install stage's images ({reclaimed / 1e9:.1f} GB)")


def _wheels(lock: Path | None, wheels_from: Path | None, progress: Progress) -> dict[str, Path]:
    if lock is None:
        return {}
    if wheels_from is not None:
        return wheelhouse.use_wheelhouse(lock, wheels_from, progress)
    return wheelhouse.fill_wheelhouse(lock, wheelhouse.default_wheelhouse(), progress)


def _build(
    client: Any, recipe: Recipe, tag: str, context: Path, nocache: bool, progress: Progress
) -> None:
    size = sum(path.stat().st_size for path in context.rglob("*") if path.is_file())
    progress(f"building {recipe.what} {tag} FROM {recipe.base} (context {size / 1e6:,.0f} MB)")
    run_build(
        client,
        context,
        tag,
        what=recipe.what,
        build_args={**recipe.build_args, "BASE_IMAGE": recipe.base},
        dockerfile=recipe.dockerfile,
        nocache=nocache,
        progress=progress,
    )


def run_build(
    client: Any,
    context: Path,
    tag: str,
    *,
    what: str,
    build_args: Mapping[str, str],
    progress: Progress,
    dockerfile: str = "Dockerfile",
    nocache: bool = False,
) -> None:
    """Build ``context`` as ``tag``, passing the engine's output lines to ``progress``.

    The one place that talks to the engine's build API (the agent image, the profiles and agent
    folders all come here); a failed step is a :class:`SandboxError` naming ``what``.
    """
    try:
        stream = client.api.build(
            path=str(context),
            dockerfile=dockerfile,
            tag=tag,
            buildargs=dict(build_args),
            rm=True,
            forcerm=True,
            nocache=nocache,
            decode=True,
        )
        for event in stream:
            if "error" in event:
                raise SandboxError(
                    f"building {what} failed: {str(event['error']).strip()} "
                    "(the build output above says where)"
                )
            line = str(event.get("stream", "")).rstrip()
            if line:
                progress(line)
    except import_docker().errors.APIError as exc:
        raise SandboxError(f"building {what} failed: {exc}") from None
