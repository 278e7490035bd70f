"""Grade many submissions (``mlebench grade``): a ``submission.jsonl`` in, one grade per line out.

A line of the submission list that cannot be graded (not JSON, a key missing, an unknown
competition id) is skipped with its number and the reason; the other lines are still graded.
The grades become mle-bench's aggregated report in
:func:`pytest_mlebench.report.mlebench_compat.bulk_grading_report`.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest_mlebench.graders as graders
from pytest_mlebench.data import prepare_competition
from pytest_mlebench.errors import ConfigError, MLEBenchError
from pytest_mlebench.grading import GradeReport, build_report, grade_submission
from pytest_mlebench.registry import Registry
from pytest_mlebench.suggest import closest, did_you_mean


@dataclass(frozen=True)
class SubmissionEntry:
    """One line of a ``submission.jsonl`` file (``line`` is its 1-based number, 0 if unknown)."""

    competition_id: str
    submission_path: Path
    line: int = 0


@dataclass(frozen=True)
class SkippedLine:
    """A line of a ``submission.jsonl`` file that cannot be graded, and why."""

    source: Path
    line: int
    reason: str

    def __str__(self) -> str:
        return f"{self.source}:{self.line}: {self.reason}; line skipped"


@dataclass(frozen=True)
class SubmissionList:
    """The gradable entries of a ``submission.jsonl`` file and the lines skipped."""

    source: Path
    entries: tuple[SubmissionEntry, ...]
    skipped: tuple[SkippedLine, ...] = ()


def read_submission_list(path: Path) -> SubmissionList:
    """Entries of a JSON-lines file; relative paths are relative to that file.

    A line that is not a JSON object with ``competition_id`` and ``submission_path`` is skipped
    (with its number and the reason), so the other lines can still be graded.
    """
    if not path.is_file():
        raise ConfigError(f"{path}: no such file")
    entries, skipped = [], []
    for number, line in enumerate(path.read_text("utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        entry = _parse_line(line, path, number)
        if isinstance(entry, SkippedLine):
            skipped.append(entry)
        else:
            entries.append(entry)
    return SubmissionList(path, tuple(entries), tuple(skipped))


def _parse_line(line: str, path: Path, number: int) -> SubmissionEntry | SkippedLine:
    expected = "expected a JSON object with competition_id and submission_path"
    try:
        item = json.loads(line)
    except ValueError as exc:
        return SkippedLine(path, number, f"not valid JSON ({exc}); {expected}")
    if not isinstance(item, dict):
        return SkippedLine(path, number, f"got a JSON {type(item).__name__}; {expected}")
    missing = [key for key in ("competition_id", "submission_path") if key not in item]
    if missing:
        return SkippedLine(path, number, f"missing key {', '.join(map(repr, missing))}; {expected}")
    if not isinstance(item["submission_path"], str):
        return SkippedLine(path, number, "submission_path must be a string (a file path)")
    submission = path.parent / item["submission_path"]
    return SubmissionEntry(str(item["competition_id"]), submission, number)


def check_competitions(listing: SubmissionList, registry: Registry) -> SubmissionList:
    """Move the entries whose competition id is not in ``registry`` to the skipped lines.

    The reason names the id and the closest known ids.
    """
    known = [entry for entry in listing.entries if entry.competition_id in registry.competitions]
    unknown = [
        SkippedLine(listing.source, entry.line, _unknown_id(entry.competition_id, registry))
        for entry in listing.entries
        if entry.competition_id not in registry.competitions
    ]
    skipped = sorted((*listing.skipped, *unknown), key=lambda line: line.line)
    return SubmissionList(listing.source, tuple(known), tuple(skipped))


def _unknown_id(competition_id: str, registry: Registry) -> str:
    suggestion = did_you_mean(closest(competition_id, registry.competitions))
    return f"unknown competition {competition_id!r}" + (
        suggestion or "; no known id is close (`mlebench list` shows them)"
    )


def grade_many(
    entries: Sequence[SubmissionEntry], registry: Registry, data_dir: Path
) -> list[GradeReport]:
    """Grade each entry, in order.

    A submission that is missing or invalid, or whose competition's data cannot be prepared, gets
    an invalid grade with the reason and the batch goes on.

    Raises:
        UnknownCompetition: An entry names a competition the registry does not have; drop such
            entries first with :func:`check_competitions`, which reports them as skipped lines.
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
    "SkippedLine",
    "SubmissionEntry",
    "SubmissionList",
    "check_competitions",
    "grade_many",
    "read_submission_list",
]
