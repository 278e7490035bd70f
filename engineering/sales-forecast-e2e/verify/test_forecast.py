"""The forecast itself: the deliverable, its skill on the hidden week, its runs by the verifier."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from conftest import (
    KEYS,
    aligned,
    read_forecast,
    same_keys,
    seasonal_naive,
    skill,
    thinner_history,
    wape,
)

MIN_SKILL = 0.02  # "beats seasonal naive": by more than noise-level ties
WALL_LIMIT_S = 60


@pytest.mark.check("P1")
def test_submitted_forecast_has_every_key(work, calendar, evidence) -> None:  # type: ignore[no-untyped-def]
    """forecast.csv: one finite, non-negative value per (date, store, item) of calendar.csv."""
    table = read_forecast(work / "forecast.csv")
    assert table is not None, "forecast.csv is missing or lacks date, store, item, forecast"
    problem = same_keys(calendar, table)
    evidence(f"{len(table)} rows, {problem or 'keys match calendar.csv'}")
    assert problem is None, problem


@pytest.mark.check("F2")
def test_submitted_forecast_is_forecast_py_output(work, runs, evidence) -> None:  # type: ignore[no-untyped-def]
    """The deliverable must be what forecast.py produces, not an edited or stale file."""
    submitted = read_forecast(work / "forecast.csv")
    assert submitted is not None, "forecast.csv is missing"
    rerun = aligned(submitted, runs["main"].require())["forecast"].to_numpy(float)
    given = pd.to_numeric(submitted["forecast"], errors="coerce").to_numpy(float)
    delta = float(np.nanmax(np.abs(rerun - given))) if len(given) else np.inf
    evidence(f"max |submitted - rerun| {delta:.2e}")
    assert np.isfinite(rerun).all() and delta <= 1e-3


@pytest.mark.check("P3")
def test_closed_days_forecast_zero(runs, calendar, evidence) -> None:  # type: ignore[no-untyped-def]
    table = aligned(calendar, runs["main"].require())
    closed = table[calendar["open"].to_numpy() == 0]
    evidence(f"{len(closed)} closed rows, forecasts {closed['forecast'].round(3).tolist()}")
    assert len(closed) and np.allclose(closed["forecast"].to_numpy(float), 0)


@pytest.mark.check("M1")
def test_skill_on_hidden_week(runs, truth, baseline_wape, metric, evidence) -> None:  # type: ignore[no-untyped-def]
    value = skill(runs["main"].require(), truth, baseline_wape)
    evidence(f"skill {value:.3f} (seasonal-naive WAPE {baseline_wape:.3f})")
    metric("M1", value)


@pytest.mark.check("M1G")
def test_beats_seasonal_naive(runs, truth, baseline_wape, evidence) -> None:  # type: ignore[no-untyped-def]
    forecast = runs["main"].require()
    model = wape(
        truth["sales"].to_numpy(float),
        aligned(truth, forecast)["forecast"].fillna(0).to_numpy(float),
    )
    evidence(f"WAPE {model:.3f} vs seasonal naive {baseline_wape:.3f}")
    assert skill(forecast, truth, baseline_wape) > MIN_SKILL


@pytest.mark.check("M2")
def test_run_time(runs, metric, evidence) -> None:  # type: ignore[no-untyped-def]
    run = runs["main"]
    run.require()
    evidence(f"forecast.py took {run.wall_s:.2f} s")
    metric("M2", min(run.wall_s, WALL_LIMIT_S))


@pytest.mark.check("M3")
def test_two_runs_identical(runs, evidence) -> None:  # type: ignore[no-untyped-def]
    first, second = (
        runs[name].require().sort_values(KEYS).reset_index(drop=True) for name in ("main", "again")
    )
    same = first.equals(second)
    evidence("identical" if same else "the two runs differ")
    assert same


@pytest.mark.check("F3")
def test_forecasts_the_calendar_it_is_given(runs, backtest_calendar, evidence) -> None:  # type: ignore[no-untyped-def]
    """On a history cut 7 days earlier, forecast.py must forecast those days, not a stored file."""
    problem = same_keys(backtest_calendar, runs["backtest"].require())
    evidence(problem or "backtest keys match")
    assert problem is None, problem


@pytest.mark.check("R1")
def test_no_peeking(history, calendar, runs, evidence) -> None:  # type: ignore[no-untyped-def]
    """Rows after the last recorded day with empty sales must change no forecast."""
    base = aligned(calendar, runs["main"].require())["forecast"].to_numpy(float)
    moved = aligned(calendar, runs["padded"].require())["forecast"].to_numpy(float)
    delta = float(np.max(np.abs(base - moved))) if np.isfinite(moved).all() else np.inf
    evidence(f"max |Δ| {delta:.2e} with {2 * len(calendar)} future rows without sales")
    assert delta <= 1e-6


@pytest.mark.check("R2")
def test_missing_days(history, calendar, truth, runs, evidence) -> None:  # type: ignore[no-untyped-def]
    """More missing days (one store's whole last week, three scattered dates): still a complete
    forecast, and not much worse."""
    thinner = runs["thinner"].require()
    problem = same_keys(calendar, thinner)
    assert problem is None, problem
    actual = truth["sales"].to_numpy(float)
    full = wape(actual, aligned(truth, runs["main"].require())["forecast"].to_numpy(float))
    less = wape(actual, aligned(truth, thinner)["forecast"].to_numpy(float))
    gone = len(history) - len(thinner_history(history))
    evidence(f"WAPE {less:.3f} with {gone} more rows missing (full history {full:.3f})")
    assert less <= 1.25 * full + 0.01


@pytest.mark.check("X1")
def test_reported_backtest(report, runs, backtest_split, evidence) -> None:  # type: ignore[no-untyped-def]
    """report.json's backtest WAPEs must be what forecast.py and the seasonal naive give."""
    past, held = backtest_split
    actual = held["sales"].to_numpy(float)
    model = wape(actual, aligned(held, runs["backtest"].require())["forecast"].to_numpy(float))
    naive = wape(actual, seasonal_naive(past, held))
    given = report.get("backtest", {})
    evidence(f"reported {given}, measured wape {model:.4f}, seasonal naive {naive:.4f}")
    assert abs(float(given["wape"]) - model) <= 0.01
    assert abs(float(given["seasonal_naive_wape"]) - naive) <= 0.01
