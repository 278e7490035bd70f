"""The integrity of one run, held by the run: its watermark, then the checks over its evidence.

:class:`IntegrityRun` is the one integrity object of a run (the runner makes it): its
:attr:`~IntegrityRun.watermark` goes into the sandbox job (the job puts the nonce into the
agent's environment and instructions), the watch in the sandbox phase
(:mod:`pytest_mlebench.integrity.watch`) hands back the typed
:class:`~pytest_mlebench.integrity.run_evidence.Evidence`, and :meth:`IntegrityRun.check` adds the
host's own facts to it and turns it into the record's report (the table of checks:
:mod:`pytest_mlebench.integrity.checks`). :class:`IntegrityOptions` are the session's integrity
settings as plain values (the runner makes them from its settings; this package never reads the
settings). The evidence is saved as ``<run dir>/integrity/evidence.json`` so ``mlebench
integrity`` can check the run again offline.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pytest_mlebench.graders as graders
from pytest_mlebench.integrity.checks import CheckContext, check_run
from pytest_mlebench.integrity.judge import JudgeSetup, check_judge
from pytest_mlebench.integrity.nonce import Watermark
from pytest_mlebench.integrity.run_evidence import (
    Evidence,
    save_evidence,
)
from pytest_mlebench.integrity.similarity import reference_folder
from pytest_mlebench.integrity.too_good import ScoreClaim, score_claim
from pytest_mlebench.integrity.watermark import agent_sources, copied_in_matches
from pytest_mlebench.records.verdict import IntegrityReport, Mode
from pytest_mlebench.registry import Competition
from pytest_mlebench.sandbox.interface import SandboxFacts
from pytest_mlebench.values.integrity_policy import Policy, load_policy


class IntegrityRun:
    """The integrity of one run: its watermark now, its checks once the evidence is back.

    Args:
        run_dir: The run folder (the evidence file, the submission and code the checks read).
        agent: The run's agent (its own files are searched for the submission).
        watermark: The run's watermark; a fresh one when not given.
    """

    def __init__(self, run_dir: Path, agent: object, watermark: Watermark | None = None) -> None:
        self.run_dir = run_dir
        self.agent = agent
        self.watermark = watermark if watermark is not None else Watermark.new()

    def check(
        self,
        evidence: Evidence | None,
        calls: Sequence[dict[str, Any]],
        context: CheckContext,
        earned_medal: str | None,
    ) -> IntegrityReport:
        """Add the host's facts to ``evidence`` (the agent's own files identical to the
        submission, the validator's calls), save it, run every check.

        ``evidence`` is what the sandbox phase handed back (``None``: none came back; the
        checks then run over the watermark and the run folder alone).
        """
        evidence = self.complete(evidence, calls)
        save_evidence(self.run_dir, evidence)
        return check_run(evidence, self.run_dir, calls, context, earned_medal)

    def complete(self, evidence: Evidence | None, calls: Sequence[dict[str, Any]]) -> Evidence:
        """``evidence`` with the copied-in search and the validator's calls added."""
        base = evidence if evidence is not None else Evidence(nonce=self.watermark.nonce)
        sources = agent_sources(self.agent)
        try:
            copied = copied_in_matches(sources, self.run_dir / "submission.csv")
        except OSError as exc:
            copied = {"sources": [str(s) for s in sources], "error": str(exc)}
        return replace(base, copied_in=copied, validation_calls=tuple(calls))


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
    options: IntegrityOptions,
    competition: Competition,
    sandbox: SandboxFacts | None,
    score: float | None = None,
) -> CheckContext:
    """The checks' context for a run of ``competition`` in ``sandbox`` under ``options``
    (``score``: the run's score, for the ``too-good`` check)."""
    return CheckContext(
        policy=options.policy,
        mode=options.mode,
        network=options.network,
        isolated=bool(sandbox is not None and sandbox.isolated),
        references=reference_folder(
            competition.folder, options.references, competition.id, options.data_dir
        ),
        judge=options.judge,
        claim=competition_claim(competition, score),
    )


def competition_claim(competition: Competition | None, score: float | None) -> ScoreClaim | None:
    """``score`` beside ``competition``'s leaderboard and its metric's perfect value."""
    if competition is None:
        return None
    perfect = graders.get_metric(competition.metric).perfect
    return score_claim(score, competition.leaderboard_scores, perfect, competition.lower_is_better)
