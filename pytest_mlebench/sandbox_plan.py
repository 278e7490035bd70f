"""What a session decides once about sandboxes, shared with every xdist worker: the executor.

:func:`plan_sandboxes` (controller, at session start, cheap: it builds nothing, so a pytest run
that selects no benchmark test never builds an image) decides where the sandbox phase of the
session's runs happens. With ``--mle-ray`` it is a node of the Ray cluster, in a Docker sandbox;
otherwise this machine, with ``--mle-sandbox auto`` resolved by one engine ping and the GPUs the
session may lend picked. The plan travels to workers as JSON, so every process uses the same
backend and the header can warn once. :func:`executor_for` turns the plan into the
:class:`~pytest_mlebench.sandbox_phase.Executor` every run of the process goes through, and
:func:`finish_sandboxes` lets it clean up at session end.
"""

from __future__ import annotations

import shutil
import tempfile
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from pytest_mlebench.cluster.remote import RayExecutor
from pytest_mlebench.local_executor import LocalExecutor, MakeSandbox
from pytest_mlebench.sandbox import resolve_backend
from pytest_mlebench.sandbox.gpus import detect_gpus, select_gpus
from pytest_mlebench.sandbox.leftovers import SESSION_PREFIX, mark_session_dir, reap_leftovers
from pytest_mlebench.sandbox_phase import Executor
from pytest_mlebench.settings import Settings


@dataclass(frozen=True)
class SandboxPlan:
    """The session's sandbox decisions (JSON-serialisable for xdist's workerinput).

    Attributes:
        backend: The sandbox backend (``local`` or ``docker``; Docker on a Ray node).
        gpus: The GPUs this machine may lend to its sandboxes.
        shared_dir: A folder every process of the session shares.
        notices: Warnings for the header.
        wheelhouse: ``--mle-wheelhouse``.
        ray: ``--mle-ray``: the cluster that runs the sandboxes (``None``: this machine).
        ray_retries: ``--mle-ray-retries``.
        ray_data_dir: ``--mle-ray-data-dir``.
    """

    backend: str
    gpus: tuple[str, ...] = ()
    shared_dir: str | None = None
    notices: tuple[str, ...] = field(default_factory=tuple)
    wheelhouse: str | None = None
    ray: str | None = None
    ray_retries: int = 0
    ray_data_dir: str | None = None

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> SandboxPlan:
        return cls(
            backend=str(data["backend"]),
            gpus=tuple(data.get("gpus") or ()),
            shared_dir=data.get("shared_dir"),
            notices=tuple(data.get("notices") or ()),
            wheelhouse=data.get("wheelhouse"),
            ray=data.get("ray"),
            ray_retries=int(data.get("ray_retries") or 0),
            ray_data_dir=data.get("ray_data_dir"),
        )


def plan_sandboxes(settings: Settings, session_id: str) -> SandboxPlan:
    """Where the session's sandboxes run, with which backend and GPUs (controller only)."""
    shared_path = Path(tempfile.gettempdir()) / f"{SESSION_PREFIX}{session_id}"
    reap_leftovers(keep=shared_path)  # what sessions killed with -9 left in the temp folder
    mark_session_dir(shared_path)
    shared = str(shared_path)
    wheelhouse = str(settings.wheelhouse) if settings.wheelhouse else None
    if settings.ray:
        # Docker sandboxes on the cluster's nodes; Ray places GPUs, no local lease file.
        notice = f"sandboxes run on the Ray cluster at {settings.ray}; grading stays here"
        data_dir = str(settings.ray_data_dir) if settings.ray_data_dir else None
        return SandboxPlan(
            "docker",
            shared_dir=shared,
            notices=(notice,),
            wheelhouse=wheelhouse,
            ray=settings.ray,
            ray_retries=settings.ray_retries,
            ray_data_dir=data_dir,
        )
    backend, warning = resolve_backend(settings.sandbox)
    notices = [warning] if warning else []
    # ``auto`` finding none is warned about after collection, and only when a selected
    # competition asks for a GPU (pytest_mlebench.session_notes).
    gpus = select_gpus(settings.gpus, detect_gpus() if settings.gpus != "none" else ())
    return SandboxPlan(
        backend=backend, gpus=gpus, shared_dir=shared, notices=tuple(notices), wheelhouse=wheelhouse
    )


def executor_for(
    plan: SandboxPlan, session_id: str, make_sandbox: MakeSandbox | None = None
) -> Executor:
    """The executor of ``plan``: the Ray cluster's when it names one, else this machine's, which
    asks ``make_sandbox`` (the ``pytest_mlebench_make_sandbox`` hook) for each sandbox first."""
    if plan.ray:
        return RayExecutor(
            plan.ray,
            retries=plan.ray_retries,
            data_dir=plan.ray_data_dir,
            wheelhouse=plan.wheelhouse,
        )
    return LocalExecutor(
        plan.backend,
        session_id,
        gpus=plan.gpus,
        shared_dir=plan.shared_dir,
        wheelhouse=plan.wheelhouse,
        make_sandbox=make_sandbox,
    )


def finish_sandboxes(plan: SandboxPlan, session_id: str) -> int:
    """Controller, session end: the executor removes what crashed workers left; the shared
    folder is forgotten. Returns how many containers were removed."""
    removed = executor_for(plan, session_id).finish(session_id)
    if plan.shared_dir is not None:
        shutil.rmtree(plan.shared_dir, ignore_errors=True)
    return removed
