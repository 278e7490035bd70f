"""The images of an engineering session: each profile built once (file-locked) and proven free
of every task's hidden files before any run uses it. Split out of :mod:`.eng_runner`, which runs
one task; this module knows the whole session's tasks."""

from __future__ import annotations

from pathlib import Path

from filelock import FileLock

from pytest_mlebench.errors import MLEBenchError
from pytest_mlebench.session import MLEBenchSession

IMAGE_LOCK_TIMEOUT_SECONDS = 3 * 3600


class HiddenFilesInImage(MLEBenchError):
    """A profile image holds a task's hidden files: no run may use it (outcome ``error``)."""


def session_profile_image(mle_session: MLEBenchSession, profile: str) -> str:
    """The tag of image ``profile``, built once per session (file-locked, like the agent image)
    and proven free of every task's hidden files (:class:`HiddenFilesInImage` otherwise);
    :class:`SandboxError` when it cannot be built."""
    from pytest_mlebench.sandbox.docker.profiles import ensure_profile
    from pytest_mlebench.sandbox.docker.task_inventory import hidden_files, image_findings

    shared = Path(mle_session.plan.shared_dir or ".")
    shared.mkdir(parents=True, exist_ok=True)
    ready = shared / f"profile-{profile}.txt"
    with FileLock(str(shared / f"profile-{profile}.lock"), timeout=IMAGE_LOCK_TIMEOUT_SECONDS):
        if ready.is_file():
            return ready.read_text("utf-8").strip()
        wheels = Path(mle_session.plan.wheelhouse) if mle_session.plan.wheelhouse else None
        tag = ensure_profile(profile, wheels_from=wheels, progress=lambda _line: None)
        found = image_findings(tag, hidden_files(hidden_task_folders(mle_session)))
        if found:
            raise HiddenFilesInImage(
                f"image {tag} holds hidden files of engineering tasks: {'; '.join(found[:5])}"
            )
        ready.write_text(tag, "utf-8")
    return tag


def hidden_task_folders(mle_session: MLEBenchSession) -> list[Path]:
    """Every task's ``verify/``, ``solution/``, ``cheats/`` and prepared ``private/`` folders."""
    prepared = mle_session.settings.data_dir / "engineering"
    folders = [
        folder
        for task in mle_session.tasks
        for folder in (task.verify_dir, task.solution_dir, task.cheats_dir)
    ]
    return folders + sorted(prepared.glob("*/s*/private"))
