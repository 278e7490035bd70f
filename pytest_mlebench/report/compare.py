"""The CI gate: compare a summary with a baseline and fail on a drop larger than allowed.

Any-medal % and valid-submission % are checked overall and for every split both summaries have,
per agent (when each side has a single agent, the two are compared even if their names differ).
A drop of more than ``max_drop`` percentage points fails the gate. Per competition, the table
says what improved and what regressed (medal rate, then valid rate, then mean leaderboard
percentile, then mean score, in that order of importance). Pure: summaries in,
:class:`Comparison` and text lines out. This is the ``rate-drop`` mode of the CI gate;
:mod:`~pytest_mlebench.report.baseline_gate` chooses between it and the paired gate.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

GATED_METRICS = {"any_medal": "any medal", "valid_submission": "valid"}
EPSILON = 1e-9


@dataclass(frozen=True)
class MetricCheck:
    """One gated number: baseline against new, in percent."""

    agent: str
    group: str
    metric: str
    base: float
    new: float
    max_drop: float

    @property
    def drop(self) -> float:
        return self.base - self.new

    @property
    def failed(self) -> bool:
        return self.drop > self.max_drop + EPSILON

    def line(self) -> str:
        verdict = f"FAIL (allowed {self.max_drop:g})" if self.failed else "ok"
        change = self.new - self.base
        return (
            f"{self.agent} {self.group:<18} {GATED_METRICS[self.metric]:<10} "
            f"{self.base:6.1f} % -> {self.new:6.1f} % ({change:+.1f} points)  {verdict}"
        )


@dataclass(frozen=True)
class CompetitionChange:
    """How one competition moved between the baseline and the new summary."""

    agent: str
    competition_id: str
    base: dict[str, Any] | None
    new: dict[str, Any] | None
    verdict: str  # improved, regressed, same, new, missing


@dataclass(frozen=True)
class Comparison:
    """The gate's result: the checks, the per-competition changes and notes."""

    checks: tuple[MetricCheck, ...]
    changes: tuple[CompetitionChange, ...]
    notes: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        return bool(self.checks) and not any(check.failed for check in self.checks)

    @property
    def failures(self) -> list[MetricCheck]:
        return [check for check in self.checks if check.failed]


def pair_agents(base: Iterable[str], new: Iterable[str]) -> tuple[list[tuple[str, str]], list[str]]:
    """Agents to compare (baseline name, new name) and notes on those left out."""
    base_set, new_set = set(base), set(new)
    common = sorted(base_set & new_set)
    if not common and len(base_set) == 1 and len(new_set) == 1:
        (b,), (n,) = base_set, new_set
        return [(b, n)], [f"comparing agent {n} with baseline agent {b}"]
    notes = [f"agent {a} is only in the baseline" for a in sorted(base_set - new_set)]
    notes += [f"agent {a} is not in the baseline" for a in sorted(new_set - base_set)]
    return [(a, a) for a in common], notes


def _groups(section: dict[str, Any]) -> dict[str, dict[str, Any]]:
    groups = {"overall": section["overall"]}
    groups.update({f"split {name}": stats for name, stats in section.get("splits", {}).items()})
    return groups


def metric_checks(
    base: dict[str, Any], new: dict[str, Any], pairs: list[tuple[str, str]], max_drop: float
) -> tuple[list[MetricCheck], list[str]]:
    """Gated checks of every group both summaries have, per paired agent."""
    checks, notes = [], []
    for base_agent, new_agent in pairs:
        base_groups = _groups(base["agents"][base_agent])
        new_groups = _groups(new["agents"][new_agent])
        for group in base_groups:
            if group not in new_groups:
                notes.append(f"{new_agent}: {group} of the baseline did not run")
                continue
            for metric in GATED_METRICS:
                before = base_groups[group]["metrics"][metric]["mean"]
                after = new_groups[group]["metrics"][metric]["mean"]
                if before is None or after is None:
                    notes.append(f"{new_agent}: {group} has no {metric} rate to compare")
                    continue
                checks.append(MetricCheck(new_agent, group, metric, before, after, max_drop))
    return checks, notes


