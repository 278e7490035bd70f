"""The CI gate: choose the rate-drop or the paired gate, run it, and say which and why. Pure.

``--mle-gate`` (``--gate`` for ``mlebench report --compare``):

* ``rate-drop``: today's gate (:mod:`~pytest_mlebench.report.compare`): any-medal % and valid %
  may not fall more than ``--mle-max-drop`` percentage points.
* ``paired``: runs matched by (agent, competition, seed) (:mod:`~pytest_mlebench.report.matching`)
  and judged by :func:`~pytest_mlebench.report.paired_comparison.paired_verdict` at level
  ``--mle-gate-alpha``; only a ``regression`` fails. ``--mle-max-drop`` is the largest mean
  percentile drop, in percentile points, that passes when it is not significant
  (:func:`paired_margin`; 0, the default, means that only a significant drop fails).
* ``auto`` (default): paired when both sides carry leaderboard percentiles and have matched runs,
  else rate-drop, with a note saying why.

``--mle-max-cost-increase`` adds, in either mode, the cost check of
:func:`~pytest_mlebench.report.cost.cost_checks`; the gate then also fails on a larger rise of
the mean LLM cost per matched run, or when a side has no cost to compare.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal

from pytest_mlebench.manifest.comparability import comparability
from pytest_mlebench.report.compare import (
    EPSILON,
    Comparison,
    CompetitionChange,
    compare_summaries,
    comparison_lines,
    competition_changes,
    moved_lines,
    pair_agents,
)
from pytest_mlebench.report.cost import CostChange, CostCheck, cost_change, cost_checks
from pytest_mlebench.report.matching import (
    Matching,
    carries_percentiles,
    match_runs,
    unmatched_lines,
)
from pytest_mlebench.report.paired_comparison import PairedResult, describe_interval, paired_verdict
from pytest_mlebench.report.variant_comparison import variant_note
from pytest_mlebench.values.cost_limit import CostLimit

Mode = Literal["paired", "rate-drop"]
NOT_COMPARABLE = "not comparable"


@dataclass(frozen=True)
class AgentGate:
    """The paired comparison of one pair of agents."""

    matching: Matching
    result: PairedResult
    cost: CostChange | None


@dataclass(frozen=True)
class GateResult:
    """What the gate decided, in which mode, and why.

    Attributes:
        mode: The gate that ran.
        ok: Whether the new session passes.
        verdict: ``regression``, ``no significant change`` or ``improvement`` (paired);
            ``passed`` or ``failed`` (rate-drop).
        reason: One sentence behind the verdict.
        baseline: How the baseline is named in the output (its path).
        agents: The paired comparisons (paired mode).
        comparison: The rate checks (rate-drop mode) and the per-competition changes (both).
        notes: Why a mode was chosen, agents left out, and the like.
        costs: The cost checks (``--mle-max-cost-increase``), one per pair of agents.
        lost_valid: Competitions whose valid-submission rate fell (each fails the gate).
    """

    mode: Mode
    ok: bool
    verdict: str
    reason: str
    baseline: str
    agents: tuple[AgentGate, ...]
    comparison: Comparison
    notes: tuple[str, ...]
    costs: tuple[CostCheck, ...] = ()
    lost_valid: tuple[str, ...] = ()


def paired_margin(max_drop: float) -> float | None:
    """``--mle-max-drop`` in paired mode: the allowed mean percentile drop; 0 means no margin.

    In rate-drop mode 0 means "no drop at all"; a mean percentile difference is never exactly 0
    with noisy runs, so in paired mode 0 leaves the decision to the significance tests alone.
    """
    return max_drop if max_drop > 0 else None


def choose_mode(
    requested: str, base: dict[str, Any], new: dict[str, Any], matchings: Sequence[Matching]
) -> tuple[Mode, str | None]:
    """The gate to run for ``requested`` (``auto``, ``paired``, ``rate-drop``) and why."""
    if requested == "rate-drop":
        return "rate-drop", None
    if not any(m.pairs for m in matchings):
        why = "no run of this session matches a baseline run by (agent, competition, seed)"
        return "rate-drop", f"rate-drop gate: {why}"
    if requested == "paired":
        return "paired", None
    missing = [
        side
        for side, summary in (("the baseline", base), ("this session", new))
        if not carries_percentiles(summary)
    ]
    if missing:
        older = " (written before percentiles existed)" if missing[0] == "the baseline" else ""
        return "rate-drop", (
            f"rate-drop gate: {' and '.join(missing)} carries no leaderboard percentiles{older}; "
            "the paired gate needs them on both sides"
        )
    if not any(m.with_percentiles for m in matchings):
        return "rate-drop", "rate-drop gate: no matched run has a percentile on both sides"
    return "paired", None


def run_gate(
    base: dict[str, Any],
    new: dict[str, Any],
    *,
    baseline: str,
    mode: str = "auto",
    alpha: float = 0.05,
    max_drop: float = 0.0,
    max_cost_increase: CostLimit | None = None,
    allow_different: Iterable[str] = (),
) -> GateResult:
    """Judge ``new`` against the baseline ``base`` (both in the ``summary.json`` layout).

    Args:
        base: The baseline summary.
        new: The summary to judge.
        baseline: The baseline's name in the output (its path).
        mode: ``auto``, ``paired`` or ``rate-drop``.
        alpha: Significance level of the paired gate.
        max_drop: Rate-drop: percentage points a rate may fall. Paired: see :func:`paired_margin`.
        max_cost_increase: How much the mean LLM cost per matched run may rise; ``None``: no
            cost check.
        allow_different: Manifest keys on which the two sides may differ (``--allow-different``).
    """
    allowed = frozenset(allow_different)
    manifests = comparability(base, new, allowed)
    refused = None if "sandbox" in allowed else backend_refusal(base, new, baseline)
    refused = refused or _manifest_refusal(manifests.refusal(), baseline)
    if refused is not None:
        return _refused_result(refused, baseline)
    agent_pairs, agent_notes = pair_agents(base["agents"], new["agents"])
    matchings = [match_runs(base, new, b, n) for b, n in agent_pairs]
    chosen, why = choose_mode(mode, base, new, matchings)
    notes = [note for note in (variant_note(base, new), why) if note] + manifests.notes()
    if chosen == "rate-drop":
        comparison = compare_summaries(base, new, max_drop)
        result = _rate_drop_result(comparison, baseline, notes)
    else:
        changes = competition_changes(base, new, agent_pairs)
        gates = tuple(_agent_gate(base, new, m, alpha, paired_margin(max_drop)) for m in matchings)
        comparison = Comparison((), tuple(changes), tuple(agent_notes))
        result = _paired_result(gates, comparison, baseline, notes + agent_notes)
    result = with_lost_valid(result, lost_valid_submissions(result.comparison.changes))
    if max_cost_increase is None:
        return result
    return with_costs(result, cost_checks(base, new, agent_pairs, max_cost_increase))


def lost_valid_submissions(changes: Sequence[CompetitionChange]) -> tuple[str, ...]:
    """The competitions, matched on both sides, whose valid-submission rate fell.

    An agent that stops handing in a valid file has regressed, whatever the statistics say: in
    the paired gate one such competition among many moves neither the percentile interval nor
    McNemar's test far enough, so both modes fail on it directly.
    """
    lost = []
    for change in changes:
        before = change.base.get("valid_rate") if change.base else None
        now = change.new.get("valid_rate") if change.new else None
        if before is not None and now is not None and now < before - EPSILON:
            lost.append(f"{change.competition_id} ({change.agent}) {before:.0f} % -> {now:.0f} %")
    return tuple(lost)


def with_lost_valid(result: GateResult, lost: tuple[str, ...]) -> GateResult:
    """``result`` failing when a competition lost valid submissions."""
    if not lost:
        return result
    reason = f"valid submissions lost: {', '.join(lost)}"
    if result.ok:
        verdict = "regression" if result.mode == "paired" else "failed"
        return replace(result, ok=False, verdict=verdict, reason=reason, lost_valid=lost)
    return replace(result, reason=f"{result.reason}; {reason}", lost_valid=lost)


def backend_refusal(base: dict[str, Any], new: dict[str, Any], baseline: str) -> str | None:
    """Why ``base`` and ``new`` cannot be compared because their runs used different sandbox
    backends, or ``None``.

    A local run has the host's packages, cores and memory, a Docker run the image's and its
    limits: a score moved by that is not the agent's change. Summaries written before the key
    ``sandboxes`` existed are compared as before.
    """
    before, now = base.get("sandboxes"), new.get("sandboxes")
    if not before or not now or set(before) == set(now):
        return None
    return (
        f"the baseline {baseline} ran in the {' and '.join(before)} sandbox backend, this "
        f"session in {' and '.join(now)}: runs in different backends are not comparable; run "
        f"both with the same --mle-sandbox (the backend of each run is its record's 'sandbox')"
    )


def _manifest_refusal(reason: str | None, baseline: str) -> str | None:
    """The manifests' refusal with the baseline named (:func:`backend_refusal` speaks first
    for the backend, with its own fix, unless ``sandbox`` is allowed to differ)."""
    return None if reason is None else f"the baseline {baseline} and this session: {reason}"


def _refused_result(reason: str, baseline: str) -> GateResult:
    return GateResult(
        mode="rate-drop",
        ok=False,
        verdict=NOT_COMPARABLE,
        reason=reason,
        baseline=baseline,
        agents=(),
        comparison=Comparison((), (), ()),
        notes=(),
    )


def with_costs(result: GateResult, costs: tuple[CostCheck, ...]) -> GateResult:
    """``result`` with the cost checks added: it fails too when one of them fails."""
    failed = [check.reason() for check in costs if check.failed]
    if not failed:
        return replace(result, costs=costs)
    reason = "; ".join(failed)
    if result.ok:
        return replace(result, costs=costs, ok=False, verdict="cost increase", reason=reason)
    return replace(result, costs=costs, reason=f"{result.reason}; {reason}")


def _agent_gate(
    base: dict[str, Any],
    new: dict[str, Any],
    matching: Matching,
    alpha: float,
    margin: float | None,
) -> AgentGate:
    result = paired_verdict(matching.pairs, alpha=alpha, margin=margin)
    keys = [(p.competition_id, p.seed) for p in matching.pairs]
    cost = cost_change(base, new, (matching.base_agent, matching.new_agent), keys)
    return AgentGate(matching, result, cost)


def _rate_drop_result(comparison: Comparison, baseline: str, notes: list[str]) -> GateResult:
    if comparison.ok:
        reason = "no gated rate dropped more than allowed"
    elif comparison.failures:
        reason = comparison_lines(comparison, baseline)[-1].removeprefix("GATE FAILED: ")
    else:
        reason = "nothing to compare with the baseline"
    return GateResult(
        mode="rate-drop",
        ok=comparison.ok,
        verdict="passed" if comparison.ok else "failed",
        reason=reason,
        baseline=baseline,
        agents=(),
        comparison=comparison,
        notes=tuple(notes) + comparison.notes,
    )


def _paired_result(
    gates: tuple[AgentGate, ...], comparison: Comparison, baseline: str, notes: list[str]
) -> GateResult:
    active = [g for g in gates if g.matching.pairs]
    verdicts = [g.result.verdict for g in active]
    verdict = next(
        (v for v in ("regression", "improvement") if v in verdicts), "no significant change"
    )
    deciding = next((g for g in active if g.result.verdict == verdict), active[0])
    reason = deciding.result.reason
    if len(active) > 1:
        reason = f"{deciding.matching.new_agent}: {reason}"
    return GateResult(
        mode="paired",
        ok=verdict != "regression",
        verdict=verdict,
        reason=reason,
        baseline=baseline,
        agents=gates,
        comparison=comparison,
        notes=tuple(notes),
    )


def agent_lines(gate: AgentGate) -> list[str]:
    """The paired numbers of one pair of agents, for the terminal."""
    result, matching = gate.result, gate.matching
    name = matching.new_agent
    if matching.base_agent != name:
        name = f"{name} (baseline agent {matching.base_agent})"
    lines = [f"{name}: {result.pairs} matched run(s) on {result.competitions} competition(s)"]
    if result.percentile is not None:
        lines.append(f"  percentile change {describe_interval(result.percentile)}")
    else:
        lines.append("  percentile change: no matched run has a percentile on both sides")
    medals = result.medals
    lines.append(
        f"  medal flips +{medals.gained}/-{medals.lost} (exact McNemar p={medals.p_value:.3g})"
    )
    moved = result.significant_shifts()
    if moved:
        shown = ", ".join(shift.describe() for shift in moved)
        lines.append(f"  beyond the seed noise: {shown}")
    if gate.cost is not None:
        lines.append(f"  {gate.cost.line()}")
    lines += [f"  {line}" for line in unmatched_lines(matching)]
    lines.append(f"  verdict: {result.verdict}")
    return lines


def gate_lines(result: GateResult) -> list[str]:
    """What the terminal and ``mlebench report --compare`` print, ending with the decision."""
    if result.verdict == NOT_COMPARABLE:
        return [f"GATE FAILED: {NOT_COMPARABLE}: {result.reason}"]
    lines = _mode_lines(result)
    extra = [f"  valid submissions lost: {entry}" for entry in result.lost_valid]
    extra += [f"  {line}" for check in result.costs for line in check.lines()]
    if not extra:
        return lines
    if result.ok:
        return [*lines[:-1], *extra, lines[-1]]
    verdict = "" if result.mode == "rate-drop" else f"{result.verdict}: "
    return [*lines[:-1], *extra, f"GATE FAILED: {verdict}{result.reason}"]


def _mode_lines(result: GateResult) -> list[str]:
    if result.mode == "rate-drop":
        lines = comparison_lines(result.comparison, result.baseline)
        extra = [f"  note: {note}" for note in result.notes if note not in result.comparison.notes]
        return lines[:1] + extra + lines[1:]
    first = result.agents[0].result if result.agents else None
    margin = "off" if first is None or first.margin is None else f"{first.margin:g} points"
    alpha = f"{first.alpha:g}" if first is not None else "-"
    lines = [f"gate against {result.baseline} (paired, alpha {alpha}, margin {margin}):"]
    for gate in result.agents:
        lines += [f"  {line}" for line in agent_lines(gate)]
    lines += [f"  note: {note}" for note in result.notes]
    lines += moved_lines(result.comparison)
    if result.ok:
        lines.append(f"gate passed: {result.verdict}: {result.reason}")
    else:
        lines.append(f"GATE FAILED: {result.verdict}: {result.reason}")
    return lines
