"""Leaderboard percentiles in the summary: per run, per competition, per group (mean ± SEM)."""

from __future__ import annotations

from typing import Any

import pytest

from pytest_mlebench.records.run_record import RunRecord
from pytest_mlebench.report.merge import merge_records
from pytest_mlebench.report.percentiles import PercentileBasis
from pytest_mlebench.report.summary_json import build_summary
from tests.report.builders import record


def summary(records: list[RunRecord]) -> dict[str, Any]:
    return build_summary(merge_records(records))


RUNS = [
    record("alpha", 0, 0.95, percentile=90.0),
    record("alpha", 1, 0.75, percentile=70.0),
    record("beta", 0, 0.6, percentile=40.0, modality="text", complexity="high"),
    record("beta", 1, None, outcome="failed", modality="text", complexity="high"),  # invalid: 0
]


def test_runs_competitions_and_groups_carry_the_percentile() -> None:
    built = summary(RUNS)
    alpha, beta = built["competitions"]
    assert [run["percentile"] for run in alpha["runs"]] == [90.0, 70.0]
    assert [run["percentile"] for run in beta["runs"]] == [40.0, None]  # as graded
    assert alpha["mean_percentile"] == 80.0
    assert beta["mean_percentile"] == 20.0  # the invalid run counts as 0
    overall = built["agents"]["dummy"]["overall"]["percentile"]
    # per seed: seed 0 (90 + 40) / 2 = 65, seed 1 (70 + 0) / 2 = 35 -> 50 ± 15
    assert overall["per_seed"] == {"0": 65.0, "1": 35.0}
    assert overall["mean"] == 50.0 and overall["sem"] == pytest.approx(15.0)
    assert overall["ci95"] == pytest.approx([50 - 1.96 * 15, 50 + 1.96 * 15])
    assert (overall["n"], overall["runs"]) == (2, 4)


def test_modality_groups_sit_beside_splits_and_complexity() -> None:
    section = summary(RUNS)["agents"]["dummy"]
    assert set(section["modality"]) == {"tabular", "text"}
    assert section["modality"]["text"]["percentile"]["per_seed"] == {"0": 40.0, "1": 0.0}
    assert section["complexity"]["high"]["percentile"]["mean"] == 20.0
    assert section["modality"]["tabular"]["metrics"]["any_medal"]["mean"] == 100.0


def test_an_agent_error_counts_as_zero_an_infra_error_not_at_all() -> None:
    runs = [
        record("alpha", 0, 0.9, percentile=80.0),
        record("alpha", 1, outcome="error", graded=False, failure_class="agent_crash"),
        record("alpha", 2, outcome="error", graded=False),  # infra: the harness broke
    ]
    assert summary(runs)["competitions"][0]["mean_percentile"] == 40.0


def test_a_competition_whose_every_run_failed_counts_when_others_have_percentiles() -> None:
    runs = [record("alpha", 0, 0.9, percentile=80.0), record("beta", 0, None, outcome="failed")]
    built = summary(runs)
    assert built["competitions"][1]["mean_percentile"] == 0.0
    assert built["agents"]["dummy"]["overall"]["percentile"]["mean"] == 40.0


def test_records_without_percentiles_have_none_never_a_false_zero() -> None:
    # records of version 1: valid grades without a percentile, plus an invalid one
    runs = [record("alpha", 0, 0.9), record("beta", 0, None, outcome="failed")]
    built = summary(runs)
    percentile = built["agents"]["dummy"]["overall"]["percentile"]
    assert (percentile["mean"], percentile["runs"], percentile["per_seed"]) == (None, 0, {})
    assert [c["mean_percentile"] for c in built["competitions"]] == [None, None]
    assert not PercentileBasis.of(runs).known


def test_skipped_runs_and_competitions_without_a_leaderboard_do_not_count() -> None:
    basis = PercentileBasis(known=True, boards=frozenset({"alpha"}))
    assert basis.counted(record("alpha", 0, outcome="skipped")) is None
    assert basis.counted(record("gamma", 0, None, outcome="failed")) is None  # no board
    assert basis.counted(record("alpha", 0, None, outcome="failed")) == 0.0
