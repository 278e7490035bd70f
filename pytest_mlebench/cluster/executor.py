"""The controller's side of a run on Ray: submit, wait, retry on a lost node, cancel, unpack.

:func:`run_on_cluster` joins the cluster, checks that some node could hold the run, publishes the
public data, and submits :func:`~.node.run_job` as one Ray task asking for the run's CPUs, memory
and GPUs plus one ``mlebench_docker``. Ray's own retries are off: when the node or the worker
process dies, this module starts the task again (up to ``--mle-ray-retries`` times) and the
desk's ledger tells where each attempt ran. Ctrl-C cancels the task (its sandbox removes its
container) and then removes the run's containers on every node, in case the task was gone first.
"""

from __future__ import annotations

import io
import logging
import tarfile
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from pytest_mlebench.cluster.connection import (
    DOCKER_RESOURCE,
    check_fits,
    join_cluster,
)
from pytest_mlebench.cluster.desk import controller_desk
from pytest_mlebench.cluster.node import NodeJob, NodeResult, remove_run_containers, run_job
from pytest_mlebench.cluster.publish import publish_public
from pytest_mlebench.errors import SandboxError
from pytest_mlebench.sandbox.docker.cleanup import RUN_ID_LABEL, SESSION_LABEL
from pytest_mlebench.sandbox.memory_sizes import size_in_bytes

log = logging.getLogger(__name__)

LOST_NODE_ERRORS = (
    "NodeDiedError",
    "WorkerCrashedError",
    "LocalRayletDiedError",
    "ObjectLostError",
    "OwnerDiedError",
)
CANCEL_GRACE_SECONDS = 15.0


@dataclass(frozen=True)
class ClusterRun:
    """A finished remote run: the node's result, every attempt (where, and how it ended) and
    the job of the last attempt (a retry's resumes from the run's last snapshot)."""

    result: NodeResult
    attempts: list[dict[str, Any]]
    job: NodeJob | None = None

    def node_entry(self) -> dict[str, Any]:
        """The record's ``node``: where the run finished, its attempts, how the data came."""
        node = self.result.node
        return {
            "node_id": node["node_id"],
            "ip": node["ip"],
            "hostname": node["hostname"],
            "attempts": self.attempts,
            "gpus": list(self.result.gpus),
            "data": self.result.data_route,
            "data_seconds": round(self.result.data_seconds, 3),
        }


def task_options(job: NodeJob, gpus: int) -> dict[str, Any]:
    """Ray's resource request for ``job``: CPUs, memory, GPUs and one Docker slot."""
    grant = job.spec.limits.resources
    options: dict[str, Any] = {
        "num_cpus": grant.cpus or 1,
        "num_gpus": gpus,
        "resources": {DOCKER_RESOURCE: 1},
        "max_retries": 0,
        "retry_exceptions": False,
    }
    if grant.memory:
        options["memory"] = size_in_bytes(grant.memory)
    return options


def run_on_cluster(
    address: str,
    job: NodeJob,
    *,
    public_dir: Path,
    gpus: int,
    retries: int,
    shared_dir: Path | None,
    on_retry: Callable[[NodeJob], NodeJob] | None = None,
) -> ClusterRun:
    """Run ``job`` on a node of the cluster at ``address``; raise :class:`SandboxError` if no
    node can, or when its nodes died ``retries + 1`` times. Before each retry ``on_retry`` makes
    the next attempt's job (from the run's last snapshot)."""
    ray = join_cluster(address)
    options = task_options(job, gpus)
    wanted = {"CPU": options["num_cpus"], "GPU": gpus, DOCKER_RESOURCE: 1}
    if "memory" in options:
        wanted["memory"] = options["memory"]
    check_fits(ray, wanted, job.spec.subject)
    desk = controller_desk(ray)
    public = publish_public(ray, job.spec.subject, public_dir, shared_dir)
    job = replace(job, public=public, desk=desk)
    remote = ray.remote(run_job)
    failures: list[str] = []
    while True:
        ref = remote.options(**options).remote(job)
        try:
            result: NodeResult = _wait(ray, ref, job.spec.run_id)
            break
        except Exception as exc:
            if not _lost_node(ray, exc):
                raise _cause(ray, exc) from None
            failures.append(f"{type(exc).__name__}: {str(exc).strip().splitlines()[0]}")
            log.warning("run %s: its Ray node was lost (%s)", job.spec.run_id, failures[-1])
            if len(failures) > retries:
                raise SandboxError(
                    f"the run's Ray node was lost {len(failures)} time(s), the last: "
                    f"{failures[-1]}; allow more attempts with --mle-ray-retries"
                ) from None
            if on_retry is not None:
                job = replace(on_retry(job), public=public, desk=desk)
    attempts = _attempts(ray, desk, job.spec.run_id, failures)
    return ClusterRun(result=result, attempts=attempts, job=job)


