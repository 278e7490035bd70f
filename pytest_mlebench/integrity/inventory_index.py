"""Where a copy of the submission can be in a Docker sandbox, told without walking its image.

The inventory (:mod:`.inventory`) looks for files with the submission's content anywhere in the
container. Walking a whole image (tens of thousands of files, through the container's fresh
overlay mount, whose folder cache starts cold) is most of a short run's finish. But a container's
files are its image's plus what the run changed, and with overlay2 on this machine the harness
sees both apart:

- the image's regular files, listed once per image (:func:`remember_index`, from the script's
  ``index`` walk in the first sandbox of that image, before its agent starts), keyed by the
  image's id (a hash of its content) and the folders the search leaves out; kept in memory and
  on the host in :func:`index_dir`, so that a later session, or another xdist worker, does not
  list the same image again (a file that does not read back as a well-formed list is ignored);
- the run's changes, the container's upper directory (:func:`upper_entries`, the same folder
  :mod:`pytest_mlebench.sandbox.docker.changes` reads): every file the run wrote or changed, and
  a whiteout for each image entry it deleted or moved away.

A file in the container is then either in the upper directory, or an image file at its own path
with its own size: overlayfs copies a file up before any change to it (content, a rename, a hard
link). Image content can appear at another path without a copy-up only when a *folder* of the
image is renamed (with ``redirect_dir``, or ``metacopy``): that leaves a whiteout (or an opaque
folder) and a ``redirect`` attribute in the upper directory. So :func:`candidates` gives the
image's and the upper directory's files of the submission's size (and the engine's own
bind-mounted files), and the inventory script checks only those, unless something says the
shortcut might miss a file — then the script walks the image as before:

- the fast view is not there (a remote engine, another storage driver, no root to read the
  overlay's attributes), or no index was taken for the container's image;
- the container has a mount the search does not leave out (an image's ``VOLUME``);
- the upper directory holds a whiteout of anything but an image file, or any overlay
  ``redirect``/``metacopy`` attribute, or more entries than :data:`MAX_UPPER_ENTRIES`;
- the submission is not a regular file in the upper directory, or the candidates would not fit
  one exec argument.

Everything read from the upper directory is the agent's: walked without following links, only
``lstat``-ed and its attribute names listed; no byte of a file is read on the host.
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
import stat
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pytest_mlebench.atomic_write import write_atomically
from pytest_mlebench.sandbox.docker.changes import WHITEOUT_PREFIX, overlay_layers

MAX_UPPER_ENTRIES = 200_000
MAX_INDEX_FILES = 1_000_000
MAX_CANDIDATES = 2_000
MAX_CANDIDATE_CHARS = 96 * 1024  # the script's argument: Linux takes 128 KiB per argument
# Files the engine bind-mounts into every container (not in the image, not in the upper layer).
ENGINE_FILES = ("/etc/hostname", "/etc/hosts", "/etc/resolv.conf")
OVERLAY_MARKS = ("overlay.redirect", "overlay.metacopy")
INDEX_DIR_ENV = "MLEBENCH_IMAGE_INDEX_DIR"

_indexes: dict[str, dict[str, int]] = {}
_lock = threading.Lock()


@dataclass(frozen=True)
class Overlay:
    """A container whose changes the harness reads from its upper directory.

    ``scope`` names the folders the search leaves out: an index taken with others is not used.
    """

    image: str
    upper: Path
    scope: str = ""

    @property
    def key(self) -> str:
        """The index's key: the image's id and the search's scope."""
        return f"{self.image} {self.scope}"


def overlay_of(sandbox: Any, exclude: Sequence[str]) -> Overlay | None:
    """The sandbox's overlay view, or ``None`` where the shortcut does not hold (not Docker, no
    readable overlay2 layer, not root, or a mount the search does not leave out)."""
    container = getattr(sandbox, "container", None)
    if sandbox.backend != "docker" or container is None or os.geteuid() != 0:
        return None
    attrs = getattr(container, "attrs", None) or {}
    image = attrs.get("Image")
    layers = overlay_layers(container)
    if not isinstance(image, str) or layers is None:
        return None
    mounts = [str(m.get("Destination", "")) for m in attrs.get("Mounts") or []]
    if not all(_under(m, exclude) for m in mounts):
        return None
    return Overlay(image, layers[0], ",".join(sorted(exclude)))


def index_dir() -> Path:
    """Where image indexes are kept on the host: ``$MLEBENCH_IMAGE_INDEX_DIR``, else
    ``$XDG_CACHE_HOME/mlebench/image-index`` (``~/.cache/…``). Never mounted in a sandbox."""
    explicit = os.environ.get(INDEX_DIR_ENV)
    if explicit:
        return Path(explicit)
    cache = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(cache) / "mlebench" / "image-index"


def has_index(overlay: Overlay) -> bool:
    """Whether an index of the overlay's image is known (in memory, or read back from disk)."""
    return _index_of(overlay) is not None


