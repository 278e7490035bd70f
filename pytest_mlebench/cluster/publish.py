"""Public data to the nodes, once per node: through Ray's object store or a shared folder.

The controller publishes a competition's ``public/`` folder once per process
(:func:`publish_public`): packed into one object in Ray's object store, or copied to
``--mle-ray-data-dir`` (storage every node mounts at the same path). A node then finds it with
:func:`node_public_folder`: the shared folder as it is, or the packed copy fetched and unpacked
into the node's cache under a file lock, once per node and data version. Only ``public/`` is ever
published; the answers stay on the controller.
"""

from __future__ import annotations

import hashlib
import io
import os
import shutil
import tarfile
import time
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from filelock import FileLock

NODE_CACHE_ENV = "MLEBENCH_NODE_CACHE"
LOCK_TIMEOUT_SECONDS = 3600
_published: dict[tuple[str, str, str], PublicData] = {}


@dataclass(frozen=True)
class PublicData:
    """Where a node finds a competition's public data.

    Attributes:
        competition_id: The competition.
        digest: The version of the data (names, sizes and times of its files).
        shared: The folder on shared storage, when ``--mle-ray-data-dir`` is set.
        packed: The packed folder in Ray's object store, wrapped in a tuple so that Ray hands the
            task the reference, not the bytes: only a node without the data fetches them.
    """

    competition_id: str
    digest: str
    shared: str | None = None
    packed: tuple[Any, ...] = ()

    @property
    def route(self) -> str:
        return "shared-dir" if self.shared else "object-store"


def folder_digest(folder: Path) -> str:
    """A short fingerprint of ``folder``'s files (relative name, size, modification time)."""
    digest = hashlib.sha256()
    for path in sorted(folder.rglob("*")):
        if path.is_file():
            stat = path.stat()
            digest.update(
                f"{path.relative_to(folder)}\0{stat.st_size}\0{stat.st_mtime_ns}\n".encode()
            )
    return digest.hexdigest()[:16]


def publish_public(
    ray: Any, competition_id: str, public: Path, shared_dir: Path | None
) -> PublicData:
    """Make ``public`` reachable from every node (once per process and data version)."""
    digest = folder_digest(public)
    key = (competition_id, digest, str(shared_dir))
    if key not in _published:
        if shared_dir is not None:
            target = _copy_once(public, shared_dir / competition_id / digest)
            _published[key] = PublicData(competition_id, digest, shared=str(target))
        else:
            packed = ray.put(pack_folder(public))
            _published[key] = PublicData(competition_id, digest, packed=(packed,))
    return _published[key]


def _copy_once(public: Path, version_dir: Path) -> Path:
    target = version_dir / "public"
    version_dir.mkdir(parents=True, exist_ok=True)
    with FileLock(str(version_dir) + ".lock", timeout=LOCK_TIMEOUT_SECONDS):
        if not target.is_dir():
            incoming = version_dir / f"incoming-{uuid.uuid4().hex[:8]}"
            shutil.copytree(public, incoming)
            incoming.rename(target)
    return target


def pack_folder(folder: Path) -> bytes:
    """``folder``'s content as an uncompressed tar (data files rarely shrink much)."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as tar:
        tar.add(folder, arcname=".")
    return buffer.getvalue()


def unpack_folder(content: bytes, destination: Path) -> None:
    with tarfile.open(fileobj=io.BytesIO(content), mode="r") as tar:
        tar.extractall(destination, filter="data")


def node_cache_root() -> Path:
    """Where a node keeps fetched public data: ``$MLEBENCH_NODE_CACHE``, else the user cache."""
    configured = os.environ.get(NODE_CACHE_ENV)
    if configured:
        return Path(configured)
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return cache / "mlebench" / "ray-nodes"


def node_public_folder(ray: Any, data: PublicData, node_id: str) -> tuple[Path, float]:
    """The public folder on this node, and the seconds spent fetching it (0: it was there)."""
    if data.shared is not None:
        return Path(data.shared), 0.0
    version_dir = node_cache_root() / node_id[:12] / data.competition_id / data.digest
    public = version_dir / "public"
    version_dir.mkdir(parents=True, exist_ok=True)
    with FileLock(str(version_dir) + ".lock", timeout=LOCK_TIMEOUT_SECONDS):
        if public.is_dir():
            return public, 0.0
        started = time.monotonic()
        incoming = version_dir / f"incoming-{uuid.uuid4().hex[:8]}"
        unpack_folder(ray.get(data.packed[0]), incoming)
        incoming.rename(public)
        return public, time.monotonic() - started
