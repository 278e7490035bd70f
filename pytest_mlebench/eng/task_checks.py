"""The scoring half of an engineering task's ``config.yaml``: its checks, metrics, dimension
weights and stages, each rule of their format checked (:func:`~pytest_mlebench.eng.task.load_task`
calls these while it reads a task; every error is a :class:`ConfigError` naming the file).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, cast

from pytest_mlebench.eng.config_fields import (
    mapping_field,
    number_field,
    text_field,
)
from pytest_mlebench.eng.lint import DOOR, checks_in_verify, process_starts_in_verify
from pytest_mlebench.errors import ConfigError

Dimension = Literal["functional", "robustness", "efficiency", "explainability", "safety"]
DIMENSIONS: tuple[Dimension, ...] = (
    "functional",
    "robustness",
    "efficiency",
    "explainability",
    "safety",
)
DEFAULT_WEIGHTS: Mapping[Dimension, float] = {
    "functional": 0.40,
    "robustness": 0.25,
    "efficiency": 0.15,
    "explainability": 0.10,
    "safety": 0.10,
}
Role = Literal["fail-to-pass", "pass-to-pass"]
ROLES: tuple[Role, ...] = ("fail-to-pass", "pass-to-pass")
WEIGHT_TOLERANCE = 1e-9


@dataclass(frozen=True)
class Metric:
    """A continuous check's scale: the value of the starting code (0) and of the oracle (1)."""

    higher_is_better: bool
    baseline: float
    oracle: float


@dataclass(frozen=True)
class Check:
    """One hidden check: what it covers, where it counts, and its teaching card."""

    id: str
    covers: tuple[str, ...]
    dimension: Dimension
    weight: float
    gate: bool
    why: str
    fix_hint: str
    role: Role | None = None  # pass-to-pass: earns nothing unless a fail-to-pass check moved


def parse_check(entry: Any, where: str) -> Check:
    raw = mapping_field(entry, "every entry of checks", where)
    check_id = text_field(raw, "id", where)
    place = f"{where}: check {check_id}"
    dimension = raw.get("dimension")
    if dimension not in DIMENSIONS:
        raise ConfigError(f"{place}: unknown dimension {dimension!r} ({', '.join(DIMENSIONS)})")
    covers = raw.get("covers")
    if not isinstance(covers, list) or not covers:
        raise ConfigError(
            f"{place}: covers nothing; name the requirements it checks (covers: [R1])"
        )
    weight = number_field(raw.get("weight", 1), f"check {check_id} weight", where)
    if weight <= 0:
        raise ConfigError(f"{place}: weight must be above 0")
    for key in ("why", "fix_hint"):
        if not isinstance(raw.get(key), str) or not raw[key].strip():
            raise ConfigError(f"{place}: needs a {key} (the teaching card of a failed check)")
    if raw.get("role") not in (None, *ROLES):
        raise ConfigError(f"{place}: role must be {' or '.join(ROLES)} (or left out)")
    return Check(
        id=check_id,
        covers=tuple(str(name) for name in covers),
        dimension=cast(Dimension, dimension),
        weight=weight,
        gate=bool(raw.get("gate", False)),
        why=str(raw["why"]),
        fix_hint=str(raw["fix_hint"]),
        role=raw.get("role"),
    )


def parse_metrics(value: Any, where: str) -> dict[str, Metric]:
    metrics = {}
    for name, entry in mapping_field(value or {}, "metrics", where).items():
        raw = mapping_field(entry, f"metric {name}", where)
        directions = [key for key in ("higher_is_better", "lower_is_better") if key in raw]
        if len(directions) != 1 or not isinstance(raw[directions[0]], bool):
            raise ConfigError(
                f"{where}: metric {name} needs its direction (higher_is_better: true/false)"
            )
        higher = (
            raw[directions[0]] if directions[0] == "higher_is_better" else not raw[directions[0]]
        )
        if "baseline" not in raw or "oracle" not in raw:
            raise ConfigError(f"{where}: metric {name} needs baseline and oracle values (measured)")
        baseline = number_field(raw["baseline"], f"metric {name} baseline", where)
        oracle = number_field(raw["oracle"], f"metric {name} oracle", where)
        if baseline == oracle or (oracle > baseline) != higher:
            raise ConfigError(
                f"{where}: metric {name}: the oracle ({oracle}) must beat the baseline "
                f"({baseline}) in the declared direction"
            )
        metrics[str(name)] = Metric(higher_is_better=higher, baseline=baseline, oracle=oracle)
    return metrics


