"""The resource checks of every engineering run: CPU time and peak memory, as the harness measured
them (the container's cgroup in Docker, ``getrusage`` of the agent's processes on the local
backend), so the agent cannot report its own.

- ``H-cpu`` (efficiency): ``clip((limit - used) / (limit - oracle), 0, 1)`` with
  ``limit = cpus × time limit`` (CPU seconds the grant allows) and ``oracle`` the oracle's CPU
  seconds: the task's ``oracle_cpu_s`` when known, else ``cpus × oracle_wall_s`` (the most the
  oracle can have used in its wall time), else 0;
- ``H-memory`` (efficiency): ``clip((grant - peak) / (grant - oracle), 0, 1)`` with ``oracle``
  the oracle's peak when known, else :data:`FREE_MEMORY_SHARE` of the grant: a run that stays
  well inside its grant gets full marks; one that fills it gets 0.

Either is :func:`~.evidence.omitted` (weight 0) when the backend measured nothing or no limit
was set to compare with. Pure functions.
"""

from __future__ import annotations

from pytest_mlebench.eng.evidence import omitted, share_left
from pytest_mlebench.eng.scoring import CheckResult
from pytest_mlebench.errors import SandboxError
from pytest_mlebench.sandbox.memory_sizes import size_in_bytes

FREE_MEMORY_SHARE = 0.75
MIB = 1024**2
CPU_WHY = "the harness counts the CPU seconds the agent's processes used, against the grant"
MEMORY_WHY = "the harness reads the sandbox's peak memory, against the memory it was granted"


def cpu_check(
    used: float | None,
    cpus: float | None,
    time_limit: float,
    oracle_wall_s: float | None,
    oracle_cpu_s: float | None = None,
) -> CheckResult:
    """``H-cpu``: the agent's CPU seconds between the oracle's (1) and the grant's (0)."""
    if used is None:
        return omitted("H-cpu", "efficiency", "this backend measured no CPU time", CPU_WHY)
    if not cpus or time_limit <= 0:
        return omitted("H-cpu", "efficiency", "no CPU grant to compare with", CPU_WHY)
    limit = cpus * time_limit
    oracle = oracle_cpu_s if oracle_cpu_s is not None else cpus * (oracle_wall_s or 0.0)
    result, reference = share_left(used, limit, oracle)
    return CheckResult(
        id="H-cpu",
        dimension="efficiency",
        weight=1.0,
        gate=False,
        result=result,
        evidence=(
            f"agent CPU time {used:.1f} s of {limit:.0f} s ({cpus:g} CPUs × {time_limit:.0f} s; "
            f"oracle {reference:.1f} s)"
        ),
        why=CPU_WHY,
        fix_hint="avoid busy loops and repeated work: cache results, train or test only once",
    )


def memory_check(
    peak_bytes: int | None, memory: str | None, oracle_peak_mb: float | None = None
) -> CheckResult:
    """``H-memory``: the sandbox's peak memory between the oracle's (1) and the grant (0)."""
    grant = memory_bytes(memory) if memory else None
    if peak_bytes is None:
        return omitted("H-memory", "efficiency", "this backend measured no peak memory", MEMORY_WHY)
    if not grant:
        return omitted("H-memory", "efficiency", "no memory grant to compare with", MEMORY_WHY)
    free = grant * FREE_MEMORY_SHARE
    oracle = oracle_peak_mb * MIB if oracle_peak_mb is not None else free
    result, reference = share_left(peak_bytes, grant, oracle)
    return CheckResult(
        id="H-memory",
        dimension="efficiency",
        weight=1.0,
        gate=False,
        result=result,
        evidence=(
            f"peak memory {peak_bytes / MIB:.0f} MiB of a {grant / MIB:.0f} MiB grant "
            f"(full marks up to {reference / MIB:.0f} MiB)"
        ),
        why=MEMORY_WHY,
        fix_hint="stream or batch the data instead of loading it all; free what you no longer use",
    )


def memory_bytes(size: str) -> int | None:
    """``2g`` → bytes (Docker's units, as the grant is given); ``None`` when it cannot be read."""
    try:
        return size_in_bytes(size)
    except SandboxError:
        return None
