"""The Ray executor: a run's sandbox phase (:mod:`pytest_mlebench.sandbox_phase`) on a node.

:class:`RayExecutor` is the cluster's side of the seam between the runner and where sandboxes run:
it renders the instructions here (for the Docker contract paths, with the run's nonce), sends the
job to a node as a :class:`~.node.NodeJob` — the answers' path for the desk, never the answers —
(:func:`~.executor.run_on_cluster`), unpacks the node's run folder into the controller's, and
hands back the same :class:`~pytest_mlebench.sandbox_phase.SandboxOutcome` the local executor
does, so grading, integrity checks and the record follow unchanged.

An agent that uses the LLM gateway gets the run's gateway served on the node, beside its sandbox,
rather than relayed back to the controller: the gateway holds no answers, and the agent's calls
then go sandbox → node → provider instead of crossing the cluster twice per token. The accounts
stay exact because the gateway is per run: it travels to the node in the job's spec (with only the
secrets its providers name), enforces the run's budget there, and comes back stopped with its
ledger, its transcript in the run folder; the record is made from that ledger here. An agent
folder's own image is built on the node (:func:`~.node.node_image`), tagged as it would be here.

A run whose node dies is tried again on another node from its last snapshot (the node sent each
one to the desk, which keeps it in this run folder): :meth:`RayExecutor.retry_job` gives the
agent the time it had left and tells it that it resumes, as ``--mle-resume`` does.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from pytest_mlebench.checkpoint.resume import point_from
from pytest_mlebench.checkpoint.snapshot import latest_snapshot
from pytest_mlebench.checkpoint.transfer import pack_snapshot
from pytest_mlebench.cluster.executor import reap_session, run_on_cluster, unpack_run
from pytest_mlebench.cluster.node import NodeJob
from pytest_mlebench.errors import SandboxError
from pytest_mlebench.gateway.service import attached_gateway
from pytest_mlebench.integrity.run_evidence import load_evidence
from pytest_mlebench.sandbox_phase import SandboxJob, SandboxOutcome
from pytest_mlebench.session_images import SessionImages, SessionNeeds


@dataclass(frozen=True)
class RemoteSandbox:
    """What the record needs to know about a sandbox that ran on a node (it is gone by now)."""

    egress: dict[str, Any] | None = None
    image: str | None = None
    backend: str = "docker"
    isolated: bool = True

    def egress_summary(self) -> dict[str, Any] | None:
        return self.egress


class RayExecutor:
    """Each run's sandbox phase as one Ray task on the cluster at ``address``.

    Args:
        address: ``--mle-ray``: ``auto`` or ``HEAD:PORT``.
        retries: ``--mle-ray-retries``: new attempts when a run's node is lost.
        data_dir: ``--mle-ray-data-dir``: storage every node mounts, for the public data
            (``None``: through Ray's object store).
        wheelhouse: ``--mle-wheelhouse``, a path the nodes can read.
    """

    def __init__(
        self,
        address: str,
        *,
        retries: int = 0,
        data_dir: str | None = None,
        wheelhouse: str | None = None,
    ) -> None:
        self.address = address
        self.retries = retries
        self.data_dir = Path(data_dir) if data_dir else None
        self.wheelhouse = wheelhouse

    def node_job(self, job: SandboxJob) -> NodeJob:
        """The job a node runs for ``job``; its instructions are written to the run folder."""
        from pytest_mlebench.sandbox.docker.sandbox import PATHS

        text = job.instructions.render(PATHS)
        (job.run_dir / "instructions.md").write_text(text, "utf-8")
        resume = job.resume
        packed = pack_snapshot(resume.snapshot) if resume and resume.snapshot else None
        # The callback stays here: it belongs to this process's run.
        return NodeJob(
            replace(job, on_sandbox=None), text, wheelhouse=self.wheelhouse, snapshot=packed
        )

    def retry_job(self, node_job: NodeJob) -> NodeJob:
        """The job of a retry after a lost node: resumed from the run's last snapshot kept
        here; as it was when there is none (from the same resume, or from scratch)."""
        job = node_job.job
        snapshot = latest_snapshot(job.run_dir)
        if snapshot is None:
            return node_job
        full = job.resume.time_limit if job.resume is not None else job.spec.limits.time_limit
        point = point_from(snapshot, job.spec.run_id, full, snapshot.info.taken_at_epoch)
        resumed = job.resuming(point)
        if resumed.checkpoint is not None:
            plan = replace(resumed.checkpoint, numbered_after=snapshot.info.number)
            resumed = replace(resumed, checkpoint=plan)
        return self.node_job(resumed)

    def start(self, needs: SessionNeeds) -> SessionImages:
        """Nothing to prepare here: each node builds the run's image on its own engine
        (:func:`~.node.node_image`, file-locked there) and its engine's reaper removes what
        earlier sessions left; the session's containers are removed at :meth:`finish`."""
        return SessionImages()

    def run(self, job: SandboxJob) -> SandboxOutcome:
        if job.workspace is not None:
            raise SandboxError(
                "engineering tasks run on this machine only: run them without --mle-ray"
            )
        gateway = attached_gateway(job.spec.services)
        if gateway is not None:
            gateway.resolved_keys()  # a missing secret stops the run here, before the cluster
        done = run_on_cluster(
            self.address,
            self.node_job(job),
            public_dir=job.spec.public_dir,
            gpus=job.gpus,
            retries=self.retries,
            shared_dir=self.data_dir,
            on_retry=self.retry_job,
        )
        result = done.result
        last = done.job.job.resume if done.job is not None else None
        unpack_run(result, job.run_dir)
        if result.gateway is not None:  # the node's ledger: calls, tokens, cost, budget
            gateway = result.gateway
            gateway.transcript_path = job.run_dir / "gateway.jsonl"
        return SandboxOutcome(
            exec_result=result.exec_result,
            calls=result.calls,
            grant=replace(job.spec.limits.resources, gpus=result.gpus),
            sandbox=RemoteSandbox(result.egress, result.image),
            submission=job.run_dir / "submission.csv",
            evidence=load_evidence(job.run_dir) or None,
            gateway=gateway,
            node=done.node_entry(),
            resumed=last.entry() if last is not None and last != job.resume else None,
        )

    def finish(self, session_id: str) -> int:
        """Remove the session's containers left on any node (killed workers, lost tasks)."""
        return reap_session(self.address, session_id)
