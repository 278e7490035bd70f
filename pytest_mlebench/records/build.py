"""A run's record made from plain facts, and the files a run keeps of it.

:func:`make_record` builds the :class:`~pytest_mlebench.records.run_record.RunRecord` of a run
(also of a skip or an error) from a :class:`RunContext` — the session's facts as plain values —
the subject (a competition or an engineering task, its ``kind`` explicit: a
:class:`RunSubject`), and what the sandbox reported.
The sandbox's and the command's facts arrive
through two small protocols (:class:`SandboxFacts`, :class:`CommandFacts`) so this layer never
imports the sandbox. :func:`keep_run_files` writes what a finished run leaves in its folder and
appends it to the results file; :func:`write_grade_file` writes ``grade.json``.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from pytest_mlebench.records.grade_report import GradeReport
from pytest_mlebench.records.mlebench_grade import grade_json
from pytest_mlebench.records.run_record import Kind, Outcome, RunRecord, append_record
from pytest_mlebench.records.verdict import IntegrityReport
from pytest_mlebench.timestamps import utc_timestamp


@dataclass(frozen=True)
class RunContext:
    """What every record of a session says about where it ran, as plain values.

    Attributes:
        session_id: Shared by the controller and its workers.
        agent: The agent's name.
        worker: ``master`` or the xdist worker id.
        backend: The session's sandbox backend (stands in when no sandbox was made).
        network: The network setting as spelled (``none``, ``bridge``, ``allow:HOST,...``).
        network_mode: Its mode (``none``, ``bridge``, ``allow``).
        bridge_warning: What a ``bridge`` record's ``egress`` says (the sandbox is open).
        description: The description variant the agent read (``--mle-description``).
    """

    session_id: str
    agent: str
    worker: str
    backend: str
    network: str
    network_mode: str
    bridge_warning: str
    description: str = "standard"


class RunSubject(Protocol):
    """What a record names of what was run: a competition, or an engineering task; ``kind``
    says which (the record's ``kind``), never inferred from another field."""

    @property
    def id(self) -> str: ...

    @property
    def kind(self) -> Kind: ...

    @property
    def splits(self) -> frozenset[str]: ...

    @property
    def complexity(self) -> str: ...

    @property
    def modality(self) -> str: ...


class RecordBlock(Protocol):
    """A kind's own result, kept in the record as its JSON form (the engineering result)."""

    def to_record(self) -> dict[str, Any]: ...


class SandboxFacts(Protocol):
    """What a record says about the sandbox a run used (a sandbox, or a remote one's summary)."""

    @property
    def backend(self) -> str: ...

    @property
    def isolated(self) -> bool: ...

    def egress_summary(self) -> dict[str, Any] | None: ...


class CommandFacts(Protocol):
    """What the agent's command did (the sandbox's ``ExecResult``)."""

    @property
    def exit_code(self) -> int | None: ...

    @property
    def timed_out(self) -> bool: ...

    @property
    def wall_seconds(self) -> float: ...

    @property
    def output_tail(self) -> str: ...

    @property
    def cpu_seconds(self) -> float | None: ...

    @property
    def peak_memory_bytes(self) -> int | None: ...

    @property
    def oom_killed(self) -> bool: ...


def exit_note(result: CommandFacts) -> str | None:
    """``agent exited with code N: <its last output line>`` for a failed agent, after an
    ``out of memory`` note when the kernel OOM-killed one of its processes (whatever the exit
    code: a killed worker does not always fail the agent); else ``None``.

    An agent that cannot start (a package missing in its image, a bad argument) says why on its
    last line; the record carries it so the reason is read without opening the log.
    """
    oom = (
        "out of memory: the kernel killed a process of the agent (an OOM kill in the sandbox)"
        if result.oom_killed
        else None
    )
    if result.timed_out or result.exit_code in (0, None):
        return oom
    lines = [line.strip() for line in result.output_tail.splitlines() if line.strip()]
    last = lines[-1][:300] if lines else "no output"
    exited = f"agent exited with code {result.exit_code}: {last}"
    return f"{oom}; {exited}" if oom else exited


def egress_entry(context: RunContext, sandbox: SandboxFacts | None) -> dict[str, Any] | None:
    """The record's ``egress``: the proxy's account (``allow``), a warning (``bridge``), or none."""
    if context.network_mode == "bridge":
        return {"mode": "bridge", "isolated": False, "warning": context.bridge_warning}
    if sandbox is not None and context.network_mode == "allow":
        return sandbox.egress_summary()
    return None


def make_record(
    context: RunContext,
    subject: RunSubject,
    *,
    test_id: str,
    seed: int,
    outcome: Outcome,
    reason: str | None,
    started_at: str | None = None,
    run_id: str | None = None,
    run_dir: str | None = None,
    time_limit: float | None = None,
    resources: dict[str, Any] | None = None,
    exec_result: CommandFacts | None = None,
    report: GradeReport | None = None,
    calls: list[dict[str, Any]] | None = None,
    sandbox: SandboxFacts | None = None,
    gateway: dict[str, Any] | None = None,
    integrity: IntegrityReport | None = None,
    node: dict[str, Any] | None = None,
    engineering: RecordBlock | None = None,
    gpu_usage: dict[str, Any] | None = None,
    stop_reason: str | None = None,
) -> RunRecord:
    """A :class:`RunRecord` for ``subject`` in the session of ``context`` (skips too); its
    ``kind`` is the subject's.

    ``sandbox`` is the sandbox the run used, when one was made: the record names its backend
    and isolation (a sandbox from ``pytest_mlebench_make_sandbox`` included); without one, the
    session's backend stands in.
    """
    isolated = sandbox.isolated if sandbox is not None else context.backend != "local"
    task = subject.kind == "engineering"
    return RunRecord(
        session_id=context.session_id,
        run_id=run_id or f"{subject.id}-s{seed}-{uuid.uuid4().hex[:8]}",
        test_id=test_id,
        competition_id=subject.id,
        seed=seed,
        agent=context.agent,
        outcome=outcome,
        reason=reason,
        sandbox=sandbox.backend if sandbox is not None else context.backend,
        isolated=isolated and context.network_mode != "bridge",
        started_at=started_at or utc_timestamp(),
        finished_at=utc_timestamp(),
        time_limit=time_limit,
        network=context.network,
        resources=resources or {},
        **_command_fields(exec_result),
        grade=report,
        validation_calls=calls or [],
        splits=sorted(subject.splits),
        complexity=subject.complexity,
        modality=subject.modality,
        run_dir=run_dir,
        worker=context.worker,
        gateway=gateway,
        egress=egress_entry(context, sandbox),
        integrity=integrity,
        image=getattr(sandbox, "image", None),
        node=node,
        kind=subject.kind,
        category=getattr(subject, "category", None) if task else None,
        engineering=engineering.to_record() if engineering is not None else None,
        description=context.description,
        gpu_usage=gpu_usage,
        stop_reason=stop_reason,
    )


def _command_fields(result: CommandFacts | None) -> dict[str, Any]:
    if result is None:
        return {}
    return {
        "wall_seconds": result.wall_seconds,
        "cpu_seconds": result.cpu_seconds,
        "peak_memory_bytes": result.peak_memory_bytes,
        "exit_code": result.exit_code,
        "timed_out": result.timed_out,
        "oom_killed": result.oom_killed,
    }


def write_grade_file(run_dir: Path, report: GradeReport) -> Path:
    """Write the run's ``grade.json`` (mle-bench's form of ``report``)."""
    path = run_dir / "grade.json"
    path.write_text(grade_json(report), "utf-8")
    return path


def keep_run_files(record: RunRecord, run_dir: Path, results_path: Path) -> None:
    """Write the run's ``record.json`` and append the record to the results file."""
    (run_dir / "record.json").write_text(record.to_json(), "utf-8")
    append_record(results_path, record)
