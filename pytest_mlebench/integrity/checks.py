"""The checks after a run: a table of checks over the typed evidence and the run folder.

:data:`RUN_CHECKS` is the table: each :class:`Check` has the name the record's
``integrity.checks`` reports it under, the ``kind/rule`` flags it can raise (``process/<rule>``:
one per rule of the policy's section), when it is skipped, and a function over a
:class:`CheckInput` (the :class:`~pytest_mlebench.integrity.run_evidence.Evidence` and the run's
files: ``submission.csv``, ``code/``, ``logs/``, ``agent.log``). :func:`check_run` walks the table,
then asks the optional LLM judge; :data:`ALL_CHECKS` adds the judge and the cross-run similarity
of a session's end (:mod:`.crossrun`), so reports and ``docs/integrity.md`` can enumerate every
rule. Used by the runner as each run ends and by ``mlebench integrity`` on saved runs: the same
function over the same files. A check that breaks is recorded as ``error: …`` in the report's
``checks`` and never takes the run down.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from pytest_mlebench.integrity.disclosure import disclosure_block
from pytest_mlebench.integrity.egress_attempts import network_flags
from pytest_mlebench.integrity.judge import JudgeSetup, run_judge
from pytest_mlebench.integrity.judge_prompt import QUESTIONS
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
from pytest_mlebench.integrity.run_evidence import Evidence
from pytest_mlebench.integrity.similarity import (
    Fingerprints,
    SimilarityUnavailable,
    code_files,
    top_matches,
)
from pytest_mlebench.integrity.too_good import ScoreClaim, too_good_flag
from pytest_mlebench.integrity.watermark import inventory_mismatch_flag, watermark_flags
from pytest_mlebench.medals import MEDALS
from pytest_mlebench.records.verdict import Flag, IntegrityReport, Mode, severity_rank, sort_flags
from pytest_mlebench.values.integrity_policy import Policy


@dataclass(frozen=True)
class CheckContext:
    """What the checks need besides the run's own files (``claim``: the run's score beside
    its leaderboard, for the ``too-good`` check; ``None`` without a score or a board)."""

    policy: Policy
    mode: Mode = "report"
    network: str | None = "none"
    isolated: bool = False
    references: Path | None = None
    judge: JudgeSetup | None = None
    claim: ScoreClaim | None = None


@dataclass(frozen=True)
class CheckInput:
    """What a check of the table reads: the run's evidence, its files, its validator calls."""

    evidence: Evidence
    run_dir: Path
    calls: Sequence[dict[str, Any]]
    context: CheckContext

    @property
    def policy(self) -> Policy:
        return self.context.policy

    @property
    def submission(self) -> Path:
        return self.run_dir / "submission.csv"

    @property
    def code(self) -> Path:
        return self.run_dir / "code"

    @property
    def logs(self) -> list[Path]:
        return [self.run_dir / "agent.log", self.run_dir / "logs"]


FlagsOf = Callable[[CheckInput], Sequence[Flag | None]]
SkipOf = Callable[[CheckInput], str | None]
Scope = Literal["run", "judge", "session"]


def _never(_: CheckInput) -> str | None:
    return None


@dataclass(frozen=True)
class CheckInfo:
    """A check as reports and docs name it.

    Attributes:
        name: The key of the record's ``integrity.checks`` (``ran``, ``skipped: …``, ``error: …``).
        rules: The ``kind/rule`` of every flag it can raise; ``kind/<rule>`` stands for one per
            rule of the policy's patterns.
        scope: ``run`` (the table, after each run), ``judge`` (the optional LLM judge, after the
            table) or ``session`` (across the runs of a session, at its end).
    """

    name: str
    rules: tuple[str, ...]
    scope: Scope = "run"


@dataclass(frozen=True, kw_only=True)
class Check(CheckInfo):
    """A row of the table: ``flags`` over a run's :class:`CheckInput`, unless ``skip`` says why
    not."""

    flags: FlagsOf
    skip: SkipOf = _never


def _missing_file(path: Path) -> str | None:
    return None if path.is_file() else f"no {path.name}"


def _literal(run: CheckInput) -> list[Flag | None]:
    places = [run.code, *run.logs, *run.evidence.agent_sources]
    return [literal_flag(run.submission, places, has_code(run.code), run.policy)]


