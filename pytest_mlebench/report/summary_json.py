"""``summary.json``: the session's numbers per agent, split and competition, in one JSON file.

Built from merged records (:mod:`pytest_mlebench.report.merge`) by pure functions; only
:func:`write_summary` and :func:`load_summary` touch the disk. Rates are percentages (0-100) so
a CI gate can speak in percentage points. The layout is documented in ``docs/reports.md``.
"""

from __future__ import annotations

import json
import math
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pytest_mlebench.atomic_write import write_atomically
from pytest_mlebench.errors import ConfigError
from pytest_mlebench.failure_summary import summaries_block
from pytest_mlebench.integrity.reporting import integrity_section, run_integrity
from pytest_mlebench.manifest.from_records import build_manifest
from pytest_mlebench.medals import MEDALS, Thresholds
from pytest_mlebench.records.run_record import RunRecord
from pytest_mlebench.records.verdict import Flag
from pytest_mlebench.report.aggregate import (
    flags,
    group_stats,
    groups_by_complexity,
    groups_by_modality,
    groups_by_split,
    ran,
)
from pytest_mlebench.report.anytime_rates import rates_at_marks, run_curve_entry
from pytest_mlebench.report.engineering_stats import (
    engineering_section,
    failed_checks,
    scored,
    split_kinds,
)
from pytest_mlebench.report.gpu_use import gpu_section
from pytest_mlebench.report.llm_usage import run_usage, usage_totals
from pytest_mlebench.report.merge import Merged, merge_files
from pytest_mlebench.report.original_rates import medal_rates
from pytest_mlebench.report.percentiles import PercentileBasis, mean_percentile
from pytest_mlebench.report.run_classes import class_counts
from pytest_mlebench.timestamps import utc_timestamp

SCHEMA = "pytest-mlebench/summary/1"
# a failed check's card, with the verifier's evidence (the request sent, the answer got)
CARD_KEYS = ("id", "dimension", "result", "gate", "why", "fix_hint", "evidence")


def build_summary(
    merged: Merged, created_at: str | None = None, session_flags: Sequence[Flag] = ()
) -> dict[str, Any]:
    """The whole summary of merged records.

    Args:
        merged: One record per (competition, seed, agent) and what the merge found.
        created_at: ISO time stamp to record (default: now, UTC).
        session_flags: The session's cross-run integrity flags (``integrity.session_flags``).
    """
    records = merged.records
    by_agent: dict[str, list[RunRecord]] = defaultdict(list)
    for record in records:
        by_agent[record.agent].append(record)
    return {
        "schema": SCHEMA,
        "created_at": created_at or utc_timestamp(),
        "sessions": sorted({r.session_id for r in records}),
        "description": sorted({r.description for r in records}),
        "sandboxes": sorted({r.sandbox for r in records}),
        "agents": {agent: agent_section(runs) for agent, runs in sorted(by_agent.items())},
        "competitions": competition_entries(records),
        "llm_usage": usage_totals(records),
        "merge": merged.to_dict(),
        "integrity": integrity_section(records, session_flags),
        "gpus": gpu_section(records),
        "manifest": build_manifest(records),  # the conditions (docs/reports.md)
        "failure_summaries": summaries_block(records),
    }


def agent_section(runs: Sequence[RunRecord]) -> dict[str, Any]:
    """Overall, per-split, per-complexity and per-modality statistics of one agent's
    competition runs, and the ``engineering`` section of its task runs (where it ran any)."""
    records, tasks = split_kinds(runs)
    engineering = engineering_section(tasks)
    basis = PercentileBasis.of(records)
    rates = medal_rates(records)
    original = {"original_medal_rates": rates.to_dict()} if rates else {}
    at_marks = rates_at_marks(records)
    return {
        **original,  # only where the original MLE-bench's grading gives another any-medal rate
        **({"medal_rate_at_marks": at_marks} if at_marks else {}),  # runs with a curve only
        "overall": group_stats(records, basis),
        "splits": {
            name: group_stats(runs, basis) for name, runs in groups_by_split(records).items()
        },
        "complexity": {
            name: group_stats(runs, basis) for name, runs in groups_by_complexity(records).items()
        },
        "modality": {
            name: group_stats(runs, basis) for name, runs in groups_by_modality(records).items()
        },
        "llm_usage": usage_totals(runs),
        **({"engineering": engineering} if engineering else {}),
    }


def competition_entries(records: Sequence[RunRecord]) -> list[dict[str, Any]]:
    """One entry per (agent, competition), runs sorted by seed."""
    groups: dict[tuple[str, str], list[RunRecord]] = defaultdict(list)
    for record in records:
        groups[(record.agent, record.competition_id)].append(record)
    bases = {
        agent: PercentileBasis.of(r for r in records if r.agent == agent)
        for agent in {r.agent for r in records}
    }
    return [
        competition_entry(sorted(runs, key=lambda r: r.seed), bases[agent])
        for (agent, _), runs in sorted(groups.items())
    ]


