"""The per-run record and its JSON-lines file, appended atomically as each run ends.

Each finished run is one line, written with a single ``write`` on a file opened for appending and
under a file lock, so concurrent xdist workers never interleave and a crash loses nothing that
already finished. Records carry their own ids (session, run, competition, seed, agent); readers
merge by those, never by file order.

Version 2 stores the grade in :class:`~pytest_mlebench.records.grade_report.GradeReport`'s own form;
records of version 1 (mle-bench's flat 16 keys) are read back into the same model.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Iterable, Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Literal

from filelock import FileLock

from pytest_mlebench.atomic_write import write_atomically
from pytest_mlebench.medals import Medal
from pytest_mlebench.records.failure_class import (
    FAILURE_CLASSES,
    FailureClass,
    classify,
    counts_in_rates,
)
from pytest_mlebench.records.grade_report import GradeReport
from pytest_mlebench.records.verdict import IntegrityReport

Outcome = Literal["passed", "failed", "error", "skipped"]
Kind = Literal["competition", "engineering"]
RECORD_VERSION = 2


@dataclass(frozen=True)
class RunRecord:
    """Everything known about one (competition, seed, agent) run.

    ``gateway`` is the LLM gateway's account of the run (calls, tokens, cost, budget; ``None``
    without a gateway); ``egress`` the allow-list proxy's (or a note that ``bridge`` left the
    sandbox open). Both are documented in ``docs/agents.md``. ``image`` is the Docker image the
    agent ran in (its tag carries the hash of what it was built from; ``None`` elsewhere).
    ``node`` says which Ray node ran the sandbox and where each attempt ran (``--mle-ray``,
    ``docs/scale-out.md``); ``None`` for a run on this machine and in records written before it
    existed, which read back unchanged.

    ``engineering`` is the scored run of an engineering task (task, score, dimensions, checks,
    verifier; ``docs/engineering.md``); it has no grade. ``None`` for a competition.
    ``competition_id`` is the id of the run's subject (:attr:`subject`): a competition's, or an
    engineering task's; ``kind`` says which (the JSON key keeps its first name for readers).

    ``grade`` is our grade; ``integrity`` what the checks found and whether the medal was
    withheld (:attr:`medal` combines the two). The original-compatible score and medal — what
    the original MLE-bench grader gives where a competition declares that it grades differently
    — travel inside ``grade`` (``grade.original``, ``None`` where both agree or for records
    written before it existed); :attr:`original_medal` is the one that counts on that side.

    ``kind`` tells a Kaggle competition's run from an engineering task's (``docs/engineering.md``),
    as the run's subject declares it (never inferred from another field);
    a task's run has no grade and no medal: its ``engineering`` block holds the task score, the
    dimension scores and every check, and ``category`` the task's category. Records written
    before tasks existed read back as competitions.

    ``description`` is the description variant the agent read (``standard`` or ``obfuscated``,
    ``--mle-description``; records written before variants existed read back as ``standard``).
    ``gpu_usage`` is what the sampler saw of each GPU handed to the sandbox
    (:mod:`pytest_mlebench.gpu_sampling`; ``None`` when no GPU was granted).
    ``stop_reason`` is the agent's own word on why it stopped (the line it wrote to
    ``LOGS_DIR/stop_reason.txt``, ``docs/agents.md``); ``None`` when it wrote none and in
    records written before it existed.

    ``failure_class`` is the one class the run ended in (``medal`` … ``infra``,
    :mod:`pytest_mlebench.records.failure_class`; ``None`` for a skipped run); left out, it is
    computed from the other fields, so records written before it existed read back with one.
    ``attempts`` lists the earlier attempts of a run that ``--mle-retries`` tried again after an
    ``infra`` failure (number, class, reason, end time); this record is the last attempt's.
    Both are added at the end with defaults, so older records read back unchanged.
    ``failure_summary`` is a model's short account of why a failed run failed
    (``--mle-summarize MODEL``, :mod:`pytest_mlebench.failure_summary`: ``model``, ``text``,
    ``error``, tokens and cost); ``None`` for a run that did not fail, without the option, and in
    records written before it existed.
    ``resumed`` is set on a run that resumed one whose session died or whose node was lost
    (``--mle-resume``, a Ray retry): the run and snapshot it resumed from, the agent time at the
    snapshot, the time lost (done again after it) and the seconds the agent was given; ``None``
    on a first attempt and in records written before it existed.
    ``anytime`` is a competition run's curve from its submission copies graded after it ended
    (``copies``: agent seconds, score, valid, medal, file; ``first_valid``, ``first_medal``:
    agent seconds; ``marks``: the best medal at each ``--mle-marks`` mark;
    :mod:`pytest_mlebench.anytime`); ``None`` when it kept no copy and in older records.
    """

    session_id: str
    run_id: str
    test_id: str
    competition_id: str
    seed: int
    agent: str
    outcome: Outcome
    reason: str | None
    sandbox: str
    isolated: bool
    started_at: str
    finished_at: str
    time_limit: float | None = None
    network: str | None = None
    resources: dict[str, Any] = field(default_factory=dict)
    wall_seconds: float | None = None
    cpu_seconds: float | None = None
    peak_memory_bytes: int | None = None
    exit_code: int | None = None
    timed_out: bool = False
    oom_killed: bool = False
    grade: GradeReport | None = None
    validation_calls: list[dict[str, Any]] = field(default_factory=list)
    splits: list[str] = field(default_factory=list)
    complexity: str | None = None
    modality: str | None = None
    run_dir: str | None = None
    worker: str = "master"
    gateway: dict[str, Any] | None = None
    egress: dict[str, Any] | None = None
    integrity: IntegrityReport | None = None
    image: str | None = None
    node: dict[str, Any] | None = None
    kind: Kind = "competition"
    category: str | None = None
    engineering: dict[str, Any] | None = None
    description: str = "standard"
    gpu_usage: dict[str, Any] | None = None
    stop_reason: str | None = None
    failure_class: FailureClass | None = None
    attempts: list[dict[str, Any]] = field(default_factory=list)
    failure_summary: dict[str, Any] | None = None
    resumed: dict[str, Any] | None = None
    anytime: dict[str, Any] | None = None
    version: int = RECORD_VERSION

    def __post_init__(self) -> None:
        # A record made without a class (a skip, a judged run, a record written before classes
        # existed) gets the one its fields give; an error record keeps its exception's class.
        if self.failure_class not in FAILURE_CLASSES:
            object.__setattr__(self, "failure_class", classify(self))

    @property
    def subject(self) -> str:
        """The id of what was run: a competition's or an engineering task's (see :attr:`kind`)."""
        return self.competition_id

    @property
    def medal(self) -> Medal | None:
        """The medal this run counts with: the grade's, unless strict integrity withheld it.

        ``None`` for no medal, for a run without a grade and for a withheld medal (which
        :attr:`earned_medal` still names).
        """
        if self.grade is None or self.medal_withheld:
            return None
        return self.grade.medal

    @property
    def original_medal(self) -> Medal | None:
        """The medal this run counts with as the original MLE-bench grades: the original's
        medal where it grades otherwise, else :attr:`medal`; withheld on both sides alike."""
        if self.grade is None or not self.grade.original_differs:
            return self.medal
        return None if self.medal_withheld else self.grade.original_medal

    @property
    def earned_medal(self) -> Medal | None:
        """The medal the grade gave, before integrity (``None`` without a grade or a medal)."""
        return self.grade.medal if self.grade is not None else None

    @property
    def medal_withheld(self) -> bool:
        """Whether ``--mle-integrity strict`` took this run's medal away."""
        return self.integrity is not None and self.integrity.medal_withheld

    @property
    def ran(self) -> bool:
        """Whether the run happened (a skipped run, its data not prepared, did not)."""
        return self.outcome != "skipped"

    @property
    def counted(self) -> bool:
        """Whether the run counts in the medal, valid and percentile rates: it ran and the
        harness did not break (:func:`~pytest_mlebench.records.failure_class.counts_in_rates`)."""
        return counts_in_rates(self.failure_class)

    def to_json(self) -> str:
        return json.dumps(_finite(asdict(self)), sort_keys=True, allow_nan=False)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RunRecord:
        """A record of any version; what is read back is a record of this version.

        Raises:
            ValueError: When the grade is malformed.
            TypeError: When a required key is missing.
        """
        known = {name for name in cls.__dataclass_fields__}
        values = {key: value for key, value in data.items() if key in known}
        grade = values.get("grade")
        values["grade"] = None if grade is None else GradeReport.from_dict(grade)
        integrity = values.get("integrity")
        values["integrity"] = None if integrity is None else IntegrityReport.from_dict(integrity)
        values["version"] = RECORD_VERSION
        return cls(**values)