def check_coverage(requirements: Mapping[str, str], checks: tuple[Check, ...], where: str) -> None:
    ids = [check.id for check in checks]
    duplicates = sorted({name for name in ids if ids.count(name) > 1})
    if duplicates:
        raise ConfigError(f"{where}: check ids declared twice: {', '.join(duplicates)}")
    covered = {name for check in checks for name in check.covers}
    for check in checks:
        unknown = [name for name in check.covers if name not in requirements]
        if unknown:
            raise ConfigError(
                f"{where}: check {check.id} covers unknown requirement(s) {', '.join(unknown)}"
            )
    uncovered = [name for name in requirements if name not in covered]
    if uncovered:
        raise ConfigError(f"{where}: requirement(s) no check covers: {', '.join(uncovered)}")


def check_tests(
    verify: Path, checks: tuple[Check, ...], metrics: Mapping[str, Metric], where: str
) -> None:
    starts = process_starts_in_verify(verify)
    if starts:
        raise ConfigError(
            f"{where}: the verifier starts a process outside its door: {'; '.join(starts)}."
            f" Run every program through {DOOR}: it runs the agent's code as an unprivileged"
            " user, in a fresh environment, with a time limit"
        )
    tested = checks_in_verify(verify)
    declared = {check.id for check in checks}
    untested = [c.id for c in checks if c.id not in tested and c.id not in metrics]
    if untested:
        raise ConfigError(
            f"{where}: check(s) with no @pytest.mark.check test in {verify}: {', '.join(untested)}"
        )
    undeclared = sorted(set(tested) - declared)
    if undeclared:
        files = sorted({str(path) for name in undeclared for path in tested[name]})
        raise ConfigError(
            f"{', '.join(files)}: test(s) of check(s) {', '.join(undeclared)} that {where} "
            "does not declare"
        )
    orphans = sorted(set(metrics) - declared)
    if orphans:
        raise ConfigError(
            f"{where}: metric(s) without a check of the same id: {', '.join(orphans)}"
        )


def parse_weights(value: Any, where: str) -> dict[Dimension, float]:
    if value is None:
        return dict(DEFAULT_WEIGHTS)
    raw = mapping_field(value, "weights", where)
    unknown = [name for name in raw if name not in DIMENSIONS]
    if unknown:
        raise ConfigError(f"{where}: weights name unknown dimension(s) {', '.join(unknown)}")
    weights = {
        name: number_field(raw.get(name, 0), f"weights.{name}", where) for name in DIMENSIONS
    }
    total = sum(weights.values())
    if abs(total - 1.0) > WEIGHT_TOLERANCE or any(weight < 0 for weight in weights.values()):
        raise ConfigError(
            f"{where}: weights must be non-negative and sum to 1 (they sum to {total})"
        )
    return weights


def parse_stages(value: Any, checks: set[str], where: str) -> dict[str, dict[str, float]] | None:
    """``{stage: {check: points}}``; a list of check ids gives each check one point."""
    if value is None:
        return None
    stages: dict[str, dict[str, float]] = {}
    for stage, entry in mapping_field(value, "stages", where).items():
        points = dict.fromkeys(entry, 1) if isinstance(entry, list) else entry
        points = mapping_field(points, f"stage {stage}", where)
        unknown = [name for name in points if name not in checks]
        if unknown:
            raise ConfigError(f"{where}: stage {stage} names unknown check(s) {', '.join(unknown)}")
        stages[str(stage)] = {
            str(name): number_field(point, f"stage {stage} {name}", where)
            for name, point in points.items()
        }
    return stages