def competition_entry(
    records: Sequence[RunRecord], basis: PercentileBasis | None = None
) -> dict[str, Any]:
    """Score, medal, outcome and wall time per seed of one competition, plus its rates.

    ``medal_rate`` and ``valid_rate`` count the runs that ran less the ``excluded`` ones (class
    ``infra``); ``failure_classes`` counts the runs that ran per class.

    Args:
        records: The competition's runs of one agent, sorted by seed.
        basis: What the agent's records say about percentiles (default: from ``records``).
    """
    first = records[0]
    done = [r for r in records if ran(r)]
    counted = [r for r in done if r.counted]  # the rates leave out what the harness broke
    graded = next((r.grade for r in records if r.grade), None)
    medals = [r.medal for r in counted]
    scores = [r.grade.score for r in done if r.grade and r.grade.score is not None]
    return {
        "agent": first.agent,
        "competition_id": first.competition_id,
        "kind": first.kind,
        "category": first.category,
        "splits": list(first.splits),
        "complexity": first.complexity,
        "modality": first.modality,
        "is_lower_better": graded.lower_is_better if graded else None,
        "thresholds": thresholds_entry(graded.thresholds) if graded and graded.thresholds else None,
        "runs": [run_entry(r) for r in records],
        "seeds_run": len(done),
        "not_run": len(records) - len(done),
        "excluded": len(done) - len(counted),
        "failure_classes": class_counts(done),
        "medals": sum(1 for m in medals if m),
        "medal_rate": _percent(sum(1 for m in medals if m), len(counted)),
        "valid_rate": _percent(
            sum(1 for r in counted if flags(r)["valid_submission"]), len(counted)
        ),
        "best_medal": next((m for m in MEDALS if m in medals), None),
        "mean_score": math.fsum(scores) / len(scores) if scores else None,
        "mean_percentile": mean_percentile(done, basis or PercentileBasis.of(records)),
        "llm_usage": usage_totals(records),
    }


def thresholds_entry(thresholds: Thresholds) -> dict[str, float]:
    """A competition's ``thresholds`` in the summary: ``<medal>_threshold`` and the median."""
    entry = {f"{medal}_threshold": thresholds.of(medal) for medal in MEDALS}
    entry["median_threshold"] = thresholds.median
    return entry


def run_entry(record: RunRecord) -> dict[str, Any]:
    """What the summary keeps of one run (enough to select it for a rerun)."""
    return {
        "seed": record.seed,
        "outcome": record.outcome,
        "reason": record.reason,
        "stop_reason": record.stop_reason,
        "graded": record.grade is not None,
        "score": record.grade.score if record.grade else None,
        "percentile": record.grade.percentile if record.grade else None,
        "medal": record.medal,
        "failure_class": record.failure_class,
        "counted": record.counted,
        "attempts": len(record.attempts) + 1,
        "earlier_attempts": record.attempts,
        **flags(record),
        "timed_out": record.timed_out,
        "wall_seconds": record.wall_seconds,
        "finished_at": record.finished_at,
        "run_id": record.run_id,
        "session_id": record.session_id,
        "test_id": record.test_id,
        "run_dir": record.run_dir,
        "llm_usage": run_usage(record),
        "integrity": run_integrity(record),
        "failure_summary": record.failure_summary,
        "node": run_node(record),
        "description": record.description,
        "gpu_usage": record.gpu_usage,
        "anytime": run_curve_entry(record),
        **task_entry(record),
    }


def task_entry(record: RunRecord) -> dict[str, Any]:
    """What the summary keeps of an engineering task's run (nothing for a competition's): the
    task score and dimension scores in 0-100 and the failed checks with their teaching card."""
    if record.kind != "engineering":
        return {}
    block = scored(record)
    if block is None:
        return {"task_score": None, "dimensions": {}, "failed_checks": []}
    return {
        "task_score": 100.0 * float(block["score"]),
        "dimensions": {
            name: 100.0 * float(value)
            for name, value in (block.get("dimensions") or {}).items()
            if value is not None
        },
        "failed_checks": [
            {key: check.get(key) for key in CARD_KEYS} for check in failed_checks(record)
        ],
    }


def run_node(record: RunRecord) -> dict[str, Any] | None:
    """Where a run on a Ray cluster ran (``--mle-ray``): its node and how many attempts it took."""
    if record.node is None:
        return None
    return {
        "node_id": record.node.get("node_id"),
        "ip": record.node.get("ip"),
        "hostname": record.node.get("hostname"),
        "attempts": len(record.node.get("attempts") or ()) or 1,
    }


def node_text(node: dict[str, Any]) -> str:
    """A :func:`run_node` entry as ``host (ip, node abc12345)``, with its attempts past one."""
    where = f"{node.get('hostname')} ({node.get('ip')}, node {str(node.get('node_id'))[:8]})"
    attempts = int(node.get("attempts") or 1)
    return where + (f", {attempts} attempts" if attempts > 1 else "")


def _percent(part: int, whole: int) -> float | None:
    return 100.0 * part / whole if whole else None


def write_summary(path: Path, summary: dict[str, Any]) -> Path:
    """Write ``summary`` as JSON, atomically (a reader never sees half a file)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    return write_atomically(path, json.dumps(summary, indent=2, allow_nan=False) + "\n")


def is_summary(data: Any) -> bool:
    return isinstance(data, dict) and str(data.get("schema", "")).startswith(
        "pytest-mlebench/summary/"
    )


def load_summary(path: Path, expected_seeds: int | None = None) -> dict[str, Any]:
    """A summary from ``path``: a ``summary.json`` as is, or a results file summarised now.

    Raises:
        ConfigError: When the file is missing or is neither kind.
    """
    if not path.is_file():
        raise ConfigError(f"{path}: no such file")
    text = path.read_text("utf-8")
    try:
        data = json.loads(text)
    except ValueError:
        data = None
    if is_summary(data):
        return dict(data)
    merged = merge_files([path], expected_seeds)
    if not merged.records:
        raise ConfigError(f"{path}: neither a summary.json nor a results file with run records")
    return build_summary(merged)
