"""The engineering section of ``summary.json``: pass rate, task score and dimensions. Pure.

An engineering task's run carries its scores in the record's ``engineering`` block
(``docs/engineering.md``): the task score *S* in [0, 1], one score per dimension, the points
per pipeline stage. Here they become percentages (0-100, like every rate of the summary) and
are aggregated the way the competition statistics are (:func:`~pytest_mlebench.report.
aggregate.group_stats`): per seed the mean over the tasks that ran, then mean ± SEM over seeds,
so the radar's whiskers show the seed noise. A run that broke (outcome ``error``: the verifier or
the engine failed) has no scores and is counted apart, never as a zero of the agent's.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from pytest_mlebench.records.run_record import RunRecord
from pytest_mlebench.report.aggregate import mean_sem
from pytest_mlebench.report.run_classes import class_counts

Reader = Callable[[dict[str, Any]], float | None]
DIMENSIONS = ("functional", "robustness", "efficiency", "explainability", "safety")
DEFAULT_WEIGHTS = {
    "functional": 0.40,
    "robustness": 0.25,
    "efficiency": 0.15,
    "explainability": 0.10,
    "safety": 0.10,
}


def is_engineering(record: RunRecord) -> bool:
    """Whether ``record`` is an engineering task's run (rather than a competition's)."""
    return record.kind == "engineering"


def split_kinds(records: Iterable[RunRecord]) -> tuple[list[RunRecord], list[RunRecord]]:
    """(competition runs, engineering runs), each in the order given."""
    competitions: list[RunRecord] = []
    tasks: list[RunRecord] = []
    for record in records:
        (tasks if is_engineering(record) else competitions).append(record)
    return competitions, tasks


def scored(record: RunRecord) -> dict[str, Any] | None:
    """The ``engineering`` block of a run that was verified, else ``None``."""
    block = record.engineering
    if record.outcome in ("skipped", "error") or not block or block.get("score") is None:
        return None
    return block


def _by_seed(records: Sequence[RunRecord], value: Reader) -> dict[int, list[float]]:
    seeds: dict[int, list[float]] = defaultdict(list)
    for record in records:
        block = scored(record)
        if block is None:
            continue
        number = value(block)
        if number is not None:
            seeds[record.seed].append(float(number))
    return seeds


def estimate(records: Sequence[RunRecord], value: Reader) -> dict[str, Any]:
    """Mean ± SEM over seeds of the per-seed mean of ``value(block)`` over tasks."""
    seeds = _by_seed(records, value)
    per_seed = [sum(values) / len(values) for _, values in sorted(seeds.items()) if values]
    return mean_sem(per_seed).to_dict()


def _percent(key: str) -> Reader:
    def read(block: dict[str, Any]) -> float | None:
        value = (block.get("dimensions") or {}).get(key) if key else block.get("score")
        return None if value is None else 100.0 * float(value)

    return read


def _stage(stage: str) -> Reader:
    def read(block: dict[str, Any]) -> float | None:
        value = (block.get("stages") or {}).get(stage)
        return None if value is None else float(value)

    return read


def weights_of(records: Sequence[RunRecord]) -> dict[str, float]:
    """The dimension weights the runs used: the mean over verified runs (tasks may override)."""
    sums: dict[str, float] = defaultdict(float)
    count = 0
    for record in records:
        block = scored(record)
        if block is None or not block.get("weights"):
            continue
        count += 1
        for name, weight in block["weights"].items():
            sums[name] += float(weight)
    if not count:
        return dict(DEFAULT_WEIGHTS)
    return {name: sums.get(name, 0.0) / count for name in DIMENSIONS}


def pass_stats(records: Sequence[RunRecord]) -> dict[str, Any]:
    """Runs, passes, errors, the pass rate (%) of verified runs, and the runs per failure class
    (a verified run is ``valid_no_medal``: tasks have no medal)."""
    verified = [r for r in records if scored(r) is not None]
    passed = sum(1 for r in verified if r.outcome == "passed")
    return {
        "runs": sum(1 for r in records if r.outcome != "skipped"),
        "not_run": sum(1 for r in records if r.outcome == "skipped"),
        "errors": sum(1 for r in records if r.outcome == "error"),
        "verified": len(verified),
        "passed": passed,
        "pass_rate": 100.0 * passed / len(verified) if verified else None,
        "failure_classes": class_counts(records),
    }


def group(records: Sequence[RunRecord]) -> dict[str, Any]:
    """Pass statistics, score and dimensions of some runs."""
    return {
        **pass_stats(records),
        "score": estimate(records, _percent("")),
        "dimensions": {name: estimate(records, _percent(name)) for name in DIMENSIONS},
    }


def stage_names(records: Iterable[RunRecord]) -> list[str]:
    names: list[str] = []
    for record in records:
        block = scored(record)
        for stage in (block or {}).get("stages") or {}:
            if stage not in names:
                names.append(stage)
    return names


def engineering_section(records: Sequence[RunRecord]) -> dict[str, Any] | None:
    """The ``engineering`` section of one agent (``None`` when it ran no task).

    Keys: the :func:`group` numbers over every task, ``tasks`` (how many), ``weights``,
    ``stages`` (mean ± SEM of the points per pipeline stage, out of 20), ``categories`` and
    ``per_task`` (each a :func:`group`).
    """
    tasks = [r for r in records if is_engineering(r)]
    if not tasks:
        return None
    by_task: dict[str, list[RunRecord]] = defaultdict(list)
    by_category: dict[str, list[RunRecord]] = defaultdict(list)
    for record in tasks:
        by_task[record.competition_id].append(record)
        by_category[record.category or "uncategorised"].append(record)
    return {
        **group(tasks),
        "tasks": len(by_task),
        "weights": weights_of(tasks),
        "stages": {name: estimate(tasks, _stage(name)) for name in stage_names(tasks)},
        "categories": {name: group(runs) for name, runs in sorted(by_category.items())},
        "per_task": {name: group(runs) for name, runs in sorted(by_task.items())},
    }


def failed_checks(record: RunRecord) -> list[dict[str, Any]]:
    """The checks of a verified run that did not fully pass, with their teaching card."""
    block = scored(record) or {}
    return [
        check
        for check in block.get("checks") or ()
        if check.get("result") is not None and float(check["result"]) < 1.0
    ]
