"""The executor's session start: images built and leftovers reaped once per session, whichever
process (xdist worker) comes first; a failed build is kept for the runs that need it to record."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from pytest_mlebench import session_images
from pytest_mlebench.errors import SandboxError
from pytest_mlebench.local_executor import LocalExecutor
from pytest_mlebench.session_images import SessionNeeds, once_per_session

WORKERS = 4


class CountingBuilds:
    """A named fake of the Docker side of a session start: counts each build it is asked for."""

    def __init__(self) -> None:
        self.calls: list[str] = []
        self.gate = threading.Barrier(WORKERS)

    def engine_ready(self, needs: SessionNeeds, session_id: str, wheels: Path | None) -> str:
        self.calls.append("agent")
        return f"agent-image:{needs.agent_name}"

    def profile(self, name: str, wheels: Path | None, hidden: object) -> object:
        def build() -> str:
            self.calls.append(name)
            if name == "broken":
                raise SandboxError("no registry answers")
            return f"profile:{name}"

        return build


@pytest.fixture
def builds(monkeypatch: pytest.MonkeyPatch) -> CountingBuilds:
    fake = CountingBuilds()
    monkeypatch.setattr(session_images, "_engine_ready", fake.engine_ready)
    monkeypatch.setattr(session_images, "_profile_builder", fake.profile)
    return fake


def test_every_worker_starts_and_the_images_are_built_once(
    builds: CountingBuilds, tmp_path: Path
) -> None:
    needs = SessionNeeds("dummy", profiles=("eng", "ml"))
    answers = []

    def worker() -> None:
        executor = LocalExecutor("docker", "session-1", shared_dir=str(tmp_path / "shared"))
        builds.gate.wait()  # every worker starts at once, as xdist's do
        answers.append(executor.start(needs))

    threads = [threading.Thread(target=worker) for _ in range(WORKERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(builds.calls) == ["agent", "eng", "ml"]
    assert len(answers) == WORKERS and all(answer == answers[0] for answer in answers)
    assert answers[0].agent_image() == "agent-image:dummy"
    assert answers[0].profile("ml") == "profile:ml"


def test_a_failed_build_is_kept_for_its_runs_and_tried_again_by_the_next_start(
    builds: CountingBuilds, tmp_path: Path
) -> None:
    executor = LocalExecutor("docker", "session-1", shared_dir=str(tmp_path))
    images = executor.start(SessionNeeds("dummy", profiles=("broken", "eng")))
    with pytest.raises(SandboxError, match="no registry answers"):
        images.profile("broken")
    assert images.profile("eng") == "profile:eng"
    with pytest.raises(SandboxError, match="not prepared at session start"):
        images.profile("never-asked")
    executor.start(SessionNeeds("dummy", profiles=("broken", "eng")))
    assert builds.calls == ["agent", "broken", "eng", "broken"]


def test_the_local_backend_prepares_nothing(builds: CountingBuilds, tmp_path: Path) -> None:
    images = LocalExecutor("local", "s", shared_dir=str(tmp_path)).start(
        SessionNeeds("dummy", profiles=("eng",))
    )
    assert builds.calls == [] and images.agent_image() is None and images.profile("eng") is None


def test_once_per_session_reads_back_what_the_first_caller_made(tmp_path: Path) -> None:
    made = []

    def make() -> str:
        made.append(1)
        return "tag:1"

    assert [once_per_session(tmp_path, "image", make) for _ in range(3)] == ["tag:1"] * 3
    assert made == [1]
