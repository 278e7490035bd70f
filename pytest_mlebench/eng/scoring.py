"""The score of an engineering run, from check results to the task score *S* (pure functions).

Each check *c* has a result *r_c* in [0, 1]: the fraction of its verifier tests that passed, or
for a continuous metric ``clip((m - baseline) / (oracle - baseline), 0, 1)`` (the direction is in
the signs; 0 when its test failed or the metric is missing). A dimension's score is the weighted
mean of its checks; a dimension without checks hands its weight to the others pro rata, and the
score says so (``redistributed``). ``S = Σ W_d D_d``. A run passes when every gate check has
``r = 1`` and ``S`` reaches the required score. Nothing here reads a file or a clock.

No credit for no work: a run that fails its functional gate (a gate check of the functional
dimension, or any gate where a task has none there) scores 0 in the dimensions that only mean
something for working code — efficiency, safety, explainability (``withheld``): doing nothing is
fast, cheap and harmless. A ``pass-to-pass`` check (tests that passed before the change and must
still pass) earns nothing unless a ``fail-to-pass`` check moved (``r > 0``): an untouched
workspace passes them all. The do-nothing agent scores 0.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from pytest_mlebench.eng.task import EngTask
from pytest_mlebench.eng.task_checks import DIMENSIONS, Check, Dimension, Metric

FULL = 1.0 - 1e-12


GATE_WORDS = "gate check(s) failed"  # how a failed run's reason names its failed gate checks
WORKING_CODE_ONLY: tuple[Dimension, ...] = ("efficiency", "safety", "explainability")
NOT_MOVED = "no credit: no fail-to-pass check moved"


@dataclass(frozen=True)
class CheckResult:
    """One check as scored: its declaration, its result and what the verifier said about it."""

    id: str
    dimension: Dimension
    weight: float
    gate: bool
    result: float
    evidence: str = ""
    why: str = ""
    fix_hint: str = ""
    tests: tuple[dict[str, Any], ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "dimension": self.dimension,
            "weight": self.weight,
            "gate": self.gate,
            "result": self.result,
            "evidence": self.evidence,
            "why": self.why,
            "fix_hint": self.fix_hint,
            "tests": list(self.tests),
        }


@dataclass(frozen=True)
class TaskScore:
    """The scored run: ``score`` is *S*; ``weights`` are the ones applied after redistribution."""

    score: float
    gates_passed: bool
    dimensions: Mapping[str, float]
    weights: Mapping[str, float]
    redistributed: tuple[str, ...]
    checks: tuple[CheckResult, ...]
    stages: Mapping[str, float] | None = None
    failed_gates: tuple[str, ...] = field(default_factory=tuple)
    withheld: tuple[str, ...] = ()  # dimensions scored 0: the functional gate failed

    def passed(self, require_score: float) -> bool:
        return self.gates_passed and self.score >= require_score


def clip(value: float) -> float:
    return min(1.0, max(0.0, value))


def normalised_metric(value: float, metric: Metric) -> float:
    """``value`` on the task's scale: the baseline → 0, the oracle → 1, clipped."""
    return clip((value - metric.baseline) / (metric.oracle - metric.baseline))


def check_results(task: EngTask, document: Mapping[str, Any]) -> list[CheckResult]:
    """The task's declared checks scored from the verifier's ``checks.json`` document."""
    found: Mapping[str, Any] = document.get("checks") or {}
    metrics: Mapping[str, Any] = document.get("metrics") or {}
    results = []
    for check in task.checks:
        entry = found.get(check.id) or {}
        result = _result(check, entry, task.metrics.get(check.id), metrics.get(check.id))
        results.append(_scored(check, result, entry))
    return no_credit_unless_moved(task.checks, results)


def no_credit_unless_moved(
    declared: Sequence[Check], results: Sequence[CheckResult]
) -> list[CheckResult]:
    """``results`` with every pass-to-pass check at 0 when no fail-to-pass check moved."""
    roles = {check.id: check.role for check in declared}
    if any(roles.get(r.id) == "fail-to-pass" and r.result > 0 for r in results):
        return list(results)
    return [
        replace(r, result=0.0, evidence="; ".join(filter(None, (r.evidence, NOT_MOVED))))
        if roles.get(r.id) == "pass-to-pass"
        else r
        for r in results
    ]