def _wait(ray: Any, ref: Any, run_id: str) -> NodeResult:
    try:
        while True:
            ready, _ = ray.wait([ref], timeout=1.0)
            if ready:
                result: NodeResult = ray.get(ref)
                return result
    except KeyboardInterrupt:
        cancel_run(ray, ref, run_id)
        raise


def cancel_run(ray: Any, ref: Any, run_id: str) -> None:
    """Cancel the run's task (its sandbox stops), then remove its containers on every node."""
    ray.cancel(ref)
    ready, _ = ray.wait([ref], timeout=CANCEL_GRACE_SECONDS)
    if not ready:
        ray.cancel(ref, force=True)
    removed = remove_on_every_node(ray, f"{RUN_ID_LABEL}={run_id}")
    if removed:
        log.warning("run %s: removed %d container(s) after the cancel", run_id, removed)


def remove_on_every_node(ray: Any, label: str) -> int:
    """Remove containers labelled ``label`` on every live node with Docker; their count."""
    from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

    remover = ray.remote(num_cpus=0, max_retries=0)(remove_run_containers)
    refs = [
        remover.options(
            scheduling_strategy=NodeAffinitySchedulingStrategy(node["NodeID"], soft=False)
        ).remote(label)
        for node in ray.nodes()
        if node.get("Alive") and node["Resources"].get(DOCKER_RESOURCE, 0) > 0
    ]
    counts = []
    for ref in refs:
        try:
            counts.append(int(ray.get(ref, timeout=60)))
        except Exception as exc:  # a node that is going away: its engine's reaper catches up
            log.warning("could not clean up a Ray node (%s)", exc)
    return sum(counts)


def reap_session(address: str, session_id: str) -> int:
    """Session end: remove the session's containers left on any node (killed workers, lost
    tasks); 0 when the cluster cannot be reached."""
    try:
        ray = join_cluster(address)
    except SandboxError:
        return 0
    return remove_on_every_node(ray, f"{SESSION_LABEL}={session_id}")


def _lost_node(ray: Any, exc: BaseException) -> bool:
    names = [name for name in LOST_NODE_ERRORS if hasattr(ray.exceptions, name)]
    kinds = tuple(getattr(ray.exceptions, name) for name in names)
    return isinstance(exc, kinds)


def _cause(ray: Any, exc: Exception) -> BaseException:
    """The exception the task raised (a SandboxError stays one), not Ray's wrapper."""
    if isinstance(exc, ray.exceptions.RayTaskError):
        cause = getattr(exc, "cause", None)
        if isinstance(cause, BaseException):
            return cause
    if "No module named 'pytest_mlebench" in str(exc):
        return SandboxError(
            "a Ray node cannot import pytest_mlebench: install the same pytest-mlebench "
            "(with its docker extra) on every node of the cluster (docs/scale-out.md)"
        )
    if isinstance(exc, ray.exceptions.RayError):
        first_line = str(exc).strip().splitlines()[0]
        return SandboxError(f"the run failed on the Ray cluster: {first_line}")
    return exc


def _attempts(ray: Any, desk: Any, run_id: str, failures: list[str]) -> list[dict[str, Any]]:
    """The ledger's attempts of ``run_id``, the failed ones with their error."""
    started: list[dict[str, Any]] = ray.get(desk.attempts_of.remote(run_id))
    for attempt, error in zip(started, failures, strict=False):
        attempt["error"] = error
    return started


def unpack_run(result: NodeResult, run_dir: Path) -> None:
    """Extract the node's run folder into the controller's ``run_dir``."""
    run_dir.mkdir(parents=True, exist_ok=True)
    with tarfile.open(fileobj=io.BytesIO(result.artifacts), mode="r:gz") as tar:
        tar.extractall(run_dir, filter="data")
