"""The collectors around one run: nonce, process audit, inventory, evidence file, checks.

:class:`IntegrityRun` is what the runner holds per run: :attr:`nonce` goes into the agent's
environment and instructions, :meth:`watch` wraps the agent's time in a started sandbox (the
process audit runs meanwhile; the inventory and the file-system diff are taken at the end, while
the sandbox still exists), and :meth:`check` turns the evidence into the record's report.
:class:`IntegrityOptions` are the session's integrity settings as plain values (the runner makes
them from its settings; this package never reads the settings).
The evidence is saved as ``<run dir>/integrity/evidence.json`` so ``mlebench integrity`` can
check the run again offline.
"""

from __future__ import annotations

import json
import secrets
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pytest_mlebench.integrity.checks import CheckContext, check_run
from pytest_mlebench.integrity.inventory import files_outside_contract, take_inventory
from pytest_mlebench.integrity.judge import JudgeSetup, check_judge
from pytest_mlebench.integrity.processes import ProcessAudit, Sampler, docker_sampler, local_sampler
from pytest_mlebench.integrity.similarity import reference_folder
from pytest_mlebench.integrity.watermark import agent_sources, copied_in_matches
from pytest_mlebench.records.verdict import IntegrityReport, Mode
from pytest_mlebench.registry import Competition
from pytest_mlebench.sandbox.interface import Sandbox, SandboxFacts
from pytest_mlebench.sandbox.validator import ValidatorService
from pytest_mlebench.timestamps import utc_timestamp
from pytest_mlebench.values.integrity_policy import Policy, load_policy

NONCE_ENV = "MLEBENCH_RUN_NONCE"
EVIDENCE_FILE = Path("integrity") / "evidence.json"


def instructions_note(nonce: str) -> str:
    """The lines appended to the agent's instructions."""
    return (
        "\n\n## Run watermark\n\n"
        f"This run's nonce is `{nonce}` (also in the environment as `{NONCE_ENV}`). Everything "
        "you submit must be made during this run; the harness records what runs in the "
        "sandbox and checks the submission against files that existed before it started.\n"
    )


class IntegrityRun:
    """Evidence of one run, collected while it happens; checks when it is over."""

    def __init__(self, run_dir: Path, agent: object) -> None:
        self.run_dir = run_dir
        self.agent = agent
        self.nonce = secrets.token_hex(16)
        self.evidence: dict[str, Any] = {"nonce": self.nonce}
        self._source = "none"

    @property
    def env(self) -> dict[str, str]:
        return {NONCE_ENV: self.nonce}

    def instructions(self, text: str) -> str:
        return text + instructions_note(self.nonce)

    @contextmanager
    def watch(self, sandbox: Sandbox) -> Iterator[None]:
        """Audit ``sandbox`` while the body runs; take the inventory after it (never raises)."""
        started = time.time()
        self.evidence.update(
            sandbox_started=started, sandbox_started_at=utc_timestamp(), backend=sandbox.backend
        )
        audit = self._audit(sandbox, started)
        if audit is not None:
            audit.start()
        try:
            yield
        finally:
            self.evidence["agent_finished"] = time.time()
            if audit is not None:
                audit.stop()
                self.evidence["process_audit"] = audit.evidence() | {"source": self._source}
            self._after(sandbox)
            save_evidence(self.run_dir, self.evidence)  # kept even when grading breaks later

    def _audit(self, sandbox: Sandbox, started: float) -> ProcessAudit | None:
        sampler: Sampler | None = None
        container = getattr(sandbox, "container", None)
        if sandbox.backend == "docker" and container is not None:
            sampler, self._source = docker_sampler(container), "the Docker engine's top"
        elif sandbox.backend == "local":
            sampler, self._source = local_sampler(self.nonce), "the host's /proc"
        return ProcessAudit(sampler, started) if sampler is not None else None

    def _after(self, sandbox: Sandbox) -> None:
        validator = sandbox.spec.services.get(ValidatorService)
        self.evidence["validator"] = {"refused": validator.refused if validator else 0}
        try:  # the agent has ended: the proxy's log holds every attempt it made
            self.evidence["egress"] = sandbox.egress_summary()
        except Exception as exc:
            self.evidence["egress"] = None
            self.evidence["egress_error"] = f"{type(exc).__name__}: {exc}"
        try:
            self.evidence["inventory"] = take_inventory(sandbox, self.run_dir)
        except Exception as exc:  # evidence is best effort; the run goes on
            self.evidence["inventory"] = {"error": f"{type(exc).__name__}: {exc}"}
        try:
            self.evidence["outside_contract"] = files_outside_contract(sandbox)
        except Exception as exc:
            self.evidence["outside_contract"] = None
            self.evidence["outside_contract_error"] = f"{type(exc).__name__}: {exc}"

    def check(
        self,
        calls: Sequence[dict[str, Any]],
        context: CheckContext,
        earned_medal: str | None,
    ) -> IntegrityReport:
        """Hash what was copied in, save the evidence, run every check."""
        sources = agent_sources(self.agent)
        try:
            self.evidence["copied_in"] = copied_in_matches(sources, self.run_dir / "submission.csv")
        except OSError as exc:
            self.evidence["copied_in"] = {"sources": [str(s) for s in sources], "error": str(exc)}
        self.evidence["validation_calls"] = list(calls)
        save_evidence(self.run_dir, self.evidence)
        return check_run(self.evidence, self.run_dir, calls, context, earned_medal)


