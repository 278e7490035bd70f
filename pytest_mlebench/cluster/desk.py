"""The controller's desk: an actor on the controller's node that nodes call back.

Three jobs, all needing things that stay on the controller: validating a submission against the
answers (which never leave this machine; the node sends the file, the desk answers valid/invalid
and a reason, never a score), keeping the ledger of attempts (each attempt checks in before it
starts, so an attempt whose node died is still on record), and keeping each snapshot a node takes
of a live run in the controller's run folder (so a retry on another node, or ``--mle-resume``
after the controller died, resumes from it). The actor is pinned to the node this
process runs on, one per controller process.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

from pytest_mlebench.checkpoint.transfer import store_snapshot
from pytest_mlebench.graders import ScoreResult, SubmissionSpec, validate_submission

_desks: dict[str, Any] = {}


class ControllerDesk:
    """Validation with the answers, and the attempts of every run (see the module docstring)."""

    def __init__(self) -> None:
        self.attempts: dict[str, list[dict[str, Any]]] = {}

    def validate(self, answers: str, spec: SubmissionSpec, content: bytes) -> ScoreResult:
        """What ``validate_submission.sh`` answers for a file of ``content``."""
        with tempfile.TemporaryDirectory(prefix="mlebench-desk-") as folder:
            upload = Path(folder) / "submission.csv"
            upload.write_bytes(content)
            return validate_submission(upload, Path(answers), spec)

    def attempt_started(self, run_id: str, node: dict[str, Any]) -> None:
        self.attempts.setdefault(run_id, []).append(node)

    def attempts_of(self, run_id: str) -> list[dict[str, Any]]:
        return list(self.attempts.get(run_id, []))

    def keep_snapshot(self, run_dir: str, archive: bytes, max_bytes: int) -> int:
        """Store a node's snapshot ``archive`` in the controller's ``run_dir``; its number."""
        return store_snapshot(Path(run_dir), archive, max_bytes).info.number


def controller_desk(ray: Any) -> Any:
    """This process's desk (a Ray actor handle), started on this node at first use."""
    node_id = ray.get_runtime_context().get_node_id()
    if node_id not in _desks:
        from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

        here = NodeAffinitySchedulingStrategy(node_id=node_id, soft=False)
        actor = ray.remote(num_cpus=0, max_concurrency=32)(ControllerDesk)
        _desks[node_id] = actor.options(scheduling_strategy=here).remote()
    return _desks[node_id]
