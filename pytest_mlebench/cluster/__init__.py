"""Scale-out on Ray: each run's sandbox on a cluster node, grading on the controller.

With ``--mle-ray`` the session's executor is :class:`~.remote.RayExecutor`: the sandbox phase of
each run (public data, Docker sandbox, agent, copy-out; :mod:`pytest_mlebench.sandbox_phase`) is
one Ray task (:mod:`.node`), and the rest (answers, validation, grading, the record, reports)
stays where it always was. :mod:`.connection` joins the cluster and says what to fix when it
cannot; :mod:`.desk` is the controller-side actor that validates submissions and keeps the ledger
of attempts; :mod:`.executor` submits, retries, cancels and unpacks; :mod:`.publish` ships public
data once per node. See ``docs/scale-out.md``.
"""

from __future__ import annotations

from pytest_mlebench.cluster.connection import DOCKER_RESOURCE
from pytest_mlebench.cluster.executor import ClusterRun, run_on_cluster

__all__ = ["DOCKER_RESOURCE", "ClusterRun", "run_on_cluster"]