def remember_index(overlay: Overlay, answer: dict[str, Any]) -> bool:
    """Keep the script's ``index`` answer for the overlay's image, in memory and on disk (a
    write that fails only costs a later session the listing); False when it is not a complete,
    well-formed list of at most :data:`MAX_INDEX_FILES` files (nothing kept)."""
    index = _parsed(answer)
    if index is None:
        return False
    with _lock:
        _indexes[overlay.key] = index
    try:
        document = {**answer, "image": overlay.image, "scope": overlay.scope}
        path = _index_file(overlay)
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomically(path, json.dumps(document, separators=(",", ":")))
    except (OSError, TypeError, ValueError):
        pass
    return True


def forget_indexes(*, on_disk: bool = False) -> None:
    """Drop every image's index from memory (tests), and with ``on_disk`` the files too."""
    with _lock:
        _indexes.clear()
    if on_disk:
        for path in index_dir().glob("*.json"):
            path.unlink(missing_ok=True)


def _index_of(overlay: Overlay) -> dict[str, int] | None:
    with _lock:
        index = _indexes.get(overlay.key)
    if index is not None:
        return index
    try:
        document = json.loads(_index_file(overlay).read_text("utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(document, dict) or document.get("image") != overlay.image:
        return None
    if document.get("scope") != overlay.scope:
        return None
    index = _parsed(document)
    if index is not None:
        with _lock:
            _indexes[overlay.key] = index
    return index


def _index_file(overlay: Overlay) -> Path:
    name = hashlib.sha256(overlay.key.encode("utf-8")).hexdigest()[:32]
    return index_dir() / f"{name}.json"


def _parsed(answer: dict[str, Any]) -> dict[str, int] | None:
    """The index of an ``index`` answer; ``None`` unless complete and well-formed."""
    files = answer.get("files")
    if answer.get("complete") is not True or not isinstance(files, list):
        return None
    if len(files) > MAX_INDEX_FILES:
        return None
    index: dict[str, int] = {}
    for item in files:
        if not (isinstance(item, list) and len(item) == 2):
            return None
        path, size = item
        if not isinstance(path, str) or not isinstance(size, int) or isinstance(size, bool):
            return None
        index[path] = size
    return index


@dataclass(frozen=True)
class UpperEntries:
    """The upper directory's regular files (path → size) and deleted paths (whiteouts)."""

    files: dict[str, int]
    deleted: list[str]


def upper_entries(upper: Path, limit: int = MAX_UPPER_ENTRIES) -> UpperEntries | None:
    """What the run wrote, as the container sees the paths; ``None`` when an entry carries an
    overlay redirect or metacopy attribute, when the directory cannot be read, or past
    ``limit`` entries."""
    files: dict[str, int] = {}
    deleted: list[str] = []
    seen = 0
    try:
        for folder, dirs, names in os.walk(upper, onerror=_raise):  # links are not followed
            relative = os.path.relpath(folder, upper)
            base = "/" if relative == "." else "/" + relative
            for name in dirs + names:
                seen += 1
                full = os.path.join(folder, name)
                info = os.lstat(full)
                if seen > limit or _overlay_marked(full):
                    return None
                path = os.path.join(base, name)
                if stat.S_ISCHR(info.st_mode) and info.st_rdev == 0:
                    deleted.append(path)
                elif name.startswith(WHITEOUT_PREFIX):
                    deleted.append(os.path.join(base, name[len(WHITEOUT_PREFIX) :]))
                elif stat.S_ISREG(info.st_mode):
                    files[path] = info.st_size
    except OSError:
        return None
    return UpperEntries(files, deleted)


def candidates(overlay: Overlay, submission: str, exclude: Sequence[str]) -> dict[str, Any] | None:
    """``{"size": …, "paths": […]}``: every path that can hold a copy of ``submission`` in the
    container, outside ``exclude``; ``None`` where the script must walk (module docstring)."""
    index = _index_of(overlay)
    upper = upper_entries(overlay.upper) if index is not None else None
    if index is None or upper is None:
        return None
    size = upper.files.get(submission)
    if size is None or any(path not in index for path in upper.deleted):
        return None
    same = {*ENGINE_FILES, *(p for p, s in index.items() if s == size)}
    same.update(p for p, s in upper.files.items() if s == size)
    paths = sorted(p for p in same if not _under(p, exclude))
    if len(paths) > MAX_CANDIDATES or sum(len(p) + 4 for p in paths) > MAX_CANDIDATE_CHARS:
        return None
    return {"size": size, "paths": paths}


def _under(path: str, roots: Sequence[str]) -> bool:
    return any(path == root or path.startswith(root.rstrip("/") + "/") for root in roots)


def _overlay_marked(path: str) -> bool:
    """Whether ``path`` carries an overlay redirect or metacopy attribute (root lists the
    ``trusted.`` ones); a file system without attributes has none."""
    try:
        names = os.listxattr(path, follow_symlinks=False)
    except OSError as exc:
        if exc.errno in (errno.ENOTSUP, errno.EOPNOTSUPP):
            return False
        raise
    return any(mark in name for name in names for mark in OVERLAY_MARKS)


def _raise(exc: OSError) -> None:
    raise exc