def _result(check: Check, entry: Mapping[str, Any], metric: Metric | None, value: Any) -> float:
    tests_result = _number(entry.get("result"))
    if metric is None:
        return clip(tests_result) if tests_result is not None else 0.0
    if int(entry.get("total") or 0) > 0 and (tests_result is None or tests_result < FULL):
        return 0.0  # the metric's own test failed
    measured = _number(value)
    return 0.0 if measured is None else normalised_metric(measured, metric)


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    number = float(value)
    return number if number == number and abs(number) != float("inf") else None


def _scored(check: Check, result: float, entry: Mapping[str, Any]) -> CheckResult:
    evidence = entry.get("evidence") or []
    tests = entry.get("tests") or []
    return CheckResult(
        id=check.id,
        dimension=check.dimension,
        weight=check.weight,
        gate=check.gate,
        result=result,
        evidence="; ".join(str(text) for text in evidence) if isinstance(evidence, list) else "",
        why=check.why,
        fix_hint=check.fix_hint,
        tests=tuple(test for test in tests if isinstance(test, dict)),
    )


def score_checks(
    checks: Sequence[CheckResult],
    weights: Mapping[Dimension, float],
    stages: Mapping[str, Mapping[str, float]] | None = None,
) -> TaskScore:
    """``S``, the dimensions, the applied weights and the gates over ``checks``."""
    dimensions: dict[str, float] = {}
    for dimension in DIMENSIONS:
        own = [check for check in checks if check.dimension == dimension]
        total = sum(check.weight for check in own)
        if total > 0:
            dimensions[dimension] = sum(check.weight * check.result for check in own) / total
    applied, redistributed = redistribute(weights, dimensions)
    withheld = (
        ()
        if functional_gate_passed(checks)
        else tuple(name for name in WORKING_CODE_ONLY if name in dimensions)
    )
    dimensions.update(dict.fromkeys(withheld, 0.0))
    score = clip(sum(applied[name] * value for name, value in dimensions.items()))
    failed = tuple(check.id for check in checks if check.gate and check.result < FULL)
    return TaskScore(
        score=score,
        gates_passed=not failed,
        dimensions=dimensions,
        weights=applied,
        redistributed=redistributed,
        checks=tuple(checks),
        stages=stage_points(checks, stages),
        failed_gates=failed,
        withheld=withheld,
    )


def functional_gate_passed(checks: Sequence[CheckResult]) -> bool:
    """Whether every functional gate check passed (every gate, where none is functional)."""
    gates = [check for check in checks if check.gate]
    functional = [check for check in gates if check.dimension == "functional"] or gates
    return all(check.result >= FULL for check in functional)


def redistribute(
    weights: Mapping[Dimension, float], scored: Iterable[str]
) -> tuple[dict[str, float], tuple[str, ...]]:
    """The weights of the scored dimensions, the others' weight shared among them pro rata."""
    present = [name for name in DIMENSIONS if name in set(scored)]
    missing = tuple(name for name in DIMENSIONS if name not in present and weights.get(name, 0) > 0)
    kept = sum(weights.get(name, 0.0) for name in present)
    if kept <= 0:
        share = 1.0 / len(present) if present else 0.0
        return {name: share for name in present}, missing
    return {name: weights.get(name, 0.0) / kept for name in present}, missing


def stage_points(
    checks: Sequence[CheckResult], stages: Mapping[str, Mapping[str, float]] | None
) -> dict[str, float] | None:
    """Points earned per stage: each check's points times its result."""
    if stages is None:
        return None
    results = {check.id: check.result for check in checks}
    return {
        stage: round(sum(point * results.get(name, 0.0) for name, point in points.items()), 6)
        for stage, points in stages.items()
    }


def score_run(
    task: EngTask, document: Mapping[str, Any], harness: Sequence[CheckResult] = ()
) -> TaskScore:
    """The run's score: the verifier's checks plus the harness-evidence checks."""
    return score_checks([*check_results(task, document), *harness], task.weights, task.stages)


def engineering_block(
    task: EngTask, score: TaskScore, passed: bool, verifier: Mapping[str, Any]
) -> dict[str, Any]:
    """The record's ``engineering`` entry of a scored run."""
    return {
        "task": task.id,
        "category": task.category,
        "score": score.score,
        "passed": passed,
        "dimensions": dict(score.dimensions),
        "weights": dict(score.weights),
        "redistributed": list(score.redistributed),
        "stages": None if score.stages is None else dict(score.stages),
        "failed_gates": list(score.failed_gates),
        "withheld": list(score.withheld),
        "checks": [check.to_json() for check in score.checks],
        "verifier": dict(verifier),
    }