RUN_CHECKS: tuple[Check, ...] = (
    Check(
        "watermark",
        (
            "watermark/pre-made-submission",
            "watermark/submission-before-start",
            "watermark/code-before-start",
        ),
        flags=lambda run: watermark_flags(run.evidence, run.policy),
        skip=lambda run: (
            None if run.evidence.sandbox_started else "no sandbox_started in the evidence"
        ),
    ),
    Check(
        "inventory-hash",
        ("watermark/inventory-mismatch",),
        flags=lambda run: [inventory_mismatch_flag(run.evidence, run.submission, run.policy)],
        skip=lambda run: None if run.evidence.inventory else "no inventory in the evidence",
    ),
    Check(
        "process-audit",
        ("process/<rule>",),
        flags=lambda run: process_flags(run.evidence.audited_processes, run.policy),
        skip=lambda run: (
            None if run.evidence.process_audit else "no process audit for this sandbox backend"
        ),
    ),
    Check("logs", ("logs/<rule>",), flags=lambda run: log_flags(run.logs, run.policy)),
    Check(
        "no-code",
        ("rules/no-code",),
        flags=lambda run: [no_code_flag(run.code, run.policy)],
        skip=lambda run: _missing_file(run.submission),
    ),
    Check(
        "literal-predictions",
        ("rules/literal-predictions",),
        flags=_literal,
        skip=lambda run: _missing_file(run.submission),
    ),
    Check(
        "outside-contract",
        ("rules/outside-contract",),
        flags=lambda run: [outside_contract_flag(run.evidence.outside_contract, run.policy)],
        skip=lambda run: (
            None
            if run.evidence.outside_contract is not None
            else "file-system diff only on the Docker backend"
        ),
    ),
    Check(
        "copy-out",
        ("rules/copy-out-capped",),
        flags=lambda run: [copy_out_flag(run.evidence.copy_out, run.policy)],
        skip=lambda run: (
            None if run.evidence.copy_out is not None else "no copy-out account in the evidence"
        ),
    ),
    Check(
        "network-attempts",
        ("rules/network-attempt",),
        flags=lambda run: network_flags(run.evidence.egress or {}, run.policy),
        skip=lambda run: (
            None if run.evidence.egress else "no egress proxy (the network was none or bridge)"
        ),
    ),
    Check(
        "validator-use",
        ("validator-use/heavy-use", "validator-probing/near-identical-submissions"),
        flags=lambda run: validator_flags(
            run.calls, int(run.evidence.validator_refused or 0), run.policy
        ),
    ),
    Check(
        "similarity-reference",
        ("similarity/reference",),
        flags=lambda run: reference_flags(run.code, run.context.references, run.policy),
        skip=lambda run: (
            None if run.context.references else "no reference corpus for this competition"
        ),
    ),
    Check(
        "too-good",
        ("score/beats-leaderboard", "score/perfect-score"),
        flags=lambda run: [
            too_good_flag(run.context.claim, run.policy) if run.context.claim else None
        ],
        skip=lambda run: None if run.context.claim else "no score, or no leaderboard",
    ),
)
JUDGE_CHECK = CheckInfo("judge", tuple(f"judge/{q.id}" for q in QUESTIONS), "judge")
CROSS_RUN_CHECK = CheckInfo(
    "similarity-cross-run", ("similarity/same-agent", "similarity/other-agent"), "session"
)
ALL_CHECKS: tuple[CheckInfo, ...] = (*RUN_CHECKS, JUDGE_CHECK, CROSS_RUN_CHECK)


def run_check(check: Check, run: CheckInput) -> tuple[list[Flag], str]:
    """The flags of one row of the table and its status (``ran``, ``skipped: …``,
    ``error: …``): a check that breaks is reported, never fatal to the run."""
    skip = check.skip(run)
    if skip:
        return [], f"skipped: {skip}"
    try:
        return [flag for flag in check.flags(run) if flag is not None], "ran"
    except SimilarityUnavailable as exc:
        return [], f"skipped: {exc}"
    except Exception as exc:
        return [], f"error: {type(exc).__name__}: {exc}"


def check_run(
    evidence: Evidence,
    run_dir: Path,
    calls: Sequence[dict[str, Any]],
    context: CheckContext,
    earned_medal: str | None,
    table: Sequence[Check] = RUN_CHECKS,
) -> IntegrityReport:
    """Every check of ``table`` over ``evidence`` and the files in ``run_dir``, then the judge."""
    run = CheckInput(evidence, run_dir, calls, context)
    flags: list[Flag] = []
    checks: dict[str, str] = {}
    for check in table:
        found, checks[check.name] = run_check(check, run)
        flags.extend(found)
    judged = (
        run_judge(context.judge, run_dir, context.policy) if context.judge is not None else None
    )
    if judged is not None:
        flags.extend(judged.flags)
        checks[JUDGE_CHECK.name] = judged.status
    ordered = sort_flags(flags)
    disclosure = disclosure_block(
        evidence, calls, ordered, network=context.network, isolated=context.isolated
    )
    disclosure["reference_similarity"] = reference_disclosure(
        context.references, context.policy, ordered
    )
    return IntegrityReport(
        mode=context.mode,
        flags=ordered,
        disclosure=disclosure,
        checks=checks,
        medal_withheld=withholds(context, ordered, earned_medal),
        earned_medal=earned_medal,
        evidence_file=str(run_dir / "integrity" / "evidence.json"),
        judge=judged.record if judged is not None else None,
    )


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