@dataclass(frozen=True)
class IntegrityOptions:
    """The integrity settings of a session (or of ``mlebench integrity``), as plain values.

    Made once by whoever holds the settings, so the checks never read them.

    Attributes:
        policy: The policy, ``--mle-similarity`` applied (``--mle-integrity-policy``).
        mode: ``report`` or ``strict`` (``--mle-integrity``).
        network: ``--mle-network`` as given (``None``: not given).
        references: ``--mle-references``: the reference corpus of the similarity check.
        judge: The LLM judge's setup (``--mle-judge``), or ``None`` without a judge.
        data_dir: ``--mle-data-dir``, where ``mlebench prepare --references`` keeps the fetched
            reference notebooks (used when ``references`` is not given).
    """

    policy: Policy
    mode: Mode
    network: str | None
    references: Path | None
    judge: JudgeSetup | None
    data_dir: Path | None = None


def integrity_options(
    *,
    policy_file: Path | None,
    similarity: float | None,
    mode: str,
    references: Path | None,
    judge_model: str | None,
    agent: object,
    upstreams: Mapping[str, str],
    price_table: Path | None,
    network: str | None = None,
    data_dir: Path | None = None,
) -> IntegrityOptions:
    """The options from the values of ``--mle-integrity-policy``, ``--mle-similarity``,
    ``--mle-integrity``, ``--mle-references``, ``--mle-judge`` (asked through ``agent``'s
    providers, ``upstreams`` and ``price_table``) and ``--mle-network`` (``mlebench integrity``
    leaves it out: each saved run keeps its own).

    Raises:
        MLEBenchError: When the judge cannot be set up (a missing provider key).
    """
    return IntegrityOptions(
        policy=load_policy(policy_file).with_threshold(similarity),
        mode="strict" if mode == "strict" else "report",
        network=network,
        references=references,
        judge=check_judge(judge_model, agent, upstreams, price_table),
        data_dir=data_dir,
    )


def integrity_context(
    options: IntegrityOptions, competition: Competition, sandbox: SandboxFacts | None
) -> CheckContext:
    """The checks' context for a run of ``competition`` in ``sandbox`` under ``options``."""
    return CheckContext(
        policy=options.policy,
        mode=options.mode,
        network=options.network,
        isolated=bool(sandbox is not None and sandbox.isolated),
        references=reference_folder(
            competition.folder, options.references, competition.id, options.data_dir
        ),
        judge=options.judge,
    )


def save_evidence(run_dir: Path, evidence: dict[str, Any]) -> Path:
    path = run_dir / EVIDENCE_FILE
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(evidence, indent=1, default=str) + "\n", "utf-8")
    return path


def load_evidence(run_dir: Path) -> dict[str, Any] | None:
    path = run_dir / EVIDENCE_FILE
    if not path.is_file():
        return None
    data: dict[str, Any] = json.loads(path.read_text("utf-8"))
    return data
