"""The original-compatible score: what the original MLE-bench's grader gives, beside our score.

Our score is the competition's own metric as Kaggle defined it (the leaderboard was computed with
it). Where the original MLE-bench's grader computes something else, a competition's
``config.yaml`` declares the original's grading, so that every run also carries the number and
medal the original would have given (``docs/mlebench.md`` lists the competitions)::

    original_grader:
      metric: mean-column-roc-auc   # a metric of graders/ (docs/metrics.md)
      columns: [...]                # the target columns the original scores (default: ours)
      answer_columns: [...]         # the answer columns it reads them against (default: ours)
      pairing: position             # rows paired by their order inside each id (default: by key)
      text: >-
        How and why the original's number differs from ours.

The original's grading is a second :class:`~pytest_mlebench.graders.SubmissionSpec`: the same id
column (and key columns), the original's columns and metric, extra columns ignored, validated as
strictly as ours. With ``pairing: position`` its rows are keyed by the id column alone and paired
by their order among the rows of each id, as the original pairs smartphone-decimeter-2022's rows
inside each trip without comparing timestamps.
Its columns must be among ours, so every file valid for us can be scored the original's way too.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from pytest_mlebench import graders
from pytest_mlebench.errors import ConfigError
from pytest_mlebench.graders import SubmissionSpec
from pytest_mlebench.graders.validation import check_spec

KEYS = frozenset({"metric", "columns", "answer_columns", "metric_params", "pairing", "text"})
PAIRINGS = ("key", "position")


@dataclass(frozen=True)
class OriginalGrader:
    """How the original MLE-bench grades a competition where it differs from us.

    Attributes:
        spec: The original's grading as a spec: our id column, its target columns and metric.
        text: How and why its number differs from ours, in one or two sentences.
    """

    spec: SubmissionSpec
    text: str

    @property
    def name(self) -> str:
        """``mean-column-roc-auc over 9 columns``: what the record names as the original's way."""
        columns = len(self.spec.target_columns)
        name = f"{self.spec.metric} over {columns} column{'s' if columns != 1 else ''}"
        return name + (", rows paired by position" if self.spec.pair_repeated_ids else "")

    def score(self, submission: Path, answers: Path) -> float | None:
        """The original-compatible score of ``submission``; ``None`` when it cannot be scored
        that way (the file is missing, or invalid even for the original's columns)."""
        if not submission.exists():
            return None
        return graders.score_submission(submission, answers, self.spec).score


def parse_original_grader(
    section: Any, submission: SubmissionSpec, config_path: Path
) -> OriginalGrader | None:
    """The ``original_grader`` section of a config (``None`` when absent).

    Raises:
        ConfigError: A malformed section, an unknown metric, or a column that is not ours.
    """
    if section is None:
        return None
    where = f"{config_path}: original_grader"
    if not isinstance(section, dict) or "metric" not in section:
        raise ConfigError(f"{where} needs 'metric' (a metric of graders/) and a 'text' sentence")
    unknown = sorted(set(section) - KEYS)
    if unknown:
        raise ConfigError(f"{where}: unknown keys {', '.join(unknown)}; allowed: {_allowed()}")
    text = section.get("text")
    if not isinstance(text, str) or not text.strip():
        raise ConfigError(f"{where}: 'text' must say how and why the original's number differs")
    columns = _columns(section.get("columns"), submission, where)
    declared = section.get("answer_columns")
    if declared is not None and not (isinstance(declared, list) and declared):
        raise ConfigError(f"{where}: answer_columns must be a non-empty list of answer columns")
    params = section.get("metric_params") or {}
    if not isinstance(params, dict):
        raise ConfigError(f"{where}: metric_params must be a mapping, e.g. {{k: 10}}")
    pairing = section.get("pairing", "key")
    if pairing not in PAIRINGS:
        raise ConfigError(f"{where}: pairing must be one of {', '.join(PAIRINGS)}")
    by_position = pairing == "position"
    spec = SubmissionSpec(
        id_column=submission.id_column,
        key_columns=() if by_position else submission.key_columns,
        pair_repeated_ids=by_position,
        target_columns=columns,
        metric=str(section["metric"]),
        answer_columns=_given_answers(section.get("answer_columns"), where)
        or _answer_columns(columns, submission),
        extra_columns="ignore",
        metric_params=dict(params),
    )
    try:
        check_spec(spec)
    except graders.GraderError as exc:
        raise ConfigError(f"{where}: {exc}") from None
    return OriginalGrader(spec=spec, text=" ".join(text.split()))


def with_original_form(submission: SubmissionSpec, grader: OriginalGrader | None) -> SubmissionSpec:
    """Our spec, knowing the original's columns where they are fewer than ours, so that a file
    in the original's form is told which columns to add (:mod:`graders.columns`)."""
    if grader is None or set(grader.spec.target_columns) == set(submission.target_columns):
        return submission
    return replace(submission, original_columns=grader.spec.target_columns)


def _columns(value: Any, submission: SubmissionSpec, where: str) -> tuple[str, ...]:
    if value is None:
        return submission.target_columns
    if not isinstance(value, list) or not value:
        raise ConfigError(f"{where}: columns must be a non-empty list of our target columns")
    columns = tuple(str(column) for column in value)
    foreign = [column for column in columns if column not in submission.target_columns]
    if foreign:
        raise ConfigError(
            f"{where}: column {foreign[0]!r} is not one of submission.columns; the original's "
            "columns must be among ours, so that a file valid for us can be scored its way too"
        )
    return columns


def _given_answers(value: Any, where: str) -> tuple[str, ...] | None:
    """The original's own answer columns (tensorflow-speech: the raw folder labels), if given."""
    if value is None:
        return None
    if not isinstance(value, list) or not value or not all(isinstance(v, str) for v in value):
        raise ConfigError(f"{where}: answer_columns must be a non-empty list of answer columns")
    return tuple(value)


def _answer_columns(columns: tuple[str, ...], submission: SubmissionSpec) -> tuple[str, ...] | None:
    if submission.answer_columns is None:
        return None
    if len(submission.answer_columns) != len(submission.target_columns):
        return submission.answer_columns  # one target read against several answer columns
    answer_of = dict(zip(submission.target_columns, submission.answer_columns, strict=True))
    return tuple(answer_of[column] for column in columns)


def _allowed() -> str:
    return ", ".join(sorted(KEYS))
