"""The executor a session's runs share, started once per process before its first run.

:func:`start_executor` asks the session for its executor and starts it with what the selected
cases need (:class:`~pytest_mlebench.session_images.SessionNeeds`): the agent's image, and the
engineering profile images of the selected tasks, proven free of every task's hidden files. The
work is done once per session whichever process comes first; each run then reads its images
from :class:`StartedExecutor`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from pytest_mlebench.eng_images import hidden_task_folders, task_profiles
from pytest_mlebench.run.case import RunCase
from pytest_mlebench.sandbox_phase import Executor
from pytest_mlebench.session import MLEBenchSession
from pytest_mlebench.session_images import SessionImages, SessionNeeds


@dataclass(frozen=True)
class StartedExecutor:
    """A started executor and the images its start prepared."""

    executor: Executor
    images: SessionImages


def session_needs(mle_session: MLEBenchSession, cases: Iterable[RunCase]) -> SessionNeeds:
    """What ``cases`` need prepared: the session agent's image, and the profiles of their
    engineering tasks (with the folders no profile image may hold)."""
    subjects = {case.subject for case in cases if case.kind == "engineering"}
    tasks = [mle_session.tasks.get(subject) for subject in sorted(subjects)]
    agent = mle_session.agent
    hidden = hidden_task_folders(mle_session.tasks, mle_session.settings.data_dir) if tasks else []
    return SessionNeeds(
        agent_name=agent.name,
        agent_image=getattr(agent, "image", None),
        profiles=task_profiles(tasks),
        hidden=tuple(hidden),
    )


def start_executor(
    mle_session: MLEBenchSession, hook: Any, cases: Iterable[RunCase]
) -> StartedExecutor:
    """The session's executor (``hook``: ``config.hook``, for the sandbox hook), started for
    ``cases``."""
    executor = mle_session.executor(hook)
    return StartedExecutor(executor, executor.start(session_needs(mle_session, cases)))
