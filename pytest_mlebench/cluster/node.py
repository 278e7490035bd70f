"""What runs on a Ray node for one run: data, Docker sandbox, agent, artifacts back.

:func:`run_job` is the body of the run's Ray task. It checks in with the controller's desk
(:mod:`.desk`), finds the public data (:mod:`.publish`), makes sure the agent image exists on this
node, starts the same :class:`~pytest_mlebench.sandbox.docker.DockerSandbox` a local run uses —
its ``validate_submission.sh`` answered by the desk, so the answers never come here; the run's
LLM gateway, if any, served here beside it — runs the agent under the integrity watch, and
returns the run folder packed with the agent's result (and the stopped gateway with its ledger).
Each snapshot of the live run goes to the desk as it is taken (:func:`snapshot_publisher`), and a
job that resumes brings its snapshot as an archive, unpacked here before the sandbox starts.
A cancelled task gets ``KeyboardInterrupt``, and the sandbox's context removes its container.
"""

from __future__ import annotations

import io
import logging
import socket
import tarfile
import tempfile
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from pytest_mlebench.checkpoint.snapshot import CHECKPOINTS, Snapshot
from pytest_mlebench.checkpoint.snapshotter import Publish
from pytest_mlebench.checkpoint.transfer import pack_snapshot, unpack_snapshot
from pytest_mlebench.cluster.publish import PublicData, node_cache_root, node_public_folder
from pytest_mlebench.errors import SandboxError
from pytest_mlebench.gateway.service import attached_gateway
from pytest_mlebench.graders import ScoreResult
from pytest_mlebench.phase_services import phase_spec
from pytest_mlebench.sandbox import create_sandbox
from pytest_mlebench.sandbox.interface import ExecResult, SandboxSpec
from pytest_mlebench.sandbox.validator import SubmissionValidator
from pytest_mlebench.sandbox_phase import (
    SandboxJob,
    SubmissionCheck,
    hidden_host_paths,
    run_in_sandbox,
)
from pytest_mlebench.timestamps import utc_timestamp

log = logging.getLogger(__name__)

_images: dict[str, str] = {}


@dataclass(frozen=True)
class NodeJob:
    """Everything a node needs for one run; no answers, only where the desk finds them.

    Attributes:
        job: The run's sandbox job as the controller made it (its spec holds the run's gateway,
            not started, keys included; the node serves it here).
        instructions: The instructions, rendered on the controller with the run's nonce.
        wheelhouse: ``--mle-wheelhouse``, a path the nodes can read.
        public: Where the node finds the public data (set by :func:`~.executor.run_on_cluster`).
        desk: The controller's desk, which validates, keeps the ledger of attempts and the
            run's snapshots.
        snapshot: The snapshot a resumed job restores, packed (its ``job.resume`` names the
            controller's folder, which this node cannot read); ``None``: nothing to restore.
    """

    job: SandboxJob
    instructions: str
    wheelhouse: str | None = None
    public: PublicData | None = None
    desk: Any = None
    snapshot: bytes | None = None

    @property
    def spec(self) -> SandboxSpec:
        return self.job.spec


@dataclass(frozen=True)
class NodeResult:
    """What comes back: the node, the agent's result, the validator log and the run folder."""

    node: dict[str, Any]
    exec_result: ExecResult
    calls: list[dict[str, Any]]
    egress: dict[str, Any] | None
    artifacts: bytes
    gpus: tuple[str, ...] = ()
    data_seconds: float = 0.0
    data_route: str = "object-store"
    gateway: Any = None  # the gateway after the run (stopped): its ledger holds the accounts
    image: str | None = None  # the image the sandbox ran


def node_info(ray: Any) -> dict[str, Any]:
    """Which node this is: Ray's node id, its IP address and host name, and when it started."""
    return {
        "node_id": ray.get_runtime_context().get_node_id(),
        "ip": ray.util.get_node_ip_address(),
        "hostname": socket.gethostname(),
        "started_at": utc_timestamp(),
    }


def run_job(job: NodeJob) -> NodeResult:
    """The Ray task of one run (see the module docstring)."""
    import ray

    node = node_info(ray)
    ray.get(job.desk.attempt_started.remote(job.spec.run_id, node))
    if job.public is None:
        raise SandboxError("the run reached the node without its public data; this is a bug")
    public, data_seconds = node_public_folder(ray, job.public, node["node_id"])
    gpus = tuple(str(gpu) for gpu in ray.get_gpu_ids())
    with tempfile.TemporaryDirectory(prefix=f"mlebench-{job.spec.run_id}-") as folder:
        run_dir = Path(folder) / "run"
        run_dir.mkdir()
        gateway = _node_gateway(job, run_dir)
        here = with_snapshot_here(job, Path(folder) / "resume")
        image = node_image(job.job.agent, job.wheelhouse)
        exec_result, calls, egress = _run_sandbox(here, image, public, gpus, run_dir)
        return NodeResult(
            node=node,
            exec_result=exec_result,
            calls=calls,
            egress=egress,
            artifacts=pack_run(run_dir),
            gpus=gpus,
            data_seconds=data_seconds,
            data_route=job.public.route,
            gateway=gateway,
            image=image,
        )


