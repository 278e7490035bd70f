"""Grade many submissions (``mlebench grade``): a ``submission.jsonl`` in, one grade per line out.

The grades become mle-bench's aggregated report in
:func:`pytest_mlebench.report.mlebench_compat.bulk_grading_report`.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from pytest_mlebench import graders
from pytest_mlebench.data import prepare_competition
from pytest_mlebench.errors import ConfigError, MLEBenchError
from pytest_mlebench.grading import GradeReport, build_report, grade_submission
from pytest_mlebench.registry import Registry


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
) -> list[GradeReport]:
    """Grade each entry, in order.

    A submission that is missing or invalid, or whose competition's data cannot be prepared, gets
    an invalid grade with the reason and the batch goes on.

    Raises:
        UnknownCompetition: An entry names a competition the registry does not have; the whole
            batch stops there, without a report.
    """
    return [_grade_entry(entry, registry, data_dir) for entry in entries]


def _grade_entry(entry: SubmissionEntry, registry: Registry, data_dir: Path) -> GradeReport:
    competition = registry.get(entry.competition_id)
    try:
        answers = prepare_competition(competition, data_dir).answers
    except MLEBenchError as exc:
        result = graders.ScoreResult.invalid(f"cannot grade: {exc}")
        return build_report(
            competition, entry.submission_path, entry.submission_path.exists(), result
        )
    return grade_submission(entry.submission_path, competition, answers)


__all__ = [
    "SubmissionEntry",
    "grade_many",
    "read_submission_list",
]
