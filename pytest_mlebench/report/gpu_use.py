"""GPU use in the reports: how many of the GPUs granted to the runs were used. Pure.

Each record's ``gpu_usage`` (:mod:`pytest_mlebench.gpu_sampling`) says how many GPUs its
sandbox was granted and how many the sampler saw in use. The session adds them up
(``summary.json``'s ``gpus``) and names the runs that left a granted GPU idle, the finding of
the original benchmark ("given two GPUs, agents never touched the second").
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pytest_mlebench.records.run_record import RunRecord

SHOWN_RUNS = 6


def gpu_section(records: Sequence[RunRecord]) -> dict[str, Any] | None:
    """``{"runs", "granted", "used", "sampled", "idle_runs": [...]}``; ``None`` without GPUs."""
    granted = [r for r in records if r.gpu_usage and r.gpu_usage.get("granted")]
    if not granted:
        return None
    sampled = [r for r in granted if r.gpu_usage and r.gpu_usage.get("sampler")]
    return {
        "runs": len(granted),
        "granted": sum(_count(r, "granted") for r in granted),
        "used": sum(_count(r, "used") for r in sampled),
        "sampled": len(sampled),
        "idle_runs": [
            {"run_id": r.run_id, "granted": _count(r, "granted"), "used": _count(r, "used")}
            for r in sampled
            if _count(r, "used") < _count(r, "granted")
        ],
    }


def _count(record: RunRecord, key: str) -> int:
    return int((record.gpu_usage or {}).get(key) or 0)


def gpu_line(section: dict[str, Any] | None) -> str | None:
    """``GPUs: 3 run(s) granted 6, used 3; idle GPUs in: a-s0 (granted 2, used 1), …``."""
    if section is None:
        return None
    line = f"GPUs: {section['runs']} run(s) granted {section['granted']}, used {section['used']}"
    unsampled = section["runs"] - section["sampled"]
    if unsampled:
        line += f" ({unsampled} run(s) not sampled: no GPU sampler on the host)"
    idle = section["idle_runs"]
    if idle:
        shown = ", ".join(
            f"{run['run_id']} (granted {run['granted']}, used {run['used']})"
            for run in idle[:SHOWN_RUNS]
        )
        more = f" and {len(idle) - SHOWN_RUNS} more" if len(idle) > SHOWN_RUNS else ""
        line += f"; idle GPUs in: {shown}{more}"
    return line
