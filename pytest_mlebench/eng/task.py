"""An engineering task folder read into a frozen :class:`EngTask`, every rule of its format checked.

:func:`load_task` reads ``engineering/<id>/config.yaml`` (format in ``docs/engineering.md``) and
rejects, naming the file, what would make the task unfair or unscorable: a requirement no check
covers, a check covering nothing or an unknown requirement, a check with no test in ``verify/``
(found by :mod:`pytest_mlebench.eng.lint`), a test of an undeclared check, dimension weights not
summing to 1, a metric without its direction, baseline and oracle, an unknown dimension or role,
a pass-to-pass check without a fail-to-pass one, fewer than 2 or more than 6 cheats. Every error
is a ConfigError at session start.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar, Literal, cast

from pytest_mlebench.eng.builder_spec import BuilderSpec, parse_builder
from pytest_mlebench.eng.config_fields import (
    choice_field,
    list_field,
    mapping_field,
    number_field,
    positive_int_field,
    text_field,
)
from pytest_mlebench.eng.lint import DOOR, checks_in_verify, process_starts_in_verify
from pytest_mlebench.errors import ConfigError
from pytest_mlebench.yaml_text import read_config_mapping

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
CATEGORIES = (
    "serving",
    "packaging",
    "infra",
    "training",
    "data",
    "pipeline",
    "code",
    "observability",
)
COMPLEXITIES = ("low", "medium", "high")
Role = Literal["fail-to-pass", "pass-to-pass"]
ROLES: tuple[Role, ...] = ("fail-to-pass", "pass-to-pass")
WEIGHT_TOLERANCE = 1e-9
FOLDERS = ("workspace", "verify", "solution")


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


@dataclass(frozen=True)
class Resources:
    """The limits of a phase (``None``: no limit, or the user's ``--mle-*`` setting).

    ``shm`` and ``pids`` are read for the agent's phase only (the verifier runs with its own).
    """

    cpus: float | None = None
    memory: str | None = None
    shm: str | None = None
    pids: int | None = None


@dataclass(frozen=True)
class EngTask:
    """A validated engineering task folder."""

    kind: ClassVar[Literal["engineering"]] = "engineering"  # what its runs' records say
    id: str
    name: str
    folder: Path
    category: str
    complexity: str
    image: str
    time_limit: int
    resources: Resources
    requires: tuple[str, ...]
    env: tuple[str, ...]
    requirements: Mapping[str, str]
    checks: tuple[Check, ...]
    verify_time_limit: int
    verify_resources: Resources
    metrics: Mapping[str, Metric]
    weights: Mapping[Dimension, float]
    stages: Mapping[str, Mapping[str, float]] | None
    oracle_wall_s: float | None
    splits: frozenset[str] = field(default_factory=frozenset)
    oracle_cpu_s: float | None = None  # the oracle's CPU seconds: the full-marks end of H-cpu
    oracle_peak_mb: float | None = None  # the oracle's peak memory (MiB): that of H-memory
    builder: BuilderSpec | None = None  # the images the harness builds for the task

    @property
    def modality(self) -> str:
        """Records file every engineering task under the modality ``engineering``."""
        return "engineering"

    @property
    def workspace(self) -> Path:
        return self.folder / "workspace"

    @property
    def verify_dir(self) -> Path:
        return self.folder / "verify"

    @property
    def solution_dir(self) -> Path:
        return self.folder / "solution"

    @property
    def cheats_dir(self) -> Path:
        return self.folder / "cheats"

    @property
    def instruction(self) -> Path:
        return self.folder / "instruction.md"

    @property
    def prepare_path(self) -> Path:
        return self.folder / "prepare.py"

    def cheats(self) -> tuple[str, ...]:
        """The names of the task's known cheats (``cheats/NAME.sh``)."""
        if not self.cheats_dir.is_dir():
            return ()
        return tuple(sorted(path.stem for path in self.cheats_dir.glob("*.sh")))


CHEATS_PER_TASK = range(2, 7)  # a task proves 2 to 6 known hacks caught


def cheat_count_problem(count: int) -> str | None:
    """Why ``count`` cheats are too few or too many for a task, with the fix (``None``: fine):
    up to five task-specific hacks and the forge-from-inside cheat, each a run that must fail."""
    if count in CHEATS_PER_TASK:
        return None
    fix = "keep the hacks that defeat different checks"
    if count < CHEATS_PER_TASK.start:
        fix = "add the task's known hacks as cheats/NAME.sh, each a run that must fail a gate"
    expected = f"{CHEATS_PER_TASK.start} to {CHEATS_PER_TASK.stop - 1} expected"
    return f"{count} cheats in cheats/ ({expected}): {fix} (docs/engineering.md)"


def load_task(folder: Path) -> EngTask:
    """Read and check the task in ``folder``; :class:`ConfigError` naming the file otherwise."""
    config = folder / "config.yaml"
    raw = read_config_mapping(config, "every engineering task folder")
    where = str(config)
    task_id = text_field(raw, "id", where)
    if task_id != folder.name:
        raise ConfigError(f"{where}: id {task_id!r} must equal the folder name {folder.name!r}")
    if raw.get("kind") != "engineering":
        raise ConfigError(f"{where}: kind must be 'engineering'")
    for name in ("instruction.md", "prepare.py", *FOLDERS):
        if not (folder / name).exists():
            raise ConfigError(f"{where}: the task folder has no {name}")
    cheats = cheat_count_problem(len(list((folder / "cheats").glob("*.sh"))))
    if cheats:
        raise ConfigError(f"{folder}: {cheats}")
    requirements = _requirements(raw.get("requirements"), where)
    checks = tuple(_check(entry, where) for entry in list_field(raw.get("checks"), "checks", where))
    metrics = _metrics(raw.get("metrics"), where)
    _check_coverage(requirements, checks, where)
    roles = {check.role for check in checks}
    if "pass-to-pass" in roles and "fail-to-pass" not in roles:
        raise ConfigError(f"{where}: a pass-to-pass check needs a fail-to-pass check beside it")
    _check_tests(folder / "verify", checks, metrics, where)
    verify = mapping_field(raw.get("verify") or {}, "verify", where)
    evidence = mapping_field(raw.get("evidence") or {}, "evidence", where)
    oracle_wall = evidence.get("oracle_wall_s")
    oracle_cpu, oracle_peak = evidence.get("oracle_cpu_s"), evidence.get("oracle_peak_mb")
    return EngTask(
        id=task_id,
        name=text_field(raw, "name", where),
        folder=folder,
        category=choice_field(raw, "category", CATEGORIES, where),
        complexity=choice_field(raw, "complexity", COMPLEXITIES, where),
        image=str(raw.get("image") or "base"),
        time_limit=positive_int_field(raw.get("time_limit", 1800), "time_limit", where),
        resources=_resources(raw.get("resources"), where),
        requires=tuple(
            str(name) for name in list_field(raw.get("requires") or [], "requires", where)
        ),
        env=tuple(str(name) for name in list_field(raw.get("env") or [], "env", where)),
        requirements=requirements,
        checks=checks,
        verify_time_limit=positive_int_field(
            verify.get("time_limit", 120), "verify.time_limit", where
        ),
        verify_resources=_resources(verify.get("resources"), where),
        metrics=metrics,
        weights=_weights(raw.get("weights"), where),
        stages=_stages(raw.get("stages"), {check.id for check in checks}, where),
        oracle_wall_s=None
        if oracle_wall is None
        else number_field(oracle_wall, "oracle_wall_s", where),
        oracle_cpu_s=None
        if oracle_cpu is None
        else number_field(oracle_cpu, "oracle_cpu_s", where),
        oracle_peak_mb=None
        if oracle_peak is None
        else number_field(oracle_peak, "oracle_peak_mb", where),
        builder=parse_builder(raw.get("builder"), where),
    )


def _resources(value: Any, where: str) -> Resources:
    raw = mapping_field(value or {}, "resources", where)
    cpus = raw.get("cpus")
    pids = raw.get("pids")
    return Resources(
        cpus=None if cpus is None else number_field(cpus, "resources.cpus", where),
        memory=None if raw.get("memory") is None else str(raw["memory"]),
        shm=None if raw.get("shm") is None else str(raw["shm"]),
        pids=None if pids is None else _pids(pids, where),
    )


def _pids(value: Any, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise ConfigError(f"{where}: resources.pids must be a positive whole number of processes")
    return value


def _requirements(value: Any, where: str) -> dict[str, str]:
    raw = mapping_field(value, "requirements", where)
    if not raw:
        raise ConfigError(f"{where}: requirements must list every promise of instruction.md")
    return {str(key): str(text) for key, text in raw.items()}


def _check(entry: Any, where: str) -> Check:
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


def _metrics(value: Any, where: str) -> dict[str, Metric]:
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


def _check_coverage(requirements: Mapping[str, str], checks: tuple[Check, ...], where: str) -> None:
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


def _check_tests(
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


def _weights(value: Any, where: str) -> dict[Dimension, float]:
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


def _stages(value: Any, checks: set[str], where: str) -> dict[str, dict[str, float]] | None:
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
