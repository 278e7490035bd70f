"""The public folder a run mounts for a description variant.

``standard`` mounts the prepared ``public/`` as it is. Any other variant gets a sibling view,
``<data dir>/<id>/variants/<variant>/public/``: the same files, hard-linked (copied where the
file system cannot link), with ``description.md`` replaced by the variant's text. The view is
made once per prepared data and variant text (``source.json`` holds the digest of both), under a
file lock so parallel workers build it once; the prepared data and its manifest are untouched, so
the data check of ``prepare`` never sees the view.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from pathlib import Path

from filelock import FileLock

from pytest_mlebench.errors import MLEBenchError

VARIANTS = ("standard", "obfuscated")
OBFUSCATED_FILE = "description_obfuscated.md"
VARIANT_FILES = {"standard": "description.md", "obfuscated": OBFUSCATED_FILE}


class VariantMissing(MLEBenchError):
    """A competition has no text for the chosen description variant."""


def variant_description(competition_folder: Path, variant: str) -> Path:
    """The description file of ``variant`` in the competition's folder.

    Raises:
        VariantMissing: When the competition ships no such file (with the command that makes it).
    """
    path = competition_folder / VARIANT_FILES[variant]
    if not path.is_file():
        raise VariantMissing(
            f"{competition_folder.name} has no {path.name}; make it with "
            "'python tools/obfuscate_descriptions.py' (docs/integrity.md)"
        )
    return path


def variant_public(public: Path, manifest: Path, description: Path, variant: str) -> Path:
    """The public folder to mount: ``public`` itself for ``standard``, else the variant's view.

    Args:
        public: The prepared ``public/`` folder.
        manifest: The prepared data's ``manifest.json`` (rewritten whenever it is prepared again).
        description: The variant's description file.
        variant: One of :data:`VARIANTS`.
    """
    if variant == "standard":
        return public
    folder = public.parent.parent / "variants" / variant
    folder.mkdir(parents=True, exist_ok=True)
    source = _source_digest(manifest, description)
    with FileLock(str(folder / "build.lock"), timeout=600):
        stamp = folder / "source.json"
        view = folder / "public"
        if view.is_dir() and stamp.is_file() and json.loads(stamp.read_text())["source"] == source:
            return view
        _build_view(public, description, folder)
        stamp.write_text(json.dumps({"source": source}), "utf-8")
    return view


def _source_digest(manifest: Path, description: Path) -> str:
    digest = hashlib.sha256()
    for path in (manifest, description):
        digest.update(path.read_bytes() if path.is_file() else b"")
    return digest.hexdigest()


def _build_view(public: Path, description: Path, folder: Path) -> None:
    staging = folder / f"public.tmp-{os.getpid()}"
    shutil.rmtree(staging, ignore_errors=True)
    shutil.copytree(public, staging, copy_function=_link_or_copy, symlinks=True)
    target = staging / "description.md"
    target.unlink(missing_ok=True)  # a hard link: writing into it would change the prepared file
    shutil.copyfile(description, target)
    view = folder / "public"
    shutil.rmtree(view, ignore_errors=True)
    staging.rename(view)


def _link_or_copy(source: str, destination: str) -> str:
    try:
        os.link(source, destination)
    except OSError:
        shutil.copy2(source, destination)
    return destination
