"""One run skeleton, two kinds: the steps every run shares are written once, in ``run.skeleton``.

A named fake executor stands in for the sandbox phase: it keeps the job each kind handed it and
breaks like an engine would, so the runs end through the skeleton's error path (no sandbox, no
verifier: the end-to-end runs are in ``tests/eng`` and ``tests/plugin``).
"""

from __future__ import annotations

import json

import pytest

from pytest_mlebench.agents import load_agent
from pytest_mlebench.data import prepare_competition
from pytest_mlebench.eng.prepared import prepare_task
from pytest_mlebench.eng.task import load_task
from pytest_mlebench.eng.task_registry import EngRegistry
from pytest_mlebench.errors import SandboxError
from pytest_mlebench.records.run_record import RunRecord
from pytest_mlebench.registry import load_registry
from pytest_mlebench.run import CompetitionRun, EngineeringRun, Run, RunCase
from pytest_mlebench.run.session_start import StartedExecutor, session_needs
from pytest_mlebench.sandbox_phase import SandboxJob, SandboxOutcome
from pytest_mlebench.session import MLEBenchSession, resolve_integrity
from pytest_mlebench.session_images import SessionImages, SessionNeeds
from pytest_mlebench.settings import resolve_settings
from tests.eng.task_folders import base_config, write_task
from tests.factories import write_competition


class BrokenEngineExecutor:
    """A fake executor: keeps each job it is handed and fails it as an engine that is gone."""

    def __init__(self) -> None:
        self.jobs: list[SandboxJob] = []

    def start(self, needs: SessionNeeds) -> SessionImages:
        return SessionImages()

    def run(self, job: SandboxJob) -> SandboxOutcome:
        self.jobs.append(job)
        raise SandboxError("the engine is gone")

    def finish(self, session_id: str) -> int:
        return 0


class Both:
    """A session with one competition and one engineering task, prepared, and a fake executor."""

    def __init__(
        self, pytester: pytest.Pytester, *options: str, resources: dict[str, object] | None = None
    ) -> None:
        root = pytester.path
        write_competition(root / "competitions", "toy")
        config = base_config("tiny-task") | {"time_limit": 77, "resources": resources or {}}
        self.task = load_task(write_task(root / "tasks", config))
        pytester_config = pytester.parseconfig(
            "--mle-results", str(root / "reports" / "results.jsonl"),
            "--mle-data-dir", str(root / "data"),
            "--mle-sandbox", "local",
            *options,
        )  # fmt: skip
        settings = resolve_settings(pytester_config)
        agent = load_agent("dummy")
        self.session = MLEBenchSession(
            settings,
            load_registry([root / "competitions"]),
            agent,
            resolve_integrity(settings, agent),
            tasks=EngRegistry({self.task.id: self.task}),
        )
        self.competition = self.session.registry.get("toy")
        self.pluginmanager = pytester_config.pluginmanager
        self.executor = BrokenEngineExecutor()
        self.started = StartedExecutor(self.executor, SessionImages())

    def competition_run(self) -> CompetitionRun:
        prepared = prepare_competition(self.competition, self.session.settings.data_dir)
        case = RunCase("toy", 0)
        return CompetitionRun(
            self.session, self.competition, prepared, case, "t[toy]", self.pluginmanager,
            self.started,
        )  # fmt: skip

    def engineering_run(self) -> EngineeringRun:
        prepared = prepare_task(self.task, 0, self.session.settings.data_dir)
        case = RunCase(self.task.id, 0, kind="engineering")
        return EngineeringRun(
            self.session, self.task, prepared, case, "t[tiny-task]", self.pluginmanager,
            self.started,
        )  # fmt: skip

    def records(self) -> list[dict[str, object]]:
        path = self.session.settings.results_path
        return [json.loads(line) for line in path.read_text().splitlines()]


SKELETON_STEPS = ("execute", "_sandbox_phase", "_record", "hand_over", "resources", "time_limit")