def verdict(base: dict[str, Any], new: dict[str, Any]) -> str:
    """``improved``/``regressed``/``same``: medal rate, valid rate, mean percentile, mean score."""
    for key in ("medal_rate", "valid_rate", "mean_percentile"):
        before, after = base.get(key), new.get(key)
        if before is None or after is None or abs(after - before) <= EPSILON:
            continue
        return "improved" if after > before else "regressed"
    before, after = base.get("mean_score"), new.get("mean_score")
    if before is None or after is None or abs(after - before) <= EPSILON * max(1.0, abs(before)):
        return "same"
    better = after < before if new.get("is_lower_better") else after > before
    return "improved" if better else "regressed"


def competition_changes(
    base: dict[str, Any], new: dict[str, Any], pairs: list[tuple[str, str]]
) -> list[CompetitionChange]:
    """Per (agent, competition): how it moved; also competitions only on one side."""
    changes = []
    for base_agent, new_agent in pairs:
        before = {c["competition_id"]: c for c in base["competitions"] if c["agent"] == base_agent}
        after = {c["competition_id"]: c for c in new["competitions"] if c["agent"] == new_agent}
        for cid in sorted(set(before) | set(after)):
            b, n = before.get(cid), after.get(cid)
            kind = "new" if b is None else "missing" if n is None else verdict(b, n)
            changes.append(CompetitionChange(new_agent, cid, b, n, kind))
    return changes


def compare_summaries(base: dict[str, Any], new: dict[str, Any], max_drop: float) -> Comparison:
    """Compare ``new`` with the baseline ``base``.

    Args:
        base: The baseline summary (``summary.json`` layout).
        new: The summary to judge.
        max_drop: Percentage points any-medal % or valid % may fall.

    Returns:
        The comparison; ``ok`` is false on a larger drop or when nothing could be compared.
    """
    pairs, notes = pair_agents(base["agents"], new["agents"])
    checks, more = metric_checks(base, new, pairs, max_drop)
    if not checks:
        more.append("nothing to compare: no agent and split in common with the baseline")
    changes = competition_changes(base, new, pairs)
    return Comparison(tuple(checks), tuple(changes), tuple(notes + more))


def _rate(entry: dict[str, Any] | None, key: str) -> str:
    value = entry.get(key) if entry else None
    return "-" if value is None else f"{value:.0f}%"


def _score(entry: dict[str, Any] | None) -> str:
    value = entry.get("mean_score") if entry else None
    return "-" if value is None else f"{value:.5g}"


def _percentile(entry: dict[str, Any] | None) -> str:
    value = entry.get("mean_percentile") if entry else None
    return "-" if value is None else f"{value:.1f}"


def change_line(change: CompetitionChange) -> str:
    b, n = change.base, change.new
    line = (
        f"{change.competition_id:<30} {change.verdict:<9} "
        f"medal {_rate(b, 'medal_rate'):>4} -> {_rate(n, 'medal_rate'):<4}  "
        f"valid {_rate(b, 'valid_rate'):>4} -> {_rate(n, 'valid_rate'):<4}  "
        f"score {_score(b)} -> {_score(n)}"
    )
    if (b and b.get("mean_percentile") is not None) or (n and n.get("mean_percentile") is not None):
        line += f"  percentile {_percentile(b)} -> {_percentile(n)}"
    return line


def moved_lines(comparison: Comparison) -> list[str]:
    """The per-competition table: what regressed, went missing, improved or is new."""
    lines = []
    moved = [c for c in comparison.changes if c.verdict != "same"]
    same = len(comparison.changes) - len(moved)
    if moved:
        lines.append("per competition (improved / regressed / new / missing):")
        order = {"regressed": 0, "missing": 1, "improved": 2, "new": 3}
        lines += [f"  {change_line(c)}" for c in sorted(moved, key=lambda c: order[c.verdict])]
    lines.append(f"  {same} competition(s) unchanged")
    return lines


def comparison_lines(comparison: Comparison, baseline: str) -> list[str]:
    """What the terminal and ``mlebench report --compare`` print."""
    lines = [f"gate against {baseline}:"]
    lines += [f"  {check.line()}" for check in comparison.checks]
    lines += [f"  note: {note}" for note in comparison.notes]
    lines += moved_lines(comparison)
    if comparison.ok:
        lines.append("gate passed")
    elif comparison.failures:
        worst = ", ".join(
            f"{c.group} {GATED_METRICS[c.metric]} {c.new - c.base:+.1f}"
            for c in comparison.failures
        )
        lines.append(
            f"GATE FAILED: drop larger than {comparison.failures[0].max_drop:g} points: {worst}"
        )
    else:
        lines.append("GATE FAILED: nothing to compare with the baseline")
    return lines
