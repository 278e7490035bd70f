"""The values every report is written from: the typed summary and the session's report.

:class:`Summary` is ``summary.json`` as a value: what the report pipeline itself reads (sessions,
agents, run counts, sources) is typed; the documented layout (``docs/reports.md``) stays whole
behind it, read-only, because that layout is also what a baseline file on disk holds and what the
renderers and the gate read. :class:`SessionReport` is one report to write: the summary, the
merged records it came from, the folder, and the gate's verdict when a baseline was compared.
Both are frozen: writers read them and never change them.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import MappingProxyType
from typing import Any

from pytest_mlebench.records.run_record import RunRecord
from pytest_mlebench.report.baseline_gate import GateResult
from pytest_mlebench.values.cost_limit import CostLimit


@dataclass(frozen=True, eq=False)
class Summary(Mapping[str, Any]):
    """A summary: its head typed, its ``summary.json`` layout readable as a mapping.

    Attributes:
        sessions: The sessions whose records it counts.
        agents: The agents it reports, in order.
        runs: Runs that happened, over every agent.
        not_run: Runs that were skipped (data not prepared).
        sources: The results files it was built from (empty for a summary read as it is).
    """

    sessions: tuple[str, ...]
    agents: tuple[str, ...]
    runs: int
    not_run: int
    sources: tuple[str, ...]
    layout: Mapping[str, Any] = field(repr=False)

    @classmethod
    def from_layout(cls, data: Mapping[str, Any]) -> Summary:
        """The value of a ``summary.json`` layout (built now or read from a file)."""
        agents = data.get("agents") or {}
        overall = [section.get("overall") or {} for section in agents.values()]
        overall += [section.get("engineering") or {} for section in agents.values()]
        return cls(
            sessions=tuple(str(s) for s in data.get("sessions") or ()),
            agents=tuple(str(a) for a in agents),
            runs=sum(int(o.get("runs") or 0) for o in overall),
            not_run=sum(int(o.get("not_run") or 0) for o in overall),
            sources=tuple(str(s) for s in (data.get("merge") or {}).get("sources") or ()),
            layout=MappingProxyType(dict(data)),
        )

    def to_dict(self) -> dict[str, Any]:
        """The ``summary.json`` layout as a plain dict (for JSON and the renderers)."""
        return dict(self.layout)

    def __getitem__(self, key: str) -> Any:
        return self.layout[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self.layout)

    def __len__(self) -> int:
        return len(self.layout)


@dataclass(frozen=True)
class GateSettings:
    """How a comparison with a baseline judges (``--mle-gate`` and its limits)."""

    mode: str = "auto"
    alpha: float = 0.05
    max_drop: float = 0.0
    max_cost_increase: CostLimit | None = None
    allow_different: frozenset[str] = frozenset()  # manifest keys (docs/ci.md)


@dataclass(frozen=True)
class SessionReport:
    """One report to write: the summary, where it goes, and the gate's verdict.

    Attributes:
        summary: The numbers.
        out_dir: The folder of ``summary.json``, ``summary.md`` and ``mlebench/``.
        records: The merged records the summary was built from (empty when a ``summary.json``
            was read as it is).
        merge_findings: What the merge found (duplicates, missing seeds), one line each.
        built: Whether the summary was built from records (rather than read from a file).
        gate: The baseline comparison's result, when one ran.
        baseline: The baseline's summary, when one was read.
        gate_error: Why the comparison could not run (the gate then fails).
        history: Earlier summaries, oldest first (``mlebench report --history``), for the
            engineering trend.
    """

    summary: Summary
    out_dir: Path
    records: tuple[RunRecord, ...] = ()
    merge_findings: tuple[str, ...] = ()
    built: bool = True
    gate: GateResult | None = None
    baseline: Summary | None = None
    gate_error: str | None = None
    history: tuple[Summary, ...] = ()

    @property
    def gate_failed(self) -> bool:
        """Whether a comparison ran and failed, or could not run."""
        return self.gate_error is not None or (self.gate is not None and not self.gate.ok)

    def judged(self, gate: GateResult, baseline: Summary) -> SessionReport:
        """This report with the gate's verdict against ``baseline``."""
        return replace(self, gate=gate, baseline=baseline, gate_error=None)

    def unjudged(self, why: str, baseline: Summary | None = None) -> SessionReport:
        """This report with a comparison that could not run (``why``): the gate fails."""
        return replace(self, gate=None, baseline=baseline, gate_error=why)