@pytest.mark.parametrize("kind", [CompetitionRun, EngineeringRun])
def test_neither_kind_rewrites_a_step_of_the_skeleton(kind: type[Run]) -> None:
    for step in SKELETON_STEPS:
        assert step not in vars(kind), f"{kind.__name__} rewrites the skeleton's {step}"


def test_one_skeleton_drives_both_kinds_to_a_record_of_their_own_kind(
    pytester: pytest.Pytester,
) -> None:
    both = Both(pytester)
    for run in (both.competition_run(), both.engineering_run()):
        handed: list[RunRecord] = []
        run.on_record = handed.append
        with pytest.raises(SandboxError, match="the engine is gone"):
            run.execute()
        assert [record.outcome for record in handed] == ["error"]  # handed over, also an error
    competition_job, engineering_job = both.executor.jobs
    # the competition's job carries the answers for the validator; the task's has none
    assert competition_job.check is not None and competition_job.workspace is None
    assert competition_job.check.answers.exists() and competition_job.gpus == 0
    assert engineering_job.check is None and engineering_job.workspace is not None
    assert engineering_job.spec.workspace and engineering_job.spec.env["TASK_ID"] == "tiny-task"
    assert engineering_job.instructions.body is not None
    first, second = both.records()
    assert (first["kind"], first["competition_id"]) == ("competition", "toy")
    assert (second["kind"], second["competition_id"]) == ("engineering", "tiny-task")
    assert first["reason"] == second["reason"] == "SandboxError: the engine is gone"
    assert second["modality"] == "engineering" and second["category"] == both.task.category


@pytest.mark.parametrize(("option", "expected"), [((), None), (("--mle-time-limit", "9"), 9)])
def test_the_time_limit_rule_is_the_same_for_both_kinds(
    pytester: pytest.Pytester, option: tuple[str, ...], expected: int | None
) -> None:
    both = Both(pytester, *option)
    competition, engineering = both.competition_run(), both.engineering_run()
    assert competition.time_limit == (expected or both.competition.time_limit)
    assert engineering.time_limit == (expected or 77)


def test_both_kinds_grant_resources_by_one_rule(pytester: pytest.Pytester) -> None:
    both = Both(pytester, "--mle-pids", "321", "--mle-shm", "3g", resources={"pids": 55})
    for run in (both.competition_run(), both.engineering_run()):
        assert (run.resources().pids, run.resources().shm) == (321, "3g")


def test_a_task_s_own_shm_and_pids_are_granted_unless_the_user_sets_them(
    pytester: pytest.Pytester,
) -> None:
    both = Both(pytester, resources={"pids": 55, "shm": "2g", "cpus": 1})
    grant = both.engineering_run().resources()
    assert (grant.pids, grant.shm, grant.cpus) == (55, "2g", 1)


def test_the_session_needs_the_profiles_of_the_selected_tasks_only(
    pytester: pytest.Pytester,
) -> None:
    both = Both(pytester)
    competitions_only = session_needs(both.session, [RunCase("toy", 0)])
    assert competitions_only.profiles == () and competitions_only.hidden == ()
    with_task = session_needs(both.session, [RunCase("tiny-task", 0, kind="engineering")])
    assert with_task.profiles == tuple(sorted({both.task.image, "eng"} - {"base"}))
    assert both.task.verify_dir in with_task.hidden


def test_a_record_s_kind_is_its_subject_s_never_its_modality(pytester: pytest.Pytester) -> None:
    from dataclasses import replace

    from pytest_mlebench.run.context import subject_record

    both = Both(pytester)
    odd = replace(both.competition, modality="engineering")  # a competition about engineering
    record = subject_record(
        both.session, odd, RunCase("toy", 0), test_id="t", outcome="skipped", reason="x"
    )
    assert (record.kind, record.modality, record.category) == ("competition", "engineering", None)
    assert record.subject == "toy"
