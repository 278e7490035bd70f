"""Scale-out on Ray: each run's sandbox on a cluster node, grading on the controller.

With ``--mle-ray`` the benchmark test's body hands the part of a run that needs a sandbox
(public data, Docker sandbox, agent, copy-out) to one Ray task (:mod:`.node`) and keeps the rest
(answers, validation, grading, the record, reports) where it always was. :mod:`.connection` joins
the cluster and says what to fix when it cannot; :mod:`.desk` is the controller-side actor that
validates submissions and keeps the ledger of attempts; :mod:`.executor` submits, retries,
cancels and unpacks; :mod:`.publish` ships public data once per node. See ``docs/scale-out.md``.
"""

from __future__ import annotations

from pytest_mlebench.cluster.connection import DOCKER_RESOURCE
from pytest_mlebench.cluster.executor import ClusterRun, run_on_cluster

__all__ = ["DOCKER_RESOURCE", "ClusterRun", "run_on_cluster"]