def _node_gateway(job: NodeJob, run_dir: Path) -> Any:
    """The run's gateway (this node's copy), its transcript moved into the node's run folder,
    which travels back; the sandbox serves it from the job's spec."""
    gateway = attached_gateway(job.spec.services)
    if gateway is not None:
        gateway.transcript_path = run_dir / "gateway.jsonl"
    return gateway


def _run_sandbox(
    job: NodeJob, image: str, public: Path, gpus: tuple[str, ...], run_dir: Path
) -> tuple[ExecResult, list[dict[str, Any]], dict[str, Any] | None]:
    spec = replace(
        phase_spec(
            job.spec, gpus, desk_validator(job.desk, job.job.check) if job.job.check else None
        ),
        public_dir=public,
        log_dir=run_dir,
        hidden_paths=hidden_host_paths(node_cache_root()),
    )
    sandbox = create_sandbox("docker", spec, image=image, privileged=job.job.agent.privileged)
    publish = snapshot_publisher(job)
    result, calls, _ = run_in_sandbox(sandbox, job.job, job.instructions, run_dir, publish=publish)
    return result, calls, sandbox.egress_summary()


def with_snapshot_here(job: NodeJob, folder: Path) -> NodeJob:
    """``job`` with its packed snapshot unpacked into ``folder``, its resume pointing there."""
    resume, plan = job.job.resume, job.job.checkpoint
    if job.snapshot is None or resume is None:
        return job
    cap = plan.cap_bytes if plan is not None else len(job.snapshot) * 64
    snapshot = unpack_snapshot(job.snapshot, folder, cap)
    return replace(job, job=replace(job.job, resume=replace(resume, snapshot=snapshot.folder)))


def snapshot_publisher(job: NodeJob) -> Publish | None:
    """Sends each snapshot of the live run to the desk, which keeps it in the controller's
    run folder (``None``: the job takes no snapshots)."""
    plan = job.job.checkpoint
    if plan is None or job.desk is None:
        return None
    import ray

    def publish(snapshot: Snapshot) -> None:
        archive = pack_snapshot(snapshot.folder)
        ray.get(job.desk.keep_snapshot.remote(str(job.job.run_dir), archive, plan.cap_bytes))

    return publish


def desk_validator(desk: Any, check: SubmissionCheck) -> SubmissionValidator:
    """``validate_submission.sh``'s answer, from the controller's ``desk`` (which has the
    answers of ``check``)."""
    import ray

    def validate(path: Path) -> ScoreResult:
        answer: ScoreResult = ray.get(
            desk.validate.remote(str(check.answers), check.submission, path.read_bytes())
        )
        return answer

    return validate


def node_image(agent: Any = None, wheelhouse: str | None = None) -> str:
    """The run's image on this node's Docker engine, built under a file lock when missing.

    The default agent image, or an agent folder's own (its ``dockerfile``) built FROM its
    profile with the same content-hash tag as a local build; its wheels come from the node's
    own pip, or from ``wheelhouse``. The folder is read at the same path as on the controller.
    """
    image = getattr(agent, "image", None)
    if image is not None:
        from pytest_mlebench.sandbox.docker.agent_image import ensure_agent_image

        # not cached in this process: a changed folder is a new tag, and the check is cheap
        wheels_from = Path(wheelhouse) if wheelhouse else None
        return ensure_agent_image(image, agent.name, wheels_from=wheels_from, progress=log.info)
    if "tag" not in _images:
        from pytest_mlebench.sandbox.docker import ensure_image

        _images["tag"] = ensure_image()
    return _images["tag"]


def pack_run(run_dir: Path) -> bytes:
    """The run folder as a gzipped tar (logs compress well), without its snapshots: each went
    to the desk as it was taken."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as tar:
        tar.add(run_dir, arcname=".", filter=_without_snapshots)
    return buffer.getvalue()


def _without_snapshots(member: tarfile.TarInfo) -> tarfile.TarInfo | None:
    return None if member.name.startswith(f"./{CHECKPOINTS}") else member


def remove_run_containers(label: str) -> int:
    """Remove this node's sandbox containers carrying ``label`` (``key=value``); their count."""
    from pytest_mlebench.sandbox.docker.cleanup import (
        list_containers,
        reap_networks,
        remove_container,
    )
    from pytest_mlebench.sandbox.docker.engine import docker_client

    client = docker_client()
    try:
        found = list_containers(client, {"label": label}, all=True)
        for container in found:
            remove_container(container, graceful=False)
    finally:
        client.close()
    reap_networks()
    return len(found)
