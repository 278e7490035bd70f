"""Proof that an image holds none of the engineering tasks' hidden files.

A task's ``verify/``, ``solution/`` and ``cheats/`` and every seed's prepared ``private/`` files
must never be in an image an agent runs in. :func:`hidden_files` hashes them on the host;
:func:`image_findings` runs :data:`SCAN` (standard library only) in a throw-away ``--network none``
container of the image (an isolated interpreter, ``python3 -I -S -B``, so nothing the image put
on its paths runs in the scan; files read in fixed chunks), which hashes every file whose size
equals one of theirs, and names each hidden file found in the image. Files under
:data:`MIN_BYTES` are left out (an empty ``__init__.py`` or a one-word file is no secret, and
would match by chance).
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterable, Mapping
from pathlib import Path

from pytest_mlebench.sandbox.docker.engine import docker_client, import_docker
from pytest_mlebench.sandbox.verifier_phase import VerifierError

MIN_BYTES = 32
SKIPPED_ROOTS = ("/proc", "/sys", "/dev")
SCAN = r"""
import hashlib, json, os, sys
sizes = set(json.loads(os.environ["MLEBENCH_SIZES"]))
root = sys.argv[1] if len(sys.argv) > 1 else "/"
skipped = tuple(json.loads(os.environ["MLEBENCH_SKIPPED"]))
for folder, dirs, files in os.walk(root):
    if folder.startswith(skipped):
        dirs[:] = []
        continue
    for name in files:
        path = os.path.join(folder, name)
        try:
            if os.path.islink(path) or os.path.getsize(path) not in sizes:
                continue
            digest = hashlib.sha256()
            with open(path, "rb") as handle:
                for block in iter(lambda: handle.read(1 << 20), b""):
                    digest.update(block)
            print(digest.hexdigest(), path)
        except OSError:
            continue
"""


def hidden_files(folders: Iterable[Path]) -> dict[str, str]:
    """``{sha256: host path}`` of every file of at least :data:`MIN_BYTES` under ``folders``."""
    found: dict[str, str] = {}
    for folder in folders:
        if not folder.is_dir():
            continue
        for root, _, names in os.walk(folder):
            for name in names:
                path = Path(root) / name
                if path.is_symlink() or not path.is_file() or path.stat().st_size < MIN_BYTES:
                    continue
                found.setdefault(hashlib.sha256(path.read_bytes()).hexdigest(), str(path))
    return found


def scan_environment(hidden: Mapping[str, str]) -> dict[str, str]:
    """The environment :data:`SCAN` reads: the sizes to hash and the roots to skip."""
    sizes = sorted({os.path.getsize(path) for path in hidden.values()})
    return {"MLEBENCH_SIZES": json.dumps(sizes), "MLEBENCH_SKIPPED": json.dumps(SKIPPED_ROOTS)}


def findings(scan_output: str, hidden: Mapping[str, str]) -> list[str]:
    """``<image path> is <host path>`` for every scanned file that is a hidden one."""
    found = []
    for line in scan_output.splitlines():
        digest, _, path = line.partition(" ")
        if digest in hidden:
            found.append(f"{path} is {hidden[digest]}")
    return sorted(found)


def image_findings(image: str, hidden: Mapping[str, str]) -> list[str]:
    """The hidden files found in ``image`` (empty: the image is clean)."""
    if not hidden:
        return []
    errors = import_docker().errors
    client = docker_client()
    try:
        output = client.containers.run(
            image,
            ["python3", "-I", "-S", "-B", "-c", SCAN, "/"],
            environment=scan_environment(hidden),
            network_mode="none",
            user="root",
            remove=True,
            stdout=True,
            stderr=False,
        )
    except errors.DockerException as exc:
        raise VerifierError(f"could not take the inventory of {image}: {exc}") from exc
    finally:
        client.close()
    return findings(output.decode("utf-8", "replace"), hidden)
