"""The checks after a run: evidence + run folder → :class:`IntegrityReport`. Never raises.

Used by the runner as each run ends and by ``mlebench integrity`` on saved runs: the same
function over the same files (``<run dir>/integrity/evidence.json``, ``submission.csv``,
``code/``, ``logs/``, ``agent.log``). A check that breaks is recorded as ``error: …`` in the
report's ``checks`` and never takes the run down.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pytest_mlebench.integrity.disclosure import disclosure_block
from pytest_mlebench.integrity.egress_attempts import network_flags
from pytest_mlebench.integrity.judge import JudgeSetup, run_judge
from pytest_mlebench.integrity.probing import validator_flags
from pytest_mlebench.integrity.reference_disclosure import (
    reference_disclosure,
    reference_threshold,
)
from pytest_mlebench.integrity.rules import (
    copy_out_flag,
    has_code,
    literal_flag,
    log_flags,
    no_code_flag,
    outside_contract_flag,
    process_flags,
)
from pytest_mlebench.integrity.similarity import (
    Fingerprints,
    SimilarityUnavailable,
    code_files,
    top_matches,
)
from pytest_mlebench.integrity.watermark import inventory_mismatch_flag, watermark_flags
from pytest_mlebench.medals import MEDALS
from pytest_mlebench.records.verdict import Flag, IntegrityReport, Mode, severity_rank, sort_flags
from pytest_mlebench.values.integrity_policy import Policy


@dataclass(frozen=True)
class CheckContext:
    """What the checks need besides the run's own files."""

    policy: Policy
    mode: Mode = "report"
    network: str | None = "none"
    isolated: bool = False
    references: Path | None = None
    judge: JudgeSetup | None = None


def check_run(
    evidence: dict[str, Any],
    run_dir: Path,
    calls: Sequence[dict[str, Any]],
    context: CheckContext,
    earned_medal: str | None,
) -> IntegrityReport:
    """Every per-run check over ``evidence`` and the files in ``run_dir``."""
    policy = context.policy
    flags: list[Flag] = []
    checks: dict[str, str] = {}
    submission, code = run_dir / "submission.csv", run_dir / "code"
    logs = [run_dir / "agent.log", run_dir / "logs"]
    agent_places = [Path(p) for p in (evidence.get("copied_in") or {}).get("sources", [])]

    def run(name: str, check: Callable[[], Sequence[Flag | None]], skip: str | None = None) -> None:
        if skip:
            checks[name] = f"skipped: {skip}"
            return
        try:
            flags.extend(f for f in check() if f is not None)
            checks[name] = "ran"
        except SimilarityUnavailable as exc:
            checks[name] = f"skipped: {exc}"
        except Exception as exc:  # a broken check is reported, never fatal to the run
            checks[name] = f"error: {type(exc).__name__}: {exc}"

    audit = evidence.get("process_audit") or {}
    run(
        "watermark",
        lambda: watermark_flags(evidence, policy),
        _missing(evidence, "sandbox_started"),
    )
    run(
        "inventory-hash",
        lambda: [inventory_mismatch_flag(evidence, submission, policy)],
        _missing(evidence, "inventory"),
    )
    run(
        "process-audit",
        lambda: process_flags(audit.get("processes") or [], policy),
        None if audit else "no process audit for this sandbox backend",
    )
    run("logs", lambda: log_flags(logs, policy))
    run("no-code", lambda: [no_code_flag(code, policy)], _missing_file(submission))
    run(
        "literal-predictions",
        lambda: [literal_flag(submission, [code, *logs, *agent_places], has_code(code), policy)],
        _missing_file(submission),
    )
    outside = evidence.get("outside_contract")
    run(
        "outside-contract",
        lambda: [outside_contract_flag(outside, policy)],
        None if outside is not None else "file-system diff only on the Docker backend",
    )
    copied = evidence.get("copy_out")
    run(
        "copy-out",
        lambda: [copy_out_flag(copied, policy)],
        None if copied is not None else "no copy-out account in the evidence",
    )
    egress = evidence.get("egress")
    run(
        "network-attempts",
        lambda: network_flags(egress or {}, policy),
        None if egress else "no egress proxy (the network was none or bridge)",
    )
    refused = int((evidence.get("validator") or {}).get("refused", 0))
    run("validator-use", lambda: validator_flags(calls, refused, policy))
    run(
        "similarity-reference",
        lambda: reference_flags(code, context.references, policy),
        None if context.references else "no reference corpus for this competition",
    )
    judged = run_judge(context.judge, run_dir, policy) if context.judge is not None else None
    if judged is not None:
        flags.extend(judged.flags)
        checks["judge"] = judged.status
    ordered = sort_flags(flags)
    withheld = withholds(context, ordered, earned_medal)
    disclosure = disclosure_block(
        evidence, calls, ordered, network=context.network, isolated=context.isolated
    )
    disclosure["reference_similarity"] = reference_disclosure(context.references, policy, ordered)
    return IntegrityReport(
        mode=context.mode,
        flags=ordered,
        disclosure=disclosure,
        checks=checks,
        medal_withheld=withheld,
        earned_medal=earned_medal,
        evidence_file=str(run_dir / "integrity" / "evidence.json"),
        judge=judged.record if judged is not None else None,
    )


def _missing(evidence: dict[str, Any], key: str) -> str | None:
    return None if evidence.get(key) else f"no {key} in the evidence"


def _missing_file(path: Path) -> str | None:
    return None if path.is_file() else f"no {path.name}"


def withholds(context: CheckContext, flags: Sequence[Flag], earned_medal: str | None) -> bool:
    """Strict mode withholds an earned medal when a flag reaches ``withhold_at``."""
    if context.mode != "strict" or earned_medal is None:
        return False
    bar = severity_rank(context.policy.withhold_at)
    return any(severity_rank(f.severity) >= bar for f in flags)


def reference_flags(code: Path, references: Path | None, policy: Policy) -> list[Flag]:
    """A flag per matching (run file, reference file) pair at the reference threshold."""
    mine, theirs = code_files(code), code_files(references) if references else []
    if not mine or not theirs or references is None:
        return []
    fingerprints = Fingerprints(int(policy.number("similarity", "min_tokens")))
    matches = top_matches(
        mine,
        theirs,
        reference_threshold(policy),
        fingerprints,
        mine_root=code,
        theirs_root=references,
    )
    return [
        Flag(
            "similarity",
            "reference",
            policy.severity("similarity", "reference"),
            f"code/{m.file} matches {m.other} of the reference corpus "
            f"({m.similarity:.0%} of its code, lines {m.lines}; reference lines {m.other_lines})",
            {**m.to_evidence(), "file": f"code/{m.file}", "reference": str(references / m.other)},
        )
        for m in matches
    ]


def withheld_gate(report: IntegrityReport, require: str) -> str | None:
    """The gate's reason when strict mode withheld the medal a medal-level gate needs."""
    if not report.medal_withheld or require not in MEDALS:
        return None
    worst = report.at_least(report.worst or "high")[0]
    return (
        f"medal withheld (integrity: {worst.kind}): {report.earned_medal} earned, but "
        f"--mle-integrity strict withholds it: {worst.summary()}"
    )
