"""The watch in the sandbox phase: evidence collected around the agent, handed back typed.

:class:`SandboxWatch` is made by the sandbox phase
(:func:`~pytest_mlebench.sandbox_phase.run_in_sandbox`) from the job's
:class:`~pytest_mlebench.integrity.nonce.Watermark`. :meth:`SandboxWatch.around` wraps the agent's
time in a started sandbox: the process audit runs meanwhile; the validator's refusals, the egress
proxy's account, the inventory and the file-system diff are taken at the end, while the sandbox
still exists, and the evidence is saved (it stays even when grading breaks later, and it is what
travels back from a Ray node). :meth:`SandboxWatch.add` takes the phase's other facts (the
copy-out's account, the GPU sampler's, the builder's). :attr:`evidence` is the frozen
:class:`~pytest_mlebench.integrity.run_evidence.Evidence` so far. The checks are not here: they
belong to the run (:class:`~pytest_mlebench.integrity.monitor.IntegrityRun`).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

from pytest_mlebench.integrity.inventory import (
    files_outside_contract,
    index_image,
    take_inventory,
)
from pytest_mlebench.integrity.nonce import Watermark
from pytest_mlebench.integrity.processes import ProcessAudit, Sampler, docker_sampler, local_sampler
from pytest_mlebench.integrity.run_evidence import Evidence, save_evidence
from pytest_mlebench.sandbox.interface import Sandbox
from pytest_mlebench.sandbox.validator import ValidatorService
from pytest_mlebench.timestamps import utc_timestamp


class SandboxWatch:
    """The evidence of one sandbox phase, for the run marked by ``watermark``."""

    def __init__(self, watermark: Watermark, run_dir: Path) -> None:
        self.run_dir = run_dir
        self.watermark = watermark
        self.evidence = Evidence(nonce=watermark.nonce)

    def add(self, **facts: Any) -> Evidence:
        """The evidence with ``facts`` (fields of :class:`Evidence`) added; kept as the watch's."""
        if "nulls" in facts:
            facts["nulls"] = self.evidence.nulls | facts["nulls"]
        self.evidence = replace(self.evidence, **facts)
        return self.evidence

    def save(self) -> None:
        save_evidence(self.run_dir, self.evidence)

    @contextmanager
    def around(self, sandbox: Sandbox) -> Iterator[None]:
        """Audit ``sandbox`` while the body runs; take the inventory after it (never raises)."""
        try:  # before the agent: the image's files, so the inventory after it walks no image
            index_image(sandbox)
        except Exception:  # no index: the inventory walks the image, as complete
            pass
        started = time.time()
        self.add(
            sandbox_started=started, sandbox_started_at=utc_timestamp(), backend=sandbox.backend
        )
        audit, source = self._audit(sandbox, started)
        if audit is not None:
            audit.start()
        try:
            yield
        finally:
            finished = time.time()
            audited = None
            if audit is not None:
                audit.stop()
                audited = audit.evidence() | {"source": source}
            self.add(
                agent_finished=finished, process_audit=audited, **after_run(sandbox, self.run_dir)
            )
            self.save()  # kept even when grading breaks later

    def _audit(self, sandbox: Sandbox, started: float) -> tuple[ProcessAudit | None, str]:
        sampler: Sampler | None = None
        source = "none"
        container = getattr(sandbox, "container", None)
        if sandbox.backend == "docker" and container is not None:
            sampler, source = docker_sampler(container), "the Docker engine's top"
        elif sandbox.backend == "local":
            sampler, source = local_sampler(self.watermark.nonce), "the host's /proc"
        return (ProcessAudit(sampler, started) if sampler is not None else None), source


def after_run(sandbox: Sandbox, run_dir: Path) -> dict[str, Any]:
    """The evidence taken once the agent ended, while ``sandbox`` still exists; each collector
    that breaks leaves its error beside a ``null`` (evidence is best effort; the run goes on)."""
    validator = sandbox.spec.services.get(ValidatorService)
    facts: dict[str, Any] = {"validator_refused": validator.refused if validator else 0}
    nulls = {"egress", "outside_contract"}  # asked on every backend: null when there is none
    try:  # the agent has ended: the proxy's log holds every attempt it made
        facts["egress"] = sandbox.egress_summary()
    except Exception as exc:
        facts["egress_error"] = f"{type(exc).__name__}: {exc}"
    try:
        facts["inventory"] = take_inventory(sandbox, run_dir)
    except Exception as exc:
        facts["inventory"] = {"error": f"{type(exc).__name__}: {exc}"}
    try:
        facts["outside_contract"] = files_outside_contract(sandbox)
    except Exception as exc:
        facts["outside_contract_error"] = f"{type(exc).__name__}: {exc}"
    facts["nulls"] = frozenset(nulls)
    return facts
