"""One competition's definition: a folder's ``config.yaml``, ``leaderboard.csv`` and ``prepare.py``.

:func:`load_competition` reads and checks the config and the leaderboard in one step, so a broken
folder stops with a message that names the file and the fix instead of failing mid-run;
:func:`load_prepare` imports the folder's ``prepare`` function. Everything that reads a competition
folder (the registry, ``tools/build_leaderboards.py``, the tests) goes through these two
functions. The format is documented in ``docs/competition-format.md``.
"""

from __future__ import annotations

import csv
import importlib.util
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any, ClassVar, Literal, cast

import pyarrow as pa
import pyarrow.csv as arrow_csv

import pytest_mlebench.graders as graders
from pytest_mlebench.errors import ConfigError, PrepareError
from pytest_mlebench.graders import SubmissionSpec
from pytest_mlebench.graders.validation import check_spec
from pytest_mlebench.known_issues import KnownIssue, parse_known_issues
from pytest_mlebench.medals import Thresholds, thresholds_for
from pytest_mlebench.original import OriginalGrader, parse_original_grader, with_original_form
from pytest_mlebench.public_sources.spec import PublicSource, parse_public_sources
from pytest_mlebench.values.competition_kinds import COMPLEXITIES as COMPLEXITIES
from pytest_mlebench.values.competition_kinds import MODALITIES as MODALITIES
from pytest_mlebench.values.competition_kinds import SOURCES as SOURCES
from pytest_mlebench.values.competition_kinds import Complexity as Complexity
from pytest_mlebench.values.competition_kinds import Source as Source
from pytest_mlebench.yaml_text import read_config_mapping

REQUIRED_KEYS = ("id", "name", "complexity", "source", "modality", "metric", "submission")
REQUIRED_FILES = ("description.md", "prepare.py")
LFS_POINTER_PREFIX = b"version https://git-lfs"
CONFIG_FILE = "config.yaml"

PrepareFunction = Callable[[Path, Path, Path], None]
"""``prepare(raw, public, private)``: writes the public files and ``private/answers.csv``."""


@dataclass(frozen=True)
class Resources:
    """Compute a competition asks for; the user may override each value."""

    cpus: float = 2.0
    memory: str = "4g"
    shm: str = "1g"
    gpus: int = 0
    pids: int = 4096  # processes and threads: room for data loaders, not for a fork bomb


@dataclass(frozen=True)
class Competition:
    """One competition, as declared by its folder. Immutable; loaded once per session."""

    kind: ClassVar[Literal["competition"]] = "competition"  # what its runs' records say
    id: str
    name: str
    complexity: Complexity
    source: Source
    modality: str
    submission: SubmissionSpec
    lower_is_better: bool
    time_limit: int
    resources: Resources
    folder: Path
    requires: tuple[str, ...] = ()
    splits: frozenset[str] = field(default_factory=frozenset)
    leaderboard_scores: tuple[float, ...] = ()
    known_issues: tuple[KnownIssue, ...] = ()
    original_grader: OriginalGrader | None = None
    """How the original MLE-bench grades it, where that differs from us (``original_grader:``)."""
    public_sources: tuple[PublicSource, ...] = ()
    """Files of other public records its prepare step reads (``public_sources:``)."""

    @property
    def metric(self) -> str:
        return self.submission.metric

    @property
    def config_path(self) -> Path:
        return self.folder / CONFIG_FILE

    @property
    def description_path(self) -> Path:
        return self.folder / "description.md"

    @property
    def prepare_path(self) -> Path:
        return self.folder / "prepare.py"

    @property
    def leaderboard_path(self) -> Path:
        return self.folder / "leaderboard.csv"

    @property
    def has_leaderboard(self) -> bool:
        """Whether medals can be awarded: the leaderboard was loaded and has scores."""
        return bool(self.leaderboard_scores)

    @cached_property
    def thresholds(self) -> Thresholds | None:
        """The medal thresholds of the leaderboard (``docs/medals.md``).

        ``None`` without a leaderboard (a Kaggle competition that ships none, or a folder loaded
        with ``leaderboard=False``): such a competition is graded, but earns no medal.
        """
        if not self.leaderboard_scores:
            return None
        return thresholds_for(self.leaderboard_scores, self.lower_is_better)


