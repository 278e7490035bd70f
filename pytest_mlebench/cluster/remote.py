"""A :class:`~pytest_mlebench.runner.BenchmarkRun`'s sandbox part, run on a Ray node.

The one seam between the runner and the cluster: :func:`run_remotely` turns the run into a
:class:`~.node.NodeJob` (instructions rendered here, with this run's nonce; the answers' path for
the desk, never the answers), runs it (:func:`~.executor.run_on_cluster`), unpacks the node's run
folder into the controller's, and hands back what the local path returns, so grading, integrity
checks and the record follow unchanged.

An agent that uses the LLM gateway gets the run's gateway served on the node, beside its sandbox,
rather than relayed back to the controller: the gateway holds no answers, and the agent's calls
then go sandbox → node → provider instead of crossing the cluster twice per token. The accounts
stay exact because the gateway is per run: it travels to the node in the task (with only the
secrets its providers name), enforces the run's budget there, and comes back stopped with its
ledger, its transcript in the run folder; the record is made from that ledger here. An agent
folder's own image is built on the node (:func:`~.node.node_image`), tagged as it would be here.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from pytest_mlebench.cluster.executor import run_on_cluster, unpack_run
from pytest_mlebench.cluster.node import NodeJob
from pytest_mlebench.errors import SandboxError
from pytest_mlebench.integrity.monitor import load_evidence
from pytest_mlebench.sandbox.base import ExecResult, ResourceGrant

if TYPE_CHECKING:
    from pytest_mlebench.agents.base import Agent
    from pytest_mlebench.runner import BenchmarkRun


@dataclass(frozen=True)
class RemoteSandbox:
    """What the record needs to know about a sandbox that ran on a node (it is gone by now)."""

    egress: dict[str, Any] | None = None
    image: str | None = None
    backend: str = "docker"
    isolated: bool = True

    def egress_summary(self) -> dict[str, Any] | None:
        return self.egress


def node_job(run: BenchmarkRun, agent: Agent) -> NodeJob:
    """The job a node runs for ``run``."""
    from pytest_mlebench.runner import render_instructions
    from pytest_mlebench.sandbox.docker.sandbox import PATHS

    spec = run._spec(())
    text = run.integrity.instructions(render_instructions(PATHS, run.time_limit))
    (run.run_dir / "instructions.md").write_text(text, "utf-8")
    return NodeJob(
        run_id=run.run_id,
        competition_id=run.competition.id,
        seed=run.case.seed,
        time_limit=run.time_limit,
        resources=run.resources(),
        # The controller's spec without what stays here: the validator (it reads the answers),
        # the gateway (it travels apart), host paths and the integrity env (the node has its own).
        spec=replace(spec, validator=None, gateway=None, hidden_paths=(), env={}, log_dir=None),
        privileged=agent.privileged,
        agent=agent,
        instructions=text,
        nonce=run.integrity.nonce,
        answers=str(run.prepared.answers),
        submission=run.competition.submission,
        gateway=run.gateway,
        wheelhouse=str(run.session.settings.wheelhouse or "") or None,
    )


def run_remotely(
    run: BenchmarkRun, agent: Agent
) -> tuple[ExecResult, list[dict[str, Any]], ResourceGrant]:
    """Run ``run``'s agent on the cluster; the same triple the local path returns."""
    settings = run.session.settings
    if settings.ray is None:
        raise SandboxError("run_remotely needs --mle-ray")
    if run.gateway is not None:
        run.gateway.resolved_keys()  # a missing secret stops the run here, before the cluster
    job = node_job(run, agent)
    done = run_on_cluster(
        settings.ray,
        job,
        public_dir=run.prepared.public,
        gpus=run.gpu_count(),
        retries=settings.ray_retries,
        shared_dir=settings.ray_data_dir,
    )
    unpack_run(done.result, run.run_dir)
    if done.result.gateway is not None:  # the node's ledger: calls, tokens, cost, budget
        run.gateway = done.result.gateway
        run.gateway.transcript_path = run.run_dir / "gateway.jsonl"
    run.integrity.evidence = load_evidence(run.run_dir) or run.integrity.evidence
    run.node = done.node_entry()
    run.sandbox = RemoteSandbox(done.result.egress, done.result.image)
    grant = replace(job.resources, gpus=done.result.gpus)
    return done.result.exec_result, done.result.calls, grant
