"""The competition registry: ``competitions/<id>/`` folders and ``splits/<name>.txt`` id lists.

Everything a competition declares is checked here, at load time, so a broken config or leaderboard
stops the session with a message that names the file and the fix instead of failing mid-run.
The format is documented in ``docs/competition-format.md``.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any, Literal, cast

import yaml

from pytest_mlebench import graders
from pytest_mlebench.errors import ConfigError, UnknownCompetition
from pytest_mlebench.graders import SubmissionSpec
from pytest_mlebench.medals import Thresholds, thresholds_for

Complexity = Literal["low", "medium", "high"]
Source = Literal["embedded", "kaggle"]
COMPLEXITIES: tuple[Complexity, ...] = ("low", "medium", "high")
SOURCES: tuple[Source, ...] = ("embedded", "kaggle")
MODALITIES = (
    "tabular",
    "image",
    "text",
    "audio",
    "timeseries",
    "recommendation",
    "survival",
    "multimodal",
)
REQUIRED_KEYS = ("id", "name", "complexity", "source", "modality", "metric", "submission")
LFS_POINTER_PREFIX = b"version https://git-lfs"
BUILTIN_COMPETITIONS_DIR = Path(__file__).resolve().parent / "competitions"


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

    @property
    def metric(self) -> str:
        return self.submission.metric

    @property
    def description_path(self) -> Path:
        return self.folder / "description.md"

    @property
    def prepare_path(self) -> Path:
        return self.folder / "prepare.py"

    @property
    def leaderboard_path(self) -> Path:
        return self.folder / "leaderboard.csv"

    @cached_property
    def thresholds(self) -> Thresholds:
        return thresholds_for(self.leaderboard_scores, self.lower_is_better)


@dataclass(frozen=True)
class Registry:
    """All competitions found in the competition folders, with their splits."""

    competitions: Mapping[str, Competition]
    splits: Mapping[str, tuple[str, ...]]
    unavailable: Mapping[str, tuple[str, ...]] = field(default_factory=dict)

    def get(self, competition_id: str) -> Competition:
        try:
            return self.competitions[competition_id]
        except KeyError:
            known = ", ".join(sorted(self.competitions)) or "(none)"
            raise UnknownCompetition(
                f"unknown competition {competition_id!r}; known competitions: {known}"
            ) from None

    def split(self, name: str) -> list[Competition]:
        if name not in self.splits:
            known = ", ".join(sorted(self.splits)) or "(none)"
            raise UnknownCompetition(f"unknown split {name!r}; known splits: {known}")
        return [self.competitions[cid] for cid in self.splits[name]]

    def __iter__(self) -> Any:
        return iter(self.competitions[cid] for cid in sorted(self.competitions))

    def __len__(self) -> int:
        return len(self.competitions)


def load_registry(folders: Sequence[Path] = ()) -> Registry:
    """Load the built-in competitions plus those in ``folders`` (later folders win on clashes)."""
    roots = [BUILTIN_COMPETITIONS_DIR, *folders]
    configs: dict[str, Path] = {}
    for root in roots:
        if not root.is_dir():
            raise ConfigError(f"{root}: competitions folder does not exist")
        for config in sorted(root.glob("*/config.yaml")):
            configs[config.parent.name] = config
    split_files = _split_files(roots)
    splits, unavailable = _load_splits(split_files, set(configs))
    membership: dict[str, set[str]] = {cid: set() for cid in configs}
    for split_name, ids in splits.items():
        for cid in ids:
            membership[cid].add(split_name)
    competitions = {
        cid: load_competition(path, frozenset(membership[cid])) for cid, path in configs.items()
    }
    return Registry(competitions=competitions, splits=splits, unavailable=unavailable)


def _split_files(roots: Iterable[Path]) -> dict[str, list[Path]]:
    found: dict[str, list[Path]] = {}
    for root in roots:
        for path in sorted((root / "splits").glob("*.txt")):
            found.setdefault(path.stem, []).append(path)
    return found


def _load_splits(
    split_files: Mapping[str, list[Path]], known: set[str]
) -> tuple[dict[str, tuple[str, ...]], dict[str, tuple[str, ...]]]:
    """Split name → available ids, and split name → ids listed but not shipped in any folder."""
    splits: dict[str, tuple[str, ...]] = {}
    unavailable: dict[str, tuple[str, ...]] = {}
    for name, paths in split_files.items():
        ids = list(dict.fromkeys(cid for path in paths for cid in read_id_list(path)))
        splits[name] = tuple(cid for cid in ids if cid in known)
        unavailable[name] = tuple(cid for cid in ids if cid not in known)
    return splits, unavailable


def read_id_list(path: Path) -> list[str]:
    """Ids in a split file: one per line, ``#`` starts a comment, blank lines ignored."""
    lines = (line.split("#", 1)[0].strip() for line in path.read_text("utf-8").splitlines())
    return [line for line in lines if line]


