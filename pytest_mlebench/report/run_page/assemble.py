"""A run's page from its folder: the record, then every source of steps merged in time order.

The sources are read one by one (the gateway's transcript, the agent's trajectory, the
validator's calls, the agent's log); each is already in order, and they are merged by time. A
step without a time keeps its place after the step before it in its own source. Ties keep the
order of :func:`load_run_page`'s sources. A command whose trajectory names the answer that asked
for it (:attr:`~.model.Step.answer_id`) is then moved right after that LLM turn: the gateway's
times are whole seconds, too coarse to order a turn and a quick command by the clock alone.
"""

from __future__ import annotations

import heapq
import json
from collections.abc import Iterator, Sequence
from dataclasses import replace
from pathlib import Path

from pytest_mlebench.errors import MLEBenchError
from pytest_mlebench.records.run_record import RunRecord
from pytest_mlebench.report.run_page.agent_steps import log_steps, trajectory_steps
from pytest_mlebench.report.run_page.harness_account import (
    audited_processes,
    run_evidence,
    validation_steps,
    written_files,
)
from pytest_mlebench.report.run_page.llm_turns import TRANSCRIPT, llm_steps
from pytest_mlebench.report.run_page.model import Part, RunPage, Step, SubmissionCopy
from pytest_mlebench.report.run_page.reading import bounded_text

RECORD = "record.json"
REPEAT_CHARS = 200
AGENT_LOG = "agent.log"


class RunFolderError(MLEBenchError):
    """A folder that is not a run's (no readable ``record.json``)."""


def read_run_record(run_dir: Path) -> RunRecord:
    """The record a run left in its folder.

    Raises:
        RunFolderError: When the folder has no ``record.json`` or it cannot be read.
    """
    text = bounded_text(run_dir / RECORD)
    if text is None:
        raise RunFolderError(
            f"{run_dir} has no {RECORD}: it is not a run folder (run folders are "
            "reports/runs/<run id>/, made by a benchmark run); pass one of those"
        )
    try:
        return RunRecord.from_dict(json.loads(text))
    except (ValueError, TypeError) as exc:
        raise RunFolderError(
            f"{run_dir / RECORD} cannot be read as a run record ({exc}); it was cut or edited: "
            "take the run's line from the results file (reports/results.jsonl) instead"
        ) from exc


def load_run_page(run_dir: Path, record: RunRecord | None = None) -> RunPage:
    """Everything the page of the run in ``run_dir`` shows (``record``: its record when the
    caller has it, else ``record.json``)."""
    record = record or read_run_record(run_dir)
    notes: list[str] = []
    log, log_text = log_steps(run_dir / AGENT_LOG)
    sources = [
        list(llm_steps(run_dir / TRANSCRIPT, notes)),
        trajectory_steps(run_dir),
        validation_steps(record),
        log,
    ]
    evidence = run_evidence(run_dir)
    copy_out = evidence.get("copy_out")
    return RunPage(
        record=record,
        run_dir=str(run_dir),
        steps=tuple(without_repeated_outputs(after_their_answers(list(merge_in_time(sources))))),
        log_text=log_text,
        files=written_files(evidence),
        copy_out=copy_out if isinstance(copy_out, dict) else {},
        processes=audited_processes(evidence),
        submission_copies=submission_copies(record),
        notes=tuple(notes),
    )


def submission_copies(record: RunRecord) -> tuple[SubmissionCopy, ...]:
    """The record's graded submission copies (its ``anytime`` curve), in agent time."""
    copies = []
    for point in (record.anytime or {}).get("copies", []):
        at, score, medal = point.get("time_used"), point.get("score"), point.get("medal")
        if isinstance(at, (int, float)):
            copies.append(SubmissionCopy(float(at), score, medal))
    return tuple(copies)


def merge_in_time(sources: Sequence[Sequence[Step]]) -> Iterator[Step]:
    """The steps of every source, merged by time; each source's own order is kept."""
    keyed = [list(_keys(index, steps)) for index, steps in enumerate(sources)]
    for _, _, _, step in heapq.merge(*keyed, key=lambda item: item[:3]):
        yield step


def _keys(index: int, steps: Sequence[Step]) -> Iterator[tuple[float, int, int, Step]]:
    """``(time, source, position, step)``; an untimed step takes the time of the one before."""
    last = float("-inf")
    for position, step in enumerate(steps):
        if step.at is not None:
            last = max(last, step.at)
        yield last, index, position, step


def after_their_answers(steps: list[Step]) -> list[Step]:
    """``steps`` with each command that names an LLM turn's answer placed right after that
    turn (in their own order); the others keep their places."""
    turns = {s.answer_id for s in steps if s.kind == "llm" and s.answer_id is not None}
    following: dict[str, list[Step]] = {}
    for step in steps:
        if step.kind != "llm" and step.answer_id in turns:
            following.setdefault(str(step.answer_id), []).append(step)
    if not following:
        return steps
    ordered = []
    for step in steps:
        if step.kind != "llm" and step.answer_id in turns:
            continue
        ordered.append(step)
        if step.kind == "llm" and step.answer_id is not None:
            ordered += following.pop(step.answer_id, [])
    return ordered


def without_repeated_outputs(steps: list[Step]) -> list[Step]:
    """``steps`` with each command output that the next LLM turn's prompt repeats (an agent
    sends the model what its command printed) replaced there by a pointer to the command, so
    the page holds each output once; outputs under :data:`REPEAT_CHARS` stay as they are."""
    outputs: list[str] = []
    kept = []
    for step in steps:
        if step.kind == "command":
            outputs += [p.text for p in step.parts if p.label == "output"]
        elif step.kind == "llm" and outputs:
            step = _pointing(step, outputs)
            outputs = []
        kept.append(step)
    return kept


def _pointing(step: Step, outputs: list[str]) -> Step:
    parts = []
    for part in step.parts:
        text = part.text
        if part.label == "prompt":
            for output in outputs:
                if len(output) >= REPEAT_CHARS and output in text:
                    shown = f"[the output of the command above, {len(output)} characters]"
                    text = text.replace(output, shown)
        parts.append(Part(part.label, text))
    return replace(step, parts=tuple(parts))
