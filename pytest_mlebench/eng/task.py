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
from typing import Any, ClassVar, Literal

from pytest_mlebench.eng.builder_spec import BuilderSpec, parse_builder
from pytest_mlebench.eng.config_fields import (
    choice_field,
    list_field,
    mapping_field,
    number_field,
    positive_int_field,
    text_field,
)
from pytest_mlebench.eng.task_checks import (
    Check,
    Dimension,
    Metric,
    check_coverage,
    check_tests,
    parse_check,
    parse_metrics,
    parse_stages,
    parse_weights,
)
from pytest_mlebench.errors import ConfigError
from pytest_mlebench.yaml_text import read_config_mapping

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
FOLDERS = ("workspace", "verify", "solution")


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
    checks = tuple(
        parse_check(entry, where) for entry in list_field(raw.get("checks"), "checks", where)
    )
    metrics = parse_metrics(raw.get("metrics"), where)
    check_coverage(requirements, checks, where)
    roles = {check.role for check in checks}
    if "pass-to-pass" in roles and "fail-to-pass" not in roles:
        raise ConfigError(f"{where}: a pass-to-pass check needs a fail-to-pass check beside it")
    check_tests(folder / "verify", checks, metrics, where)
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
        weights=parse_weights(raw.get("weights"), where),
        stages=parse_stages(raw.get("stages"), {check.id for check in checks}, where),
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