def load_competition(config_path: Path, splits: frozenset[str] = frozenset()) -> Competition:
    """Load and check one ``config.yaml`` and the files beside it."""
    raw = _read_config(config_path)
    folder = config_path.parent
    problems = _check_keys(raw, folder)
    if problems:
        raise ConfigError(f"{config_path}: " + "; ".join(problems))
    metric = _parse_metric(raw["metric"], config_path)
    submission = _parse_submission(raw["submission"], metric, config_path)
    lower_is_better = bool(raw["metric"]["lower_is_better"])
    for name in ("description.md", "prepare.py"):
        if not (folder / name).is_file():
            raise ConfigError(f"{folder / name}: missing; every competition folder needs it")
    competition = Competition(
        id=str(raw["id"]),
        name=str(raw["name"]),
        complexity=cast(Complexity, raw["complexity"]),
        source=cast(Source, raw["source"]),
        modality=str(raw["modality"]),
        submission=submission,
        lower_is_better=lower_is_better,
        time_limit=_positive_int(raw.get("time_limit", 3600), "time_limit", config_path),
        resources=_parse_resources(raw.get("resources") or {}, config_path),
        folder=folder,
        requires=tuple(str(r) for r in raw.get("requires") or ()),
        splits=splits,
        leaderboard_scores=load_leaderboard(folder / "leaderboard.csv", lower_is_better),
    )
    return competition


def _read_config(config_path: Path) -> dict[str, Any]:
    try:
        raw = yaml.safe_load(config_path.read_text("utf-8"))
    except yaml.YAMLError as exc:
        raise ConfigError(f"{config_path}: not valid YAML ({exc})") from None
    if not isinstance(raw, dict):
        raise ConfigError(f"{config_path}: expected a mapping of keys, got {type(raw).__name__}")
    return raw


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
    return SubmissionSpec(
        id_column=str(section["id_column"]),
        target_columns=tuple(str(c) for c in section["columns"]),
        metric=metric.name,
        answer_columns=tuple(str(c) for c in answer_columns) if answer_columns else None,
        extra_columns=extra,
        metric_params=dict(params),
    )


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
    import csv

    with path.open(newline="", encoding="utf-8") as handle:
        reader = csv.DictReader(handle)
        if reader.fieldnames is None or "score" not in reader.fieldnames:
            raise ConfigError(f"{path}: needs a header with a 'score' column")
        raw_scores = [row["score"] for row in reader]
    if not raw_scores:
        raise ConfigError(f"{path}: has no rows; a leaderboard needs at least one score")
    try:
        scores = tuple(float(s) for s in raw_scores)
    except (TypeError, ValueError):
        raise ConfigError(f"{path}: every 'score' must be a number") from None
    if not all(math.isfinite(s) for s in scores):
        raise ConfigError(f"{path}: every 'score' must be finite")
    return scores
