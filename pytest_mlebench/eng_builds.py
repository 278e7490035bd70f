"""The image builds of one engineering run whose task declares ``builder:`` (Docker only).

Two uses of the harness's builder (:mod:`pytest_mlebench.sandbox.docker.image_builder`), both
with the task's limits and allow-list: the agent's endpoint during the agent phase
(``build_image.sh``, :mod:`pytest_mlebench.sandbox.build_endpoint`; its images are removed when
the phase ends), and the verify-side recipe on the final workspace
(:mod:`pytest_mlebench.sandbox.docker.task_builds`), whose facts the verifier reads in
``$BUILD_DIR``. The engineering run (:mod:`pytest_mlebench.run.engineering`) calls these at
the matching steps.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pytest_mlebench.eng.builder_spec import BuilderSpec
from pytest_mlebench.eng.result import BuildsEntry
from pytest_mlebench.integrity.run_evidence import Evidence
from pytest_mlebench.sandbox.build_endpoint import BuildReply, ContextBuild

if TYPE_CHECKING:
    from pytest_mlebench.sandbox.docker.image_builder import BuildLimits, ImageBuilder


class TaskBuilds:
    """The builds of one run of a task (nothing at all when the task declares no builder)."""

    def __init__(self, spec: BuilderSpec | None, run_id: str, labels: Mapping[str, str]) -> None:
        self.spec = spec
        self.run_id = run_id
        self.labels = dict(labels)
        self.agent_builder: ImageBuilder | None = None
        self.verify_facts: dict[str, Any] | None = None

    def limits(self) -> BuildLimits:
        from pytest_mlebench.sandbox.docker.image_builder import BuildLimits

        spec = self.spec
        assert spec is not None  # only called with a builder
        return BuildLimits(
            allowed_from=spec.allowed_from,
            timeout_s=spec.timeout_s,
            memory=spec.memory,
            cpus=spec.cpus,
            max_context_bytes=spec.context_bytes,
        )

    def endpoint(self) -> ContextBuild | None:
        """The agent's ``build_image.sh`` backend (``None``: the task gives the agent none)."""
        if self.spec is None or not self.spec.endpoint:
            return None
        from pytest_mlebench.sandbox.docker.image_builder import ImageBuilder

        builder = ImageBuilder(f"{self.run_id}-agent", self.limits(), self.labels)
        self.agent_builder = builder

        def build(context: Path, dockerfile: str) -> BuildReply:
            result = builder.build(context, dockerfile)
            return BuildReply(result.ok, result.log, result.wall_s, result.image_id, result.size)

        return build

    def remove_agent_images(self) -> None:
        """Remove the images the agent's builds made (once its phase has ended), also that of
        a build still running then."""
        if self.agent_builder is not None:
            self.agent_builder.close()

    def verify_side(self, work: Path, pristine: Path, private: Path, out: Path) -> Path | None:
        """The task's recipe on the final workspace (visible tests put back); the facts' folder
        (``None``: the task builds nothing)."""
        if self.spec is None:
            return None
        from pytest_mlebench.sandbox.docker.image_builder import ImageBuilder
        from pytest_mlebench.sandbox.docker.task_builds import run_task_builds
        from pytest_mlebench.sandbox.verifier_phase import stage_workspace

        builder = ImageBuilder(f"{self.run_id}-verify", self.limits(), self.labels)
        staging = Path(tempfile.mkdtemp(prefix="mlebench-build-context-"))
        try:
            context = staging / "context"
            stage_workspace(work, pristine, context)
            self.verify_facts = run_task_builds(self.spec, builder, context, private, out)
        finally:
            shutil.rmtree(staging, ignore_errors=True)
        return out

    def record(self, evidence: Evidence | None) -> BuildsEntry | None:
        """The run's builds for its record: the agent's calls of ``build_image.sh`` (from the
        integrity evidence) and the verify-side facts (``None``: the task builds nothing)."""
        if self.spec is None:
            return None
        return BuildsEntry(
            agent_calls=tuple(evidence.build_calls or ()) if evidence else (),
            agent_refused=int(evidence.build_refused or 0) if evidence else 0,
            verify=self.verify_facts,
        )
