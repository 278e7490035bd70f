"""``H-cpu`` and ``H-memory``: the oracle-like run scores 1, the grant's end 0, and a backend
that measured nothing leaves the check unscored with the reason in its evidence."""

from __future__ import annotations

import pytest

from pytest_mlebench.eng.evidence_usage import cpu_check, memory_bytes, memory_check
from pytest_mlebench.eng.scoring import CheckResult, score_checks
from pytest_mlebench.eng.task_checks import DEFAULT_WEIGHTS

MIB = 1024**2


def test_cpu_time_is_scaled_from_the_oracle_to_the_grant() -> None:
    oracle_like = cpu_check(used=6.0, cpus=2, time_limit=1800, oracle_wall_s=5)
    assert oracle_like.result == 1.0  # within 2 CPUs × the oracle's 5 s
    half = cpu_check(used=1805.0, cpus=2, time_limit=1800, oracle_wall_s=5)
    assert half.result == pytest.approx(0.5)
    assert cpu_check(used=3600.0, cpus=2, time_limit=1800, oracle_wall_s=5).result == 0.0
    assert "1805.0 s of 3600 s" in half.evidence and half.dimension == "efficiency"
    assert half.gate is False and half.weight == 1.0


def test_a_declared_oracle_cpu_time_sets_the_full_marks_end() -> None:
    check = cpu_check(used=30.0, cpus=1, time_limit=100, oracle_wall_s=50, oracle_cpu_s=10)
    assert check.result == pytest.approx(70 / 90)


@pytest.mark.parametrize(
    ("used", "cpus", "reason"),
    [(None, 2.0, "measured no CPU time"), (5.0, None, "no CPU grant")],
)
def test_unmeasured_cpu_time_is_not_scored(
    used: float | None, cpus: float | None, reason: str
) -> None:
    check = cpu_check(used=used, cpus=cpus, time_limit=1800, oracle_wall_s=5)
    assert check.weight == 0.0 and check.result == 1.0
    assert check.evidence.startswith("not scored:") and reason in check.evidence


def test_peak_memory_has_full_marks_well_inside_the_grant() -> None:
    assert memory_check(600 * MIB, "2g").result == 1.0  # the default: up to 75 % of the grant
    assert memory_check(1792 * MIB, "2g").result == pytest.approx(0.5)
    full = memory_check(2048 * MIB, "2g")
    assert full.result == 0.0 and "2048 MiB of a 2048 MiB grant" in full.evidence


def test_a_declared_oracle_peak_sets_the_full_marks_end() -> None:
    assert memory_check(256 * MIB, "1g", oracle_peak_mb=256).result == 1.0
    assert memory_check(640 * MIB, "1g", oracle_peak_mb=256).result == pytest.approx(0.5)


def test_unmeasured_memory_or_no_grant_is_not_scored() -> None:
    assert "measured no peak memory" in memory_check(None, "2g").evidence
    no_grant = memory_check(100 * MIB, None)
    assert no_grant.weight == 0.0 and "no memory grant" in no_grant.evidence
    assert memory_check(100 * MIB, "lots").weight == 0.0


def test_memory_sizes_use_docker_units() -> None:
    assert memory_bytes("2g") == 2 * 1024**3 and memory_bytes("512m") == 512 * MIB
    assert memory_bytes("a lot") is None


def test_an_unscored_check_leaves_the_dimension_score_alone() -> None:
    wall = CheckResult("H-wall", "efficiency", 1.0, False, 0.5)
    unscored = cpu_check(used=None, cpus=2, time_limit=10, oracle_wall_s=1)
    score = score_checks([wall, unscored], DEFAULT_WEIGHTS)
    assert score.dimensions["efficiency"] == 0.5