def load_competition(
    folder: Path, splits: frozenset[str] = frozenset(), *, leaderboard: bool = True
) -> Competition:
    """Load and check one competition folder: its config, its files and its leaderboard.

    Args:
        folder: The competition's folder (its ``config.yaml`` is accepted too).
        splits: Names of the splits that list the competition.
        leaderboard: False skips ``leaderboard.csv`` (for the tool that builds it); the
            competition then has no scores and no thresholds.

    Raises:
        ConfigError: Anything broken in the folder; the message names the file and the fix.
    """
    folder = folder.parent if folder.name == CONFIG_FILE else folder
    config_path = folder / CONFIG_FILE
    raw = read_config_mapping(config_path, "every competition folder")
    problems = _check_keys(raw, folder)
    if problems:
        raise ConfigError(f"{config_path}: " + "; ".join(problems))
    metric = _parse_metric(raw["metric"], config_path)
    submission = _parse_submission(raw["submission"], metric, config_path)
    original = parse_original_grader(raw.get("original_grader"), submission, config_path)
    for name in REQUIRED_FILES:
        if not (folder / name).is_file():
            raise ConfigError(f"{folder / name}: missing; every competition folder needs it")
    lower_is_better = metric.lower_is_better
    board = folder / "leaderboard.csv"
    # A Kaggle competition may ship without its board (`mlebench leaderboard fetch` gets it with
    # credentials); it is then graded without medals. Embedded boards are built here: required.
    optional = raw["source"] == "kaggle" and not board.exists()
    scores = load_leaderboard(board, lower_is_better) if leaderboard and not optional else ()
    return Competition(
        id=str(raw["id"]),
        name=str(raw["name"]),
        complexity=cast(Complexity, raw["complexity"]),
        source=cast(Source, raw["source"]),
        modality=str(raw["modality"]),
        submission=with_original_form(submission, original),
        lower_is_better=lower_is_better,
        time_limit=_positive_int(raw.get("time_limit", 3600), "time_limit", config_path),
        resources=_parse_resources(raw.get("resources") or {}, config_path),
        folder=folder,
        requires=tuple(str(r) for r in raw.get("requires") or ()),
        splits=splits,
        leaderboard_scores=scores,
        known_issues=parse_known_issues(raw.get("known_issues"), config_path),
        original_grader=original,
        public_sources=parse_public_sources(raw.get("public_sources"), config_path),
    )


def load_prepare(competition: Competition) -> PrepareFunction:
    """Import the competition's ``prepare.py`` and return its ``prepare`` function.

    Raises:
        PrepareError: The file cannot be imported, or defines no callable ``prepare``.
    """
    path = competition.prepare_path
    module_name = f"mlebench_prepare_{competition.id.replace('-', '_')}"
    spec = importlib.util.spec_from_file_location(module_name, path)
    if spec is None or spec.loader is None:
        raise PrepareError(f"{path}: cannot be imported")
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    except Exception as exc:
        raise PrepareError(f"{path}: failed to import: {exc!r}") from exc
    prepare = getattr(module, "prepare", None)
    if not callable(prepare):
        raise PrepareError(f"{path}: defines no prepare(raw, public, private) function")
    return cast(PrepareFunction, prepare)


def _check_keys(raw: Mapping[str, Any], folder: Path) -> list[str]:
    problems = [f"missing key {key!r}" for key in REQUIRED_KEYS if key not in raw]
    if problems:
        return [*problems, "see docs/competition-format.md for the required keys"]
    if raw["id"] != folder.name:
        problems.append(f"id {raw['id']!r} must equal the folder name {folder.name!r}")
    if raw["complexity"] not in COMPLEXITIES:
        problems.append(
            f"complexity {raw['complexity']!r} must be one of {', '.join(COMPLEXITIES)}"
        )
    if raw["source"] not in SOURCES:
        problems.append(f"source {raw['source']!r} must be one of {', '.join(SOURCES)}")
    if raw["modality"] not in MODALITIES:
        problems.append(f"modality {raw['modality']!r} must be one of {', '.join(MODALITIES)}")
    return problems


def _parse_metric(section: Any, config_path: Path) -> graders.Metric:
    if not isinstance(section, dict) or "name" not in section or "lower_is_better" not in section:
        raise ConfigError(
            f"{config_path}: 'metric' needs 'name' and 'lower_is_better', "
            "e.g. {name: rmse, lower_is_better: true}"
        )
    try:
        metric = graders.get_metric(str(section["name"]))
    except graders.UnknownMetricError as exc:
        raise ConfigError(f"{config_path}: {exc}") from None
    declared = section["lower_is_better"]
    if not isinstance(declared, bool):
        raise ConfigError(f"{config_path}: metric.lower_is_better must be true or false")
    if declared != metric.lower_is_better:
        raise ConfigError(
            f"{config_path}: metric {metric.name!r} is "
            f"{'lower' if metric.lower_is_better else 'higher'}-is-better, but the config declares "
            f"lower_is_better: {str(declared).lower()}; fix the declaration"
        )
    return metric


