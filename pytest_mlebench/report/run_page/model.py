"""What a run's page shows, as plain values: the steps in order and the run's other facts.

The readers (:mod:`.llm_turns`, :mod:`.agent_steps`, :mod:`.harness_account`) turn the run folder's
files into these values; :mod:`.html_page` and :mod:`.text_form` render them. Times are seconds
since the epoch (``None`` where the source gives none); the renderers show them relative to the
run's start.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any, Literal

from pytest_mlebench.records.run_record import RunRecord

StepKind = Literal["llm", "command", "node", "log", "validation"]


@dataclass(frozen=True)
class Part:
    """One labelled text of a step (a prompt, an answer, a command's output); long ones fold."""

    label: str
    text: str


@dataclass(frozen=True)
class Step:
    """One thing the agent did, in the order it happened.

    Attributes:
        kind: ``llm`` (a call through the gateway), ``command`` (a command the agent ran, from
            its own trajectory), ``node`` (an AIDE search node: its plan, code, output and
            metric), ``log`` (a line of the agent's log) or ``validation`` (a call of the
            validator).
        at: When it happened, seconds since the epoch; ``None`` when the source does not say.
        title: One line saying what it was.
        facts: Short figures shown beside the title (tokens, cost, latency, exit code).
        parts: The texts: prompt and answer, command and output.
        failed: Whether it went wrong (an error status, a non-zero exit code, an invalid
            submission, a buggy node).
        answer_id: The id of the model's answer: an LLM turn's own, or, for a command, the
            answer that asked for it (mini-swe-agent keeps it), so the command is shown right
            after that turn whatever the clocks say.
    """

    kind: StepKind
    at: float | None
    title: str
    facts: tuple[str, ...] = ()
    parts: tuple[Part, ...] = ()
    failed: bool = False
    answer_id: str | None = None


@dataclass(frozen=True)
class WrittenFile:
    """A file the run left: its path in the run folder, size and last change."""

    path: str
    size: int | None
    at: float | None


@dataclass(frozen=True)
class SubmissionCopy:
    """A copy of ``submission.csv`` taken while the run was live, graded after it ended.

    The copies are the record's ``anytime`` curve (:mod:`pytest_mlebench.anytime`: the harness
    copies the submission each time it changes); ``at`` is the agent's seconds when it was
    seen, ``score`` ``None`` for an invalid copy. Records without a curve give none and the
    page shows no timeline.
    """

    at: float
    score: float | None
    medal: str | None


@dataclass(frozen=True)
class RunPage:
    """Everything the page of one run shows.

    Attributes:
        record: The run's record (``record.json``).
        run_dir: Its folder (where the page is written).
        steps: The agent's steps in order.
        log_text: The agent's log, whole (bounded), when its lines carry no times and so are
            not among the steps; ``None`` otherwise.
        files: The files the run left (the inventory of the integrity evidence).
        copy_out: What the copy-out kept and left out (entries, bytes, omitted paths).
        processes: The command lines the process audit saw, with when (seconds into the run).
        submission_copies: The submission copies with their grades, for the timeline;
            empty when the run kept none.
        notes: What could not be read, in words (a torn transcript line, a file over its bound).
    """

    record: RunRecord
    run_dir: str
    steps: tuple[Step, ...]
    log_text: str | None = None
    files: tuple[WrittenFile, ...] = ()
    copy_out: dict[str, Any] = field(default_factory=dict)
    processes: tuple[dict[str, Any], ...] = ()
    submission_copies: tuple[SubmissionCopy, ...] = ()
    notes: tuple[str, ...] = ()

    @property
    def started(self) -> float | None:
        """The run's start, seconds since the epoch (from the record)."""
        return epoch_of(self.record.started_at)


def epoch_of(text: str | None) -> float | None:
    """Seconds since the epoch of an ISO 8601 time (naive times are taken as UTC)."""
    if not text:
        return None
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=timezone.utc)
    return moment.timestamp()
