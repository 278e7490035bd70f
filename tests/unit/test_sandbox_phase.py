"""The sandbox phase behind the ``Executor`` seam: the local executor on a real local sandbox,
the plan's choice of executor, and the job a Ray node gets (no cluster needed)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_mlebench.agents import load_agent
from pytest_mlebench.cluster.remote import RayExecutor
from pytest_mlebench.data import PreparedData, prepare_competition
from pytest_mlebench.integrity.nonce import NONCE_ENV, Watermark
from pytest_mlebench.local_executor import LocalExecutor
from pytest_mlebench.registry import Competition, load_registry
from pytest_mlebench.sandbox.interface import (
    Limits,
    ResourceGrant,
    Sandbox,
    SandboxFacts,
    SandboxSpec,
)
from pytest_mlebench.sandbox.local import LocalSandbox
from pytest_mlebench.sandbox.validator import ValidatorService
from pytest_mlebench.sandbox_phase import Instructions, SandboxJob, SubmissionCheck
from pytest_mlebench.sandbox_plan import SandboxPlan, executor_for
from tests.factories import write_competition

NONCE = "0123456789abcdef0123456789abcdef"


@pytest.fixture(scope="module")
def toy(tmp_path_factory: pytest.TempPathFactory) -> tuple[Competition, PreparedData]:
    root = tmp_path_factory.mktemp("phase")
    write_competition(root / "competitions", "toy")
    competition = load_registry([root / "competitions"]).get("toy")
    return competition, prepare_competition(competition, root / "data")


def job_for(toy: tuple[Competition, PreparedData], run_dir: Path, **changes: object) -> SandboxJob:
    competition, prepared = toy
    run_dir.mkdir(parents=True, exist_ok=True)
    spec = SandboxSpec(
        run_id=f"toy-s0-{run_dir.name}",
        subject="toy",
        seed=0,
        public_dir=prepared.public,
        limits=Limits(60, ResourceGrant(cpus=1, pids=200)),
        log_dir=run_dir,
    )
    fields: dict[str, object] = {
        "spec": spec,
        "agent": load_agent("dummy"),
        "instructions": Instructions(60, Watermark(NONCE)),
        "run_dir": run_dir,
        "check": SubmissionCheck(prepared.answers, competition.submission),
        **changes,
    }
    return SandboxJob(**fields)  # type: ignore[arg-type]


def test_the_local_executor_runs_the_job_and_hands_back_the_outcome(
    toy: tuple[Competition, PreparedData], tmp_path: Path
) -> None:
    told: list[SandboxFacts] = []
    job = job_for(toy, tmp_path / "run", on_sandbox=told.append)
    outcome = LocalExecutor("local", "session-1").run(job)
    assert outcome.exec_result.exit_code == 0 and not outcome.exec_result.timed_out
    assert outcome.submission == tmp_path / "run" / "submission.csv"
    assert outcome.submission.is_file()
    # dummy asks the validator once; the host validator reached the answers and said valid
    assert [call["valid"] for call in outcome.calls] == [True]
    assert outcome.grant == ResourceGrant(cpus=1, pids=200)
    assert told == [outcome.sandbox] and outcome.sandbox.backend == "local"
    assert outcome.evidence is not None and outcome.evidence.nonce == NONCE
    assert job.spec.env[NONCE_ENV] == NONCE  # the job put its watermark into the environment
    assert outcome.gateway is None and outcome.node is None
    instructions = (tmp_path / "run" / "instructions.md").read_text()
    assert isinstance(outcome.sandbox, LocalSandbox)
    assert outcome.sandbox.paths.data in instructions and NONCE in instructions
    assert (tmp_path / "run" / "agent.log").is_file()


HOOK_EVENTS: list[str] = []


class HookSandbox(LocalSandbox):
    """A sandbox from the ``pytest_mlebench_make_sandbox`` hook (a local one, renamed)."""

    backend = "hook-sandbox"

    def start(self) -> None:
        HOOK_EVENTS.append("start")
        super().start()


def test_a_sandbox_from_the_hook_wins_and_is_told_before_it_starts(
    toy: tuple[Competition, PreparedData], tmp_path: Path
) -> None:
    asked: list[SandboxSpec] = []

    def make_sandbox(spec: SandboxSpec) -> Sandbox | None:
        asked.append(spec)
        return HookSandbox(spec)

    HOOK_EVENTS.clear()
    job = job_for(toy, tmp_path / "run", on_sandbox=lambda s: HOOK_EVENTS.append(s.backend))
    outcome = LocalExecutor("local", "session-1", make_sandbox=make_sandbox).run(job)
    assert HOOK_EVENTS == ["hook-sandbox", "start"]
    assert outcome.sandbox.backend == "hook-sandbox"
    # the hook gets the spec with the validator that reaches the answers
    assert asked[0].services.get(ValidatorService) is not None
    assert job.spec.services.get(ValidatorService) is None


def test_instructions_carry_the_paths_the_time_limit_and_the_watermark() -> None:
    from pytest_mlebench.sandbox.docker.sandbox import PATHS

    text = Instructions(123, Watermark(NONCE)).render(PATHS)
    assert f"`{PATHS.submission_file}`" in text and "You have 123 seconds" in text
    assert f"## Run watermark\n\nThis run's nonce is `{NONCE}`" in text


def test_the_plan_picks_the_executor_and_travels_as_json() -> None:
    ray_plan = SandboxPlan(
        "docker", ray="10.0.0.5:6379", ray_retries=3, ray_data_dir="/shared", wheelhouse="/wheels"
    )
    assert SandboxPlan.from_json(ray_plan.to_json()) == ray_plan
    on_ray = executor_for(ray_plan, "session-1")
    assert isinstance(on_ray, RayExecutor)
    assert (on_ray.address, on_ray.retries, on_ray.data_dir, on_ray.wheelhouse) == (
        "10.0.0.5:6379",
        3,
        Path("/shared"),
        "/wheels",
    )
    here = executor_for(SandboxPlan("docker", gpus=("0", "1"), shared_dir="/tmp/s"), "session-1")
    assert isinstance(here, LocalExecutor)
    assert (here.backend, here.gpus, here.gpu_lease_dir) == (
        "docker",
        ("0", "1"),
        Path("/tmp/s/gpus"),
    )


def test_a_node_gets_the_job_without_this_process_s_callback(
    toy: tuple[Competition, PreparedData], tmp_path: Path
) -> None:
    from pytest_mlebench.sandbox.docker.sandbox import PATHS

    job = job_for(toy, tmp_path / "run", on_sandbox=lambda sandbox: None, gpus=1)
    node_job = RayExecutor("auto", wheelhouse="/wheels").node_job(job)
    assert node_job.job.on_sandbox is None and node_job.job.spec == job.spec
    assert node_job.wheelhouse == "/wheels"
    assert node_job.instructions == (tmp_path / "run" / "instructions.md").read_text()
    assert f"`{PATHS.submission_file}`" in node_job.instructions


def test_the_ray_executor_refuses_an_engineering_job_itself(
    toy: tuple[Competition, PreparedData], tmp_path: Path
) -> None:
    """The run never asks where it runs: the executor that cannot run a workspace says so."""
    from pytest_mlebench.errors import SandboxError

    job = job_for(toy, tmp_path / "run", check=None, workspace=tmp_path)
    with pytest.raises(SandboxError, match="without --mle-ray"):
        RayExecutor("auto").run(job)
