"""Grade many submissions (``mlebench grade``) into mle-bench's aggregated report format."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pytest_mlebench import graders
from pytest_mlebench.data import prepare_competition
from pytest_mlebench.errors import ConfigError, MLEBenchError
from pytest_mlebench.grading import GradeReport, build_report, grade_submission
from pytest_mlebench.registry import Registry
from pytest_mlebench.timestamps import utc_timestamp


@dataclass(frozen=True)
class SubmissionEntry:
    """One line of a ``submission.jsonl`` file."""

    competition_id: str
    submission_path: Path


def read_submission_list(path: Path) -> list[SubmissionEntry]:
    """Entries of a JSON-lines file; relative paths are relative to that file."""
    if not path.is_file():
        raise ConfigError(f"{path}: no such file")
    entries = []
    for number, line in enumerate(path.read_text("utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            item = json.loads(line)
            submission = Path(item["submission_path"])
            entries.append(SubmissionEntry(str(item["competition_id"]), path.parent / submission))
        except (ValueError, KeyError, TypeError):
            raise ConfigError(
                f"{path}:{number}: expected a JSON object with competition_id and submission_path"
            ) from None
    return entries


def grade_many(
    entries: Sequence[SubmissionEntry], registry: Registry, data_dir: Path
) -> dict[str, Any]:
    """Grade each entry and aggregate the reports with mle-bench's ``total_*`` keys.

    A submission that is missing or invalid, or whose competition's data cannot be prepared, gives
    an invalid report with the reason and the batch goes on.

    Raises:
        UnknownCompetition: An entry names a competition the registry does not have; the whole
            batch stops there, without a report.
    """
    reports = [_grade_entry(entry, registry, data_dir) for entry in entries]
    return aggregate_reports(reports)


def _grade_entry(entry: SubmissionEntry, registry: Registry, data_dir: Path) -> dict[str, Any]:
    competition = registry.get(entry.competition_id)
    try:
        answers = prepare_competition(competition, data_dir).answers
    except MLEBenchError as exc:
        result = graders.ScoreResult.invalid(f"cannot grade: {exc}")
        return build_report(
            competition, entry.submission_path, entry.submission_path.exists(), result
        ).to_dict()
    return grade_submission(entry.submission_path, competition, answers).to_dict()


def aggregate_reports(reports: Iterable[dict[str, Any]]) -> dict[str, Any]:
    """mle-bench's aggregated report: ``total_*`` counts plus the individual reports."""
    reports = list(reports)

    def count(key: str) -> int:
        return sum(1 for r in reports if r.get(key))

    return {
        "total_runs": len(reports),
        "total_runs_with_submissions": count("submission_exists"),
        "total_valid_submissions": count("valid_submission"),
        "total_medals": count("any_medal"),
        "total_gold_medals": count("gold_medal"),
        "total_silver_medals": count("silver_medal"),
        "total_bronze_medals": count("bronze_medal"),
        "total_above_median": count("above_median"),
        "created_at": utc_timestamp(),
        "competition_reports": reports,
    }


__all__ = [
    "GradeReport",
    "SubmissionEntry",
    "aggregate_reports",
    "grade_many",
    "read_submission_list",
]