def _parse_submission(section: Any, metric: graders.Metric, config_path: Path) -> SubmissionSpec:
    if not isinstance(section, dict) or "id_column" not in section or not section.get("columns"):
        raise ConfigError(
            f"{config_path}: 'submission' needs 'id_column' and a non-empty 'columns' list"
        )
    answer_columns = section.get("answer_columns")
    extra = section.get("extra_columns", "reject")
    if extra not in ("reject", "ignore"):
        raise ConfigError(f"{config_path}: submission.extra_columns must be 'reject' or 'ignore'")
    params = section.get("metric_params") or {}
    if not isinstance(params, dict):
        raise ConfigError(
            f"{config_path}: submission.metric_params must be a mapping, e.g. {{k: 10}}"
        )
    keys = section.get("key_columns") or []
    if not isinstance(keys, list):
        raise ConfigError(
            f"{config_path}: submission.key_columns must be a list of columns that, with "
            "id_column, identify a row, e.g. [UnixTimeMillis]"
        )
    spec = SubmissionSpec(
        id_column=str(section["id_column"]),
        key_columns=tuple(str(c) for c in keys),
        target_columns=tuple(str(c) for c in section["columns"]),
        metric=metric.name,
        answer_columns=tuple(str(c) for c in answer_columns) if answer_columns else None,
        extra_columns=extra,
        metric_params=dict(params),
    )
    try:
        check_spec(spec)
    except graders.GraderError as exc:
        raise ConfigError(f"{config_path}: submission: {exc}") from None
    return spec


def _parse_resources(section: Mapping[str, Any], config_path: Path) -> Resources:
    unknown = set(section) - {"cpus", "memory", "shm", "gpus", "pids"}
    if unknown:
        raise ConfigError(
            f"{config_path}: unknown resources key(s) {sorted(unknown)}; "
            "allowed: cpus, memory, shm, gpus, pids"
        )
    defaults = Resources()
    return Resources(
        cpus=float(section.get("cpus", defaults.cpus)),
        memory=str(section.get("memory", defaults.memory)),
        shm=str(section.get("shm", defaults.shm)),
        gpus=int(section.get("gpus", defaults.gpus)),
        pids=int(section.get("pids", defaults.pids)),
    )


def _positive_int(value: Any, key: str, config_path: Path) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
        raise ConfigError(f"{config_path}: {key} must be a positive whole number of seconds")
    return value


def load_leaderboard(path: Path, lower_is_better: bool) -> tuple[float, ...]:
    """Scores of ``leaderboard.csv`` (best first), checked against the declared direction."""
    if not path.is_file():
        raise ConfigError(f"{path}: missing; every competition needs a leaderboard with 'score'")
    head = path.read_bytes()[:64]
    if head.startswith(LFS_POINTER_PREFIX):
        raise ConfigError(
            f"{path}: is a Git LFS pointer, not a CSV; run 'git lfs pull' to fetch the real file"
        )
    scores = _read_scores(path)
    bad = next(
        (i for i in range(1, len(scores)) if _out_of_order(scores, i, lower_is_better)), None
    )
    if bad is not None:
        order = "ascending (lower is better)" if lower_is_better else "descending"
        raise ConfigError(
            f"{path}: rows {bad} and {bad + 1} ({scores[bad - 1]} then {scores[bad]}) contradict "
            f"the declared direction; sort the leaderboard best first, i.e. {order}, or fix "
            "metric.lower_is_better in config.yaml"
        )
    return scores


def _out_of_order(scores: Sequence[float], i: int, lower_is_better: bool) -> bool:
    return scores[i] < scores[i - 1] if lower_is_better else scores[i] > scores[i - 1]


def _read_scores(path: Path) -> tuple[float, ...]:
    # Arrow's CSV reader, one column, no threads: every awake session reads the registry's
    # ~100,000 leaderboard rows, which took most of its start with the csv module.
    with path.open(newline="", encoding="utf-8") as handle:
        header = next(csv.reader(handle), None)
    if header is None or "score" not in header:
        raise ConfigError(f"{path}: needs a header with a 'score' column")
    try:
        table = arrow_csv.read_csv(
            path,
            read_options=arrow_csv.ReadOptions(use_threads=False),
            convert_options=arrow_csv.ConvertOptions(
                include_columns=["score"], column_types={"score": pa.float64()}, null_values=[""]
            ),
        )
    except pa.ArrowInvalid:
        raise ConfigError(f"{path}: every 'score' must be a number") from None
    column = table.column("score")
    if len(column) == 0:
        raise ConfigError(f"{path}: has no rows; a leaderboard needs at least one score")
    if column.null_count:
        raise ConfigError(f"{path}: every 'score' must be a number")
    scores = tuple(float(score) for score in column.to_pylist())
    if not all(math.isfinite(s) for s in scores):
        raise ConfigError(f"{path}: every 'score' must be finite")
    return scores
