"""What a run copies out of its sandbox once the agent is done, all within one budget.

The submission (capped at the grader's own size guard, so a bigger one never reaches the host),
``logs/`` and ``code/`` (each file capped at :data:`MAX_ARTIFACT_BYTES`), and an engineering
run's ``WORK_DIR`` (the same per-file cap), every byte admitted by the run's one
:class:`~pytest_mlebench.sandbox.copy_budget.CopyBudget`: its total counts apparent sizes, so
sparse files count in full, and once it is reached nothing more is written to the host.
"""

from __future__ import annotations

from pathlib import Path

from pytest_mlebench.sandbox.copy_budget import CopyBudget
from pytest_mlebench.sandbox.interface import Sandbox

MAX_ARTIFACT_BYTES = 100 * 1024**2  # per file of the agent's logs/, code/ and workspace


def copy_results_out(
    sandbox: Sandbox,
    run_dir: Path,
    budget: CopyBudget,
    *,
    max_submission: int,
    workspace: bool = False,
) -> None:
    """Copy the agent's submission (capped at ``max_submission``), logs, code and (with a
    ``workspace``) ``WORK_DIR`` to ``run_dir``, every byte within the run's ``budget``."""
    if workspace:
        copy_workspace_out(sandbox, run_dir / "workspace", budget)
    sandbox.copy_out(
        sandbox.paths.submission_file,
        run_dir / "submission.csv",
        max_file_bytes=max_submission,
        budget=budget,
    )
    for folder in ("logs", "code"):
        source = getattr(sandbox.paths, folder)
        sandbox.copy_out(source, run_dir / folder, max_file_bytes=MAX_ARTIFACT_BYTES, budget=budget)


def copy_workspace_out(sandbox: Sandbox, destination: Path, budget: CopyBudget) -> bool:
    """An engineering run's ``WORK_DIR`` to ``destination``, within ``budget`` (the run's
    total cap and :data:`MAX_ARTIFACT_BYTES` per file); ``budget.capped`` says when it
    stopped."""
    return sandbox.copy_out(
        sandbox.paths.work, destination, max_file_bytes=MAX_ARTIFACT_BYTES, budget=budget
    )
