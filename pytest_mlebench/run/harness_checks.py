"""The harness's own checks of an engineering run (``H-*``), from what the run saw.

:func:`harness_checks` scores the agent's process (wall time, CPU, memory), the integrity flags
(each scored once: by ``H-egress``, ``H-contract`` or ``H-audit``), secrets left in the
workspace or the logs, the in-sandbox file times (``H-watermark``) and the LLM spend; the checks
themselves live in :mod:`pytest_mlebench.eng.evidence` and its siblings.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pytest_mlebench.eng.evidence import (
    audit_check,
    find_secrets,
    llm_check,
    secrets_check,
    wall_check,
)
from pytest_mlebench.eng.evidence_safety import (
    contract_check,
    contract_flags,
    egress_check,
    egress_flags,
    premade_deliverables,
    watermark_check,
)
from pytest_mlebench.eng.evidence_usage import cpu_check, memory_check
from pytest_mlebench.eng.scoring import CheckResult
from pytest_mlebench.eng.task import EngTask
from pytest_mlebench.integrity.run_evidence import Evidence
from pytest_mlebench.records.verdict import Flag
from pytest_mlebench.sandbox.interface import ExecResult, ResourceGrant


@dataclass(frozen=True)
class HarnessFacts:
    """What the ``H-*`` checks read of one run.

    Attributes:
        task: The task (its oracle's wall, CPU and memory figures).
        time_limit: The run's time limit in seconds.
        result: What the agent's main process did.
        grant: What its sandbox was granted.
        flags: The integrity checks' flags.
        evidence: The integrity evidence collected around the agent.
        network_mode: The run's network (``none``, ``bridge``, ``allow``).
        isolated: Whether the sandbox was isolated from the machine.
        run_dir: The run folder (its ``workspace/`` and ``logs/``, copied out).
        pristine: The prepared workspace the agent started from.
        gateway: The LLM gateway's account (``None``: no gateway).
        gateway_token: The gateway's token, a secret the agent must not leave behind.
        token_budget: ``--mle-token-budget``.
        cost_budget: ``--mle-cost-budget``.
    """

    task: EngTask
    time_limit: int
    result: ExecResult
    grant: ResourceGrant
    flags: Sequence[Flag]
    evidence: Evidence
    network_mode: str
    isolated: bool
    run_dir: Path
    pristine: Path
    gateway: dict[str, Any] | None = None
    gateway_token: str = ""
    token_budget: int | None = None
    cost_budget: float | None = None


def harness_checks(facts: HarnessFacts) -> list[CheckResult]:
    """The ``H-*`` checks of the run ``facts`` describe (``H-llm`` only with a gateway)."""
    flags, mode, evidence = list(facts.flags), facts.network_mode, facts.evidence
    proxy = bool(evidence.egress)
    network = egress_flags(flags, mode, proxy)
    contract = contract_flags(flags)
    audited = [flag for flag in flags if flag not in network and flag not in contract]
    workspace = facts.run_dir / "workspace"
    checks = [
        wall_check(facts.result.wall_seconds, facts.time_limit, facts.task.oracle_wall_s),
        *usage_checks(facts),
        audit_check(flag.severity for flag in audited),
        secrets_check(find_secrets([workspace, facts.run_dir / "logs"], [facts.gateway_token])),
        egress_check(network, mode, proxy, facts.isolated),
        contract_check(evidence.outside_contract),
        watermark(evidence, workspace, facts.pristine),
    ]
    llm = llm_check(facts.gateway, facts.token_budget, facts.cost_budget)
    return [*checks, llm] if llm is not None else checks


def usage_checks(facts: HarnessFacts) -> list[CheckResult]:
    """``H-cpu`` and ``H-memory`` from the agent's measured result and its grant."""
    result, grant, task = facts.result, facts.grant, facts.task
    return [
        cpu_check(
            result.cpu_seconds, grant.cpus, facts.time_limit, task.oracle_wall_s, task.oracle_cpu_s
        ),
        memory_check(result.peak_memory_bytes, grant.memory, task.oracle_peak_mb),
    ]


def watermark(evidence: Evidence, workspace: Path, pristine: Path) -> CheckResult:
    """``H-watermark`` from the in-sandbox file times and the prepared workspace."""
    inventory = evidence.inventory or {}
    premade = premade_deliverables(
        inventory,
        float(evidence.sandbox_started or 0),
        workspace,
        pristine,
        ended=time.time(),
    )
    missing = f"no workspace file times ({inventory.get('error') or 'no inventory'})"
    return watermark_check(premade, missing)