def append_record(path: Path, record: RunRecord) -> None:
    """Append ``record`` as one line; safe against concurrent writers and crashes."""
    path.parent.mkdir(parents=True, exist_ok=True)
    line = (record.to_json() + "\n").encode("utf-8")
    with FileLock(str(path) + ".lock", timeout=60):
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            os.write(fd, line)
            os.fsync(fd)
        finally:
            os.close(fd)


def read_records(paths: Iterable[Path]) -> Iterator[RunRecord]:
    """Records from JSON-lines files; a torn last line (crash mid-write) is skipped."""
    for path in paths:
        with path.open(encoding="utf-8") as handle:
            for line in handle:
                line = line.strip()
                if not line:
                    continue
                try:
                    yield RunRecord.from_dict(json.loads(line))
                except (ValueError, TypeError):
                    continue


def drop_session(path: Path, session_id: str) -> int:
    """Remove the records of ``session_id`` from the results file; returns how many went.

    A session in which nothing ran (every competition skipped) leaves the file as it found it.
    The file is rewritten whole, under the writers' lock; torn lines are kept as they are.
    """
    if not path.is_file():
        return 0
    with FileLock(str(path) + ".lock", timeout=60):
        lines = path.read_text("utf-8").splitlines(keepends=True)
        kept = [line for line in lines if _session_of(line) != session_id]
        if len(kept) != len(lines):
            write_atomically(path, "".join(kept))
    return len(lines) - len(kept)


def _session_of(line: str) -> str | None:
    try:
        data = json.loads(line)
    except ValueError:
        return None
    return data.get("session_id") if isinstance(data, dict) else None


def _finite(value: Any) -> Any:
    """Replace NaN/inf by ``None`` so the JSON stays standard."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {key: _finite(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_finite(item) for item in value]
    return value
