"""Image profiles: ``base`` (the small default agent image), ``ml`` (base + the ML stack) and
``eng`` (base + the engineering tasks' toolchain, with the verifier's plugin baked in).

Profiles other than ``base`` live in ``sandbox/image/profiles/<name>/``: a Dockerfile built FROM
the base image, ``requirements.in`` (the top-level packages) and ``requirements.lock`` (every
package pinned with its hash, made from the ``.in`` by ``mlebench sandbox lock``).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from pytest_mlebench.errors import SandboxError
from pytest_mlebench.sandbox.docker.image import IMAGE_DIR, build_image, ensure_image
from pytest_mlebench.sandbox.docker.image import image_tag as base_tag
from pytest_mlebench.sandbox.docker.recipe import Recipe, ensure_recipe, folder_files, image_exists
from pytest_mlebench.sandbox.docker.wheelhouse import make_lock

Progress = Callable[[str], None]
PROFILES_DIR = IMAGE_DIR / "profiles"
BASE = "base"
PROFILES = {BASE: "the small default image (Debian's Python, numpy, pandas, scikit-learn)"} | {
    "ml": "base + PyTorch with CUDA, boosting libraries, transformers, timm, OpenCV, ... (~GBs)"
}
# The profiles of engineering tasks (a task's ``image:``); agent Dockerfiles build FROM PROFILES.
TASK_PROFILES = {
    "eng": "base + the engineering tasks' toolchain: Debian's torch (CPU), onnx, flask, fastapi, "
    "pytest, git, ... and onnxruntime (~2 GB)",
}
ALL_PROFILES = PROFILES | TASK_PROFILES
LOCK_NAME = "requirements.lock"
# Files of the package a profile's build context also gets (the eng image bakes the verifier's
# pytest plugin at its fixed path).
VERIFY_PLUGIN = Path(__file__).resolve().parents[2] / "eng" / "verifier" / "mlebench_verify.py"
EXTRA_FILES = {"eng": {"mlebench_verify.py": VERIFY_PLUGIN}}
INPUT_NAME = "requirements.in"


def check_profile(name: str) -> str:
    """``name`` if it is a profile, else a :class:`SandboxError` listing the profiles."""
    if name not in ALL_PROFILES:
        raise SandboxError(
            f"unknown image profile {name!r}; choose one of {', '.join(ALL_PROFILES)}"
        )
    return name


def profile_dir(name: str) -> Path:
    return PROFILES_DIR / check_profile(name)


def profile_recipe(name: str) -> Recipe:
    """How the (non-base) profile ``name`` is built, FROM the base image's current tag."""
    folder = profile_dir(name)
    return Recipe(
        what=f"the {name} profile image",
        repository=f"pytest-mlebench-{name}",
        files=folder_files(folder)
        | {name: path.read_bytes() for name, path in EXTRA_FILES.get(name, {}).items()},
        base=base_tag(),
        lock=folder / LOCK_NAME,
    )


def profile_tag(name: str) -> str:
    """The tag profile ``name`` has (or will have once built) for the files in this checkout."""
    return base_tag() if check_profile(name) == BASE else profile_recipe(name).tag


def build_profile(
    name: str,
    *,
    wheels_from: Path | None = None,
    force: bool = False,
    progress: Progress,
) -> str:
    """Build profile ``name`` (and the base under it) unless up to date; returns its tag."""
    if check_profile(name) == BASE:
        return build_image(force=force, progress=progress)
    ensure_image(progress=progress)
    recipe = profile_recipe(name)
    return ensure_recipe(recipe, wheels_from=wheels_from, force=force, progress=progress)


def ensure_profile(name: str, *, wheels_from: Path | None = None, progress: Progress) -> str:
    """Like :func:`build_profile` without ``force``: what a session calls before its runs."""
    return build_profile(name, wheels_from=wheels_from, progress=progress)


def profile_states() -> list[tuple[str, str, bool]]:
    """(profile, tag for this checkout, whether that image exists) for every profile."""
    from pytest_mlebench.sandbox.docker.engine import docker_client

    client = docker_client()
    try:
        return [
            (name, tag, image_exists(client, tag))
            for name in ALL_PROFILES
            for tag in [profile_tag(name)]
        ]
    finally:
        client.close()


def lock_profile(name: str, *, progress: Progress) -> tuple[Path, int]:
    """Regenerate profile ``name``'s lock from its ``requirements.in`` with the host's pip."""
    if check_profile(name) == BASE:
        raise SandboxError("the base profile has no lock: it uses Debian's packages")
    folder = profile_dir(name)
    lock = folder / LOCK_NAME
    return lock, make_lock(folder / INPUT_NAME, lock, progress)
