"""The images of an engineering session: a profile image proven free of every task's hidden files.

:func:`profile_image` builds (or finds) one profile's image and inspects it; the executor's
session start (:mod:`pytest_mlebench.session_images`) calls it once per session for each profile
the selected tasks use, before any run. This module knows the whole session's tasks, through the
folders :func:`hidden_task_folders` lists.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path

from pytest_mlebench.eng.task import EngTask
from pytest_mlebench.errors import MLEBenchError

VERIFIER_PROFILE = "eng"


class HiddenFilesInImage(MLEBenchError):
    """A profile image holds a task's hidden files: no run may use it (outcome ``error``)."""


def profile_image(profile: str, wheels: Path | None, hidden: Sequence[Path]) -> str:
    """The tag of image ``profile``, built when missing, proven free of the files under
    ``hidden`` (:class:`HiddenFilesInImage` otherwise); :class:`SandboxError` when it cannot be
    built."""
    from pytest_mlebench.sandbox.docker.profiles import ensure_profile
    from pytest_mlebench.sandbox.docker.task_inventory import hidden_files, image_findings

    tag = ensure_profile(profile, wheels_from=wheels, progress=lambda _line: None)
    found = image_findings(tag, hidden_files(list(hidden)))
    if found:
        raise HiddenFilesInImage(
            f"image {tag} holds hidden files of engineering tasks: {'; '.join(found[:5])}"
        )
    return tag


def task_profiles(tasks: Iterable[EngTask]) -> tuple[str, ...]:
    """The profiles runs of ``tasks`` use: each task's own (``base`` is the session's agent
    image) and the verifier's, sorted; none without tasks."""
    images = {task.image for task in tasks}
    if not images:
        return ()
    return tuple(sorted((images - {"base"}) | {VERIFIER_PROFILE}))


def hidden_task_folders(tasks: Iterable[EngTask], data_dir: Path) -> list[Path]:
    """Every task's ``verify/``, ``solution/``, ``cheats/`` and prepared ``private/`` folders."""
    prepared = data_dir / "engineering"
    folders = [
        folder for task in tasks for folder in (task.verify_dir, task.solution_dir, task.cheats_dir)
    ]
    return folders + sorted(prepared.glob("*/s*/private"))
